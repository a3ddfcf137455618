/**
 * Any OpenAI-compatible chat-completions server (vLLM, SGLang, llama.cpp, Ollama, OpenAI itself) through the
 * `openai` SDK, with our retry policy and shared limiter instead of the SDK's retries.
 * @module
 */
import type OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { rememberSecret, redactKnownSecrets } from '../core/secrets';
import { assertApiUrl, jsonCheckingFetch, toLLMError } from './errors';
import { encodeCallImages, type EncodedImage } from './images';
import { callWithRetry, type AdapterOptions, type CallContext } from './retry';
import { DEFAULT_TIMEOUT_MS, LLMError, replyError, type CompleteOptions, type Completion, type LanguageModel, type Usage } from './types';

/** Options of {@link openaiCompatible}. */
export interface OpenAICompatibleOptions extends AdapterOptions {
  /** The server's API root, such as `http://127.0.0.1:8000/v1`. */
  readonly baseURL: string;
  /** The served model name, such as `Qwen/Qwen3.5-4B`. */
  readonly model: string;
  /** The API key. Default: env `apiKeyEnv`, else `EMPTY` (local servers need none). */
  readonly apiKey?: string;
  /** The environment variable read for the key when `apiKey` is not given. Default `OPENAI_API_KEY`. */
  readonly apiKeyEnv?: string;
  /** Merged into every request body, e.g. vLLM's `{chat_template_kwargs: {enable_thinking: false}}`. */
  readonly extraBody?: Readonly<Record<string, unknown>>;
  /** More HTTP headers on every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Whether the server takes `response_format` (JSON mode). Default true; false leaves JSON to the prompt. */
  readonly supportsJsonMode?: boolean;
  /** Whether the server takes `response_format: json_schema` (structured outputs). Default true; false sends `json_object` even with a schema. */
  readonly structuredOutputs?: boolean;
  /** The provider name recorded in usage and errors. Default `openai-compatible`. */
  readonly providerName?: string;
}

/**
 * A {@link LanguageModel} on an OpenAI-compatible server.
 * @example
 * const agent = openaiCompatible({
 *   baseURL: 'http://127.0.0.1:8000/v1',
 *   model: 'Qwen/Qwen3.5-4B',
 *   extraBody: { chat_template_kwargs: { enable_thinking: false } },
 * });
 */
export function openaiCompatible(options: OpenAICompatibleOptions): LanguageModel {
  const { model, baseURL } = options;
  const provider = options.providerName ?? 'openai-compatible';
  const env = options.env ?? process.env;
  const keyEnv = options.apiKeyEnv ?? 'OPENAI_API_KEY';
  const apiKey = options.apiKey ?? env[keyEnv] ?? 'EMPTY';
  rememberSecret(apiKey);
  const keySource =
    options.keySource ??
    (options.apiKey !== undefined ? 'the apiKey option' : env[keyEnv] ? keyEnv : `the API key (none was sent: set ${keyEnv})`);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  assertApiUrl(baseURL, { provider, model, what: 'the endpoint' });
  // The SDK is loaded on the first call, so importing the library stays cheap.
  let client: Promise<OpenAI> | undefined;
  const connect = async () =>
    new (await import('openai')).default({
      apiKey,
      baseURL,
      maxRetries: 0, // our policy retries
      timeout: timeoutMs,
      logLevel: 'off', // the library prints nothing
      fetch: jsonCheckingFetch(),
      ...(options.headers ? { defaultHeaders: { ...options.headers } } : {}),
    });

  return {
    provider,
    modelId: model,
    endpoint: baseURL,
    async check(call: { readonly signal?: AbortSignal } = {}): Promise<string> {
      const context: CallContext = { provider, model, secrets: [apiKey], signal: call.signal, keySource, timeoutMs, endpoint: baseURL };
      const sdk = await (client ??= connect());
      let served: string[];
      try {
        const page = await sdk.models.list(call.signal ? { signal: call.signal } : undefined);
        served = page.data.map((m) => m.id);
      } catch (error) {
        const failure = toLLMError(error, context);
        // A server without a model list (some proxies) answers, but cannot say what it serves.
        if (failure.status === 404) return 'the server answers; it has no model list, so the model is not checked';
        throw failure;
      }
      if (!served.includes(model)) {
        const hint = `name one of the models it serves (${served.join(', ') || 'none'}), or start the server with ${model}`;
        throw new LLMError(`${provider} model ${model}: ${baseURL} does not serve it; ${hint}`, { provider, model, isRetryable: false, status: 404, hint });
      }
      return 'the server answers and serves it';
    },
    async complete(prompt: string, call: CompleteOptions = {}): Promise<Completion> {
      const context: CallContext = {
        provider, model, secrets: [apiKey], signal: call.signal, retry: options.retry, limiter: options.limiter,
        keySource, timeoutMs, endpoint: baseURL,
      };
      const body = {
        ...(await requestBody(prompt, call, options, provider)),
        ...options.extraBody,
      } as ChatCompletionCreateParamsNonStreaming;
      const sdk = await (client ??= connect());
      // The SDK adds an abort listener to the signal it is given and never removes it: given the caller's signal
      // (one per episode), listeners pile up call after call. It gets a signal of its own per call instead.
      const link = linkedSignal(call.signal);
      try {
        const response = await callWithRetry(
          () => sdk.chat.completions.create(body, link ? { signal: link.signal } : undefined),
          context,
        );
        // A proxy or model may echo the key back in a successful reply: it never reaches an episode or row.
        return { text: redactKnownSecrets(replyContent(response, provider, model)), usage: usageOf(response), model };
      } finally {
        link?.unlink();
      }
    },
  };
}

