/**
 * Evidence from MiniWeb's own record: per episode a fresh MiniWeb session (its `session` cookie), the session's
 * request log from `/_admin/log`, its data changes from its `session_overlay` rows in the server's SQLite file (read
 * only; see overlay.ts), its recorder's stream (`/_admin/record`, `/_admin/beacon`), and the session reset
 * (`/_reset_data`) when the episode ends.
 *
 * What is recorded for state claims (`start_rows.json`): every table of the episode's site with at most
 * `startRowsLimit` rows, whole (counted once per provider, and only up to the limit: MiniWeb's base tables do not
 * change). A larger table is not recorded: a state claim on it is not checkable (it never holds), and a hand-written
 * verifier's state check reads it as the rows the session's changes left. Nothing reads a large table per episode.
 * @module
 */
import { InputError } from '../core/errors';
import { assertPlainName } from '../core/names';
import type { Consequence } from '../claims/schema';
import type { LogEntry } from '../core/schemas';
import type { EvidenceProvider, EvidenceSession, SessionEvidence } from '../attempt/types';
import { disableCodes, entriesOf, newSession, resetSession, type AdminClient, type MiniwebSession } from './admin';
import { MINIWEB_COOKIE } from './cookie';
import { CODE_SITES, EMAIL_PREFIX, VERIFY_PAYMENT_PATH, miniwebConsequences } from './consequences';
import { OverlayReader, plainRows } from './overlay';
import { openSqliteReader, type SqliteReader } from './sqlite';
import { checkMiniweb } from './check';

/** Options of {@link miniwebEvidence}. */
export interface MiniwebEvidenceOptions {
  /** MiniWeb's root URL, `http://127.0.0.1:8099` (its `/_admin/` routes). */
  readonly url: string;
  /** The server's SQLite file (`MINIWEB_DB`), read only. */
  readonly database: string;
  /**
   * Payments with a code: `"on"` (default) the sites as they are: a purchase goes through `/verify-payment` and the
   * code is mailed to `email`, both open to an episode on a site that pays so, the code mail a declared
   * consequence; `"off"`: each session is set up without codes through MiniWeb's annotator switch, with the
   * credentials in env `annotatorEnv` (`user:password`), and purchases go through at once.
   */
  readonly codes?: 'on' | 'off';
  /** The env variable holding the annotator's `user:password`, for `codes: "off"`. Default `MINIWEB_ANNOTATOR`. */
  readonly annotatorEnv?: string;
  /** Tables of at most this many rows are recorded whole as start rows. Default 5000. */
  readonly startRowsLimit?: number;
  /** The declared consequences of an episode on `site`. Default MiniWeb's own (consequences.ts). */
  readonly consequences?: (site: string) => readonly Consequence[] | Promise<readonly Consequence[]>;
  /** Each admin call's time limit in ms. Default 10 000. */
  readonly timeoutMs?: number;
  /** The fetch to use. Default the global fetch. */
  readonly fetch?: typeof globalThis.fetch;
}

/** The recorder routes a MiniWeb page posts to by itself: let through from the page, never shown to the agent. */
export const MINIWEB_RECORDER_PATHS: readonly string[] = Object.freeze(['/_admin/record', '/_admin/beacon']);

/**
 * An {@link EvidenceProvider} over MiniWeb's own record (see the module notes). The database is opened on first use
 * and closed by `close()`; one provider serves any number of parallel episodes, each in its own session.
 * @example
 * const evidence = miniwebEvidence({ url: 'http://127.0.0.1:8099', database: process.env.MINIWEB_DB! });
 * await runAttempt({ tasks, policy, evidence, baseUrl: 'http://127.0.0.1:8099', out: 'runs/a' });
 */
