/**
 * The fake MiniWeb's SQLite file, laid out as MiniWeb's `app/db.py` lays it out: `site_registry`, per-site base
 * tables that never change after seeding, and every session write in `session_overlay` (one row per item, its last
 * state), `session_collection_replaced` and `sessions`; `event_log` for cross-site events. Reads merge base and
 * overlay as `db.query` and `db.get_item` do; base rows come back with their JSON text columns parsed.
 * @module
 */
import Database from 'better-sqlite3';
import { FLOAT_KEYS, localStamp, pyDumps, pyDumpsAscii, pyStr } from './pyjson';

/** A row as the sites see it: column (or JSON field) to value. */
export type Row = Record<string, unknown>;

/** A base table of one site's collection, with the rows it is seeded with. */
export interface TableSpec {
  /** The collection name the site uses (`posts`). */
  readonly collection: string;
  /** The SQL table (`forums_posts`). */
  readonly table: string;
  /** The key column, `id` unless said. */
  readonly pk?: string;
  /** `[name, SQL type]`, in order (`REAL` columns are Python floats). */
  readonly columns: readonly (readonly [string, string])[];
  /** Indexed columns. */
  readonly indexes?: readonly string[];
  /** The seeded rows; lists and objects are stored as JSON text. */
  readonly rows: readonly Row[];
  /** Makes the `i`-th extra row for a large table (option `extraRows`); default: the first row with a new key. */
  readonly extraRow?: (i: number) => Row;
}

/** One row of `session_overlay`. */
export interface OverlayRow {
  readonly session_id: string;
  readonly site: string;
  readonly collection: string;
  readonly item_id: string;
  readonly op: 'upsert' | 'delete';
  readonly data: string | null;
}

/** Options of {@link MiniwebDb.query}, as `db.query`'s keywords. */
export interface QueryOptions {
  /** Equality filters (`3` matches `"3"`). */
  readonly where?: Row;
  /** A column, `-` first for descending. */
  readonly sort?: string;
  readonly limit?: number;
  readonly offset?: number;
}

const INFRA = `
CREATE TABLE IF NOT EXISTS site_registry (site TEXT NOT NULL, collection TEXT NOT NULL, table_name TEXT NOT NULL,
  pk_column TEXT NOT NULL DEFAULT 'id', PRIMARY KEY (site, collection));
CREATE TABLE IF NOT EXISTS session_overlay (session_id TEXT NOT NULL, site TEXT NOT NULL, collection TEXT NOT NULL,
  item_id TEXT NOT NULL, op TEXT NOT NULL DEFAULT 'upsert', data TEXT, PRIMARY KEY (session_id, site, collection, item_id));
CREATE TABLE IF NOT EXISTS session_collection_replaced (session_id TEXT NOT NULL, site TEXT NOT NULL,
  collection TEXT NOT NULL, PRIMARY KEY (session_id, site, collection));
CREATE TABLE IF NOT EXISTS sessions (session_id TEXT PRIMARY KEY, last_access TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS idx_overlay_session ON session_overlay (session_id);
CREATE INDEX IF NOT EXISTS idx_overlay_site_coll ON session_overlay (site, collection, session_id);
CREATE TABLE IF NOT EXISTS event_log (id INTEGER PRIMARY KEY AUTOINCREMENT, timestamp TEXT NOT NULL,
  session_id TEXT NOT NULL, event_type TEXT NOT NULL, source_site TEXT NOT NULL DEFAULT '',
  payload TEXT NOT NULL DEFAULT '{}', handlers_called INTEGER NOT NULL DEFAULT 0, errors TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS idx_event_log_type ON event_log (event_type);
CREATE INDEX IF NOT EXISTS idx_event_log_session ON event_log (session_id);
`;

const q = (name: string): string => `[${name}]`;

/** A text value that holds a JSON list or object, parsed, as `_deserialize_row` does. */
export function deserializeRow(row: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) {
    out[k] = v;
    if (typeof v === 'string' && v.length >= 2 && ((v[0] === '[' && v.endsWith(']')) || (v[0] === '{' && v.endsWith('}')))) {
      try {
        out[k] = JSON.parse(v);
      } catch {
        // not JSON after all: MiniWeb keeps the text
      }
    }
  }
  return out;
}

/** `_apply_filters`: equal values, or equal as Python's `str()`. */
function matches(item: Row, where: Row | undefined): boolean {
  if (!where) return true;
  return Object.entries(where).every(([k, v]) => item[k] === v || pyStr(item[k]) === pyStr(v));
}

