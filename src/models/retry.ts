/**
 * The one retry policy of every model adapter: exponential backoff with full jitter on 408, 429, 5xx and
 * network errors; the server's `Retry-After` (or Gemini's `retryDelay`) when it gives one; never on other 4xx.
 * @module
 */
import { setTimeout as sleepFor } from 'node:timers/promises';
import { isTimeout, toLLMError, type ErrorContext } from './errors';
import type { Limiter } from './limiter';
import { LLMError } from './types';

/** A retry about to happen, for progress output and logs (the error is already scrubbed of keys). */
export interface RetryEvent {
  /** Always `retry`. */
  readonly type: 'retry';
  /** The provider of the model being called. */
  readonly provider: string;
  /** The model being called. */
  readonly model: string;
  /** 1 for the first retry. */
  readonly attempt: number;
  /** How long we wait before it. */
  readonly delayMs: number;
  /** Why. */
  readonly error: LLMError;
}

/**
 * What every model adapter takes beside its endpoint and model: the image size, the time limit of one attempt, the
 * retry policy, the run's shared limiter, and where the key comes from.
 */
export interface AdapterOptions {
  /** Downscale images whose longer side exceeds this many pixels. Default: send them as given. */
  readonly downscale?: number;
  /** Gives up on one attempt after this many ms (then it is retried once as a timeout). Default {@link DEFAULT_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  /** The retry policy (retries, delays, `onRetry`). */
  readonly retry?: RetryOptions;
  /** The run's shared limiter, see {@link createLimiter}. */
  readonly limiter?: Limiter;
  /** The environment to read the key from. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where the key came from, named in the hint on a 401 or 403. Default: the option or variable it was read from. */
  readonly keySource?: string;
}

/** Options of the retry policy. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 4. */
  readonly maxRetries?: number;
  /** The first backoff's ceiling, in ms; it doubles per retry. Default 1000. */
  readonly baseDelayMs?: number;
  /** The largest backoff, in ms. Default 30 000. */
  readonly maxDelayMs?: number;
  /**
   * The longest server-requested wait (`Retry-After`) we honour, in ms. Past it the call fails at once, so a
   * quota reset hours away does not hang a run. Default 300 000.
   */
  readonly maxRetryAfterMs?: number;
  /**
   * Retries after an attempt that ran out of time (the adapter's `timeoutMs`). Default 1: a model that hangs
   * costs two time limits, not five, before the call fails.
   */
  readonly maxTimeoutRetries?: number;
  /** Called before each retry. */
  readonly onRetry?: (event: RetryEvent) => void;
  /** Waits `ms`, rejecting when `signal` fires. Default: a timer. Tests inject their own. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A random number in [0, 1) for the jitter. Default `Math.random`. */
  readonly random?: () => number;
}

/** What one model call runs under: who it calls (for errors), the policy, the shared limiter, the signal. */
export interface CallContext extends ErrorContext {
  /** The retry policy. Default its defaults (4 retries, 1 s to 30 s backoff). */
  readonly retry?: RetryOptions;
  /** Shared concurrency and rate limit; each attempt takes a slot. Default none. */
  readonly limiter?: Limiter;
}

/**
 * The wait before retry number `retry` (0-based) after `error`, in ms: the server's `Retry-After` when given,
 * else full jitter `random() * min(maxDelayMs, baseDelayMs * 2^retry)`. `undefined` when the server asks for a
 * wait longer than `maxRetryAfterMs`.
 */
export function retryDelay(retry: number, error: LLMError, options: RetryOptions = {}): number | undefined {
  const { baseDelayMs = 1000, maxDelayMs = 30_000, maxRetryAfterMs = 300_000, random = Math.random } = options;
  if (error.retryAfter !== undefined) {
    const ms = Math.ceil(error.retryAfter * 1000);
    return ms <= maxRetryAfterMs ? ms : undefined;
  }
  return Math.floor(random() * Math.min(maxDelayMs, baseDelayMs * 2 ** retry));
}

/**
 * Runs `attempt` under the retry policy and the limiter (each attempt takes a slot; the wait between attempts
 * does not). A 429 pauses the whole limiter for the wait. Rejects with an {@link LLMError} naming the provider,
 * the model and the status, scrubbed of `context.secrets`.
 */
export async function callWithRetry<T>(attempt: () => Promise<T>, context: CallContext): Promise<T> {
  const options = context.retry ?? {};
  const maxRetries = options.maxRetries ?? 4;
  const sleep = options.sleep ?? defaultSleep;
  const maxTimeoutRetries = options.maxTimeoutRetries ?? 1;
  const { limiter, signal } = context;
  let timeouts = 0;
  for (let retry = 0; ; retry++) {
    let error: LLMError;
    try {
      if (signal?.aborted) throw signal.reason;
      return await (limiter ? limiter.run(attempt, { signal }) : attempt());
    } catch (thrown) {
      if (isTimeout(thrown) && !signal?.aborted) timeouts++;
      error = toLLMError(thrown, context);
    }
    const outOfTime = timeouts > maxTimeoutRetries;
    if (!error.isRetryable || retry >= maxRetries || outOfTime) throw retry > 0 ? afterAttempts(error, retry + 1) : error;
    const delayMs = retryDelay(retry, error, options);
    if (delayMs === undefined) throw tooLongToWait(error);
    if (error.status === 429) limiter?.pauseFor(delayMs, `${error.provider} ${error.model}: HTTP 429`);
    options.onRetry?.({
      type: 'retry', provider: context.provider, model: context.model, attempt: retry + 1, delayMs, error,
    });
    try {
      await sleep(delayMs, signal);
    } catch (thrown) {
      throw toLLMError(thrown, context);
    }
  }
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return sleepFor(ms, undefined, { signal });
}

function afterAttempts(error: LLMError, attempts: number): LLMError {
  return rebuild(error, `${error.message} (gave up after ${attempts} attempts)`, error.isRetryable);
}

function tooLongToWait(error: LLMError): LLMError {
  return rebuild(error, `${error.message} (the server asks to wait ${error.retryAfter} s: too long, not retried)`, false);
}

function rebuild(error: LLMError, message: string, isRetryable: boolean): LLMError {
  return new LLMError(message, {
    provider: error.provider,
    model: error.model,
    status: error.status,
    retryAfter: error.retryAfter,
    isRetryable,
    cause: error.cause,
    hint: error.hint,
    timedOut: error.timedOut,
  });
}