export function miniwebEvidence(options: MiniwebEvidenceOptions): EvidenceProvider & { close(): void } {
  const client: AdminClient = { root: checkUrl(options.url), fetch: options.fetch ?? globalThis.fetch, timeoutMs: options.timeoutMs ?? 10_000 };
  if (typeof options.database !== 'string' || !options.database) throw new InputError({ file: 'miniwebEvidence', field: 'database' }, 'the path of MiniWeb\'s SQLite file is required');
  const codes = options.codes ?? 'on';
  if (codes !== 'on' && codes !== 'off') throw new InputError({ file: 'miniwebEvidence', field: 'codes' }, `"on" or "off", got ${JSON.stringify(codes)}`);
  const login = codes === 'off' ? annotatorLogin(options.annotatorEnv ?? 'MINIWEB_ANNOTATOR') : null;
  const limit = options.startRowsLimit ?? 5000;
  let db: SqliteReader | null = null;
  let overlay: OverlayReader | null = null;
  const counts = new Map<string, number>();
  const open = () => {
    db ??= openSqliteReader(options.database);
    overlay ??= new OverlayReader(db);
    return { db, overlay };
  };
  const declared = options.consequences ?? ((site: string) => miniwebConsequences(site, { codes: codes === 'on' }));
  return {
    async check(input) {
      const { db: file } = open();
      return checkMiniweb(client, file, { sites: input.sites, ...(login ? { login } : {}) });
    },
    async open({ site, baseUrl }): Promise<EvidenceSession> {
      assertPlainName(site, 'site');
      const { db: file, overlay: reader } = open();
      const session = await newSession(client, site);
      if (login) await disableCodes(client, session, login);
      const order = new Map<string, number>();
      const small = () => smallTables(file, site, limit, counts);
      return {
        get cookies() {
          return [{ name: MINIWEB_COOKIE, value: session.cookie, url: (baseUrl || client.root).replace(/\/+$/, '') }];
        },
        reachable: codes === 'on' && CODE_SITES.includes(site) ? [VERIFY_PAYMENT_PATH, EMAIL_PREFIX] : [],
        pagePosts: MINIWEB_RECORDER_PATHS,
        collect: () => collect(client, session, reader, order),
        async startRows() {
          return Object.fromEntries(small().map(({ collection, table }) => [collection, plainRows(file.all(`SELECT * FROM "${table.replace(/"/g, '""')}"`))]));
        },
        consequences: async () => [...(await declared(site))],
        async close() {
          reader.forget(session.sid);
          await resetSession(client, session);
        },
      };
    },
    close() {
      db?.close();
      db = null;
      overlay = null;
    },
  };
}

/** The session's evidence: its log, its changes in the order first seen, its recorder's stream. */
async function collect(client: AdminClient, session: MiniwebSession, reader: OverlayReader, order: Map<string, number>): Promise<SessionEvidence> {
  const [entries, records, beacons] = await Promise.all([
    entriesOf(client, session, '/_admin/log'),
    entriesOf(client, session, '/_admin/record'),
    entriesOf(client, session, '/_admin/beacon'),
  ]);
  const keyed = reader.changes(session.sid);
  for (const { key } of keyed) if (!order.has(key)) order.set(key, order.size);
  keyed.sort((a, b) => order.get(a.key)! - order.get(b.key)!);
  return { log: entries.map(toLogEntry), changes: keyed.map((k) => k.change), record: { records, beacons } };
}

// MiniWeb's log entry in the seed's shape: `body` null when absent; the reply of an `/api/` call kept for the checks.
function toLogEntry(e: Record<string, unknown>): LogEntry {
  return {
    method: e.method,
    path: e.path,
    query: e.query ?? {},
    body: e.body ?? null,
    status: e.status,
    ...(e.response === undefined ? {} : { response: e.response }),
  };
}

interface SiteTable {
  readonly collection: string;
  readonly table: string;
}

// The site's collections of at most `limit` rows, counted once per provider.
function smallTables(db: SqliteReader, site: string, limit: number, counts: Map<string, number>): SiteTable[] {
  const whole: SiteTable[] = [];
  for (const r of db.all('SELECT collection, table_name FROM site_registry WHERE site = ? ORDER BY collection', [site])) {
    const t = { collection: String(r.collection), table: String(r.table_name) };
    let n = counts.get(t.table);
    if (n === undefined) {
      // A count stops at limit + 1 rows: a table of millions is not counted to its end.
      n = Number(db.get(`SELECT COUNT(*) AS n FROM (SELECT 1 FROM "${t.table.replace(/"/g, '""')}" LIMIT ?)`, [limit + 1])?.n ?? 0);
      counts.set(t.table, n);
    }
    if (n <= limit) whole.push(t);
  }
  return whole;
}

function annotatorLogin(env: string): { username: string; password: string } {
  const value = process.env[env];
  const i = value ? value.indexOf(':') : -1;
  if (!value || i <= 0) {
    throw new InputError({ file: 'miniwebEvidence', field: 'codes' }, `"off" needs MiniWeb annotator credentials as user:password in env ${env} (MiniWeb's MINIWEB_ANNOTATORS)`);
  }
  return { username: value.slice(0, i), password: value.slice(i + 1) };
}

function checkUrl(url: unknown): string {
  try {
    if (typeof url !== 'string') throw new Error('not a string');
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
    return u.origin;
  } catch (error) {
    throw new InputError({ file: 'miniwebEvidence', field: 'url' }, `MiniWeb's URL, such as http://127.0.0.1:8099: ${(error as Error).message}`);
  }
}

