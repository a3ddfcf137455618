/**
 * Models: the `LanguageModel` interface and its adapters (Gemini, any OpenAI-compatible server, a scripted fake),
 * one retry policy, a shared limiter, and token and cost accounting. Internals live in `src/llm/`.
 * @module
 */
export { LLMError, type CompleteOptions, type Completion, type ImageInput, type LanguageModel, type Usage } from './llm/types';
export { gemini, DEFAULT_GEMINI_MODEL, type GeminiOptions } from './llm/gemini';
export { openaiCompatible, type OpenAICompatibleOptions } from './llm/openai-compatible';
export { fakeLLM, type FakeCall, type FakeLLM, type FakeLLMOptions, type FakeReply, type FakeResponder } from './llm/fake';
export { callWithRetry, type CallContext, type RetryEvent, type RetryOptions } from './llm/retry';
export { createLimiter, type Limiter, type LimiterEvent, type LimiterOptions } from './llm/limiter';
export {
  UsageMeter,
  withUsage,
  formatUsage,
  type UsageEntry,
  type UsageLine,
  type UsageMeterOptions,
  type UsageSummary,
  type UsageTotals,
  type WithUsageOptions,
} from './llm/usage';
export { DEFAULT_PRICES, type ModelPrice, type PriceTable } from './llm/prices';
export { scrubSecrets, isFatalLLMError, MalformedReplyError, type ErrorContext } from './llm/errors';
export { StageStoppedError, type CallFailure } from './failures';
