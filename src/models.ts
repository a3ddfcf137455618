/**
 * Models: the `LanguageModel` interface and its adapters (Gemini, any OpenAI-compatible server, a scripted fake),
 * one retry policy, a shared limiter, and token and cost accounting. Internals live in `src/models/`.
 * @module
 */
export { LLMError, type CompleteOptions, type Completion, type ImageInput, type LanguageModel, type ReplyProblem, type Usage } from './models/types';
export { gemini, DEFAULT_GEMINI_MODEL, type GeminiOptions } from './models/gemini';
export { openaiCompatible, type OpenAICompatibleOptions } from './models/openai-compatible';
export { fakeLLM, type FakeCall, type FakeLLM, type FakeLLMOptions, type FakeReply, type FakeResponder } from './models/fake';
export { callWithRetry, type AdapterOptions, type CallContext, type RetryEvent, type RetryOptions } from './models/retry';
export { createLimiter, type Limiter, type LimiterEvent, type LimiterOptions } from './models/limiter';
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
} from './models/usage';
export { DEFAULT_PRICES, type ModelPrice, type PriceTable } from './models/prices';
export { scrubSecrets, isFatalLLMError, MalformedReplyError, type ErrorContext } from './models/errors';
export { StageStoppedError, type CallFailure } from './models/failures';
