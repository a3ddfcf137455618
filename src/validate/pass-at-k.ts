/**
 * pass@k of a run with several tries per task (`runAttempt`'s `attempts`): per task its tries and successes (the
 * verifier's result where the task has one, else the judge's verdict), and per site and overall the unbiased
 * estimate of Chen et al. (2021), `1 - C(n-c, k) / C(n, k)` averaged over tasks, for k = 1..K, with a 95% interval
 * from a bootstrap over tasks (seeded, so the same run gives the same interval), and the share of tasks solved
 * sometimes but not always (the tasks whose group of tries carries a learning signal for GRPO-style training).
 * @module
 */
import path from 'node:path';
import { readJsonFileIfExists, readJsonl } from '../core/io';
import { compareCodePoints } from '../core/py/text';
import { EpisodeSchema, JudgeRecordSchema, TaskSchema } from '../core/schemas';
import { episodeIdOf, judgeRecordState } from '../files/episode-id';
import { EPISODE_FILES, judgeDirOf, judgeRecordFile, runFile, verifiersFileOf } from '../files/layout';
import { episodeOutcome, recordedResults } from '../attempt/reward';
import { writtenFor } from '../claims/grade';
import { readWrittenVerifiers } from '../verifiers/file';
import { runTries } from '../files/tries';
import type { FileStore } from '../files/types';

/** Where a try's success came from: the task's verifier, else its written verifier, else the judge (`decideReward`). */
export type TrySuccessSource = 'verifier' | 'written-verifier' | 'judge';

/** One try of a task as pass@k counts it. */
export interface TryOutcome {
  /** The try (1-based). */
  readonly n: number;
  /** The try's run dir. */
  readonly dir: string;
  /** Whether it succeeded; `null` when it has neither a verifier result nor a current judge verdict (not counted). */
  readonly success: boolean | null;
  /** Where `success` came from; `null` with it. */
  readonly source: TrySuccessSource | null;
  /** Whether the judge said SUCCESS of this episode (a record made from another recording is not its): `null` when none. */
  readonly verdict: boolean | null;
  /** The episode's steps. */
  readonly steps: number;
}

/** A task's tries. */
export interface TaskTries {
  readonly taskId: string;
  readonly site: string;
  /** Its finished tries, in try order (those without a verdict included, with `success: null`). */
  readonly tries: readonly TryOutcome[];
  /** Tries with a success or failure known (`n` of the estimator). */
  readonly counted: number;
  /** Successful tries (`c`). */
  readonly successes: number;
}

/** pass@k at one k, over the tasks with at least k counted tries. */
export interface PassAtKPoint {
  readonly k: number;
  /** The mean over tasks of the unbiased per-task estimate. */
  readonly estimate: number;
  /** The 95% interval's ends (bootstrap over tasks, percentiles). */
  readonly low: number;
  readonly high: number;
  /** Tasks it averages (those with at least k counted tries). */
  readonly tasks: number;
}

/** pass@k of a group of tasks (a site, or all). */
export interface PassAtKCurve {
  /** Tasks with at least one counted try. */
  readonly tasks: number;
  /** k = 1..K (K: the most counted tries of a task). */
  readonly points: readonly PassAtKPoint[];
  /** Tasks with at least one success. */
  readonly solved: number;
  /** Tasks with a success and a failure: solved sometimes but not always. */
  readonly sometimes: number;
  /** `sometimes / tasks` (0 without tasks). */
  readonly sometimesShare: number;
}

/** What {@link readPassAtK} found. */
export interface PassAtKReport {
  /** The run dir (try 1's). */
  readonly run: string;
  /** Tries the run holds (the try dirs). */
  readonly attempts: number;
  /** Every task of the run's `tasks.jsonl` with a finished try, in file order. */
  readonly tasks: readonly TaskTries[];
  readonly overall: PassAtKCurve;
  /** By site, sites sorted by name. */
  readonly bySite: ReadonlyArray<{ readonly site: string; readonly curve: PassAtKCurve }>;
  /** The interval's method, in words, for a summary or a card. */
  readonly interval: string;
}

/** Bootstrap resamples of the interval. */
const RESAMPLES = 1000;

/** The interval's method, as reports name it. */
export const PASS_AT_K_INTERVAL = `95% bootstrap over tasks (${RESAMPLES} resamples, percentiles)`;

/**
 * The unbiased pass@k of one task with `n` tries of which `c` succeeded (Chen et al., 2021): the chance that k of
 * its n tries, drawn without replacement, hold a success, `1 - C(n-c, k) / C(n, k)`, computed as a stable product.
 * @example passAtK(4, 1, 2) // 0.5
 */
export function passAtK(n: number, c: number, k: number): number {
  if (![n, c, k].every(Number.isInteger) || n < 1 || c < 0 || c > n || k < 1 || k > n) {
    throw new RangeError(`passAtK: expected integers 0 <= c <= n and 1 <= k <= n, got n=${n}, c=${c}, k=${k}`);
  }
  if (n - c < k) return 1;
  let fail = 1;
  for (let i = n - c + 1; i <= n; i++) fail *= 1 - k / i;
  return 1 - fail;
}

