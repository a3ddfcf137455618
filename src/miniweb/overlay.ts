/**
 * A MiniWeb session's data changes, read from the server's SQLite file. The base tables never change; a session's
 * writes are rows of `session_overlay` (one per item, its last state: `upsert` with the whole row as JSON, or
 * `delete`), and `session_collection_replaced` marks a collection the session saved whole, whose base rows missing
 * from the overlay are deleted for it. A change is the overlay row against its base row (`site_registry` gives the
 * table and key column), named by `site` and `collection`: `create` (no base row), `update` (some field differs;
 * `changed` is `{field: [before, after]}`), `delete`. Base rows are read as MiniWeb reads them (text that holds a
 * JSON list or object is parsed); values compare as MiniWeb's filters compare them (`3` equals `"3"`).
 *
 * Cost: one indexed read of the session's overlay rows and one primary-key lookup per row, whatever the tables'
 * size; only a collection the session replaced is scanned whole (its deletes), once per set of replaced ids.
 * @module
 */
import type { Change } from '../core/schemas';
import type { SqlRow, SqliteReader } from './sqlite';

/** Where a collection's base rows live. */
export interface Collection {
  /** The base table. */
  readonly table: string;
  /** Its key column (`item_id` of the overlay). */
  readonly pk: string;
}

/** One data change, named as the seed's formatter reads it (`collection`), with the site it is on. */
export interface OverlayChange extends Change {
  readonly site: string;
  readonly collection: string;
  readonly op: 'create' | 'update' | 'delete';
  readonly before: Record<string, unknown> | null;
  readonly after: Record<string, unknown> | null;
  readonly changed: Record<string, unknown>;
}

/** A change with its item's identity, `site/collection/item_id`. */
export interface KeyedChange {
  readonly key: string;
  readonly change: OverlayChange;
}

interface OverlayRow {
  site: string;
  collection: string;
  item_id: string;
  op: string;
  data: string | null;
}

/** Reads sessions' changes from one MiniWeb database (registry lookups cached for the reader's life). */
export class OverlayReader {
  private readonly registry = new Map<string, Collection | null>();
  private readonly replacedDeletes = new Map<string, { ids: string; rows: Record<string, unknown>[] }>();

  constructor(private readonly db: SqliteReader) {}

  /** The base table and key of a site's collection; `null` when the site did not register it. */
  collection(site: string, collection: string): Collection | null {
    const key = `${site}\u0000${collection}`;
    if (!this.registry.has(key)) {
      const row = this.db.get('SELECT table_name, pk_column FROM site_registry WHERE site = ? AND collection = ?', [site, collection]);
      this.registry.set(key, row ? { table: String(row.table_name), pk: String(row.pk_column ?? 'id') } : null);
    }
    return this.registry.get(key)!;
  }

  /** The base row of an item, as MiniWeb reads it; `null` when there is none. */
  baseRow(c: Collection, itemId: string): Record<string, unknown> | null {
    const sql = `SELECT * FROM ${ident(c.table)} WHERE ${ident(c.pk)} = ?`;
    let row = this.db.get(sql, [itemId]);
    // A key column without a numeric type holds numbers as numbers: `'3'` finds no `3` there.
    if (!row && /^-?\d+$/.test(itemId)) row = this.db.get(sql, [Number(itemId)]);
    return row ? deserializeRow(row) : null;
  }

  /**
   * The session's changes, each with its item's key, in the order of their rows' last writes (an overlay row is
   * written anew on each write: its rowid tells the order).
   */
  changes(sid: string): KeyedChange[] {
    const rows = this.db.all('SELECT site, collection, item_id, op, data FROM session_overlay WHERE session_id = ? ORDER BY rowid', [sid]) as unknown as OverlayRow[];
    const out: KeyedChange[] = [];
    for (const row of rows) {
      const change = this.rowChange(row);
      if (change) out.push({ key: itemKey(row.site, row.collection, String(row.item_id)), change });
    }
    for (const r of this.db.all('SELECT site, collection FROM session_collection_replaced WHERE session_id = ?', [sid])) {
      const site = String(r.site);
      const collection = String(r.collection);
      const ids = rows.filter((o) => o.site === site && o.collection === collection).map((o) => String(o.item_id));
      for (const before of this.deletedByReplace(sid, site, collection, ids)) {
        const c = this.collection(site, collection)!;
        out.push({ key: itemKey(site, collection, String(before[c.pk])), change: { site, collection, op: 'delete', before, after: null, changed: {} } });
      }
    }
    return out;
  }

