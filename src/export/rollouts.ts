/**
 * Config `rollouts`: one row per try of a run with several tries per task (`<run>/_tries/<n>/`), for offline RL and
 * GRPO-style training: the task, the try, its group (the task: every try of it), its reward (1 or 0, by the
 * verifier where the task has one, else by the judge; null when neither has spoken) and where the reward came from,
 * the judge's verdict, the steps, and the episode's files (actions, screenshots, answer). Rows are grouped by task,
 * and Parquet shards end only between groups, so a group is never cut across files.
 * @module
 */
import path from 'node:path';
import { judgeDirOf } from '../files/layout';
import { runTries } from '../files/tries';
import type { FileStore } from '../files/types';
import type { Recipe } from '../rows/provenance';
import { readPassAtK } from '../validate/pass-at-k';
import { planEpisodes, readEvidence, type PlannedEpisode } from './gather';
import type { Features, Feature } from './features';

const string: Feature = { kind: 'value', dtype: 'string' };
const int64: Feature = { kind: 'value', dtype: 'int64' };
const bool: Feature = { kind: 'value', dtype: 'bool' };
const image: Feature = { kind: 'image' };
const list = (of: Feature): Feature => ({ kind: 'list', of });

/** Config `rollouts`: one row per try. */
export const ROLLOUT_FEATURES: Features = [
  ['group', string],
  ['task_id', string],
  ['try', int64],
  ['site', string],
  ['instruction', string],
  ['reward', int64],
  ['reward_source', string],
  ['verdict', bool],
  ['verifier_ok', bool],
  ['outcome', string],
  ['steps', int64],
  ['actions', list(string)],
  ['screenshots', list(image)],
  ['final_screenshot', image],
  ['answer', string],
  ['episode_id', string],
  ['agent_model', string],
  ['judge_model', string],
  ['run_id', string],
];

/** One planned row of `rollouts`: the episode, its try and its reward. */
export interface PlannedRollout {
  readonly planned: PlannedEpisode;
  readonly n: number;
  readonly reward: number | null;
  readonly source: string | null;
}

/**
 * Every try of `run` with its reward, grouped by task (tasks in `tasks.jsonl` order, tries in order); empty for a
 * run of one try. Each episode is checked as the `episodes` config checks it (provenance, screenshots).
 */
export async function planRollouts(store: FileStore, run: string, recipe: Recipe, tasksFile?: string): Promise<PlannedRollout[]> {
  const tries = await runTries(store, run);
  if (tries.length < 2) return [];
  // The rewards pass@k counts: one reward per episode (decideReward), written verifiers included.
  const rewards = await readPassAtK({ run, store, ...(tasksFile ? { tasksFile } : {}) });
  const byDir = new Map<string, PlannedEpisode>();
  for (const t of tries) for (const e of await planEpisodes(store, { run: t.dir, judgeDir: judgeDirOf(t.dir) }, recipe)) byDir.set(e.dir, e);
  const out: PlannedRollout[] = [];
  for (const task of rewards.tasks) {
    for (const o of task.tries) {
      const planned = byDir.get(o.dir);
      if (planned) out.push({ planned, n: o.n, reward: o.success === null ? null : o.success ? 1 : 0, source: o.source });
    }
  }
  return out;
}

/** The rows of each shard: whole groups, packed up to `shardRows` (a larger group is a shard of its own). */
export function groupCuts(rollouts: readonly PlannedRollout[], shardRows: number): number[] {
  const cuts: number[] = [];
  let open = 0;
  for (let i = 0; i < rollouts.length; ) {
    let j = i;
    while (j < rollouts.length && rollouts[j]!.planned.provenance.task_id === rollouts[i]!.planned.provenance.task_id) j++;
    const size = j - i;
    if (open > 0 && open + size > shardRows) {
      cuts.push(open);
      open = 0;
    }
    open += size;
    i = j;
  }
  if (open > 0 || cuts.length === 0) cuts.push(open);
  return cuts;
}

/** The Parquet row of one try. */
export async function rolloutRow(store: FileStore, r: PlannedRollout): Promise<Record<string, unknown>> {
  const { episode, provenance: p } = r.planned;
  const evidence = await readEvidence(store, r.planned.dir);
  const image = async (file: string) => ({ bytes: await store.readBytes(file), path: `${p.task_id}/${r.n}/${path.posix.relative(r.planned.dir, file)}` });
  const screenshots = [];
  for (const file of r.planned.screenshots) screenshots.push(await image(file));
  return {
    group: p.task_id,
    task_id: p.task_id,
    try: r.n,
    site: p.site,
    instruction: episode.task.instruction,
    reward: r.reward,
    reward_source: r.source,
    verdict: p.verdict,
    verifier_ok: p.verifier_ok,
    outcome: episode.outcome,
    steps: episode.steps,
    actions: evidence.actions,
    screenshots,
    final_screenshot: r.planned.final ? await image(r.planned.final) : null,
    answer: episode.answer,
    episode_id: p.episode_id,
    agent_model: p.agent_model,
    judge_model: p.judge_model,
    run_id: p.run_id,
  };
}
