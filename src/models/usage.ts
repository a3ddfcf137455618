/**
 * Token accounting for a run: a {@link UsageMeter} sums tokens per step (`propose`, `judge`, `attempt`...),
 * per model and in total, and prices them; {@link withUsage} wraps any model so its calls are counted.
 * @module
 */
import { costOf, DEFAULT_PRICES, priceOf, type PriceTable } from './prices';
import { LLMError, modelTraits, type CompleteOptions, type Completion, type LanguageModel, type Usage } from './types';

/** Tokens and calls summed over some calls. */
export interface UsageTotals {
  /** Calls answered: successful ones, and those whose reply was blocked, cut or empty (billed all the same). */
  readonly calls: number;
  /** Prompt tokens of those calls. */
  readonly inputTokens: number;
  /** Reply tokens of those calls. */
  readonly outputTokens: number;
  /** US dollars, of the calls to models with a known price. */
  readonly cost: number;
  /** False when some of these calls were to a model without a known price (so `cost` is a lower bound). */
  readonly priced: boolean;
}

/** One line of a summary: a step's use of one model. */
export interface UsageLine extends UsageTotals {
  /** The step label the calls were counted under (`propose`, `judge`...). */
  readonly step: string;
  /** The model's provider. */
  readonly provider: string;
  /** The model name. */
  readonly model: string;
}

/** A meter's figures as plain data (for a report file or {@link formatUsage}). */
export interface UsageSummary {
  /** Every call counted, all steps and models together. */
  readonly total: UsageTotals;
  /** By step, in first-seen order. */
  readonly steps: Readonly<Record<string, UsageTotals>>;
  /** By model, in first-seen order. */
  readonly models: Readonly<Record<string, UsageTotals>>;
  /** Each step and model pair. */
  readonly lines: readonly UsageLine[];
  /** Models with no price in the table (their calls are not in any cost). */
  readonly unpriced: readonly string[];
}

/** Options of {@link UsageMeter}. */
export interface UsageMeterOptions {
  /** Prices merged over {@link DEFAULT_PRICES} (USD per million tokens). */
  readonly prices?: PriceTable;
}

/** One call to count. */
export interface UsageEntry {
  /** The step label. Default `run`. */
  readonly step?: string;
  /** The model's provider, used with `model` to find its price. */
  readonly provider: string;
  /** The model name, looked up in the price table. */
  readonly model: string;
  /** The call's tokens. */
  readonly usage: Usage;
}

interface Tally {
  step: string;
  provider: string;
  model: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

/**
 * Sums tokens per step, per model and for the run, and prices them. Safe to share between concurrent callers.
 * @example
 * const meter = new UsageMeter({ prices: { 'gemini-3.5-flash': { input: 0.5, output: 3 } } });
 * const judge = withUsage(gemini(), meter, { step: 'judge' });
 * ...
 * process.stdout.write(formatUsage(meter.summary()) + '\n');
 */
export class UsageMeter {
  /** The price table in use: {@link DEFAULT_PRICES} with the options' prices merged over it. */
  readonly prices: PriceTable;
  readonly #tallies = new Map<string, Tally>();

  constructor(options: UsageMeterOptions = {}) {
    this.prices = { ...DEFAULT_PRICES, ...options.prices };
  }

  /** Counts one call. */
  record(entry: UsageEntry): void {
    const step = entry.step ?? 'run';
    const key = JSON.stringify([step, entry.provider, entry.model]);
    let tally = this.#tallies.get(key);
    if (!tally) {
      tally = { step, provider: entry.provider, model: entry.model, calls: 0, inputTokens: 0, outputTokens: 0 };
      this.#tallies.set(key, tally);
    }
    tally.calls += 1;
    tally.inputTokens += entry.usage.inputTokens;
    tally.outputTokens += entry.usage.outputTokens;
  }

  /** The run's totals. */
  get total(): UsageTotals {
    return this.summary().total;
  }