/** A signal that fires when `parent` does, and `unlink` to drop the listener on `parent` once the call is over. */
function linkedSignal(parent: AbortSignal | undefined): { signal: AbortSignal; unlink: () => void } | undefined {
  if (!parent) return undefined;
  const controller = new AbortController();
  const abort = () => controller.abort(parent.reason);
  if (parent.aborted) abort();
  else parent.addEventListener('abort', abort, { once: true });
  return { signal: controller.signal, unlink: () => parent.removeEventListener('abort', abort) };
}

/** The reply's text; a 2xx body that is not a chat completion is an {@link LLMError}, not a `TypeError` later. */
function replyContent(response: unknown, provider: string, model: string): string {
  const choices = (response as { choices?: unknown } | null)?.choices;
  const message = Array.isArray(choices) ? (choices[0] as { message?: unknown } | undefined)?.message : undefined;
  const content = (message as { content?: unknown } | null | undefined)?.content;
  let problem: string | undefined;
  if (typeof response !== 'object' || response === null) problem = `the body is ${typeof response}, not a chat completion`;
  else if (!Array.isArray(choices)) problem = 'no "choices" list';
  else if (choices.length === 0) problem = '"choices" is empty';
  else if (typeof message !== 'object' || message === null) problem = 'no "choices[0].message"';
  else if (content !== undefined && content !== null && typeof content !== 'string') problem = `"choices[0].message.content" is not a string but ${Array.isArray(content) ? 'a list' : `a ${typeof content}`}`;
  if (problem) throw new LLMError(`${provider} model ${model}: malformed reply: ${problem}`, { provider, model, isRetryable: false });
  const text = (content as string | null | undefined) ?? '';
  const finish = (choices as Array<{ finish_reason?: unknown }>)[0]!.finish_reason;
  const reason = typeof finish === 'string' ? finish : null;
  const refusal = (message as { refusal?: unknown }).refusal;
  // A reply without an answer still used (and bills) tokens.
  const usage = usageOf(response as ChatCompletion);
  if (reason === 'content_filter') throw replyError(provider, model, { reason: 'blocked', providerReason: reason, text, usage });
  if (typeof refusal === 'string' && refusal !== '') throw replyError(provider, model, { reason: 'blocked', providerReason: 'refusal', text, usage }, refusal.slice(0, 200));
  if (reason === 'length') throw replyError(provider, model, { reason: 'cut', providerReason: reason, text, usage });
  if (text.trim() === '') throw replyError(provider, model, { reason: 'empty', providerReason: reason, text, usage });
  return text;
}

async function requestBody(
  prompt: string,
  call: CompleteOptions,
  options: OpenAICompatibleOptions,
  provider: string,
): Promise<ChatCompletionCreateParamsNonStreaming> {
  const messages: ChatCompletionMessageParam[] = [];
  if (call.system !== undefined) messages.push({ role: 'system', content: call.system });
  const images = await encodeCallImages(call.images, { downscale: options.downscale, provider, model: options.model });
  messages.push({ role: 'user', content: userContent(prompt, images) });
  const responseFormat = responseFormatOf(call, options);
  return {
    model: options.model,
    messages,
    ...(call.maxTokens !== undefined ? { max_tokens: call.maxTokens } : {}),
    ...(call.temperature !== undefined ? { temperature: call.temperature } : {}),
    ...(call.seed !== undefined ? { seed: call.seed } : {}),
    ...(responseFormat ? { response_format: responseFormat } : {}),
  };
}

/** The prompt alone as a string; with images, a text part then one `image_url` data-URL part per image. */
function userContent(prompt: string, images: readonly EncodedImage[]): string | ChatCompletionContentPart[] {
  if (images.length === 0) return prompt;
  return [
    { type: 'text', text: prompt },
    ...images.map((image): ChatCompletionContentPart => ({
      type: 'image_url',
      image_url: { url: `data:${image.mediaType};base64,${image.base64}` },
    })),
  ];
}

function responseFormatOf(
  call: CompleteOptions,
  options: OpenAICompatibleOptions,
): ChatCompletionCreateParamsNonStreaming['response_format'] {
  if (options.supportsJsonMode === false) return undefined;
  if (call.jsonSchema !== undefined && options.structuredOutputs !== false) {
    return { type: 'json_schema', json_schema: { name: 'response', schema: call.jsonSchema, strict: true } };
  }
  if (call.json || call.jsonSchema !== undefined) return { type: 'json_object' };
  return undefined;
}

function usageOf(response: ChatCompletion): Usage {
  return {
    inputTokens: response.usage?.prompt_tokens ?? 0,
    outputTokens: response.usage?.completion_tokens ?? 0,
  };
}
