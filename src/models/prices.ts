/**
 * Model prices for cost estimates, in US dollars per million tokens.
 *
 * The defaults are assumptions copied from public price pages at the time of writing (standard tier, prompts
 * under 200k tokens, no caching or batch discounts); `gemini-3.5-flash` has no published price we could check
 * and is assumed equal to `gemini-3-flash-preview`. Check them against your provider's current prices and pass
 * your own table (`new UsageMeter({ prices })`) where they differ.
 * @module
 */

/** The price of one model, in US dollars per million tokens. */
export interface ModelPrice {
  /** US dollars per million prompt tokens. */
  readonly input: number;
  /** US dollars per million reply tokens. */
  readonly output: number;
}

/** Prices by model name. */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** Assumed default prices (USD per million tokens): check them, and override where they differ. */
export const DEFAULT_PRICES: PriceTable = Object.freeze({
  'gemini-3.5-flash': { input: 0.5, output: 3 },
  'gemini-3-flash-preview': { input: 0.5, output: 3 },
  'gemini-3-pro-preview': { input: 2, output: 12 },
  'gemini-2.5-pro': { input: 1.25, output: 10 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5 },
  'gemini-2.5-flash-lite': { input: 0.1, output: 0.4 },
  'gemini-2.0-flash': { input: 0.1, output: 0.4 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
});

/** Providers whose models run on the user's own hardware or are stand-ins: free unless the table says otherwise. */
export const FREE_PROVIDERS: ReadonlySet<string> = new Set(['openai-compatible', 'fake', 'sandbox', 'sandbox-stand-in']);

/**
 * The price of `model` served by `provider`: the table's entry (a `models/` prefix ignored), else zero for
 * local and stand-in providers ({@link FREE_PROVIDERS}: vLLM and other OpenAI-compatible servers are assumed
 * self-hosted), else `undefined` (unknown: the cost is not counted and the summary says so).
 */
export function priceOf(model: string, provider: string, prices: PriceTable = DEFAULT_PRICES): ModelPrice | undefined {
  const name = model.startsWith('models/') ? model.slice('models/'.length) : model;
  const entry = Object.hasOwn(prices, name) ? prices[name] : undefined;
  if (entry) return entry;
  return FREE_PROVIDERS.has(provider) ? { input: 0, output: 0 } : undefined;
}

/** The cost in US dollars of `inputTokens` and `outputTokens` at `price`. */
export function costOf(price: ModelPrice, inputTokens: number, outputTokens: number): number {
  return (inputTokens * price.input + outputTokens * price.output) / 1_000_000;
}