  /** All figures as plain data: per step, per model, per step and model, and the total. */
  summary(): UsageSummary {
    const lines = [...this.#tallies.values()].map((tally) => this.#priced(tally));
    const unpriced = [...new Set(lines.filter((line) => !line.priced).map((line) => line.model))];
    return {
      total: sumUsage(lines),
      steps: groupBy(lines, (line) => line.step),
      models: groupBy(lines, (line) => line.model),
      lines,
      unpriced,
    };
  }

  #priced(tally: Tally): UsageLine {
    const price = priceOf(tally.model, tally.provider, this.prices);
    return { ...tally, cost: price ? costOf(price, tally.inputTokens, tally.outputTokens) : 0, priced: price !== undefined };
  }
}

/** Options of {@link withUsage}. */
export interface WithUsageOptions {
  /** The step label the calls are counted under, such as `propose`, `judge` or `attempt`. */
  readonly step: string;
}

/**
 * Wraps a model so that each answered call's tokens are recorded in `meter` under `step`: a successful one's, and a
 * blocked, cut or empty reply's (an {@link LLMError} whose `reply.usage` says what the provider billed). The wrapper
 * is a {@link LanguageModel} itself (same provider and model id), so wrappers compose.
 * @example
 * const proposer = withUsage(gemini(), meter, { step: 'propose' });
 */
export function withUsage(llm: LanguageModel, meter: UsageMeter, options: WithUsageOptions): LanguageModel {
  return {
    provider: llm.provider,
    modelId: llm.modelId,
    ...modelTraits(llm),
    async complete(prompt: string, call?: CompleteOptions): Promise<Completion> {
      const record = (usage: Usage) => meter.record({ step: options.step, provider: llm.provider, model: llm.modelId, usage });
      let completion: Completion;
      try {
        completion = await llm.complete(prompt, call);
      } catch (error) {
        if (error instanceof LLMError && error.reply?.usage) record(error.reply.usage);
        throw error;
      }
      record(completion.usage);
      return completion;
    },
  };
}

/**
 * A short human-readable summary for the CLI: one line with the run's tokens and cost, then one line per step.
 * @example
 * // tokens: 120,400 in, 8,100 out (42 calls), cost $0.0845
 * //   propose  gemini-3.5-flash  2 calls  20,000 in  3,000 out  $0.0190
 */
export function formatUsage(summary: UsageSummary): string {
  const { total } = summary;
  const out = [`tokens: ${formatCount(total.inputTokens)} in, ${formatCount(total.outputTokens)} out (${formatCount(total.calls)} calls), cost ${money(total)}`];
  const width = Math.max(0, ...summary.lines.map((line) => line.step.length));
  const modelWidth = Math.max(0, ...summary.lines.map((line) => line.model.length));
  for (const line of summary.lines) {
    out.push(
      `  ${line.step.padEnd(width)}  ${line.model.padEnd(modelWidth)}  ${formatCount(line.calls)} calls  ` +
        `${formatCount(line.inputTokens)} in  ${formatCount(line.outputTokens)} out  ${line.priced ? money(line) : 'price unknown'}`,
    );
  }
  if (summary.unpriced.length) out.push(`  (no price known for ${summary.unpriced.join(', ')}: not in the cost)`);
  return out.join('\n');
}

/** The totals of `lines` added up: calls, tokens and cost; priced only when every one is. Nothing sums to zero, priced. */
export function sumUsage(lines: readonly UsageTotals[]): UsageTotals {
  let calls = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let cost = 0;
  let priced = true;
  for (const line of lines) {
    calls += line.calls;
    inputTokens += line.inputTokens;
    outputTokens += line.outputTokens;
    cost += line.cost;
    priced &&= line.priced;
  }
  return { calls, inputTokens, outputTokens, cost, priced };
}

function groupBy(lines: readonly UsageLine[], key: (line: UsageLine) => string): Record<string, UsageTotals> {
  const groups = new Map<string, UsageLine[]>();
  for (const line of lines) groups.set(key(line), [...(groups.get(key(line)) ?? []), line]);
  return Object.fromEntries([...groups].map(([name, group]) => [name, sumUsage(group)]));
}

/** A count with thousands separators: `120,400`. */
export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

function money(totals: UsageTotals): string {
  return `${totals.priced ? '' : '>= '}$${totals.cost.toFixed(4)}`;
}
