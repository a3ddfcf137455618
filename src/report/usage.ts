/**
 * Tokens and cost per stage and model for the report's chart: from a pipeline's usage summary when given, else from
 * what the run's files record (the agent's tokens in `episode.json`, the judge's in records that carry them: the
 * seed's records do not).
 * @module
 */
import { compareCodePoints } from '../core/py/text';
import type { JudgeRecord } from '../core/schemas';
import { costOf, priceOf } from '../models/prices';
import type { UsageSummary } from '../models/usage';
import type { ReportEpisode } from './gather-episode';
import type { ReportUsageLine } from './types';

/** The chart's lines and where they come from, in words. */
export interface ReportUsage {
  readonly lines: readonly ReportUsageLine[];
  readonly source: string;
}

/** The lines of a usage meter's summary, in its order. */
export function usageFromSummary(summary: UsageSummary): ReportUsage {
  return {
    lines: summary.lines.map((l) => ({
      stage: l.step,
      model: l.model,
      calls: l.calls,
      inputTokens: l.inputTokens,
      outputTokens: l.outputTokens,
      cost: l.priced ? l.cost : null,
    })),
    source: 'The model calls of the pipeline run that wrote this report (stages it skipped are not counted)',
  };
}

/** The agent's and the judge's tokens as the run's files record them, per model. */
export function usageFromRun(agent: ReadonlyArray<ReportEpisode['usage']>, records: Iterable<JudgeRecord>): ReportUsage {
  const lines: ReportUsageLine[] = [];
  const add = (stage: string, byModel: Map<string, { provider: string; calls: number | null; input: number; output: number }>) => {
    for (const model of [...byModel.keys()].sort(compareCodePoints)) {
      const t = byModel.get(model)!;
      const price = priceOf(model, t.provider);
      lines.push({ stage, model, calls: t.calls, inputTokens: t.input, outputTokens: t.output, cost: price ? costOf(price, t.input, t.output) : null });
    }
  };
  const agents = new Map<string, { provider: string; calls: number | null; input: number; output: number }>();
  for (const u of agent) {
    if (!u) continue;
    const t = agents.get(u.model) ?? { provider: '', calls: null, input: 0, output: 0 };
    t.input += u.inputTokens;
    t.output += u.outputTokens;
    agents.set(u.model, t);
  }
  const judges = new Map<string, { provider: string; calls: number | null; input: number; output: number }>();
  for (const r of records) {
    const u = r.usage as { calls?: unknown; input_tokens?: unknown; output_tokens?: unknown } | undefined;
    const input = Number(u?.input_tokens ?? 0);
    const output = Number(u?.output_tokens ?? 0);
    if (!(input + output > 0)) continue;
    const t = judges.get(r.model) ?? { provider: typeof r.provider === 'string' ? r.provider : '', calls: 0, input: 0, output: 0 };
    t.calls = (t.calls ?? 0) + (Number(u?.calls) || 0);
    t.input += input;
    t.output += output;
    judges.set(r.model, t);
  }
  add('attempt', agents);
  add('judge', judges);
  return {
    lines,
    source: lines.length
      ? 'From the run\'s files: the agent\'s tokens in each episode.json, the judge\'s in records that carry them (the seed\'s format does not); the proposer\'s are not recorded there'
      : 'the run\'s episode.json files and judge records carry no token counts (a pipeline run passes its own)',
  };
}
