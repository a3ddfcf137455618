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

/** The open sessions, their limit and their idle timeout. */
export class SessionPool {
  private readonly open = new Map<string, Entry>();
  private readonly closing = new Set<Promise<void>>();
  private readonly reaper: NodeJS.Timeout;

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

  /** A new session, or `null` at capacity. */
  add(end: (message: string) => void): Entry | null {
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
    const closed = entry.session.close(reason).catch(() => {});
    this.closing.add(closed);
    await closed;
    this.closing.delete(closed);
    this.limits.emit({ type: 'session-close', session: entry.session.id, active: this.open.size, reason });
  }

  /** Closes every session. */
  async closeAll(reason: string): Promise<void> {
    clearInterval(this.reaper);
    await Promise.all([
      ...[...this.open.values()].map(async (e) => {
        e.end(reason);
        await this.remove(e, reason);
      }),
      ...this.closing, // sessions already leaving (a one-shot reset, a disconnect) still closing their pages
    ]);
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
  if (!entry) {
    const { maxSessions } = pool.limits;
    error(ENV_ERROR_CODES.capacity, `Server at capacity: ${pool.active}/${maxSessions} sessions active. Cannot accept new connections.`, { active_sessions: pool.active, max_sessions: maxSessions });
    ws.close(1000);
    return;
  }
  // One message at a time, in order: OpenEnv's clients wait for each reply.
  let chain: Promise<void> = Promise.resolve();
  ws.on('message', (raw: RawData) => {
    entry.lastActive = Date.now();
    entry.busy++;
    chain = chain
      .then(() => handle(raw))
      .catch(() => {})
      .finally(() => {
        entry.busy--;
        entry.lastActive = Date.now();
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