/** `_apply_sort`: by one column, missing values last (first when descending), stable. */
function sortRows(items: Row[], sort: string | undefined): Row[] {
  if (!sort || !items.length) return items;
  const desc = sort.startsWith('-');
  const col = sort.replace(/^-+/, '');
  const cmp = (a: Row, b: Row): number => {
    const x = a[col] ?? null;
    const y = b[col] ?? null;
    if (x === null || y === null) return (x === null ? 1 : 0) - (y === null ? 1 : 0);
    return x < y ? -1 : x > y ? 1 : 0;
  };
  return [...items].sort(desc ? (a, b) => cmp(b, a) : cmp);
}

/** The database: its infrastructure, the seeded sites, and `db.py`'s calls for one session id at a time. */
export class MiniwebDb {
  /** The open connection (better-sqlite3), WAL mode as MiniWeb's. */
  readonly sql: Database.Database;
  private readonly registry = new Map<string, { table: string; pk: string; floats: Set<string> }>();

  private readonly pendingIndexes: string[] = [];

  /** Opens a new file for seeding (no journal until {@link MiniwebDb.ready}: a half-seeded file is thrown away). */
  constructor(readonly file: string) {
    this.sql = new Database(file);
    this.sql.pragma('journal_mode = OFF');
    this.sql.pragma('synchronous = OFF');
    this.sql.exec(INFRA);
  }

  /** After seeding: builds the base tables' indexes and serves in WAL mode, as MiniWeb's connections do. */
  ready(): void {
    for (const sql of this.pendingIndexes.splice(0)) this.sql.exec(sql);
    this.sql.pragma('journal_mode = WAL');
    this.sql.pragma('synchronous = NORMAL');
  }

  /** Creates, registers and seeds a site's base tables (once, at start; indexes come with {@link MiniwebDb.ready}). */
  seed(site: string, tables: readonly TableSpec[]): void {
    this.sql.transaction(() => {
      for (const t of tables) {
        const pk = t.pk ?? 'id';
        const cols = t.columns.map(([n, type]) => `${q(n)} ${type}`).join(', ');
        this.sql.exec(`CREATE TABLE IF NOT EXISTS ${q(t.table)} (${cols})`);
        for (const c of t.indexes ?? []) this.pendingIndexes.push(`CREATE INDEX IF NOT EXISTS ${q(`idx_${t.table}_${c}`)} ON ${q(t.table)} (${q(c)})`);
        this.sql.prepare('INSERT OR REPLACE INTO site_registry (site, collection, table_name, pk_column) VALUES (?, ?, ?, ?)').run(site, t.collection, t.table, pk);
        const floats = new Set([...FLOAT_KEYS, ...t.columns.filter(([, type]) => /^REAL/i.test(type)).map(([n]) => n)]);
        this.registry.set(`${site}/${t.collection}`, { table: t.table, pk, floats });
        this.insertRows(t, t.rows);
      }
    })();
  }

  /** Inserts `count` more rows into a seeded table in one transaction (a large base table for a benchmark). */
  seedExtra(t: TableSpec, count: number): void {
    const pk = t.pk ?? 'id';
    const template = t.rows[0] ?? {};
    const make = t.extraRow ?? ((i: number): Row => ({ ...template, [pk]: typeof template[pk] === 'number' ? 1_000_000 + i : `extra_${i}` }));
    const insert = this.insertStatement(t);
    const names = t.columns.map(([n]) => n);
    this.sql.transaction(() => {
      for (let i = 0; i < count; i++) {
        const row = make(i);
        insert.run(names.map((n) => storable(row[n])));
      }
    })();
  }

  private insertStatement(t: TableSpec): Database.Statement {
    const names = t.columns.map(([n]) => n);
    return this.sql.prepare(`INSERT OR REPLACE INTO ${q(t.table)} (${names.map(q).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`);
  }

  private insertRows(t: TableSpec, rows: readonly Row[]): void {
    const insert = this.insertStatement(t);
    for (const row of rows) insert.run(t.columns.map(([n]) => storable(row[n])));
  }

  /** The base table and key column of a collection, `undefined` when the site did not register it. */
  collection(site: string, collection: string): { table: string; pk: string; floats: Set<string> } | undefined {
    return this.registry.get(`${site}/${collection}`);
  }

  /** The collections a site registered, in registry order (`/_admin/files/<site>`). */
  collections(site: string): string[] {
    return (this.sql.prepare('SELECT collection FROM site_registry WHERE site = ? ORDER BY rowid').all(site) as { collection: string }[]).map((r) => r.collection);
  }

  /** `_touch_session`: the `sessions` row's last access, local time to the second. */
  touch(sid: string): void {
    this.sql
      .prepare('INSERT INTO sessions (session_id, last_access) VALUES (?, ?) ON CONFLICT(session_id) DO UPDATE SET last_access = excluded.last_access')
      .run(sid, localStamp());
  }

