/**
 * The LLM adapter interface: one small, frozen contract that every model adapter implements (Gemini, any
 * OpenAI-compatible server, the fake for tests, the sandbox's stand-ins).
 * @module
 */

/** An image passed to the model: the file's bytes and its media type. */
export interface ImageInput {
  /** The encoded image (PNG or JPEG). */
  readonly data: Uint8Array;
  /** `image/png` or `image/jpeg`. */
  readonly mediaType: 'image/png' | 'image/jpeg';
  /** Where it came from, for logs and tests (a path relative to the run). */
  readonly name?: string;
}

/** Options of one completion call. */
export interface CompleteOptions {
  /** The system prompt (Gemini: the system instruction). */
  readonly system?: string;
  /** Ask for a JSON reply (Gemini: `responseMimeType: application/json`; OpenAI: `response_format`). */
  readonly json?: boolean;
  /** A JSON schema for the reply, where the provider supports one; implies `json`. */
  readonly jsonSchema?: Record<string, unknown>;
  /** The most tokens the model may write. */
  readonly maxTokens?: number;
  /** Sampling temperature. */
  readonly temperature?: number;
  /** The sampling seed, where the server takes one (OpenAI-compatible `seed`, Gemini `seed`): repeatable samples. */
  readonly seed?: number;
  /** Images, in order, after the prompt text. */
  readonly images?: readonly ImageInput[];
  /** Cancels the call. */
  readonly signal?: AbortSignal;
}

/** Tokens used by a call. */
export interface Usage {
  /** Tokens of the prompt (text and images), as the provider counts them. */
  readonly inputTokens: number;
  /** Tokens of the reply, as the provider counts them. */
  readonly outputTokens: number;
}

/** What a completion call returns. */
export interface Completion {
  /** The model's text reply (possibly empty). */
  readonly text: string;
  /** Tokens in and out; zeros when the provider does not say. */
  readonly usage: Usage;
  /** The model that answered. */
  readonly model: string;
}

/** A language model behind some provider. Implementations must be safe to call concurrently. */
export interface LanguageModel {
  /** `gemini`, `openai-compatible`, `fake`, `sandbox`... */
  readonly provider: string;
  /** The model name, as recorded in judge records and episodes. */
  readonly modelId: string;
  /** The API root the model is served at, when the adapter knows it: recorded in a run's set-up. */
  readonly endpoint?: string;
  /**
   * Checks without a paid call that the model can be reached (an OpenAI-compatible server answers `GET /models`
   * and lists the model); resolves with what it found, rejects with an {@link LLMError} whose `hint` says what
   * to do. Used by `preflight`.
   */
  check?(options?: { readonly signal?: AbortSignal }): Promise<string>;
  /** Sends one prompt and resolves with the reply, or rejects with an {@link LLMError}. */
  complete(prompt: string, options?: CompleteOptions): Promise<Completion>;
}

/**
 * A reply that came back (HTTP 200) but holds no usable answer, as the provider said: `blocked` (a safety or
 * content filter: Gemini's `promptFeedback.blockReason` or `finishReason` SAFETY, RECITATION...; OpenAI's
 * `content_filter`), `cut` at the token limit (`MAX_TOKENS`, `length`), or `empty`.
 */
export interface ReplyProblem {
  /** What is wrong with the reply. */
  readonly reason: 'blocked' | 'cut' | 'empty';
  /** The provider's own reason (`SAFETY`, `MAX_TOKENS`, `length`...), when it gave one. */
  readonly providerReason: string | null;
  /** The text the reply did hold (a cut reply's start), `''` when none. */
  readonly text: string;
  /**
   * The tokens the call used, as the provider counted them (`usageMetadata`, `usage`): a blocked, cut or empty reply
   * is billed too, so usage meters count it. Absent when the provider did not say.
   */
  readonly usage?: Usage;
}

/** A failed model call. `isRetryable` says whether trying again may help (408, 429, 5xx, network errors). */
export class LLMError extends Error {
  /** Always `LLMError`. */
  override readonly name = 'LLMError';
  /** Whether a retry may succeed. */
  readonly isRetryable: boolean;
  /** The HTTP status, when there was a response. */
  readonly status: number | undefined;
  /** The model that was called. */
  readonly model: string;
  /** The provider of the model. */
  readonly provider: string;
  /** Seconds the server asked us to wait (Retry-After), when it said. */
  readonly retryAfter: number | undefined;
  /** What the user can do about it, such as `check GEMINI_API_KEY` (also at the end of the message). */
  readonly hint: string | undefined;
  /** Whether the call ran out of its time limit (`timeoutMs`). */
  readonly timedOut: boolean;
  /** Set when the call was answered but the reply was blocked, cut or empty. */
  readonly reply: ReplyProblem | undefined;
  constructor(
    message: string,
    options: {
      model: string;
      provider: string;
      isRetryable: boolean;
      status?: number;
      retryAfter?: number;
      cause?: unknown;
      hint?: string;
      timedOut?: boolean;
      reply?: ReplyProblem;
    },
  ) {
    super(message, { cause: options.cause });
    this.isRetryable = options.isRetryable;
    this.status = options.status;
    this.model = options.model;
    this.provider = options.provider;
    this.retryAfter = options.retryAfter;
    this.hint = options.hint;
    this.timedOut = options.timedOut ?? false;
    this.reply = options.reply;
  }
}

/**
 * The default time limit of one attempt at a model call, in ms: long enough for a judge call with images and
 * thinking, short enough that a model that hangs fails within minutes, not the better part of an hour.
 */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** Usage with nothing counted. */
export const ZERO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0 });

/** `a` plus `b`, token by token; `a` itself when there is no `b`. */
export function addUsage(a: Usage, b?: Usage): Usage {
  return b ? { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens } : a;
}

/** A wrapper's copy of what a model says about itself besides calls: its endpoint and its check. */
export function modelTraits(llm: LanguageModel): Pick<LanguageModel, 'endpoint' | 'check'> {
  return {
    ...(llm.endpoint !== undefined ? { endpoint: llm.endpoint } : {}),
    ...(llm.check ? { check: (options?: { readonly signal?: AbortSignal }) => llm.check!(options) } : {}),
  };
}

/**
 * The error for a reply that is blocked, cut or empty, naming the provider's reason. Not retryable: the same
 * request gets the same filter or limit; a caller with its own tries (the judge's 3) tries again.
 */
export function replyError(provider: string, model: string, reply: ReplyProblem, detail?: string): LLMError {
  const why = reply.providerReason ? ` (${reply.providerReason}${detail ? `: ${detail}` : ''})` : detail ? ` (${detail})` : '';
  const what = {
    blocked: `the reply was blocked by the provider's filter${why}`,
    cut: `the reply was cut at the token limit${why}; raise the limit (maxTokens) or ask for a shorter answer`,
    empty: `the reply was empty${why}`,
  }[reply.reason];
  return new LLMError(`${provider} model ${model}: ${what}`, { provider, model, isRetryable: false, reply });
}
