/**
 * The WebSocket `/ws` side of the server, as OpenEnv's `HTTPEnvServer.websocket_endpoint` behaves: a session per
 * connection made when it opens (past the limit: `CAPACITY_REACHED`, then closed), messages answered one at a time,
 * a bad message answered with an error and the session kept, session errors answered and the connection closed.
 * @module
 */
import type { WebSocket, RawData } from 'ws';
import { describeError } from '../core/errors';
import { ENV_ERROR_CODES, EnvActionSchema, EnvMessageSchema, EnvResetSchema, type EnvErrorCode, type EnvStepResult } from './protocol';
import { EnvSession, EnvSessionError, type SessionContext } from './session';
import { EnvRequestError } from './tasks';
import type { EnvEvent } from './events';

interface Entry {
  readonly session: EnvSession;
  lastActive: number;
  /** Messages being answered: a session is idle only between them. */
  busy: number;
  /** Ends the session's connection (idle, shutdown). */
  end: (message: string) => void;
}

/** What {@link SessionPool.drain} did. */
export interface Drained {
  /** Sessions open when it began. */
  readonly sessions: number;
  /** Sessions still answering a message when the grace period ran out (their episodes dropped). */
  readonly cut: number;
}

/** The open sessions, their limit and their idle timeout. */
export class SessionPool {
  private readonly open = new Map<string, Entry>();
  private readonly reaper: NodeJS.Timeout;
  /** Why the pool takes no more sessions (the server is shutting down), or `null`. */
  private stopping: string | null = null;
  /** Resolves when the last session of a draining pool is gone. */
  private emptied: (() => void) | null = null;
  /** Sessions being closed (their episodes letting go of pages and claims). */
  private readonly closings = new Set<Promise<void>>();

  constructor(
    readonly ctx: SessionContext,
    readonly limits: { readonly maxSessions: number; readonly idleTimeoutMs: number; readonly emit: (event: EnvEvent) => void },
  ) {
    this.reaper = setInterval(() => this.reap(), Math.min(5000, Math.max(100, limits.idleTimeoutMs / 4)));
    this.reaper.unref();
  }

  get active(): number {
    return this.open.size;
  }

  /** Why new sessions are refused (the server is shutting down), or `null` while it takes them. */
  get closing(): string | null {
    return this.stopping;
  }

  /** A new session, or `null` at capacity or while shutting down ({@link closing} says which). */
  add(end: (message: string) => void): Entry | null {
    if (this.stopping !== null) {
      this.limits.emit({ type: 'refused', reason: 'the server is shutting down' });
      return null;
    }
    if (this.open.size >= this.limits.maxSessions) {
      this.limits.emit({ type: 'refused', reason: `at capacity (${this.open.size}/${this.limits.maxSessions})` });
      return null;
    }
    const entry: Entry = { session: new EnvSession(this.ctx), lastActive: Date.now(), busy: 0, end };
    this.open.set(entry.session.id, entry);
    this.limits.emit({ type: 'session-open', session: entry.session.id, active: this.open.size });
    return entry;
  }

  /** Closes a session (its episode in progress dropped). */
  async remove(entry: Entry, reason: string): Promise<void> {
    if (!this.open.delete(entry.session.id)) return;
    if (this.open.size === 0) this.emptied?.();
    const closing = entry.session.close(reason).catch(() => {});
    this.closings.add(closing);
    await closing;
    this.closings.delete(closing);
    this.limits.emit({ type: 'session-close', session: entry.session.id, active: this.open.size, reason });
  }

  /**
   * Shuts the pool down: no new session from now on; a session between messages is ended at once (`reason` as
   * its `SESSION_ERROR`, its episode dropped), one answering a message when that reply has gone out, and any still
   * answering after `graceMs` is cut then. Waits at most `abandonMs` more for cut episodes to let go of their
   * pages and claims (an episode stuck past that is left to end on its own, and is never published).
   */
  async drain(reason: string, graceMs: number, abandonMs: number): Promise<Drained> {
    this.stopping = reason;
    clearInterval(this.reaper);
    const sessions = this.open.size;
    const empty = new Promise<void>((resolve) => {
      this.emptied = resolve;
      if (this.open.size === 0) resolve();
    });
    for (const entry of [...this.open.values()]) if (entry.busy === 0) this.endFor(entry, reason);
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'grace'>((resolve) => (timer = setTimeout(() => resolve('grace'), graceMs)));
    const how = await Promise.race([empty.then(() => 'empty' as const), graceOver]);
    clearTimeout(timer);
    const cut = how === 'grace' ? this.open.size : 0;
    for (const entry of [...this.open.values()]) this.endFor(entry, reason);
    let abandon: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all([...this.closings]), new Promise<void>((resolve) => (abandon = setTimeout(resolve, abandonMs)))]);
    clearTimeout(abandon);
    return { sessions, cut };
  }

  /** A message of `entry` has been answered: while draining, its session ends now. */
  answered(entry: Entry): void {
    if (this.stopping !== null && entry.busy === 0 && this.open.has(entry.session.id)) this.endFor(entry, this.stopping);
  }

  private endFor(entry: Entry, reason: string): void {
    entry.end(reason);
    void this.remove(entry, reason);
  }

  /** Reports an episode's end. */
  ended(entry: Entry, result: EnvStepResult): void {
    const meta = result.observation.metadata;
    this.limits.emit({ type: 'episode-end', session: entry.session.id, taskId: result.observation.task_id, reward: result.reward, dir: typeof meta.episode_dir === 'string' ? meta.episode_dir : null });
  }

  private reap(): void {
    const now = Date.now();
    for (const entry of this.open.values()) {
      if (entry.busy > 0 || now - entry.lastActive <= this.limits.idleTimeoutMs) continue;
      const why = `the session was idle for more than ${this.limits.idleTimeoutMs} ms and was closed (its episode dropped, nothing recorded)`;
      entry.end(why);
      void this.remove(entry, why);
    }
  }
}

