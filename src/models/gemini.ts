/**
 * Gemini through `@google/genai` (the Gemini Developer API): system instruction, JSON mode and schema, inline
 * PNG/JPEG images, token usage, and our retry policy and shared limiter instead of the SDK's.
 * @module
 */
import type { GenerateContentConfig, GenerateContentResponse, GoogleGenAI, Part } from '@google/genai';
import { rememberSecret, redactKnownSecrets } from '../core/secrets';
import { assertApiUrl, statusCapturingFetch } from './errors';
import { encodeCallImages } from './images';
import { callWithRetry, type AdapterOptions, type CallContext } from './retry';
import { DEFAULT_TIMEOUT_MS, LLMError, replyError, type CompleteOptions, type Completion, type LanguageModel, type Usage } from './types';

/** The default Gemini model of the proposer and the judge. */
export const DEFAULT_GEMINI_MODEL = 'gemini-3.5-flash';

/** Environment variables read for the Gemini API key, in order. */
export const GEMINI_KEY_ENV = ['GEMINI_API_KEY', 'GOOGLE_API_KEY'] as const;

/** Options of {@link gemini}. */
export interface GeminiOptions extends AdapterOptions {
  /** The model. Default {@link DEFAULT_GEMINI_MODEL}. */
  readonly model?: string;
  /** The API key. Default: env `GEMINI_API_KEY`, else `GOOGLE_API_KEY`. */
  readonly apiKey?: string;
  /** Another API origin (tests point it at a fake server on 127.0.0.1). */
  readonly baseUrl?: string;
  /** The API version in the path. Default the SDK's (`v1beta`). */
  readonly apiVersion?: string;
  /** More HTTP headers on every request. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A Gemini {@link LanguageModel}. Throws at once when no API key is given or found in the environment.
 * @example
 * const judge = gemini({ model: 'gemini-3.5-flash', limiter });
 * const { text, usage } = await judge.complete(prompt, { system, json: true, temperature: 0, images });
 */
export function gemini(options: GeminiOptions = {}): LanguageModel {
  const model = options.model ?? DEFAULT_GEMINI_MODEL;
  const env = options.env ?? process.env;
  const keyEnv = GEMINI_KEY_ENV.find((name) => env[name]);
  const apiKey = options.apiKey ?? (keyEnv && env[keyEnv]);
  if (!apiKey) {
    throw new LLMError(
      `gemini model ${model}: no API key; set ${GEMINI_KEY_ENV.join(' or ')} in the environment (or pass apiKey)`,
      { provider: 'gemini', model, isRetryable: false },
    );
  }
  rememberSecret(apiKey);
  const keySource = options.keySource ?? (options.apiKey !== undefined ? 'the apiKey option' : keyEnv);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (options.baseUrl !== undefined) assertApiUrl(options.baseUrl, { provider: 'gemini', model, what: 'the base URL' });
  // The SDK retries only when `httpOptions.retryOptions` is set; we leave it unset so that our policy applies.
  // The fetch wrapper keeps error responses' headers (Retry-After), which the SDK's own errors drop.
  // The SDK is loaded on the first call, so importing the library stays cheap.
  let client: Promise<GoogleGenAI> | undefined;
  const connect = async () =>
    new (await import('@google/genai')).GoogleGenAI({
      apiKey,
      vertexai: false,
      ...(options.apiVersion ? { apiVersion: options.apiVersion } : {}),
      httpOptions: {
        ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
        ...(options.headers ? { headers: { ...options.headers } } : {}),
        timeout: timeoutMs,
        fetch: statusCapturingFetch(),
      },
    });

  return {
    provider: 'gemini',
    modelId: model,
    endpoint: options.baseUrl ?? 'https://generativelanguage.googleapis.com',
    async complete(prompt: string, call: CompleteOptions = {}): Promise<Completion> {
      const context: CallContext = {
        provider: 'gemini', model, secrets: [apiKey], signal: call.signal, retry: options.retry, limiter: options.limiter,
        keySource, timeoutMs, endpoint: options.baseUrl ?? 'https://generativelanguage.googleapis.com',
      };
      const images = await encodeCallImages(call.images, { downscale: options.downscale, provider: 'gemini', model });
      const parts: Part[] = images.map((image) => ({ inlineData: { mimeType: image.mediaType, data: image.base64 } }));
      const config = generationConfig(call);
      const sdk = await (client ??= connect());
      const response = await callWithRetry(
        () =>
          sdk.models.generateContent({
            model,
            contents: [{ role: 'user', parts: [{ text: prompt }, ...parts] }],
            config,
          }),
        context,
      );
      // A proxy or model may echo the key back in a successful reply: it never reaches a task, record or row.
      return { text: redactKnownSecrets(replyText(response, model)), usage: usageOf(response), model };
    },
  };
}

function generationConfig(call: CompleteOptions): GenerateContentConfig {
  const json = call.json || call.jsonSchema !== undefined;
  return {
    ...(call.system !== undefined ? { systemInstruction: call.system } : {}),
    ...(call.temperature !== undefined ? { temperature: call.temperature } : {}),
    ...(call.seed !== undefined ? { seed: call.seed } : {}),
    ...(call.maxTokens !== undefined ? { maxOutputTokens: call.maxTokens } : {}),
    ...(json ? { responseMimeType: 'application/json' } : {}),
    ...(call.jsonSchema !== undefined ? { responseJsonSchema: call.jsonSchema } : {}),
    ...(call.signal ? { abortSignal: call.signal } : {}),
  };
}

// A candidate's finishReason that means the provider withheld the reply (safety, recitation, blocklist...).
const BLOCKED_FINISH = new Set(['SAFETY', 'RECITATION', 'LANGUAGE', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION']);

/**
 * The reply's text parts, without thought summaries (the SDK's `text` getter would warn on other parts). A blocked
 * prompt or reply, a reply cut at the token limit and an empty one are errors naming Gemini's reason.
 */
function replyText(response: GenerateContentResponse, model: string): string {
  const fail = (problem: string): never => {
    throw new LLMError(`gemini model ${model}: ${problem}`, { provider: 'gemini', model, isRetryable: false });
  };
  const candidates: unknown = (response as { candidates?: unknown } | null)?.candidates;
  const feedback = response?.promptFeedback;
  // A reply without an answer still used (and bills) tokens.
  const usage = usageOf(response);
  if (feedback?.blockReason) {
    throw replyError('gemini', model, { reason: 'blocked', providerReason: `prompt ${feedback.blockReason}`, text: '', usage }, feedback.blockReasonMessage);
  }
  if (!Array.isArray(candidates) || candidates.length === 0) fail(`malformed reply: no "candidates"`);
  const candidate = response.candidates![0]!;
  const parts: unknown = candidate.content?.parts ?? [];
  if (!Array.isArray(parts)) fail('malformed reply: "candidates[0].content.parts" is not a list');
  // A text part whose text is not a string would be dropped, and the reply then read as empty.
  (parts as Array<{ text?: unknown } | null>).forEach((part, i) => {
    const text = part?.text;
    if (text !== undefined && text !== null && typeof text !== 'string') {
      fail(`malformed reply: "candidates[0].content.parts[${i}].text" is not a string but ${Array.isArray(text) ? 'a list' : `a ${typeof text}`}`);
    }
  });
  const text = (parts as Part[])
    .filter((part) => typeof part.text === 'string' && !part.thought)
    .map((part) => part.text)
    .join('');
  const finish = candidate.finishReason ? String(candidate.finishReason) : null;
  if (finish && BLOCKED_FINISH.has(finish)) throw replyError('gemini', model, { reason: 'blocked', providerReason: finish, text, usage }, candidate.finishMessage);
  if (finish === 'MAX_TOKENS') throw replyError('gemini', model, { reason: 'cut', providerReason: finish, text, usage });
  if (text.trim() === '') throw replyError('gemini', model, { reason: 'empty', providerReason: finish, text, usage });
  return text;
}

function usageOf(response: GenerateContentResponse | null): Usage {
  const meta = response?.usageMetadata;
  return {
    inputTokens: meta?.promptTokenCount ?? 0,
    // Thinking tokens are billed as output.
    outputTokens: (meta?.candidatesTokenCount ?? 0) + (meta?.thoughtsTokenCount ?? 0),
  };
}
