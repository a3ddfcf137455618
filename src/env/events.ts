/** What the environment server reports through `onEvent`. @module */

/** What the server reports. */
export type EnvEvent =
  | { readonly type: 'session-open'; readonly session: string; readonly active: number }
  | { readonly type: 'session-close'; readonly session: string; readonly active: number; readonly reason: string }
  | { readonly type: 'episode-end'; readonly session: string; readonly taskId: string; readonly reward: number | null; readonly dir: string | null }
  | { readonly type: 'refused'; readonly reason: string }
  | { readonly type: 'browser-launch'; readonly launches: number }
  | { readonly type: 'warning'; readonly message: string }
  /** `close()` began: new sessions are refused; sessions answering a message get `graceMs` to finish it. */
  | { readonly type: 'shutdown'; readonly sessions: number; readonly graceMs: number }
  /** `close()` is done: of the `sessions` open at its start, `cut` were still answering when the grace ran out. */
  | { readonly type: 'stopped'; readonly sessions: number; readonly cut: number };