/** Serves one WebSocket connection as one session. */
export function serveSocket(ws: WebSocket, pool: SessionPool): void {
  const send = (payload: unknown) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(payload));
  };
  const error = (code: EnvErrorCode, message: string, extra: Record<string, unknown> = {}) => send({ type: 'error', data: { message, code, ...extra } });
  const entry = pool.add((message) => {
    error(ENV_ERROR_CODES.session, message);
    ws.close(1000);
  });
  if (!entry && pool.closing !== null) {
    error(ENV_ERROR_CODES.session, pool.closing);
    ws.close(1000);
    return;
  }
  if (!entry) {
    const { maxSessions } = pool.limits;
    error(ENV_ERROR_CODES.capacity, `Server at capacity: ${pool.active}/${maxSessions} sessions active. Cannot accept new connections.`, { active_sessions: pool.active, max_sessions: maxSessions });
    ws.close(1000);
    return;
  }
  // One message at a time, in order: OpenEnv's clients wait for each reply.
  let chain: Promise<void> = Promise.resolve();
  ws.on('message', (raw: RawData) => {
    // Shutting down: no new work; the session ends once its message in progress is answered (or now).
    if (pool.closing !== null) return pool.answered(entry);
    entry.lastActive = Date.now();
    entry.busy++;
    chain = chain
      .then(() => handle(raw))
      .catch(() => {})
      .finally(() => {
        entry.busy--;
        entry.lastActive = Date.now();
        pool.answered(entry);
      });
  });
  ws.on('close', () => void pool.remove(entry, 'the client disconnected'));
  ws.on('error', () => void pool.remove(entry, 'the connection failed'));

  async function handle(raw: RawData): Promise<void> {
    if (ws.readyState !== ws.OPEN) return;
    let message: unknown;
    try {
      message = JSON.parse(rawText(raw));
    } catch (e) {
      return error(ENV_ERROR_CODES.invalidJson, `Invalid JSON: ${describeError(e)}`);
    }
    const type = typeof message === 'object' && message !== null ? (message as { type?: unknown }).type : undefined;
    if (!['reset', 'step', 'state', 'close'].includes(type as string)) return error(ENV_ERROR_CODES.unknownType, `Unknown message type: ${typeof type === 'string' ? type : JSON.stringify(type ?? '')}`);
    const parsed = EnvMessageSchema.safeParse(message);
    if (!parsed.success) return error(ENV_ERROR_CODES.validation, 'Invalid message', { errors: parsed.error.issues });
    const msg = parsed.data;
    try {
      if (msg.type === 'close') {
        await pool.remove(entry!, 'the client closed the session');
        ws.close(1000);
        return;
      }
      if (msg.type === 'state') return send({ type: 'state', data: entry!.session.state() });
      let result: EnvStepResult;
      if (msg.type === 'reset') {
        const data = EnvResetSchema.safeParse(msg.data);
        if (!data.success) return error(ENV_ERROR_CODES.validation, 'Invalid message', { errors: data.error.issues });
        result = await entry!.session.reset(data.data);
      } else {
        const data = EnvActionSchema.safeParse(msg.data);
        if (!data.success) return error(ENV_ERROR_CODES.validation, 'Invalid message', { errors: data.error.issues });
        result = await entry!.session.step(data.data);
      }
      if (result.done) pool.ended(entry!, result);
      send({ type: 'observation', data: result });
    } catch (e) {
      if (e instanceof EnvSessionError) {
        error(ENV_ERROR_CODES.session, e.message);
        await pool.remove(entry!, e.message);
        ws.close(1000);
        return;
      }
      error(ENV_ERROR_CODES.execution, e instanceof EnvRequestError ? e.message : describeError(e));
    }
  }
}

function rawText(raw: RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  return Buffer.isBuffer(raw) ? raw.toString('utf8') : Buffer.from(raw).toString('utf8');
}
