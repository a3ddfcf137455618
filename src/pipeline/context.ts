/**
 * What the stages share: the config, the plan, the layout, the store, the meter, the browser, the event sink,
 * and the list of what is left to do; with the helpers that meter a stage and build its models.
 * @module
 */
import type { BrowserHost } from '../browser/host';
import { qwenPolicy } from '../agent/qwen-policy';
import type { Policy } from '../agent/types';
import type { FileStore } from '../files/types';
import { readJsonl } from '../core/io';
import type { LanguageModel } from '../models/types';
import { sumUsage, type UsageMeter, type UsageTotals, withUsage } from '../models/usage';
import { TaskSchema, type Task } from '../core/schemas';
import type { PipelineLayout } from './layout';
import { PipelineConfigError, type PipelinePlan } from './plan';
import type { PipelineOptions, PipelineEvent, PipelineStage, StageFigures } from './types';

/** The state a stage runs with. */
export interface StageContext {
  readonly config: PipelineOptions;
  readonly plan: PipelinePlan;
  readonly layout: PipelineLayout;
  readonly store: FileStore;
  readonly meter: UsageMeter;
  /** One browser for both runs. */
  readonly host: BrowserHost;
  readonly emit: (event: PipelineEvent) => void;
  /** Why the work is not complete yet (episodes that could not run, left unjudged...). */
  readonly incomplete: string[];
}

/** The step labels the stages' model calls are counted under in the meter (and so in the usage summary). */
export const USAGE_STEPS = Object.freeze({
  propose: 'propose',
  attempt: 'attempt',
  judge: 'judge',
  verifiers: 'verifiers',
  validateAttempt: 'validate:attempt',
  validateJudge: 'validate:judge',
  relabel: 'relabel',
  relabelJudge: 'relabel:judge',
  rows: 'rows',
} as const);

/** The meter's totals over the given step labels (a label with no calls adds nothing). */
function totals(meter: UsageMeter, labels: readonly string[]): UsageTotals {
  const steps = meter.summary().steps;
  return sumUsage(labels.flatMap((label) => steps[label] ?? []));
}

/** Runs `work` and adds its wall time and the model use counted under `labels` meanwhile. */
export async function measured<T extends object>(ctx: StageContext, labels: readonly string[], work: () => Promise<T>): Promise<T & StageFigures> {
  const t0 = Date.now();
  const before = totals(ctx.meter, labels);
  const result = await work();
  const after = totals(ctx.meter, labels);
  const usage: UsageTotals = {
    calls: after.calls - before.calls,
    inputTokens: after.inputTokens - before.inputTokens,
    outputTokens: after.outputTokens - before.outputTokens,
    cost: after.cost - before.cost,
    priced: after.priced,
  };
  return { ...result, ms: Date.now() - t0, usage };
}

/** The agent for a stage, its calls counted under `label`. */
export function policyFor(ctx: StageContext, label: string): Policy {
  const { policy, agent } = ctx.config;
  if (policy) return meteredPolicy(policy, ctx.meter, label);
  const { agentTemperature, agentSeed, attempts = 1 } = ctx.config;
  // Several tries of a greedy agent would all be the same episode: they sample unless told otherwise.
  const temperature = agentTemperature ?? (attempts > 1 ? 1 : undefined);
  return qwenPolicy({
    llm: withUsage(agent!, ctx.meter, { step: label }),
    thinking: ctx.config.agentThinking === true,
    ...(temperature !== undefined ? { temperature } : {}),
    ...(agentSeed !== undefined ? { seed: agentSeed } : {}),
  });
}

/** The judge for a run, its calls counted under `label`. */
export function judgeFor(ctx: StageContext, run: string, stage: 'judge' | 'validate', label: string): LanguageModel {
  const { judge } = ctx.config;
  const llm = typeof judge === 'function' ? judge({ run, stage }) : judge!;
  return withUsage(llm, ctx.meter, { step: label });
}

// A policy's own token counts, recorded as it reports them.
function meteredPolicy(policy: Policy, meter: UsageMeter, step: string): Policy {
  return {
    name: policy.name,
    ...(policy.model !== undefined ? { model: policy.model } : {}),
    ...(policy.endpoint !== undefined ? { endpoint: policy.endpoint } : {}),
    ...(policy.sampling !== undefined ? { sampling: policy.sampling } : {}),
    ...(policy.forTry ? { forTry: (n: number) => meteredPolicy(policy.forTry!(n), meter, step) } : {}),
    async decide(input) {
      const decision = await policy.decide(input);
      if (decision.usage) meter.record({ step, provider: 'policy', model: policy.model ?? policy.name, usage: decision.usage });
      return decision;
    },
  };
}

/** The tasks of `<dir>/tasks.jsonl`, in file order; a missing file is a clear error. */
export async function readTasks(ctx: StageContext, stage: PipelineStage): Promise<Task[]> {
  const file = ctx.layout.tasks;
  if (!(await ctx.store.exists(file))) {
    throw new PipelineConfigError(`the ${stage} stage needs ${file}: run the propose stage, or put your tasks there`);
  }
  return readJsonl(ctx.store, file, TaskSchema, {
    onIssue: (issue) => ctx.emit({ type: 'warning', stage, message: `${issue.file}:${issue.line}: ${issue.problem}` }),
  });
}
