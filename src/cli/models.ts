/**
 * Model selection for the CLI subcommands: `--model`, `--endpoint`, `--api-key-env` and `--base-url` become a
 * {@link LanguageModel}, with a one-line description to print. Keys come from the environment only.
 * @module
 */
import { scrubSecrets } from '../models/errors';
import { DEFAULT_GEMINI_MODEL, GEMINI_KEY_ENV, gemini } from '../models/gemini';
import { openaiCompatible } from '../models/openai-compatible';
import type { AdapterOptions } from '../models/retry';
import { modelTraits, type LanguageModel } from '../models/types';

/** The OpenAI API, for `gpt-*` and `o*` models given without `--endpoint`. */
export const OPENAI_API_URL = 'https://api.openai.com/v1';

/**
 * Options of {@link resolveModel}, as the CLI flags give them (`--timeout` is `timeoutMs`), with the adapters' own
 * options beside them; the key's source is named from the flags.
 */
export interface ResolveModelOptions extends Omit<AdapterOptions, 'keySource'> {
  /** `--model`. Default {@link DEFAULT_GEMINI_MODEL}. */
  readonly model?: string;
  /** `--endpoint URL`: an OpenAI-compatible server (vLLM...), such as `http://127.0.0.1:8000/v1`. */
  readonly endpoint?: string;
  /** `--api-key-env NAME`: the environment variable holding the key (instead of the provider's usual ones). */
  readonly apiKeyEnv?: string;
  /** `--base-url`: another Gemini API origin. Default env `GEMINI_BASE_URL` (how tests point a CLI run at a fake server). */
  readonly baseUrl?: string;
  /** Merged into each OpenAI-compatible request body (e.g. `chat_template_kwargs`). */
  readonly extraBody?: Readonly<Record<string, unknown>>;
}

/** A model chosen from CLI flags, with a line saying which one and where, for the CLI to print. */
export interface ResolvedModel extends LanguageModel {
  /** Such as `gemini-3.5-flash on the Gemini API (key from GEMINI_API_KEY)`; never contains key material. */
  readonly description: string;
}

/**
 * Picks the model the flags ask for: with `endpoint`, the model on that OpenAI-compatible server; else a
 * `gemini-*` model on the Gemini API, or a `gpt-*`/`o*` model on the OpenAI API. Throws a clear error (naming the
 * environment variables, never their values) when the key is missing or the model needs an endpoint.
 * @example
 * const judge = resolveModel({ model: opts.model, endpoint: opts.endpoint, limiter });
 * process.stderr.write(`judge: ${judge.description}\n`);
 */
export function resolveModel(options: ResolveModelOptions = {}): ResolvedModel {
  const model = options.model ?? DEFAULT_GEMINI_MODEL;
  const env = options.env ?? process.env;
  const shared = { retry: options.retry, limiter: options.limiter, downscale: options.downscale, timeoutMs: options.timeoutMs };
  if (options.endpoint) {
    const apiKey = options.apiKeyEnv ? requireKey(env, [options.apiKeyEnv], model) : undefined;
    const llm = openaiCompatible({
      ...shared, baseURL: options.endpoint, model, apiKey: apiKey ?? 'EMPTY', extraBody: options.extraBody,
      keySource: options.apiKeyEnv ?? 'the key (none was sent: give --api-key-env NAME)',
    });
    const keyNote = options.apiKeyEnv ? `key from ${options.apiKeyEnv}` : 'no key';
    return describe(llm, `${model} on the OpenAI-compatible server ${scrubSecrets(options.endpoint)} (${keyNote})`);
  }
  if (isGeminiModel(model)) {
    const names = options.apiKeyEnv ? [options.apiKeyEnv] : [...GEMINI_KEY_ENV];
    const apiKey = requireKey(env, names, model);
    const baseUrl = options.baseUrl ?? env.GEMINI_BASE_URL;
    const llm = gemini({ ...shared, model, apiKey, baseUrl, keySource: names.find((name) => env[name]) });
    const where = baseUrl ? `the Gemini API at ${scrubSecrets(baseUrl)}` : 'the Gemini API';
    return describe(llm, `${model} on ${where} (key from ${names.find((name) => env[name])})`);
  }
  if (isOpenAIModel(model)) {
    const names = [options.apiKeyEnv ?? 'OPENAI_API_KEY'];
    const apiKey = requireKey(env, names, model);
    const llm = openaiCompatible({ ...shared, baseURL: OPENAI_API_URL, model, apiKey, providerName: 'openai', keySource: names[0] });
    return describe(llm, `${model} on the OpenAI API (key from ${names[0]})`);
  }
  throw new Error(
    `model "${model}" needs --endpoint URL (an OpenAI-compatible server such as vLLM); ` +
      'only gemini-* and OpenAI gpt-*/o* models run without one',
  );
}

/** Whether `model` names a Gemini model (`gemini-*`, optionally with a `models/` prefix). */
export function isGeminiModel(model: string): boolean {
  return /^(models\/)?gemini-/.test(model);
}

function isOpenAIModel(model: string): boolean {
  return /^(gpt-|o\d)/.test(model);
}

function requireKey(env: Readonly<Record<string, string | undefined>>, names: readonly string[], model: string): string {
  for (const name of names) {
    const value = env[name];
    if (value) return value;
  }
  throw new Error(`no API key for ${model}: set ${names.join(' or ')} in the environment`);
}

function describe(llm: LanguageModel, description: string): ResolvedModel {
  return { provider: llm.provider, modelId: llm.modelId, ...modelTraits(llm), description, complete: (prompt, call) => llm.complete(prompt, call) };
}
