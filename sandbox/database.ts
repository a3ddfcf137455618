/**
 * Site databases: each site's data is built once (schema, seed, change triggers) and kept as a serialized
 * snapshot; every session opens its own in-memory copy of it in well under a millisecond.
 *
 * Changes are recorded by SQLite triggers into `_changes`, not by a repository wrapper: every write of a handler
 * (any statement, cascades included) is recorded at the data layer, so a template cannot forget to record one,
 * and a transaction rolled back takes its change records with it.
 * @module
 */
import type Database from 'better-sqlite3';
import type { Faker } from '@faker-js/faker';
import type { Change } from 'miniweb-taskgen';
import type { SeedResult, SiteTemplate } from './template';
import { fakerModule, Sqlite } from './peers';

/** The day every sandbox site lives in: data and tasks never depend on the wall clock. */
export const SANDBOX_TODAY = '2026-03-16';

/** A 32-bit FNV-1a hash: seeds from names. */
export function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A faker seeded from `key`, its reference date the sandbox's today. */
export function seededFaker(key: string): Faker {
  const faker = new fakerModule.Faker({ locale: [fakerModule.en, fakerModule.base] });
  faker.seed(hashSeed(key));
  faker.setDefaultRefDate(`${SANDBOX_TODAY}T12:00:00Z`);
  return faker;
}

/** A built site: its display name and its data snapshot. */
export interface SiteSnapshot {
  readonly seed: SeedResult;
  readonly data: Buffer;
}

function quoteId(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function userTables(db: Database.Database): string[] {
  const rows = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_%' ESCAPE '\\' ORDER BY name")
    .all() as Array<{ name: string }>;
  return rows.map((r) => r.name);
}

function installChangeTriggers(db: Database.Database): void {
  db.exec(`CREATE TABLE _changes (seq INTEGER PRIMARY KEY, tbl TEXT NOT NULL, op TEXT NOT NULL, before TEXT, after TEXT)`);
  for (const table of userTables(db)) {
    const cols = (db.prepare(`PRAGMA table_info(${quoteId(table)})`).all() as Array<{ name: string }>).map((c) => c.name);
    const row = (alias: string): string =>
      `json_object(${cols.map((c) => `'${c.replace(/'/g, "''")}', ${alias}.${quoteId(c)}`).join(', ')})`;
    const t = quoteId(table);
    const lit = `'${table.replace(/'/g, "''")}'`;
    db.exec(`
CREATE TRIGGER ${quoteId(`_chg_ins_${table}`)} AFTER INSERT ON ${t} BEGIN
  INSERT INTO _changes (tbl, op, before, after) VALUES (${lit}, 'create', NULL, ${row('NEW')}); END;
CREATE TRIGGER ${quoteId(`_chg_upd_${table}`)} AFTER UPDATE ON ${t} BEGIN
  INSERT INTO _changes (tbl, op, before, after) VALUES (${lit}, 'update', ${row('OLD')}, ${row('NEW')}); END;
CREATE TRIGGER ${quoteId(`_chg_del_${table}`)} AFTER DELETE ON ${t} BEGIN
  INSERT INTO _changes (tbl, op, before, after) VALUES (${lit}, 'delete', ${row('OLD')}, NULL); END;`);
  }
}

/**
 * Builds a site's snapshot: the template's schema, its seed (one transaction, seeded faker), then the change
 * triggers, so the seed itself is not recorded and every session starts with no changes.
 */
export function buildSnapshot(template: SiteTemplate, site: { name: string; variant: number }): SiteSnapshot {
  const db = new Sqlite(':memory:');
  try {
    db.pragma('foreign_keys = ON');
    db.exec(template.schema);
    const faker = seededFaker(`data:${site.name}`);
    const seed = db.transaction(() =>
      template.seed({ db, faker, name: site.name, variant: site.variant, today: SANDBOX_TODAY }),
    )();
    installChangeTriggers(db);
    return { seed, data: db.serialize() };
  } finally {
    db.close();
  }
}

/** A session's own copy of a snapshot, foreign keys on. */
export function openCopy(snapshot: Buffer, options: { readonly?: boolean } = {}): Database.Database {
  const db = new Sqlite(snapshot, { readonly: options.readonly ?? false });
  db.pragma('foreign_keys = ON');
  return db;
}

interface ChangeRow {
  seq: number;
  tbl: string;
  op: 'create' | 'update' | 'delete';
  before: string | null;
  after: string | null;
}

function toChange(row: ChangeRow): Change | undefined {
  const before = row.before === null ? null : (JSON.parse(row.before) as Record<string, unknown>);
  const after = row.after === null ? null : (JSON.parse(row.after) as Record<string, unknown>);
  const changed: Record<string, unknown> = {};
  if (row.op === 'update' && before && after) {
    for (const [k, v] of Object.entries(after)) if (before[k] !== v) changed[k] = [before[k], v];
    if (!Object.keys(changed).length) return undefined; // an update that changed nothing
  } else if (row.op === 'create' && after) {
    for (const [k, v] of Object.entries(after)) if (v !== null) changed[k] = v;
  }
  return { table: row.tbl, op: row.op, before, after, changed };
}

/** Reads the changes recorded after `afterSeq` and the last sequence number read. */
export function readChanges(db: Database.Database, afterSeq: number): { changes: Change[]; lastSeq: number } {
  const rows = db.prepare('SELECT seq, tbl, op, before, after FROM _changes WHERE seq > ? ORDER BY seq').all(afterSeq) as ChangeRow[];
  const changes: Change[] = [];
  for (const row of rows) {
    const change = toChange(row);
    if (change) changes.push(change);
  }
  return { changes, lastSeq: rows.length ? (rows[rows.length - 1] as ChangeRow).seq : afterSeq };
}

/** Every (non-internal) table's rows now, by table name. */
export function allTableRows(db: Database.Database): Record<string, Record<string, unknown>[]> {
  return Object.fromEntries(userTables(db).map((t) => [t, db.prepare(`SELECT * FROM ${quoteId(t)} ORDER BY rowid`).all() as Record<string, unknown>[]]));
}

/** A table's rows now, or `undefined` when the site has no such (non-internal) table. */
export function tableRows(db: Database.Database, table: string): Record<string, unknown>[] | undefined {
  if (!userTables(db).includes(table)) return undefined;
  return db.prepare(`SELECT * FROM ${quoteId(table)} ORDER BY rowid`).all() as Record<string, unknown>[];
}
