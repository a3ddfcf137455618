/**
 * One try's run dir made ready for the attempt step (try 1 is the run dir, try n `<run>/_tries/<n>/`, see
 * `files/layout.ts`): its set-up claimed, its `tasks.jsonl` merged, its finished episodes read, its claims and its
 * `results.jsonl` writer; every try is a run dir of its own, so resuming, sharing and verifying work per try.
 * @module
 */
import type { Task } from '../core/schemas';
import type { FileStore } from '../files/types';
import { tryRunDir } from '../files/layout';
import { claimSetup, formatDifferences } from '../files/setup';
import type { Policy } from '../agent/types';
import { shardTasks, type Shard } from '../core/shard';
import { writtenFor, type WrittenClaim } from '../claims/grade';
import type { Claim } from '../claims/schema';
import { EpisodeClaims } from './claims';
import { scanRun, syncResults } from './run-dir';
import { readFinished, type FinishedEpisode } from './episode-file';
import { mergeTasksFile, TasksIndex } from './tasks-file';
import { attemptSetup } from './setup';

/** What {@link openTry} needs. */
export interface OpenTryInput {
  readonly store: FileStore;
  /** The run dir (try 1's). */
  readonly run: string;
  /** The try, 1-based. */
  readonly n: number;
  /** Tries per task in this run (for the shard split of tries). */
  readonly of: number;
  /** All the run's tasks (duplicates removed), in order. */
  readonly tasks: readonly Task[];
  /** The run's policy; try n >= 2 uses its `forTry(n)`. */
  readonly policy: Policy;
  readonly maxSteps: number;
  readonly baseUrl: string;
  readonly sitePrefix?: (site: string) => string;
  readonly verifiers: readonly WrittenClaim[];
  readonly shard?: Shard;
  readonly mixSetup?: boolean;
  readonly staleMs: number;
  readonly warn: (message: string) => void;
}

/** A try's run dir, ready: what the runner schedules and records into. */
export interface OpenTry {
  readonly n: number;
  /** The try's run dir. */
  readonly dir: string;
  readonly policy: Policy;
  /** The digest of its set-up, recorded in each episode. */
  readonly setup: string;
  /** This call's tasks of this try (its shard's). */
  readonly mine: readonly Task[];
  /** Finished episodes by task id (this try's), kept up to date by the runner. */
  readonly finished: Map<string, FinishedEpisode>;
  /** The claims of verifiers written for proposed tasks, by task id. */
  readonly written: ReadonlyMap<string, Claim>;
  /** Whether the try gets `results.jsonl`. */
  readonly verifying: boolean;
  readonly claims: EpisodeClaims;
  /** Rewrites `results.jsonl` from the episodes on disk (one call at a time); the lines written. */
  readonly saveResults: () => Promise<number>;
  /** Whether the task's episode is finished (looking on disk when not known). */
  readonly isFinished: (taskId: string) => Promise<boolean>;
}

/** Makes try `n`'s run dir ready (nothing is launched): set-up, tasks file, finished episodes, results. */
export async function openTry(input: OpenTryInput): Promise<OpenTry> {
  const { store, n, warn } = input;
  const dir = tryRunDir(input.run, n);
  const policy = n === 1 ? input.policy : (input.policy.forTry?.(n) ?? input.policy);
  const setup = await claimSetup({
    store,
    dir,
    setup: attemptSetup({ policy, maxSteps: input.maxSteps, baseUrl: input.baseUrl, sitePrefix: input.sitePrefix }),
    mix: input.mixSetup,
  });
  if (setup.moved.length) warn(`${dir}: the run now runs elsewhere (${formatDifferences(setup.moved)}); same set-up, going on`);
  await store.mkdir(dir);
  const mine = shardTasks(input.tasks, input.shard, { n, of: input.of });
  const runTasks = await mergeTasksFile(store, dir, input.tasks, warn);
  const order = runTasks.map((t) => t.task_id);
  const finished = await scanRun(store, dir, order, { onWarning: warn });
  const written = writtenFor(runTasks, input.verifiers, warn);
  // A run of proposed tasks (no verifiers, none written) gets no results file.
  const verifying = runTasks.some((t) => t.verifier || written.has(t.task_id));
  const tasksFile = new TasksIndex(store, dir);
  const saveResults = serial(() => syncResults(store, dir, tasksFile, finished, { keep: (f) => f, onKept: warn, onWarning: warn }));
  if (verifying) await saveResults();
  const claims = new EpisodeClaims({ store, run: dir, staleMs: input.staleMs, ...(input.shard ? { shard: input.shard } : {}) });
  const isFinished = async (taskId: string) => {
    const found = finished.get(taskId) ?? (await readFinished(store, dir, taskId));
    if (found) finished.set(taskId, found);
    return found !== null;
  };
  return { n, dir, policy, setup: setup.digest, mine, finished, written, verifying, claims, saveResults, isFinished };
}

// Runs `work` one call at a time, in call order; each call resolves with its own result.
function serial<T>(work: () => Promise<T>): () => Promise<T> {
  let chain: Promise<unknown> = Promise.resolve();
  return () => {
    const next = chain.then(work, work);
    chain = next.catch(() => {});
    return next;
  };
}
