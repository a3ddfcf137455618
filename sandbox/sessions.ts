/**
 * Browser sessions: a cookie names a session; a session has its own copy of each site's data it touches, its
 * request log and its data changes. Idle sessions expire and the oldest go first past a cap, closing their data.
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { Change, LogEntry } from 'miniweb-taskgen';
import { openCopy, readChanges } from './database';
import type { SiteRuntime } from './catalog';

/** The session cookie's name. */
export const SESSION_COOKIE = 'sandbox_session';

interface SiteData {
  readonly db: Database;
  lastSeq: number;
  flashes: string[];
}

/** One browser session. */
export class Session {
  /** The request log, in order. */
  readonly log: LogEntry[] = [];
  /** The data changes, in order, across the sites the session used. */
  readonly changes: Change[] = [];
  lastUsed = Date.now();
  private readonly data = new Map<string, SiteData>();

  constructor(readonly id: string) {}

  /** The session's copy of a site's data, opened from the site's snapshot on first use. */
  db(site: SiteRuntime): Database {
    return this.siteData(site).db;
  }

  /** Moves the changes recorded since the last call into {@link changes}, and returns them. */
  drainChanges(site: SiteRuntime): Change[] {
    const d = this.data.get(site.info.name);
    if (!d) return [];
    const { changes, lastSeq } = readChanges(d.db, d.lastSeq);
    d.lastSeq = lastSeq;
    this.changes.push(...changes);
    return changes;
  }

  /** Queues a message for the next page rendered on the site. */
  flash(site: SiteRuntime, message: string): void {
    this.siteData(site).flashes.push(message);
  }

  /** Takes the queued messages of a site. */
  takeFlashes(site: SiteRuntime): string[] {
    const d = this.data.get(site.info.name);
    if (!d) return [];
    const out = d.flashes;
    d.flashes = [];
    return out;
  }

  /** Closes the session's databases. */
  close(): void {
    for (const d of this.data.values()) d.db.close();
    this.data.clear();
  }

  private siteData(site: SiteRuntime): SiteData {
    let d = this.data.get(site.info.name);
    if (!d) {
      d = { db: openCopy(site.snapshot), lastSeq: 0, flashes: [] };
      this.data.set(site.info.name, d);
    }
    return d;
  }
}

/** Options of a {@link SessionStore}. */
export interface SessionStoreOptions {
  /** The most sessions kept; the least recently used go first (a session holds up to ~0.3 MB per site). Default 2000. */
  readonly maxSessions?: number;
  /** Sessions idle this long expire. Default 6 hours. */
  readonly idleMs?: number;
}

/** The live sessions, least recently used first. */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  private readonly maxSessions: number;
  private readonly idleMs: number;

  constructor(options: SessionStoreOptions = {}) {
    this.maxSessions = options.maxSessions ?? 2000;
    this.idleMs = options.idleMs ?? 6 * 3600_000;
  }

  /** A new, empty session. */
  create(): Session {
    this.evict();
    const session = new Session(randomBytes(16).toString('hex'));
    this.sessions.set(session.id, session);
    return session;
  }

  /** A live session by id, marked as used; `undefined` when unknown or expired. */
  get(id: string): Session | undefined {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    if (Date.now() - session.lastUsed > this.idleMs) {
      this.delete(id);
      return undefined;
    }
    session.lastUsed = Date.now();
    this.sessions.delete(id); // re-insert: Map order is the LRU order
    this.sessions.set(id, session);
    return session;
  }

  /** Ends a session; true when it existed. */
  delete(id: string): boolean {
    const session = this.sessions.get(id);
    if (!session) return false;
    session.close();
    return this.sessions.delete(id);
  }

  /** How many sessions are live. */
  get size(): number {
    return this.sessions.size;
  }

  /** Ends every session. */
  clear(): void {
    for (const s of this.sessions.values()) s.close();
    this.sessions.clear();
  }

  private evict(): void {
    const now = Date.now();
    for (const [id, s] of this.sessions) {
      if (this.sessions.size < this.maxSessions && now - s.lastUsed <= this.idleMs) break;
      this.delete(id);
    }
  }
}
