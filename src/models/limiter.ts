/**
 * One request queue per run, shared by every model adapter that gets it: at most `concurrency` calls in flight,
 * at most `requestsPerMinute` started in any rolling minute, and a pause of the whole queue when a server
 * answers 429.
 * @module
 */
import PQueue from 'p-queue';

/** What the limiter reports. */
export type LimiterEvent =
  | { readonly type: 'paused'; readonly ms: number; readonly reason: string }
  | { readonly type: 'resumed' };

/** Options of {@link createLimiter}. */
export interface LimiterOptions {
  /** The most calls in flight at once. Default 8. */
  readonly concurrency?: number;
  /** The most calls started in any rolling 60 s window. Default: no limit. */
  readonly requestsPerMinute?: number;
  /** Called on pause and resume (e.g. for a CLI line "rate limited, waiting 30 s"). */
  readonly onEvent?: (event: LimiterEvent) => void;
}

/** A shared queue for model calls. */
export interface Limiter {
  /** Runs `task` when a slot is free and the queue is not paused. A fired `signal` drops it from the queue. */
  run<T>(task: () => Promise<T>, options?: { signal?: AbortSignal }): Promise<T>;
  /**
   * Starts no new task for `ms` milliseconds (calls in flight go on). A longer pause extends the current one,
   * a shorter one does not shorten it.
   */
  pauseFor(ms: number, reason?: string): void;
  /** Calls running now. */
  readonly running: number;
  /** Calls waiting for a slot. */
  readonly waiting: number;
  /** Whether a pause is in effect. */
  readonly paused: boolean;
  /** Resolves when nothing is running or waiting. */
  onIdle(): Promise<void>;
}

/**
 * Creates a limiter to share between adapters: pass it as `limiter` to {@link gemini} and
 * {@link openaiCompatible}; their retry policy pauses it on 429.
 * @example
 * const limiter = createLimiter({ concurrency: 4, requestsPerMinute: 60 });
 * const proposer = gemini({ limiter });
 * const judge = gemini({ limiter });
 */
export function createLimiter(options: LimiterOptions = {}): Limiter {
  const { concurrency = 8, requestsPerMinute, onEvent } = options;
  if (!(concurrency >= 1)) throw new RangeError(`createLimiter: concurrency must be >= 1, got ${concurrency}`);
  if (requestsPerMinute !== undefined && !(requestsPerMinute >= 1)) {
    throw new RangeError(`createLimiter: requestsPerMinute must be >= 1, got ${requestsPerMinute}`);
  }
  const queue = new PQueue({
    concurrency,
    ...(requestsPerMinute !== undefined ? { intervalCap: requestsPerMinute, interval: 60_000, strict: true } : {}),
  });
  let resumeAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  return {
    run: (task, runOptions) => queue.add(task, { signal: runOptions?.signal }),
    pauseFor(ms, reason = 'rate limited') {
      const until = Date.now() + Math.max(0, ms);
      if (until <= resumeAt) return;
      resumeAt = until;
      queue.pause();
      if (timer) clearTimeout(timer);
      onEvent?.({ type: 'paused', ms, reason });
      timer = setTimeout(() => {
        timer = undefined;
        queue.start();
        onEvent?.({ type: 'resumed' });
      }, ms);
    },
    get running() {
      return queue.pending;
    },
    get waiting() {
      return queue.size;
    },
    get paused() {
      return queue.isPaused;
    },
    onIdle: () => queue.onIdle(),
  };
}
