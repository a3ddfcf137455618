/**
 * Turns whatever an SDK or `fetch` throws into an {@link LLMError}: the HTTP status, whether a retry may help,
 * how long the server asked us to wait, and a message with every key-like string scrubbed out.
 * @module
 */
import { REDACTED, redactSecrets } from '../core/secrets';
import { LLMError } from './types';

/** Who was called, and the secrets that must never appear in an error. */
export interface ErrorContext {
  /** The provider called (`gemini`, `openai-compatible`...), named in every error. */
  readonly provider: string;
  /** The model called, named in every error. */
  readonly model: string;
  /** Strings to blank out of messages, stacks and causes (the API key). */
  readonly secrets?: readonly string[];
  /** The caller's signal: an error after it fired is an abort, not a failure to retry. */
  readonly signal?: AbortSignal;
  /** Where the key came from, for the hint on a 401 or 403, such as `GEMINI_API_KEY` or `the apiKey option`. */
  readonly keySource?: string;
  /** The per-attempt time limit, for the message when it ran out. */
  readonly timeoutMs?: number;
  /** The API's URL (scrubbed before use), for the hint on a network error. */
  readonly endpoint?: string;
}

/** HTTP statuses that no retry, and no other episode or batch, can cure: a bad key, an unknown model, a bad request. */
export const FATAL_STATUSES: ReadonlySet<number> = new Set([400, 401, 403, 404]);

/**
 * Whether a failed call means every other call of the stage will fail the same way (a bad key, an unknown model,
 * a request the server refuses), so the stage should stop at once instead of marking each item failed.
 */
export function isFatalLLMError(error: unknown): error is LLMError {
  return error instanceof LLMError && error.status !== undefined && FATAL_STATUSES.has(error.status);
}

/** What the user can do about a failure, from its status and the call's context; `undefined` when nothing useful. */
export function hintFor(failure: { status?: number; timedOut?: boolean; network?: boolean }, context: ErrorContext): string | undefined {
  const { status } = failure;
  if (status === 401 || status === 403) return `check ${context.keySource ?? 'the API key'}`;
  if (status === 404) return `check the model name "${context.model}" and the API URL`;
  if (status === 429) return 'rate-limited; lower the request rate (--rpm) or the workers';
  if (failure.timedOut) {
    const after = context.timeoutMs !== undefined ? ` within ${context.timeoutMs / 1000} s` : '';
    return `no answer${after}; raise the time limit (--timeout SECONDS, or timeoutMs) if the model is just slow`;
  }
  if (failure.network) return `check that the server${context.endpoint ? ` at ${scrubSecrets(context.endpoint)}` : ''} is up and reachable`;
  return undefined;
}

function withHint(message: string, hint: string | undefined): string {
  return hint ? `${message} (${hint})` : message;
}

/**
 * A non-2xx HTTP answer, thrown by {@link statusCapturingFetch} before an SDK turns it into its own error, so
 * that the response headers (`Retry-After`) survive.
 */
export class HttpStatusError extends Error {
  override readonly name = 'HttpStatusError';
  readonly status: number;
  readonly headers: Headers;
  readonly bodyText: string;
  constructor(status: number, headers: Headers, bodyText: string) {
    super(`HTTP ${status}`);
    this.status = status;
    this.headers = headers;
    this.bodyText = bodyText;
  }
}

/**
 * A 2xx answer whose body is not a JSON document (an HTML page from a proxy, plain text, nothing at all), thrown by
 * {@link statusCapturingFetch} so that the caller gets a clear error instead of the SDK's parse failure.
 */
export class MalformedReplyError extends Error {
  /** Always `MalformedReplyError`. */
  override readonly name = 'MalformedReplyError';
  /** The HTTP status of the reply (a 2xx). */
  readonly status: number;
  constructor(status: number, contentType: string, bodyText: string) {
    const shown = bodyText.trim() === '' ? 'an empty body' : `"${oneLine(bodyText).slice(0, 120)}"`;
    super(`malformed reply: HTTP ${status} ${contentType || 'without a content type'} is not JSON (${shown})`);
    this.status = status;
  }
}

/**
 * Wraps `fetch` so that a non-2xx answer rejects with an {@link HttpStatusError} carrying its headers and body,
 * and a 2xx answer that is not JSON rejects with a {@link MalformedReplyError}.
 */
export function statusCapturingFetch(base: typeof fetch = fetch): typeof fetch {
  const checked = jsonCheckingFetch(base);
  return async (input, init) => {
    const response = await checked(input, init);
    if (!response.ok) throw new HttpStatusError(response.status, response.headers, await response.text().catch(() => ''));
    return response;
  };
}

