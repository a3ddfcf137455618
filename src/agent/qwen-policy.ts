/**
 * The Qwen vision-language agent: one request per step to a model behind any OpenAI-compatible endpoint
 * (vLLM, SGLang...), with the agent prompt and the screenshot.
 * @module
 */
import { openaiCompatible } from '../models/openai-compatible';
import { LLMError, ZERO_USAGE, type LanguageModel } from '../models/types';
import { AGENT_SYSTEM_PROMPT, agentUserPrompt, withImageTag, type ImagePosition } from './prompt';
import { stepImageName } from '../files/layout';
import type { Policy } from './types';

/** Options of {@link qwenPolicy} common to both ways of naming the model. */
export interface QwenPolicyBaseOptions {
  /** Sampling temperature. Default 0 (greedy, reproducible). */
  readonly temperature?: number;
  /**
   * The sampling seed of try 1 (OpenAI's `seed`, which vLLM honours); try `n` of a run with several tries per task
   * uses `seed + n - 1` ({@link Policy.forTry}), so tries differ and each is repeatable. Default none (the server's).
   */
  readonly seed?: number;
  /** The most tokens per reply. Default 512, or 4096 with `thinking`. */
  readonly maxTokens?: number;
  /**
   * The model thinks before it answers (Qwen's `enable_thinking`), so it gets more tokens per reply. Given
   * `{baseURL, model}`, this also switches thinking on in the requests; given `{llm}`, the adapter must do that.
   * Default false.
   */
  readonly thinking?: boolean;
  /** The system prompt. Default {@link AGENT_SYSTEM_PROMPT}. */
  readonly system?: string;
  /** The most previous steps shown. Default 30. */
  readonly historyLimit?: number;
  /**
   * Where the adapter places the screenshot relative to the user text, so rows put `<image>` at the same
   * place. Default `after`, as {@link LanguageModel.complete} places images after the prompt text.
   */
  readonly imagePosition?: ImagePosition;
}

/** The model as a {@link LanguageModel} (an `openaiCompatible(...)` adapter, or any other). */
export interface QwenPolicyModelOptions extends QwenPolicyBaseOptions {
  /** The model asked for each action. */
  readonly llm: LanguageModel;
}

/** The model behind an OpenAI-compatible endpoint (vLLM): the policy builds the adapter. */
export interface QwenPolicyEndpointOptions extends QwenPolicyBaseOptions {
  /** The server's API root, such as `http://127.0.0.1:8000/v1`. */
  readonly baseURL: string;
  /** The served model name, such as `Qwen/Qwen3.5-4B`. */
  readonly model: string;
  /** The API key; default env `OPENAI_API_KEY`, else none. */
  readonly apiKey?: string;
  /** More fields for every request body (merged over the thinking switch). */
  readonly extraBody?: Readonly<Record<string, unknown>>;
  /** The time limit of one call attempt, in ms. Default the adapter's (120 s). */
  readonly timeoutMs?: number;
  /** Where the key came from, named in the hint on a 401 or 403 (such as `VLLM_KEY`). */
  readonly keySource?: string;
}

/** Options of {@link qwenPolicy}: a model, or an endpoint to build one for. */
export type QwenPolicyOptions = QwenPolicyModelOptions | QwenPolicyEndpointOptions;

/**
 * A policy that asks a Qwen VL model for each action: the system prompt (action space, JSON format), and a
 * user message with the task, the previous actions and their errors and the current observation, with the
 * screenshot as an image. Given `{baseURL, model}`, it talks to that OpenAI-compatible server (vLLM) with
 * thinking off (`chat_template_kwargs: {enable_thinking: false}`) unless `thinking` is set; given `{llm}`,
 * switching thinking on is that adapter's business, and `thinking` only says it is on.
 * @example
 * const policy = qwenPolicy({ baseURL: 'http://127.0.0.1:8000/v1', model: 'Qwen/Qwen3.5-4B' });
 */
