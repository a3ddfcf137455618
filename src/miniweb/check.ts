/**
 * Whether a MiniWeb server can give an episode's evidence, checked before anything is spent: its database file is
 * MiniWeb's and is the one the server writes (a probe session appears in its `sessions` table), the request log of
 * one session is whole (a server with several worker processes keeps a log per process: probe requests on fresh
 * connections land on different workers and some are missing from the log), payment codes can be turned off when
 * asked, and a session resets.
 * @module
 */
import { request } from 'node:http';
import { request as requestTls } from 'node:https';
import { disableCodes, entriesOf, newSession, resetSession, type AdminClient, type MiniwebSession } from './admin';
import { MINIWEB_COOKIE } from './cookie';
import type { SqliteReader } from './sqlite';

/** A server that cannot give the evidence: what is wrong and what to do. */
export class MiniwebUnfitError extends Error {
  /** Always `MiniwebUnfitError`. */
  override readonly name = 'MiniwebUnfitError';
  constructor(
    message: string,
    /** What to do about it. */
    readonly hint: string,
  ) {
    super(`${message} (${hint})`);
  }
}

const TABLES = ['site_registry', 'session_overlay', 'session_collection_replaced', 'sessions'];
const PROBES = 6;

/** Checks the server and its database (see the module notes); resolves with what was found, or throws {@link MiniwebUnfitError}. */
export async function checkMiniweb(
  client: AdminClient,
  db: SqliteReader,
  options: { readonly sites: readonly string[]; readonly login?: { username: string; password: string } },
): Promise<string> {
  const present = new Set(db.all(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${TABLES.map(() => '?').join(', ')})`, TABLES).map((r) => String(r.name)));
  const missing = TABLES.filter((t) => !present.has(t));
  if (missing.length) throw new MiniwebUnfitError(`the database has no ${missing.join(', ')} table`, 'give the SQLite file the MiniWeb server runs on (its MINIWEB_DB)');
  const site = options.sites[0] ?? 'forums';
  const collections = Number(db.get('SELECT COUNT(*) AS n FROM site_registry')?.n ?? 0);
  const session = await newSession(client, site);
  try {
    if (!db.get('SELECT 1 AS ok FROM sessions WHERE session_id = ?', [session.sid])) {
      throw new MiniwebUnfitError(`the server's new session ${session.sid} is not in this database`, 'give the SQLite file this server writes (its MINIWEB_DB), not a copy');
    }
    const path = `/sites/${encodeURIComponent(site)}/_taskgen_probe_`;
    for (let i = 0; i < PROBES; i++) await probe(client, session, path);
    const seen = (await entriesOf(client, session, '/_admin/log')).filter((e) => e.path === path).length;
    if (seen !== PROBES) {
      throw new MiniwebUnfitError(
        `the request log shows ${seen} of ${PROBES} requests of one session: the server runs several worker processes, each with its own log`,
        'run MiniWeb with one worker process (python run.py, or gunicorn -w 1)',
      );
    }
    if (options.login) await disableCodes(client, session, options.login);
  } finally {
    await resetSession(client, session).catch(() => {});
  }
  const left = Number(db.get('SELECT COUNT(*) AS n FROM session_overlay WHERE session_id = ?', [session.sid])?.n ?? 0);
  if (left) throw new MiniwebUnfitError(`a reset left ${left} data changes of the probe session`, 'check that /_reset_data is MiniWeb\'s');
  return `MiniWeb at ${client.root}: one request log, ${collections} collections in the database, sessions reset${options.login ? ', payment codes off' : ''}`;
}

// One GET on a connection of its own, so that a server with several workers may hand it to any of them.
function probe(client: AdminClient, session: MiniwebSession, path: string): Promise<void> {
  const url = new URL(path, client.root);
  const send = url.protocol === 'https:' ? requestTls : request;
  return new Promise((resolve, reject) => {
    const req = send(url, { method: 'GET', agent: false, headers: { cookie: `${MINIWEB_COOKIE}=${session.cookie}`, connection: 'close' }, timeout: client.timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve());
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${path} timed out`)));
    req.on('error', reject);
    req.end();
  });
}