/** Wraps `fetch` so that a 2xx answer that is not JSON rejects with a {@link MalformedReplyError}. */
export function jsonCheckingFetch(base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.ok) return response;
    const text = await response.text();
    if (parseJson(text.trim()) === undefined) {
      throw new MalformedReplyError(response.status, response.headers.get('content-type') ?? '', text);
    }
    // The body was read to check it; the SDK gets an identical, unread copy.
    return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/**
 * Refuses an API URL that carries credentials (`https://user:pass@host/`): they would travel in every request
 * and show up in logs, and the SDKs fail on them with errors that look like network faults. Keys belong in the
 * environment. Also refuses text that is not an http(s) URL. Throws an {@link LLMError} that is not retryable.
 */
export function assertApiUrl(url: string, context: { provider: string; model: string; what: string }): void {
  const { provider, model, what } = context;
  const refuse = (problem: string) => {
    throw new LLMError(scrubSecrets(`${provider} model ${model}: ${what} ${problem}`), { provider, model, isRetryable: false });
  };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse(`"${url}" is not a URL (expected such as http://127.0.0.1:8000/v1)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') refuse(`"${url}" is not an http(s) URL`);
  if (parsed.username || parsed.password) {
    refuse(
      `${parsed.protocol}//${REDACTED}@${parsed.host}${parsed.pathname} carries credentials (user:password@); ` +
        'remove them and give the key through the environment (--api-key-env NAME, or the apiKey option)',
    );
  }
}

const KEY_PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/([?&](?:key|api[_-]?key|access_token|token)=)[^&#\s"'<>]+/gi, `$1${REDACTED}`],
  [/\bAIza[0-9A-Za-z_-]{20,}/g, REDACTED],
  [/\bsk-[A-Za-z0-9_-]{6,}/g, REDACTED],
  [/(\bBearer\s+)[A-Za-z0-9._~+/-]+=*/gi, `$1${REDACTED}`],
  [/((?:x-goog-api-key|api[_-]?key|authorization)["']?\s*[:=]\s*["']?)[^"'\s,;}]+/gi, `$1${REDACTED}`],
  [/(\/\/)[^/@\s:]+:[^/@\s]+@/g, `$1${REDACTED}@`],
];

/**
 * Removes the given secrets and anything that looks like an API key or credential from `text`. Each secret is
 * removed as written and in the encodings a server or proxy may echo it in: URL-encoded (upper- or lower-case
 * hex, `+` for spaces), JSON-escaped, and base64 (standard and URL-safe, at any alignment inside a longer run).
 */