export function qwenPolicy(options: QwenPolicyOptions): Policy {
  if (options.temperature !== undefined && !(Number.isFinite(options.temperature) && options.temperature >= 0)) {
    throw new RangeError(`qwenPolicy: temperature must be a number >= 0, got ${String(options.temperature)}`);
  }
  if (options.seed !== undefined && !Number.isSafeInteger(options.seed)) throw new RangeError(`qwenPolicy: seed must be an integer, got ${String(options.seed)}`);
  const llm = 'llm' in options ? options.llm : qwenModel(options);
  return qwenPolicyOf(options, llm);
}

// The policy on a built model: `forTry` shares the model (one client) and moves the seed on.
function qwenPolicyOf(options: QwenPolicyOptions, llm: LanguageModel): Policy {
  const thinking = options.thinking === true;
  const system = options.system ?? AGENT_SYSTEM_PROMPT;
  const position = options.imagePosition ?? 'after';
  const policy: Policy = {
    name: 'qwen',
    model: llm.modelId,
    ...(llm.endpoint !== undefined ? { endpoint: llm.endpoint } : {}),
    // Recorded in the set-up only when the caller chose to sample, so a greedy run's set-up is what it was.
    ...(options.temperature !== undefined || options.seed !== undefined
      ? { sampling: { temperature: options.temperature ?? 0, seed: options.seed ?? null } }
      : {}),
    forTry(n: number): Policy {
      if (!Number.isInteger(n) || n < 1) throw new RangeError(`qwenPolicy: try must be an integer >= 1, got ${String(n)}`);
      return n === 1 || options.seed === undefined ? policy : qwenPolicyOf({ ...options, seed: options.seed + n - 1 }, llm);
    },
    async decide(input) {
      const user = agentUserPrompt({ ...input, historyLimit: options.historyLimit ?? 30 });
      const messages = { system, user: withImageTag(user, position) };
      try {
        const completion = await llm.complete(user, {
          system,
          temperature: options.temperature ?? 0,
          ...(options.seed !== undefined ? { seed: options.seed } : {}),
          maxTokens: options.maxTokens ?? (thinking ? 4096 : 512),
          images: [{ data: input.observation.screenshot, mediaType: 'image/png', name: stepImageName(input.step) }],
          ...(input.signal ? { signal: input.signal } : {}),
        });
        return { text: completion.text, usage: completion.usage, messages };
      } catch (error) {
        // A reply cut at the token limit, or empty, is what the agent wrote: its step, fed back as a parse error.
        const reply = error instanceof LLMError ? error.reply : undefined;
        if (reply && reply.reason !== 'blocked') return { text: reply.text, usage: reply.usage ?? ZERO_USAGE, messages };
        throw error;
      }
    },
  };
  return policy;
}

/**
 * Qwen's chat-template switch for thinking, the one place `enable_thinking` is decided: the policy's requests, the
 * CLI's agent model and the default of a vLLM server started by {@link serveQwen} all take it from here.
 */
export function qwenChatTemplate(thinking: boolean): { readonly chat_template_kwargs: { readonly enable_thinking: boolean } } {
  return { chat_template_kwargs: { enable_thinking: thinking } };
}

/** Options of {@link qwenModel}: the endpoint, and whether the model thinks. */
export type QwenModelOptions = Pick<QwenPolicyEndpointOptions, 'baseURL' | 'model' | 'apiKey' | 'extraBody' | 'thinking' | 'timeoutMs' | 'keySource'>;

/**
 * The agent's model on an OpenAI-compatible Qwen endpoint (vLLM), thinking switched by the chat template: what
 * {@link qwenPolicy} builds from `{baseURL, model}`, for a pipeline's `agent` (with `agentThinking` the same).
 * @example
 * pipeline({ ..., agent: qwenModel({ baseURL: 'http://gpu-host:8000/v1', model: 'Qwen/Qwen3.5-4B' }) });
 */
export function qwenModel(options: QwenModelOptions): LanguageModel {
  return openaiCompatible({
    baseURL: options.baseURL,
    model: options.model,
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.keySource !== undefined ? { keySource: options.keySource } : {}),
    extraBody: { ...qwenChatTemplate(options.thinking === true), ...options.extraBody },
  });
}