  private overlay(sid: string, site: string, collection: string): { deletes: Set<string>; upserts: Map<string, Row> } {
    const rows = this.sql.prepare('SELECT item_id, op, data FROM session_overlay WHERE session_id = ? AND site = ? AND collection = ?').all(sid, site, collection) as OverlayRow[];
    const deletes = new Set<string>();
    const upserts = new Map<string, Row>();
    for (const r of rows) {
      if (r.op === 'delete') deletes.add(String(r.item_id));
      else upserts.set(String(r.item_id), JSON.parse(r.data ?? 'null') as Row);
    }
    return { deletes, upserts };
  }

  private replaced(sid: string, site: string, collection: string): boolean {
    return this.sql.prepare('SELECT 1 FROM session_collection_replaced WHERE session_id = ? AND site = ? AND collection = ?').get(sid, site, collection) !== undefined;
  }

  /** `db.query`: base rows (less the session's deletes and upserts) plus its matching upserts. */
  query(sid: string, site: string, collection: string, opts: QueryOptions = {}): Row[] {
    this.touch(sid);
    const c = this.collection(site, collection);
    if (!c) return [];
    const { where, sort, limit, offset = 0 } = opts;
    const { deletes, upserts } = this.overlay(sid, site, collection);
    const window = (items: Row[]): Row[] => {
      const from = offset ? items.slice(offset) : items;
      return limit === undefined ? from : from.slice(0, limit);
    };
    if (this.replaced(sid, site, collection)) return window(sortRows([...upserts.values()].filter((r) => matches(r, where)), sort));
    const clauses: string[] = [];
    const params: unknown[] = [];
    for (const [k, v] of Object.entries(where ?? {})) {
      clauses.push(`${q(k)} = ?`);
      params.push(storable(v));
    }
    if (deletes.size) {
      clauses.push(`${q(c.pk)} NOT IN (${[...deletes].map(() => '?').join(',')})`);
      params.push(...deletes);
    }
    if (upserts.size) {
      clauses.push(`CAST(${q(c.pk)} AS TEXT) NOT IN (${[...upserts.keys()].map(() => '?').join(',')})`);
      params.push(...upserts.keys());
    }
    let sql = `SELECT * FROM ${q(c.table)}${clauses.length ? ` WHERE ${clauses.join(' AND ')}` : ''}`;
    if (sort) sql += ` ORDER BY ${q(sort.replace(/^-+/, ''))} ${sort.startsWith('-') ? 'DESC' : 'ASC'}`;
    if (limit !== undefined) sql += ` LIMIT ${limit + upserts.size + offset}`;
    let results = (this.sql.prepare(sql).all(...params) as Row[]).map(deserializeRow);
    if (upserts.size) results = sortRows([...results, ...[...upserts.values()].filter((r) => matches(r, where))], sort);
    return window(results);
  }

  /** `db.get_item`: the overlay's state of an item, else (unless the collection was replaced) its base row. */
  getItem(sid: string, site: string, collection: string, itemId: unknown): Row | null {
    this.touch(sid);
    const o = this.sql.prepare('SELECT op, data FROM session_overlay WHERE session_id = ? AND site = ? AND collection = ? AND item_id = ?').get(sid, site, collection, String(itemId)) as
      | { op: string; data: string | null }
      | undefined;
    if (o) return o.op === 'delete' ? null : (JSON.parse(o.data ?? 'null') as Row);
    if (this.replaced(sid, site, collection)) return null;
    const c = this.collection(site, collection);
    if (!c) return null;
    const row = this.sql.prepare(`SELECT * FROM ${q(c.table)} WHERE ${q(c.pk)} = ?`).get(storable(itemId)) as Row | undefined;
    return row ? deserializeRow(row) : null;
  }

  /** `db.save_item`: an `upsert` overlay row holding the whole item as Python's `json.dumps` writes it. */
  saveItem(sid: string, site: string, collection: string, itemId: unknown, data: Row): void {
    this.touch(sid);
    this.sql
      .prepare("INSERT OR REPLACE INTO session_overlay (session_id, site, collection, item_id, op, data) VALUES (?, ?, ?, ?, 'upsert', ?)")
      .run(sid, site, collection, String(itemId), pyDumps(data, this.floats(site, collection)));
  }

  /** `db.delete_item`: a `delete` overlay row. */
  deleteItem(sid: string, site: string, collection: string, itemId: unknown): void {
    this.touch(sid);
    this.sql
      .prepare("INSERT OR REPLACE INTO session_overlay (session_id, site, collection, item_id, op, data) VALUES (?, ?, ?, ?, 'delete', NULL)")
      .run(sid, site, collection, String(itemId));
  }