export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  let out = redactSecrets(text, secrets);
  for (const [pattern, replacement] of KEY_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/**
 * Parses a `Retry-After` value, in seconds: a number of seconds, an HTTP date, or a Google `retryDelay` such as
 * `"1.5s"`. `undefined` when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  const seconds = /^(\d+(?:\.\d+)?)s?$/.exec(text);
  if (seconds) return Number(seconds[1]);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - now) / 1000);
}

const RETRYABLE_STATUS = (status: number) => status === 408 || status === 429 || status >= 500;
const NETWORK_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTFOUND', 'ENETUNREACH',
  'EHOSTUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);
const NETWORK_NAMES = new Set(['APIConnectionError', 'APIConnectionTimeoutError', 'TimeoutError', 'FetchError']);

/** Converts anything thrown by a model call into an {@link LLMError} with a scrubbed message and cause chain. */
export function toLLMError(error: unknown, context: ErrorContext): LLMError {
  if (error instanceof LLMError) return error;
  const { provider, model } = context;
  const secrets = context.secrets ?? [];
  const cause = sanitizeError(error, secrets);
  const prefix = `${provider} model ${model}`;
  // The openai SDK wraps whatever its fetch throws in an APIConnectionError.
  const malformed = chainOf(error).find((e) => e instanceof MalformedReplyError);
  if (malformed) {
    return new LLMError(scrubSecrets(`${prefix}: ${malformed.message}`, secrets), { provider, model, isRetryable: false, cause });
  }
  if (context.signal?.aborted) {
    return new LLMError(`${prefix}: call aborted`, { provider, model, isRetryable: false, cause });
  }
  // An abort nobody asked for is the SDK's own per-attempt timeout.
  if (isTimeout(error)) {
    const after = context.timeoutMs !== undefined ? ` after ${context.timeoutMs / 1000} s` : '';
    return new LLMError(withHint(`${prefix}: timed out${after}`, hintFor({ timedOut: true }, context)), {
      provider, model, isRetryable: true, cause, hint: hintFor({ timedOut: true }, context), timedOut: true,
    });
  }
  const status = statusOf(error);
  if (status !== undefined) {
    const details = errorDetails(error);
    const text = details.message ? `: ${oneLine(details.message)}` : '';
    const hint = hintFor({ status }, context);
    return new LLMError(scrubSecrets(withHint(`${prefix}: HTTP ${status}${text}`, hint), secrets), {
      provider, model, status, isRetryable: RETRYABLE_STATUS(status), retryAfter: details.retryAfter, cause, hint,
    });
  }
  const code = networkCode(error);
  if (code !== undefined) {
    const hint = hintFor({ network: true }, context);
    return new LLMError(scrubSecrets(withHint(`${prefix}: network error (${code}): ${messageOf(error)}`, hint), secrets), {
      provider, model, isRetryable: true, cause, hint: hint && scrubSecrets(hint, secrets),
    });
  }
  return new LLMError(scrubSecrets(`${prefix}: ${messageOf(error)}`, secrets), { provider, model, isRetryable: false, cause });
}

/** A copy of an error and its cause chain with secrets scrubbed and only plain fields kept (name, message, code). */
export function sanitizeError(error: unknown, secrets: readonly string[], depth = 0): Error | undefined {
  if (error === undefined || error === null || depth > 5) return undefined;
  if (!(error instanceof Error)) return new Error(scrubSecrets(String(error), secrets));
  const copy = new Error(scrubSecrets(error.message, secrets), { cause: sanitizeError(error.cause, secrets, depth + 1) });
  copy.name = nameOf(error);
  copy.stack = scrubSecrets(error.stack ?? `${error.name}: ${error.message}`, secrets);
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') Object.assign(copy, { code });
  const status = statusOf(error);
  if (status !== undefined) Object.assign(copy, { status });
  return copy;
}

/** The error's name; the class name where the SDK left it as plain `Error` (openai's error classes do). */
function nameOf(error: Error): string {
  return error.name === 'Error' && error.constructor?.name ? error.constructor.name : error.name;
}

/** Whether a thrown value is an abort or a time-out (the SDKs' own per-attempt time limit, unless the caller aborted). */
export function isTimeout(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'AbortError' || error.name === 'TimeoutError' || nameOf(error) === 'APIConnectionTimeoutError';
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 100 && status < 600 ? status : undefined;
}

function chainOf(error: unknown): Error[] {
  const chain: Error[] = [];
  for (let e = error; e instanceof Error && chain.length < 6; e = e.cause) chain.push(e);
  return chain;
}

function networkCode(error: unknown): string | undefined {
  const chain = chainOf(error);
  // The socket's own code (ECONNREFUSED) says more than the SDK's wrapper (APIConnectionError).
  for (const e of chain) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
  }
  const named = chain.find((e) => NETWORK_NAMES.has(nameOf(e)));
  if (named) return nameOf(named);
  return chain.some((e) => e.name === 'TypeError' && e.message === 'fetch failed') ? 'fetch failed' : undefined;
}

/** The server's own message and wait hint from whichever error shape the SDK produced. */
function errorDetails(error: unknown): { message?: string; retryAfter?: number } {
  const e = error as { headers?: unknown; bodyText?: unknown; error?: unknown; message?: unknown };
  const headers = e.headers instanceof Headers ? e.headers : undefined;
  const fromHeader =
    retryAfterMs(headers?.get('retry-after-ms')) ?? parseRetryAfter(headers?.get('retry-after'));
  // Gemini errors carry a JSON body ({error: {message, details}}), as the body text or as the SDK's message.
  const body = parseJson(typeof e.bodyText === 'string' ? e.bodyText : typeof e.message === 'string' ? e.message : '');
  const googleError = (body as { error?: { message?: unknown; details?: unknown } } | undefined)?.error;
  const openaiError = e.error as { message?: unknown } | undefined;
  const message =
    stringOr(googleError?.message) ??
    stringOr(openaiError?.message) ??
    (typeof e.bodyText === 'string' ? e.bodyText.slice(0, 500) : undefined) ??
    stringOr(e.message);
  return { message, retryAfter: fromHeader ?? googleRetryDelay(googleError?.details) };
}

function googleRetryDelay(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    const delay = (detail as { retryDelay?: unknown } | null)?.retryDelay;
    if (typeof delay === 'string') return parseRetryAfter(delay);
  }
  return undefined;
}

function retryAfterMs(value: string | null | undefined): number | undefined {
  const ms = value ? Number(value) : NaN;
  return Number.isFinite(ms) && ms >= 0 ? ms / 1000 : undefined;
}

function parseJson(text: string): unknown {
  if (!text.startsWith('{')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return oneLine(String(error));
  const inner = error.cause instanceof Error && error.cause.message !== error.message ? `: ${error.cause.message}` : '';
  return oneLine(`${error.message}${inner}`);
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}
