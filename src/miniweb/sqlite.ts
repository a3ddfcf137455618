/**
 * MiniWeb's SQLite file, opened read-only: better-sqlite3 (an optional peer dependency) where installed, else
 * Node's own `node:sqlite` (Node 22.5 and later). Loaded when first opened, never at import.
 * @module
 */
import { createRequire } from 'node:module';

/** A row as SQLite gives it: column name to value. */
export type SqlRow = Record<string, unknown>;

/** The few calls the evidence reader makes on a database, with `?` parameters. */
export interface SqliteReader {
  /** Every row of a query. */
  all(sql: string, params?: readonly unknown[]): SqlRow[];
  /** The first row of a query, `undefined` when none. */
  get(sql: string, params?: readonly unknown[]): SqlRow | undefined;
  /** Closes the file. */
  close(): void;
}

/** Why the database cannot be opened: not installed drivers, or a file that is not there or not SQLite. */
export class MiniwebDatabaseError extends Error {
  /** Always `MiniwebDatabaseError`. */
  override readonly name = 'MiniwebDatabaseError';
}

const load = createRequire(import.meta.url);

interface Statement {
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
}
interface Connection {
  prepare(sql: string): Statement;
  close(): void;
}

/**
 * Opens `file` read-only (the server writes it; a reader never does), with a 5 s wait on a busy file. Throws a
 * {@link MiniwebDatabaseError} naming the file and what to install or fix.
 */
export function openSqliteReader(file: string): SqliteReader {
  const db = connect(file);
  const cache = new Map<string, Statement>();
  const prepared = (sql: string): Statement => {
    let s = cache.get(sql);
    if (!s) {
      s = db.prepare(sql);
      cache.set(sql, s);
    }
    return s;
  };
  return {
    all: (sql, params = []) => prepared(sql).all(...params) as SqlRow[],
    get: (sql, params = []) => prepared(sql).get(...params) as SqlRow | undefined,
    close: () => db.close(),
  };
}

function connect(file: string): Connection {
  const Better = optional<new (f: string, o: object) => Connection>('better-sqlite3');
  try {
    if (Better) return new Better(file, { readonly: true, fileMustExist: true, timeout: 5000 });
    const builtin = optional<{ DatabaseSync: new (f: string, o: object) => Connection }>('node:sqlite');
    if (builtin) return new builtin.DatabaseSync(file, { readOnly: true, timeout: 5000 });
  } catch (error) {
    throw new MiniwebDatabaseError(`MiniWeb's database ${file} cannot be opened read-only: ${(error as Error).message}`, { cause: error });
  }
  throw new MiniwebDatabaseError(
    `reading MiniWeb's database ${file} needs better-sqlite3 (npm install better-sqlite3) or Node 22.5+ (node:sqlite)`,
  );
}

function optional<T>(name: string): T | null {
  try {
    return load(name) as T;
  } catch {
    return null;
  }
}
