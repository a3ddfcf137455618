/** The LLM adapters. @module */
export * from './types';
export * from './fake';
export { gemini, DEFAULT_GEMINI_MODEL, GEMINI_KEY_ENV, type GeminiOptions } from './gemini';
export { openaiCompatible, type OpenAICompatibleOptions } from './openai-compatible';
export { callWithRetry, retryDelay, type CallContext, type RetryEvent, type RetryOptions } from './retry';
export { createLimiter, type Limiter, type LimiterEvent, type LimiterOptions } from './limiter';
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
} from './usage';
export { DEFAULT_PRICES, FREE_PROVIDERS, priceOf, costOf, type ModelPrice, type PriceTable } from './prices';
export { toJsonSchema } from './json-schema';
export {
  scrubSecrets, parseRetryAfter, toLLMError, isFatalLLMError, FATAL_STATUSES, MalformedReplyError, type ErrorContext,
} from './errors';
export { encodeImages, sniffMediaType, type EncodedImage, type EncodeImageOptions } from './images';
