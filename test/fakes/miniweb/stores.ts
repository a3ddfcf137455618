/**
 * What one MiniWeb worker process keeps in memory, per session: the request log of `/sites/` requests (500
 * entries at most), the recorder's beacons (1000) and records (5000). A server with two workers has two of these,
 * and a session's requests land in either, so its log is split between them.
 * @module
 */
import type { Row } from './db';

/** One request of the log, as `/_admin/log` lists it. */
export interface LogEntry {
  readonly method: string;
  readonly path: string;
  /** The query string's first value of each key. */
  readonly query: Readonly<Record<string, string>>;
  readonly status: number;
  /** Local time, `datetime.now().isoformat()`. */
  readonly timestamp: string;
  readonly duration_ms: number;
  /** POST, PUT and DELETE: the JSON body, or the form (a repeated field as a list). */
  readonly body?: unknown;
  /** `/api/` paths answering JSON under 500 characters: the parsed answer. */
  readonly response?: unknown;
  /** `/api/` paths answering longer JSON: its first 200 characters and `...`. */
  readonly response_preview?: string;
}

const LIMITS = { logs: 500, beacons: 1000, records: 5000 } as const;

/** One worker's in-memory stores, each keyed by the session's `_data_overlay_sid` (or a throwaway key). */
export class WorkerStore {
  readonly logs = new Map<string, LogEntry[]>();
  readonly beacons = new Map<string, Row[]>();
  readonly records = new Map<string, Row[]>();

  /** Appends to one of the stores, keeping its last entries only. */
  push<K extends keyof typeof LIMITS>(store: K, key: string, entry: K extends 'logs' ? LogEntry : Row): void {
    const map = this[store] as Map<string, unknown[]>;
    const list = map.get(key) ?? [];
    list.push(entry);
    if (list.length > LIMITS[store]) list.splice(0, list.length - LIMITS[store]);
    map.set(key, list);
  }

  /** Every session's entries of a store, in session order. */
  all<K extends keyof typeof LIMITS>(store: K): (K extends 'logs' ? LogEntry : Row)[] {
    return [...(this[store] as Map<string, (K extends 'logs' ? LogEntry : Row)[]>).values()].flat();
  }
}
