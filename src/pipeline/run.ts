/** `pipeline(config)`: propose → attempt → judge → validate → rows → report on one work dir. @module */
import { browserHost, isBrowserHost } from '../browser/host';
import { nodeStore } from '../files/node';
import { UsageMeter } from '../models/usage';
import type { StageContext } from './context';
import { pipelineLayout } from './layout';
import { planPipeline } from './plan';
import { STAGE_RUNNERS } from './stages';
import { preflightPipeline } from './preflight';
import type { PipelineOptions, PipelineStage, PipelineResult, StageSummaries } from './types';
import { checkEntry } from '../core/check';

/**
 * Runs the whole pipeline on `config.dir` (layout: {@link pipelineLayout}): proposes tasks for the training
 * sites, attempts them with the agent in Chromium, judges every episode, validates the judge on the human
 * tasks of the training sites (attempted, judged, scored against their verifiers), selects the judged
 * successes as training rows up to the budget (27,644 steps), and writes the HTML reports.
 *
 * Every stage keeps what it finds done, so a run killed at any moment and started again with the same config
 * ends as an uninterrupted one would. The config is checked before anything runs (a missing model, unsafe site
 * names, a bad human-tasks file). Episodes that could not run or were left unjudged do not stop the run: the
 * summary says `complete: false` and why, and a rerun finishes them (the rows dir is then rewritten to the new
 * selection). Stages can be skipped (`skip`) or picked (`only`); a stage that needs an earlier one's output
 * reads it from the work dir.
 * @example
 * const summary = await pipeline({
 *   dir: 'data/webmix/taskgen',
 *   source: miniwebSource({ sitemaps: 'miniweb/sitemaps', split: 'miniweb/split.json', baseUrl: 'http://127.0.0.1:8000' }),
 *   proposer: gemini(), judge: gemini(),
 *   agent: openaiCompatible({ baseURL: 'http://127.0.0.1:8001/v1', model: 'Qwen/Qwen3.5-4B' }),
 *   humanTasks: 'miniweb/human_tasks.jsonl',
 *   onEvent: (e) => e.type === 'stage-end' && console.log(e.stage, e.summary),
 * });
 */
export async function runPipeline(config: PipelineOptions): Promise<PipelineResult> {
  checkEntry('runPipeline', config);
  const t0 = Date.now();
  const store = config.store ?? nodeStore();
  const meter = config.meter ?? new UsageMeter();
  const layout = pipelineLayout(config.dir);
  const emit = config.onEvent ?? (() => {});
  const plan = await planPipeline(config, store);
  emit({ type: 'plan', stages: plan.stages, layout });
  for (const { stage, reason } of plan.skipped) emit({ type: 'stage-skipped', stage, reason });

  const shared = isBrowserHost(config.browser);
  const host = shared ? config.browser : browserHost(config.browser);
  const ctx: StageContext = { config, plan, layout, store, meter, host, emit, incomplete: [] };
  const stages: { [S in PipelineStage]?: StageSummaries[S] } = {};

  const run = async <S extends PipelineStage>(stage: S) => {
    config.signal?.throwIfAborted();
    emit({ type: 'stage-start', stage });
    const summary = await STAGE_RUNNERS[stage](ctx);
    stages[stage] = summary;
    emit({ type: 'stage-end', stage, summary });
  };
  try {
    // Before the first paid call: each stage's set-up against its dir's, and what the stages need.
    await preflightPipeline(ctx);
    for (const stage of plan.stages) await run(stage);
  } finally {
    if (!shared) await host.close();
  }
  return {
    layout,
    stages,
    skipped: plan.skipped,
    complete: ctx.incomplete.length === 0,
    incomplete: ctx.incomplete,
    usage: meter.summary(),
    ms: Date.now() - t0,
  };
}
