/**
 * The sandbox as MiniWeb speaks (`../shared/docs/MINIWEB.md` of the project): a signed `session` cookie in Flask's
 * format whose payload names the session's data (`_data_overlay_sid`), and a SQLite file laid out as MiniWeb's
 * database: each site's tables as base tables registered in `site_registry`, and every session's writes as rows of
 * `session_overlay` (one per item, its last state). The sandbox keeps its own data engine (a copy of the site's
 * data per session, changes recorded by triggers); this file is that data as MiniWeb's evidence reader reads it, so
 * the provider a MiniWeb user runs is the one every sandbox run uses.
 * @module
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { Change } from 'miniweb-taskgen';
import { openCopy } from './database';
import { Sqlite } from './peers';
import type { SiteRuntime } from './catalog';

/** The cookie MiniWeb (Flask) keeps its session in. */
export const MINIWEB_SESSION_COOKIE = 'session';

const b64 = (b: Buffer | string): string => Buffer.from(b).toString('base64url');

/** Signs a session cookie value (`payload.timestamp.signature`) naming the sandbox session `sid`. */
export function sessionCookieValue(sid: string, key: Buffer): string {
  const payload = b64(JSON.stringify({ _data_overlay_sid: sid }));
  const stamp = Buffer.alloc(4);
  stamp.writeUInt32BE(Math.floor(Date.now() / 1000));
  const signed = `${payload}.${b64(stamp)}`;
  return `${signed}.${b64(createHmac('sha1', key).update(signed).digest())}`;
}

/** The session a signed cookie value names; `null` for a value not signed with `key` or not naming one. */
export function sessionOfCookie(value: string, key: Buffer): string | null {
  const parts = value.split('.');
  if (parts.length !== 3) return null;
  const want = createHmac('sha1', key).update(`${parts[0]}.${parts[1]}`).digest();
  const got = Buffer.from(parts[2]!, 'base64url');
  if (got.length !== want.length || !timingSafeEqual(got, want)) return null;
  try {
    const sid = (JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as { _data_overlay_sid?: unknown })._data_overlay_sid;
    return typeof sid === 'string' && sid ? sid : null;
  } catch {
    return null;
  }
}

const SCHEMA = `
CREATE TABLE site_registry (site TEXT NOT NULL, collection TEXT NOT NULL, table_name TEXT NOT NULL, pk_column TEXT NOT NULL DEFAULT 'id', PRIMARY KEY (site, collection));
CREATE TABLE session_overlay (session_id TEXT NOT NULL, site TEXT NOT NULL, collection TEXT NOT NULL, item_id TEXT NOT NULL, op TEXT NOT NULL DEFAULT 'upsert', data TEXT, PRIMARY KEY (session_id, site, collection, item_id));
CREATE INDEX idx_overlay_session ON session_overlay (session_id);
CREATE TABLE session_collection_replaced (session_id TEXT NOT NULL, site TEXT NOT NULL, collection TEXT NOT NULL, PRIMARY KEY (session_id, site, collection));
CREATE TABLE sessions (session_id TEXT PRIMARY KEY, last_access TEXT NOT NULL);`;

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The sandbox's data laid out as MiniWeb's database (see the module notes), in a file of its own. */
export class OverlayFile {
  /** The file's path, for the evidence reader. */
  readonly path: string;
  private readonly db: Database.Database;
  private readonly dir: string;
  private readonly keys = new Map<string, Map<string, string>>();

  constructor() {
    this.dir = mkdtempSync(path.join(tmpdir(), 'sandbox-miniweb-'));
    this.path = path.join(this.dir, 'miniweb.db');
    this.db = new Sqlite(this.path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('foreign_keys = OFF'); // base tables keep their definitions, whose foreign keys name the site's own tables
    this.db.exec(SCHEMA);
  }

  /** Registers a site's tables as base tables (once), from its data snapshot. */
  register(site: SiteRuntime): void {
    const name = site.info.name;
    if (this.keys.has(name)) return;
    const copy = openCopy(site.snapshot, { readonly: true });
    const keys = new Map<string, string>();
    try {
      const tables = copy.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_%' ESCAPE '\\' ORDER BY name").all() as Array<{ name: string; sql: string }>;
      const load = this.db.transaction(() => {
        for (const t of tables) {
          const cols = copy.prepare(`PRAGMA table_info(${quote(t.name)})`).all() as Array<{ name: string; pk: number }>;
          const pk = cols.find((c) => c.pk === 1)?.name ?? 'rowid';
          const base = `${name}__${t.name}`;
          // The table's own definition under its base name (its foreign keys name other tables: never enforced here).
          const def = t.sql.replace(/^CREATE TABLE\s+("?)[^\s(]+\1/i, `CREATE TABLE ${quote(base)}`);
          this.db.exec(def);
          const rows = copy.prepare(`SELECT * FROM ${quote(t.name)} ORDER BY rowid`).all() as Array<Record<string, unknown>>;
          if (rows.length) {
            const names = Object.keys(rows[0]!);
            const insert = this.db.prepare(`INSERT INTO ${quote(base)} (${names.map(quote).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`);
            for (const r of rows) insert.run(...names.map((n) => r[n]));
          }
          this.db.prepare('INSERT INTO site_registry (site, collection, table_name, pk_column) VALUES (?, ?, ?, ?)').run(name, t.name, base, pk);
          keys.set(t.name, pk);
        }
      });
      load();
    } finally {
      copy.close();
    }
    this.keys.set(name, keys);
  }

  /** Notes a session as MiniWeb's `sessions` table does (its first touch of the data). */
  touch(sid: string): void {
    this.db.prepare('INSERT OR IGNORE INTO sessions (session_id, last_access) VALUES (?, ?)').run(sid, new Date().toISOString().slice(0, 19));
  }

  /** Writes a session's changes as overlay rows: each changed item's last state (`upsert`), or its `delete`. */
  write(sid: string, site: SiteRuntime, changes: readonly Change[]): void {
    if (!changes.length) return;
    this.register(site);
    const keys = this.keys.get(site.info.name)!;
    const upsert = this.db.prepare('INSERT OR REPLACE INTO session_overlay (session_id, site, collection, item_id, op, data) VALUES (?, ?, ?, ?, ?, ?)');
    this.db.transaction(() => {
      for (const c of changes) {
        const table = String(c.table);
        const row = (c.op === 'delete' ? c.before : c.after) as Record<string, unknown> | null;
        const pk = keys.get(table);
        if (!row || !pk || row[pk] === undefined) continue;
        // An update that moved the key leaves its old item deleted.
        const before = c.before as Record<string, unknown> | null;
        if (c.op === 'update' && before && String(before[pk]) !== String(row[pk])) upsert.run(sid, site.info.name, table, String(before[pk]), 'delete', null);
        upsert.run(sid, site.info.name, table, String(row[pk]), c.op === 'delete' ? 'delete' : 'upsert', c.op === 'delete' ? null : JSON.stringify(row));
      }
      this.touch(sid);
    })();
  }

  /** Drops a session's overlay rows (MiniWeb's `/_reset_data`). */
  reset(sid: string): void {
    this.db.prepare('DELETE FROM session_overlay WHERE session_id = ?').run(sid);
    this.db.prepare('DELETE FROM session_collection_replaced WHERE session_id = ?').run(sid);
    this.db.prepare('DELETE FROM sessions WHERE session_id = ?').run(sid);
  }

  /** Closes the file and removes it. */
  close(): void {
    this.db.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A fresh key for signing a server's cookies. */
export function cookieKey(): Buffer {
  return randomBytes(24);
}
