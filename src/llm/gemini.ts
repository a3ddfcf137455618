/**
 * Gemini through `@google/genai` (the Gemini Developer API): system instruction, JSON mode and schema, inline
 * PNG/JPEG images, token usage, and our retry policy and shared limiter instead of the SDK's.
 * @module
 */
import type { GenerateContentConfig, GenerateContentResponse, GoogleGenAI, Part } from '@google/genai';
import { statusCapturingFetch } from './errors';
import { encodeCallImages } from './images';
import type { Limiter } from './limiter';
import { callWithRetry, type CallContext, type RetryOptions } from './retry';
import { LLMError, type CompleteOptions, type Completion, type LanguageModel, type Usage } from './types';

/** The default Gemini model of the proposer and the judge. */
export const DEFAULT_GEMINI_MODEL = 'gemini-3.5-flash';

/** Environment variables read for the Gemini API key, in order. */
export const GEMINI_KEY_ENV = ['GEMINI_API_KEY', 'GOOGLE_API_KEY'] as const;

/** Options of {@link gemini}. */
export interface GeminiOptions {
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
  /** Downscale images whose longer side exceeds this many pixels. Default: send them as given. */
  readonly downscale?: number;
  /** Gives up on one attempt after this many ms (then it is retried as a timeout). Default 300 000. */
  readonly timeoutMs?: number;
  /** The retry policy (retries, delays, `onRetry`). */
  readonly retry?: RetryOptions;
  /** The run's shared limiter, see {@link createLimiter}. */
  readonly limiter?: Limiter;
  /** The environment to read the key from. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
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
  const apiKey = options.apiKey ?? GEMINI_KEY_ENV.map((name) => env[name]).find((value) => value);
  if (!apiKey) {
    throw new LLMError(
      `gemini model ${model}: no API key; set ${GEMINI_KEY_ENV.join(' or ')} in the environment (or pass apiKey)`,
      { provider: 'gemini', model, isRetryable: false },
    );
  }
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
        timeout: options.timeoutMs ?? 300_000,
        fetch: statusCapturingFetch(),
      },
    });

  return {
    provider: 'gemini',
    modelId: model,
    async complete(prompt: string, call: CompleteOptions = {}): Promise<Completion> {
      const context: CallContext = {
        provider: 'gemini', model, secrets: [apiKey], signal: call.signal, retry: options.retry, limiter: options.limiter,
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
      return { text: replyText(response), usage: usageOf(response), model };
    },
  };
}

function generationConfig(call: CompleteOptions): GenerateContentConfig {
  const json = call.json || call.jsonSchema !== undefined;
  return {
    ...(call.system !== undefined ? { systemInstruction: call.system } : {}),
    ...(call.temperature !== undefined ? { temperature: call.temperature } : {}),
    ...(call.maxTokens !== undefined ? { maxOutputTokens: call.maxTokens } : {}),
    ...(json ? { responseMimeType: 'application/json' } : {}),
    ...(call.jsonSchema !== undefined ? { responseJsonSchema: call.jsonSchema } : {}),
    ...(call.signal ? { abortSignal: call.signal } : {}),
  };
}

/** The reply's text parts, without thought summaries (the SDK's `text` getter would warn on other parts). */
function replyText(response: GenerateContentResponse): string {
  const parts = response.candidates?.[0]?.content?.parts ?? [];
  return parts
    .filter((part) => typeof part.text === 'string' && !part.thought)
    .map((part) => part.text)
    .join('');
}

function usageOf(response: GenerateContentResponse): Usage {
  const meta = response.usageMetadata;
  return {
    inputTokens: meta?.promptTokenCount ?? 0,
    // Thinking tokens are billed as output.
    outputTokens: (meta?.candidatesTokenCount ?? 0) + (meta?.thoughtsTokenCount ?? 0),
  };
}