  // One overlay row against its base row; `null` when it changes nothing.
  private rowChange(row: OverlayRow): OverlayChange | null {
    const { site, collection } = row;
    const c = this.collection(site, collection);
    const before = c ? this.baseRow(c, String(row.item_id)) : null;
    if (row.op === 'delete') return before ? { site, collection, op: 'delete', before, after: null, changed: {} } : null;
    const after = parseData(row.data);
    if (!after) return null;
    if (!before) {
      const changed = Object.fromEntries(Object.entries(after).filter(([, v]) => v !== null && v !== undefined));
      return { site, collection, op: 'create', before: null, after, changed };
    }
    const changed: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(after)) if (!sameValue(before[k], v)) changed[k] = [before[k] ?? null, v];
    for (const [k, v] of Object.entries(before)) if (!(k in after) && v !== null) changed[k] = [v, null];
    return Object.keys(changed).length ? { site, collection, op: 'update', before, after, changed } : null;
  }

  // The base rows a replaced collection no longer holds: scanned once per set of the overlay's ids.
  private deletedByReplace(sid: string, site: string, collection: string, ids: readonly string[]): Record<string, unknown>[] {
    const c = this.collection(site, collection);
    if (!c) return [];
    const key = `${sid}\u0000${site}\u0000${collection}`;
    const signature = [...ids].sort().join('\u0000');
    const cached = this.replacedDeletes.get(key);
    if (cached?.ids === signature) return cached.rows;
    const rows = this.db
      .all(
        `SELECT * FROM ${ident(c.table)} WHERE CAST(${ident(c.pk)} AS TEXT) NOT IN ` +
          '(SELECT item_id FROM session_overlay WHERE session_id = ? AND site = ? AND collection = ?)',
        [sid, site, collection],
      )
      .map(deserializeRow);
    this.replacedDeletes.set(key, { ids: signature, rows });
    return rows;
  }

  /** Forgets what was cached for a session (its replaced collections' deletes). */
  forget(sid: string): void {
    for (const key of this.replacedDeletes.keys()) if (key.startsWith(`${sid}\u0000`)) this.replacedDeletes.delete(key);
  }
}

/** The identity of an overlay item across reads. */
export function itemKey(site: string, collection: string, itemId: string): string {
  return `${site}/${collection}/${itemId}`;
}

/** A base row as MiniWeb's `_deserialize_row` reads it: text that is a JSON list or object, parsed. */
export function deserializeRow(row: SqlRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = typeof v === 'bigint' ? Number(v) : parseJsonText(v);
  return out;
}

function parseJsonText(v: unknown): unknown {
  if (typeof v !== 'string' || v.length < 2) return v;
  const first = v[0];
  const last = v[v.length - 1];
  if (!((first === '[' && last === ']') || (first === '{' && last === '}'))) return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

function parseData(data: string | null): Record<string, unknown> | null {
  if (data === null) return null;
  try {
    const v: unknown = JSON.parse(data);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Whether a base value and an overlay value are the same as MiniWeb compares them: equal JSON, or scalars equal as
 * text (an integer key `3` and `"3"`), SQLite's booleans `1`/`0` equal to `true`/`false`.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (typeof a === 'boolean') a = a ? 1 : 0;
  if (typeof b === 'boolean') b = b ? 1 : 0;
  if (a === null || b === null) return a === b;
  if (typeof a === 'object' || typeof b === 'object') return canonical(a) === canonical(b);
  return String(a) === String(b);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const entries = Object.entries(v).sort(([x], [y]) => compare(x, y));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// A table or column name from the server's own registry, quoted for SQL.
function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The rows of a query as plain objects (for start rows). */
export function plainRows(rows: readonly SqlRow[]): Record<string, unknown>[] {
  return rows.map(deserializeRow);
}