/** The pass@k curve of `tasks` ({@link passAtK} per task, averaged, with a seeded bootstrap interval). */
export function passAtKCurve(tasks: ReadonlyArray<Pick<TaskTries, 'counted' | 'successes'>>): PassAtKCurve {
  const groups = tasks.filter((t) => t.counted > 0);
  const most = Math.max(0, ...groups.map((t) => t.counted));
  const points: PassAtKPoint[] = [];
  for (let k = 1; k <= most; k++) {
    const values = groups.filter((t) => t.counted >= k).map((t) => passAtK(t.counted, t.successes, k));
    const [low, high] = bootstrap(values, k);
    points.push({ k, estimate: mean(values), low, high, tasks: values.length });
  }
  const solved = groups.filter((t) => t.successes > 0).length;
  const sometimes = groups.filter((t) => t.successes > 0 && t.successes < t.counted).length;
  return { tasks: groups.length, points, solved, sometimes, sometimesShare: groups.length ? sometimes / groups.length : 0 };
}

/** Options of {@link readPassAtK}. */
export interface ReadPassAtKOptions {
  /** The run dir (try 1's; the tries are found under it). */
  readonly run: string;
  readonly store: FileStore;
  /** The tasks file the run was made from: its `verifiers.jsonl` holds the written verifiers. Default `<run>/tasks.jsonl`. */
  readonly tasksFile?: string;
  /** Receives what cannot be used (a written verifier for another instruction, a bad line), named. */
  readonly onWarning?: (message: string) => void;
}

/**
 * Reads every try of a run from disk (episodes, `results.jsonl`, judge records bound to their episodes) and returns
 * pass@k. A judge record made from another recording of the episode is not its verdict (the try is then not counted
 * unless its verifier says); a bad line or file is an error naming it.
 */
export async function readPassAtK(options: ReadPassAtKOptions): Promise<PassAtKReport> {
  const { store, run } = options;
  const tries = await runTries(store, run);
  const tasks = await readJsonl(store, runFile(run, 'tasks'), TaskSchema, { missingOk: true });
  const seen = new Set<string>();
  const order = tasks.filter((t) => !seen.has(t.task_id) && seen.add(t.task_id));
  const outcomes = new Map<string, TryOutcome[]>(order.map((t) => [t.task_id, []]));
  const warn = options.onWarning ?? (() => {});
  const verifiers = await readWrittenVerifiers(store, verifiersFileOf(options.tasksFile ?? runFile(run, 'tasks')));
  for (const issue of verifiers.issues) warn(`${issue.file}:${issue.line}: ${issue.problem}`);
  const written = writtenFor(order, [...verifiers.byTask.values()], warn);
  for (const t of tries) {
    const results = await recordedResults(store, t.dir);
    const judgeDir = judgeDirOf(t.dir);
    for (const task of order) {
      const dir = path.posix.join(t.dir, task.task_id);
      const episode = await readJsonFileIfExists(store, path.posix.join(dir, EPISODE_FILES.episode), EpisodeSchema);
      if (!episode) continue;
      const verdict = await currentVerdict(store, judgeDir, task.task_id, dir);
      const { success, source } = await episodeOutcome(store, dir, { task, written: written.get(task.task_id) ?? null, verdict, recorded: results.get(task.task_id) });
      outcomes.get(task.task_id)!.push({ n: t.n, dir, success, source, verdict, steps: episode.steps });
    }
  }
  const perTask: TaskTries[] = order
    .filter((t) => outcomes.get(t.task_id)!.length > 0)
    .map((t) => {
      const list = outcomes.get(t.task_id)!;
      return { taskId: t.task_id, site: t.site, tries: list, counted: list.filter((o) => o.success !== null).length, successes: list.filter((o) => o.success === true).length };
    });
  const sites = [...new Set(perTask.map((t) => t.site))].sort(compareCodePoints);
  return {
    run,
    attempts: tries.length,
    tasks: perTask,
    overall: passAtKCurve(perTask),
    bySite: sites.map((site) => ({ site, curve: passAtKCurve(perTask.filter((t) => t.site === site)) })),
    interval: PASS_AT_K_INTERVAL,
  };
}

// The judge's verdict of the episode now in `episodeDir`: null without a record, or with one made from another recording.
async function currentVerdict(store: FileStore, judgeDir: string, taskId: string, episodeDir: string): Promise<boolean | null> {
  const state = await judgeRecordState(store, judgeDir, taskId, await episodeIdOf(store, episodeDir));
  if (state !== 'current' && state !== 'unbound') return null;
  const record = await readJsonFileIfExists(store, judgeRecordFile(judgeDir, taskId), JudgeRecordSchema);
  return record ? record.predicted_label === 1 : null;
}

function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

// Percentile interval of the mean over resampled tasks; seeded by k, so a run's figures are the same each time.
function bootstrap(values: readonly number[], k: number): [number, number] {
  if (values.length === 0) return [0, 0];
  const random = mulberry32(0x9e3779b9 ^ k);
  const means: number[] = [];
  for (let r = 0; r < RESAMPLES; r++) {
    let sum = 0;
    for (let i = 0; i < values.length; i++) sum += values[Math.floor(random() * values.length)]!;
    means.push(sum / values.length);
  }
  means.sort((a, b) => a - b);
  return [means[Math.floor(0.025 * (RESAMPLES - 1))]!, means[Math.ceil(0.975 * (RESAMPLES - 1))]!];
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
