/**
 * A small TypeScript client of the environment server (or of any OpenEnv server): one session over `/ws`, each
 * call waiting for its reply, as OpenEnv's `EnvClient` does.
 * @module
 */
import WebSocket from 'ws';
import type { EnvAction, EnvErrorCode, EnvReset, EnvState, EnvStepResult } from './protocol';

/** An error reply of the server: its message and OpenEnv's code. */
export class EnvServerError extends Error {
  override readonly name = 'EnvServerError';
  constructor(
    message: string,
    /** OpenEnv's code (`CAPACITY_REACHED`, `VALIDATION_ERROR`...). */
    readonly code: EnvErrorCode | string,
  ) {
    super(`${message} (code: ${code})`);
  }
}

/** Options of {@link connectEnv}. */
export interface ConnectEnvOptions {
  /** The server's bearer token, when it needs one. */
  readonly token?: string;
  /** Time limit of one reply in ms. Default 180000. */
  readonly messageTimeoutMs?: number;
}

/** One session of an environment server. */
export interface EnvClient {
  /** Starts an episode (by `task_id`, `split` and `index`, or `seed`). */
  reset(data?: EnvReset): Promise<EnvStepResult>;
  /** Takes one action: an action object (`{action: {click: {index: 3}}}`) or a reply text (`{text: '...'}`). */
  step(action: EnvAction): Promise<EnvStepResult>;
  /** The session's state. */
  state(): Promise<EnvState>;
  /** Closes the session (an episode in progress is dropped). */
  close(): Promise<void>;
}

/**
 * Opens a session on the server at `url` (`http://` or `ws://`, without `/ws`). A server at capacity answers the
 * first call with an {@link EnvServerError} of code `CAPACITY_REACHED`.
 */
export async function connectEnv(url: string, options: ConnectEnvOptions = {}): Promise<EnvClient> {
  const wsUrl = `${url.replace(/^http/, 'ws').replace(/\/+$/, '')}/ws`;
  const ws = new WebSocket(wsUrl, { ...(options.token ? { headers: { authorization: `Bearer ${options.token}` } } : {}), maxPayload: 100 * 1024 * 1024 });
  const inbox: unknown[] = [];
  let waiter: ((message: unknown) => void) | null = null;
  let closed: Error | null = null;
  const deliver = (message: unknown) => {
    if (waiter) {
      const w = waiter;
      waiter = null;
      w(message);
    } else inbox.push(message);
  };
  ws.on('message', (raw) => deliver(JSON.parse(String(raw))));
  ws.on('close', () => {
    closed ??= new Error(`the connection to ${wsUrl} closed`);
    deliver(null);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', (e) => reject(new Error(`could not connect to ${wsUrl}: ${e.message}`)));
  });
  const timeoutMs = options.messageTimeoutMs ?? 180_000;
  const receive = (): Promise<unknown> => {
    if (inbox.length) return Promise.resolve(inbox.shift());
    if (closed) return Promise.reject(closed);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiter = null;
        reject(new Error(`no reply from ${wsUrl} in ${timeoutMs} ms`));
      }, timeoutMs);
      waiter = (m) => {
        clearTimeout(timer);
        resolve(m);
      };
    });
  };
  const call = async (message: unknown): Promise<{ type: string; data: unknown }> => {
    // A message that came unasked (capacity reached, idle timeout) is the server's answer to this call.
    if (!inbox.length) {
      if (closed) throw closed;
      ws.send(JSON.stringify(message));
    }
    const reply = (await receive()) as { type: string; data: unknown } | null;
    if (reply === null) throw closed ?? new Error('the connection closed');
    if (reply.type === 'error') {
      const data = reply.data as { message?: string; code?: string };
      throw new EnvServerError(data.message ?? 'Unknown error', data.code ?? 'UNKNOWN');
    }
    return reply;
  };
  return {
    reset: async (data = {}) => (await call({ type: 'reset', data })).data as EnvStepResult,
    step: async (action) => (await call({ type: 'step', data: action })).data as EnvStepResult,
    state: async () => (await call({ type: 'state' })).data as EnvState,
    close: async () => {
      if (closed || ws.readyState !== WebSocket.OPEN) return;
      ws.send(JSON.stringify({ type: 'close' }));
      await new Promise<void>((resolve) => {
        ws.once('close', () => resolve());
        setTimeout(() => {
          ws.terminate();
          resolve();
        }, 5000).unref();
      });
    },
  };
}