  /** `db.save_collection`: marks the collection replaced, and its overlay becomes exactly `items`. */
  saveCollection(sid: string, site: string, collection: string, items: readonly Row[]): void {
    this.touch(sid);
    const pk = this.collection(site, collection)?.pk ?? 'id';
    const floats = this.floats(site, collection);
    this.sql.transaction(() => {
      this.sql.prepare('INSERT OR REPLACE INTO session_collection_replaced (session_id, site, collection) VALUES (?, ?, ?)').run(sid, site, collection);
      this.sql.prepare('DELETE FROM session_overlay WHERE session_id = ? AND site = ? AND collection = ?').run(sid, site, collection);
      const insert = this.sql.prepare("INSERT INTO session_overlay (session_id, site, collection, item_id, op, data) VALUES (?, ?, ?, ?, 'upsert', ?)");
      items.forEach((item, i) => insert.run(sid, site, collection, String(item[pk] ?? i), pyDumps(item, floats)));
    })();
  }

  /** `db.next_id`: one more than the largest integer key of the base table and this session's overlay. */
  nextId(sid: string, site: string, collection: string): number {
    const c = this.collection(site, collection);
    const base = c ? ((this.sql.prepare(`SELECT MAX(CAST(${q(c.pk)} AS INTEGER)) AS m FROM ${q(c.table)}`).get() as { m: number | null }).m ?? 0) : 0;
    const over =
      (this.sql.prepare('SELECT MAX(CAST(item_id AS INTEGER)) AS m FROM session_overlay WHERE session_id = ? AND site = ? AND collection = ?').get(sid, site, collection) as { m: number | null }).m ?? 0;
    return Math.max(base, over) + 1;
  }

  /** The item ids of this session's overlay rows of a collection. */
  overlayIds(sid: string, site: string, collection: string): string[] {
    return (this.sql.prepare('SELECT item_id FROM session_overlay WHERE session_id = ? AND site = ? AND collection = ?').all(sid, site, collection) as { item_id: string }[]).map((r) => r.item_id);
  }

  /** `db.reset_session`: drops the session's overlay rows, replaced marks and `sessions` row. */
  resetSession(sid: string): void {
    for (const t of ['session_overlay', 'session_collection_replaced', 'sessions']) this.sql.prepare(`DELETE FROM ${t} WHERE session_id = ?`).run(sid);
  }

  /** Every overlay row of a session, ordered by site, collection and item id. */
  overlayRows(sid: string): OverlayRow[] {
    return this.sql.prepare('SELECT * FROM session_overlay WHERE session_id = ? ORDER BY site, collection, item_id').all(sid) as OverlayRow[];
  }

  /** `_log_event`: one `event_log` row (its payload `json.dumps(kwargs)`, cut at 2000 characters). */
  logEvent(sid: string, eventType: string, payload: Row, handlersCalled: number, errors: readonly string[]): void {
    const { _source_site: source = '', ...rest } = payload;
    this.sql
      .prepare('INSERT INTO event_log (timestamp, session_id, event_type, source_site, payload, handlers_called, errors) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(localStamp(), sid, eventType, String(source), pyDumpsAscii(rest).slice(0, 2000), handlersCalled, errors.join('; '));
  }

  /** `get_event_log`: a session's last 100 events (every session's when `sid` is empty), newest first. */
  events(sid: string): Row[] {
    const rows = sid
      ? this.sql.prepare('SELECT * FROM event_log WHERE session_id = ? ORDER BY id DESC LIMIT 100').all(sid)
      : this.sql.prepare('SELECT * FROM event_log ORDER BY id DESC LIMIT 100').all();
    return (rows as Row[]).map(deserializeRow);
  }

  /** `get_stats` (`/_overlay_stats`). */
  stats(): Row {
    const n = (sql: string): number => (this.sql.prepare(sql).get() as { n: number }).n;
    const detail: Row = {};
    for (const r of this.sql
      .prepare('SELECT s.session_id AS sid, (SELECT COUNT(*) FROM session_overlay o WHERE o.session_id = s.session_id) AS files, s.last_access AS la FROM sessions s')
      .all() as { sid: string; files: number; la: string }[]) {
      detail[r.sid] = { files: r.files, last_access: r.la };
    }
    return { sessions: n('SELECT COUNT(*) AS n FROM sessions'), total_files: n('SELECT COUNT(*) AS n FROM session_overlay'), session_ttl_seconds: 3600, sessions_detail: detail };
  }

  private floats(site: string, collection: string): ReadonlySet<string> {
    return this.collection(site, collection)?.floats ?? FLOAT_KEYS;
  }

  /** Closes the file (checkpointing the WAL). */
  close(): void {
    this.sql.close();
  }
}

/** A JSON value as a column value: lists and objects as `json.dumps` text, booleans as 0/1. */
function storable(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'object' && v !== null) return pyDumps(v);
  return v;
}
