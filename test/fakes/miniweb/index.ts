/**
 * A fake MiniWeb server for the tests: a Node HTTP server on 127.0.0.1 that speaks the public MiniWeb platform's
 * protocol (see `docs/MINIWEB.md` of the shared docs) with four tiny sites (`forums`, `banking`, `e-commerce`,
 * `email`): the signed `session` cookie, auto-login, the per-session data overlay in a real SQLite file, the
 * in-memory request log, the recorder's records and beacons, the admin routes and payments with a mailed code.
 * The library's harness drives Chromium against it, and its evidence provider reads its database and `/_admin/`
 * routes as it reads the real server's.
 * @module
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adminRoutes } from './admin';
import { createApp, type ServedRequest } from './app';
import { decodeSession, type SessionData } from './cookie';
import { MiniwebDb, type OverlayRow } from './db';
import { Router } from './http';
import { Events, verifyRoutes } from './payments';
import type { SiteModule } from './site';
import { banking } from './sites/banking';
import { ecommerce } from './sites/ecommerce';
import { email } from './sites/email';
import { forums } from './sites/forums';

export type { ServedRequest } from './app';
export type { SessionData } from './cookie';
export type { OverlayRow } from './db';
export type { LogEntry } from './stores';
export { decodeSession, signSession } from './cookie';

/** The fake's sites, in portal order. */
export const FAKE_SITES: readonly SiteModule[] = [banking, ecommerce, email, forums];

/** More rows for one base table (a large table for a benchmark of the evidence reader). */
export interface ExtraRows {
  /** A seeded base table, such as `forums_posts`. */
  readonly table: string;
  /** How many rows to add (inserted in one transaction). */
  readonly count: number;
}

/** How to start the fake. */
export interface FakeMiniwebOptions {
  /** Where the SQLite file goes (`miniweb.db`, replaced if there; the dir is made if missing); default a new temp dir, removed on close. */
  readonly dir?: string;
  /** Worker processes to simulate: 2 splits each session's in-memory log and recorder stores between two. Default 1. */
  readonly workers?: 1 | 2;
  /** Annotator logins for `/annotate/login`, `{name: password}`. Default `{minh: "miniweb"}`. */
  readonly annotators?: Readonly<Record<string, string>>;
  /** Rows to add to base tables after seeding. Default none (every table holds a few rows). */
  readonly extraRows?: ExtraRows | readonly ExtraRows[];
  /** The key that signs cookies. Default a fixed test key. */
  readonly secretKey?: string;
  /** Log visitors in as user 1 on every site (MiniWeb's default). Default true. */
  readonly autologin?: boolean;
}

/** A running fake MiniWeb. */
export interface FakeMiniweb {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The SQLite file's path. */
  readonly database: string;
  /** Every request the server answered, in order. */
  readonly requests: readonly ServedRequest[];
  /** Stops the server, closes the database and removes the temp dir it made. */
  close(): Promise<void>;
  /** The `session_overlay` rows of a session, ordered by site, collection and item id. */
  overlayRows(sid: string): OverlayRow[];
  /** The session dict a `session` cookie value carries (signature not checked); `null` when it is not one. */
  sessionOf(cookieValue: string): SessionData | null;
}

function seed(db: MiniwebDb, extra: FakeMiniwebOptions['extraRows']): void {
  for (const site of FAKE_SITES) db.seed(site.id, site.tables);
  for (const { table, count } of extra === undefined ? [] : Array.isArray(extra) ? extra : [extra as ExtraRows]) {
    const spec = FAKE_SITES.flatMap((s) => s.tables).find((t) => t.table === table);
    if (!spec) throw new Error(`fake MiniWeb: extraRows names table ${JSON.stringify(table)}, which no site seeds`);
    db.seedExtra(spec, count);
  }
}

/** Starts a fake MiniWeb on 127.0.0.1, on a free port, with a freshly seeded database. */
export async function startFakeMiniweb(options: FakeMiniwebOptions = {}): Promise<FakeMiniweb> {
  const ownDir = options.dir === undefined;
  const dir = options.dir ?? (await mkdtemp(path.join(tmpdir(), 'fake-miniweb-')));
  await mkdir(dir, { recursive: true });
  const database = path.join(dir, 'miniweb.db');
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${database}${suffix}`, { force: true });
  const db = new MiniwebDb(database);
  try {
    seed(db, options.extraRows);
    db.ready();
  } catch (error) {
    db.close();
    if (ownDir) await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const events = new Events();
  const router = new Router()
    .add(adminRoutes({ sites: FAKE_SITES, annotators: options.annotators ?? { minh: 'miniweb' } }))
    .add(verifyRoutes(events));
  for (const site of FAKE_SITES) router.add(site.install(events));
  const app = createApp({ db, router, secret: options.secretKey ?? 'fake-miniweb-test-key', workers: options.workers ?? 1, autologin: options.autologin ?? true });
  const server = createServer((req, res) => {
    app.handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    database,
    requests: app.requests,
    overlayRows: (sid) => db.overlayRows(sid),
    sessionOf: decodeSession,
    close: () =>
      (closed ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        db.close();
        if (ownDir) await rm(dir, { recursive: true, force: true });
      })()),
  };
}
