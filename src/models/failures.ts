/**
 * Failed model calls of a stage, with their causes: the first few kept for the summary and the CLI, and a guard
 * that stops the stage at once when no other call can succeed (a bad key, an unknown model, a refused request) or
 * when every call so far has failed (a server that is down or hangs), instead of marking each item failed.
 * @module
 */
import { isFatalLLMError } from './errors';
import { LLMError, modelTraits, type CompleteOptions, type Completion, type LanguageModel } from './types';

/** One failed model call, as the summary and the CLI show it. */
export interface CallFailure {
  /** The stage: `propose`, `attempt`, `judge`... */
  readonly stage: string;
  /** The site, task or episode it was for, when known. */
  readonly item?: string;
  /** The error's message (already scrubbed of keys by the adapter). */
  readonly message: string;
  /** The HTTP status, when the server answered. */
  readonly status?: number;
  /** The model's provider (`gemini`, `openai-compatible`...); absent when the error is not an {@link LLMError}. */
  readonly provider?: string;
  /** The model called; absent when the error is not an {@link LLMError}. */
  readonly model?: string;
  /** What to do about it, such as `check GEMINI_API_KEY`. */
  readonly hint?: string;
  /** Whether it stops the stage (401, 403, 404, 400). */
  readonly fatal: boolean;
}

/** A {@link CallFailure} from anything a model call threw. */
export function callFailureOf(error: unknown, stage: string, item?: string): CallFailure {
  const base = { stage, ...(item !== undefined ? { item } : {}) };
  if (!(error instanceof LLMError)) {
    return { ...base, message: error instanceof Error ? `${error.name}: ${error.message}` : String(error), fatal: false };
  }
  return {
    ...base,
    message: error.message,
    ...(error.status !== undefined ? { status: error.status } : {}),
    provider: error.provider,
    model: error.model,
    ...(error.hint !== undefined ? { hint: error.hint } : {}),
    fatal: isFatalLLMError(error),
  };
}

/** One line per failure: `judge tg-shop-1a2b: gemini model gemini-3.5-flash: HTTP 401: ... (check GEMINI_API_KEY)`. */
export function formatFailure(failure: CallFailure): string {
  return `${failure.stage}${failure.item !== undefined ? ` ${failure.item}` : ''}: ${failure.message}`;
}

/**
 * A stage stopped before its end because its model calls cannot succeed. Nothing is lost: what was done is kept,
 * and a rerun after the cause is fixed does the rest.
 */
export class StageStoppedError extends Error {
  /** Always `StageStoppedError`. */
  override readonly name = 'StageStoppedError';
  /** The stage that stopped. */
  readonly stage: string;
  /** The first failed calls, the one that stopped the stage first. */
  readonly failures: readonly CallFailure[];
  constructor(stage: string, reason: string, failures: readonly CallFailure[], options?: { cause?: unknown }) {
    const lines = failures.slice(0, 3).map((f) => `\n  ${formatFailure(f)}`).join('');
    super(`${stage} stopped: ${reason}; what was done is kept, rerun once the cause is fixed${lines}`, options);
    this.stage = stage;
    this.failures = failures;
  }
}

/** Whether an error must end the whole stage rather than one item of it. */
export function stopsStage(error: unknown): boolean {
  return error instanceof StageStoppedError || isFatalLLMError(error);
}

/** Options of {@link StageGuard}. */
export interface StageGuardOptions {
  /** Stop after this many failed calls in a row before any call has succeeded. Default 5; 0 never stops for that. */
  readonly failFast?: number;
  /** Failures kept with their causes. Default 5. */
  readonly keep?: number;
  /** Called with each failed call. */
  readonly onFailure?: (failure: CallFailure) => void;
}

/**
 * Watches a stage's model calls: wrap the model once per item with {@link StageGuard.wrap}. A fatal error (401,
 * 403, 404, 400), or `failFast` failures before any success, stops the stage: that call and every later one
 * reject with the same {@link StageStoppedError}. Safe to share between concurrent items.
 * @example
 * const guard = new StageGuard('judge');
 * await judgeEpisode({ ..., llm: guard.wrap(llm, taskId) });
 * guard.failures // the first causes, for the summary
 */
export class StageGuard {
  readonly stage: string;
  /** The first failed calls (at most `keep`). */
  readonly failures: CallFailure[] = [];
  /** Failed calls in all. */
  failed = 0;
  /** Calls that returned. */
  succeeded = 0;
  /** Set once the stage must stop. */
  stopped: StageStoppedError | undefined;
  /** Called once when the stage must stop (to abort work in flight, such as running episodes). */
  onStop: ((error: StageStoppedError) => void) | undefined;
  readonly #options: StageGuardOptions;

  constructor(stage: string, options: StageGuardOptions = {}) {
    this.stage = stage;
    this.#options = options;
  }

  /** Throws the stop error when the stage has stopped. */
  check(): void {
    if (this.stopped) throw this.stopped;
  }

  /** `llm` watched by this guard, its failures attributed to `item`. */
  wrap(llm: LanguageModel, item?: string): LanguageModel {
    return {
      provider: llm.provider,
      modelId: llm.modelId,
      ...modelTraits(llm),
      complete: (prompt: string, call?: CompleteOptions): Promise<Completion> => this.run(() => llm.complete(prompt, call), item),
    };
  }

  /** Runs one model call (or anything that makes one, such as a policy's step) under the guard. */
  async run<T>(call: () => Promise<T>, item?: string): Promise<T> {
    this.check();
    try {
      const result = await call();
      this.succeeded++;
      return result;
    } catch (error) {
      throw this.#failed(error, item);
    }
  }

  #failed(error: unknown, item: string | undefined): unknown {
    if (this.stopped) return this.stopped;
    // An abort by the caller is not the model's failure.
    if (error instanceof LLMError && /: call aborted$/.test(error.message)) return error;
    const failure = callFailureOf(error, this.stage, item);
    this.failed++;
    if (this.failures.length < (this.#options.keep ?? 5)) this.failures.push(failure);
    this.#options.onFailure?.(failure);
    const failFast = this.#options.failFast ?? 5;
    if (failure.fatal) {
      this.stopped = new StageStoppedError(this.stage, `${failure.model ?? 'the model'} cannot be used`, [failure], { cause: error });
    } else if (failFast > 0 && this.succeeded === 0 && this.failed >= failFast) {
      this.stopped = new StageStoppedError(this.stage, `the first ${this.failed} model calls all failed`, this.failures, { cause: error });
    }
    if (this.stopped) this.onStop?.(this.stopped);
    return this.stopped ?? error;
  }
}
