/**
 * Before anything runs: which stages run, whether the config gives each of them what it needs, the training
 * sites and the human tasks, so a bad config fails at once and not hours into a run.
 * @module
 */
import type { FileStore } from '../files/types';
import { parseWith } from '../core/io';
import { readTaskSource } from '../miniweb/task-source';
import { assertPlainName } from '../core/names';
import { TaskSchema, type Task } from '../core/schemas';
import { PIPELINE_STAGES, type PipelineOptions, type PipelineStage } from './types';

/** A pipeline config that cannot run: what is missing or wrong, and how to fix it. */
export class PipelineConfigError extends Error {
  /** Always `PipelineConfigError`. */
  override readonly name = 'PipelineConfigError';
}

/** What will run, and with which sites and human tasks. */
export interface PipelinePlan {
  /** The stages that run, in order. */
  readonly stages: readonly PipelineStage[];
  /** The others, with why. */
  readonly skipped: ReadonlyArray<{ readonly stage: PipelineStage; readonly reason: string }>;
  /** The training sites (when `propose` or `validate` runs). */
  readonly sites: readonly string[];
  /** The human tasks of the training sites (when `validate` runs). */
  readonly humanTasks: readonly Task[];
}

/** The stages that need the whole run, skipped by a shard. */
const WHOLE_RUN_STAGES: readonly PipelineStage[] = ['propose', 'verifiers', 'rows', 'report'];

/** The stages `skip` and `only` leave (and a `shard`, which leaves no whole-run stage), checking their names. */
export function stagesToRun(options: Pick<PipelineOptions, 'skip' | 'only' | 'shard'>): { stages: PipelineStage[]; skipped: Array<{ stage: PipelineStage; reason: string }> } {
  for (const [key, list] of [['skip', options.skip], ['only', options.only]] as const) {
    for (const name of list ?? []) {
      if (!(PIPELINE_STAGES as readonly string[]).includes(name)) {
        throw new PipelineConfigError(`unknown stage "${name}" in ${key}: the stages are ${PIPELINE_STAGES.join(', ')}`);
      }
    }
  }
  const stages: PipelineStage[] = [];
  const skipped: Array<{ stage: PipelineStage; reason: string }> = [];
  for (const stage of PIPELINE_STAGES) {
    if (options.only && !options.only.includes(stage)) skipped.push({ stage, reason: 'not in only' });
    else if (options.skip?.includes(stage)) skipped.push({ stage, reason: 'skipped' });
    else if (options.shard && options.shard.count > 1 && WHOLE_RUN_STAGES.includes(stage)) {
      skipped.push({ stage, reason: `a whole-run stage: shard ${options.shard.index}/${options.shard.count} leaves it to the pass without a shard` });
    } else stages.push(stage);
  }
  return { stages, skipped };
}

/**
 * Checks the config against the stages that will run and loads the training sites and human tasks. Throws a
 * {@link PipelineConfigError} naming what is missing, an `UnsafeNameError` for a site or task id that is not a
 * plain name, an `InputError` (file, line, field) for a bad human-tasks line.
 */
export async function planPipeline(config: PipelineOptions, store: FileStore): Promise<PipelinePlan> {
  const asked = stagesToRun(config);
  const { skipped } = asked;
  // The verifiers stage needs a writer and relabeling a relabeler; without one the stage is skipped, not an error
  // (each adds to the run, nothing needs it).
  const stages = asked.stages.filter((s) => {
    if (s === 'verifiers' && !config.verifierWriter && !config.proposer) {
      skipped.push({ stage: 'verifiers', reason: 'no writer model (verifierWriter, or the proposer)' });
      return false;
    }
    if (s === 'relabel' && !config.relabeler) {
      skipped.push({ stage: 'relabel', reason: 'no relabeler (option relabeler)' });
      return false;
    }
    return true;
  });
  const runs = (stage: PipelineStage) => stages.includes(stage);
  for (const site of config.sites ?? []) assertPlainName(site, 'site');
  const need = (what: string, stage: string, option: string) =>
    new PipelineConfigError(`the ${stage} stage needs ${what} (option ${option}); give it or skip the stage`);
  if (runs('propose') && !config.proposer) throw need('a proposer model', 'propose', 'proposer');
  for (const stage of ['attempt', 'validate'] as const) {
    if (!runs(stage)) continue;
    if (!config.agent && !config.policy) throw need('an agent (a model, or a policy)', stage, 'agent or policy');
    if (!config.source.baseUrl) throw need('a site source with a baseUrl (the server the browser visits)', stage, 'source');
  }
  for (const stage of ['judge', 'validate'] as const) if (runs(stage) && !config.judge) throw need('a judge model', stage, 'judge');
  if (runs('relabel') && !config.relabelJudge && typeof config.judge !== 'object') throw need('a judge model for the relabeled episodes', 'relabel', 'relabelJudge (or judge as a model)');
  if (runs('validate') && !config.humanTasks) throw need('human tasks with verifiers', 'validate', 'humanTasks');

  const sites = runs('propose') || runs('validate') ? await trainingSites(config) : [];
  const humanTasks = runs('validate') ? await loadHumanTasks(config, sites, store) : [];
  return { stages, skipped, sites, humanTasks };
}

async function trainingSites(config: PipelineOptions): Promise<string[]> {
  const sites = config.sites ?? (await config.source.split()).train;
  for (const site of sites) assertPlainName(site, 'site');
  if (sites.length === 0) throw new PipelineConfigError('no training sites: the split\'s train list is empty and no sites were given');
  return [...new Set(sites)];
}

// The human tasks of the training sites, at most `humanPerSite` per site, in file order.
async function loadHumanTasks(config: PipelineOptions, sites: readonly string[], store: FileStore): Promise<Task[]> {
  const source = config.humanTasks!;
  const all = typeof source === 'string'
    ? await readTaskSource(store, source)
    : source.map((t, i) => parseWith(TaskSchema, t, { file: '(human tasks)', field: String(i) }));
  const perSite = config.humanPerSite ?? Infinity;
  const wanted = new Set(sites);
  const counts = new Map<string, number>();
  const picked: Task[] = [];
  for (const task of all) {
    assertPlainName(task.task_id, 'task id');
    assertPlainName(task.site, 'site');
    const n = counts.get(task.site) ?? 0;
    if (!wanted.has(task.site) || n >= perSite) continue;
    counts.set(task.site, n + 1);
    picked.push(task); // extra fields (a sandbox task's oracle solution) are kept: the policy may use them
  }
  if (picked.length === 0) {
    const from = typeof source === 'string' ? source : 'the human tasks given';
    throw new PipelineConfigError(`no human task of the ${sites.length} training sites in ${from}: validate has nothing to score`);
  }
  return picked;
}
