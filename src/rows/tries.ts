/**
 * Rows from a run with several tries per task (`<run>/_tries/<n>/`, `files/layout.ts`): each task's judged
 * successful tries, and which of them are candidates (`pick`: the shortest, the first, or all). A run of one try
 * passes through unchanged, so its selection is the seed's.
 * @module
 */
import type PQueue from 'p-queue';
import path from 'node:path';
import { judgeDirOf, RUN_DIRS } from '../files/layout';
import { runTries } from '../files/tries';
import type { FileStore } from '../files/types';
import type { RowsTaskRef } from './select';

/** Where a task's episode and judge record are: a try's run dir and its judge dir. */
export interface TrySource {
  readonly run: string;
  readonly judgeDir: string;
}

/** A selection entry: the task, its try, where its rows are and the dir under the rows dir they go to. */
export interface TryUnit {
  readonly id: string;
  readonly n: number;
  readonly src: TrySource;
  /** The dir under the rows dir: the task id, or `_tries/<n>/<task_id>` for a try past the first with `pick: 'all'`. */
  readonly out: string;
}

/** A judged success's rows, as the rows step reads them. */
interface TryCandidate {
  readonly rows: number;
  readonly skip?: string;
  readonly missing?: string;
}

/** What {@link pickTries} needs. */
export interface PickTriesInput {
  readonly store: FileStore;
  readonly queue: PQueue;
  readonly run: string;
  readonly pick: 'shortest' | 'first' | 'all';
  /** The run's own tasks, in order. */
  readonly tasks: readonly RowsTaskRef[];
  /** Try 1's candidates (and the relabeled tasks'), task id to rows. */
  readonly candidates: ReadonlyMap<string, number>;
  /** Relabeled task ids (their candidates pass through). */
  readonly relabeled: ReadonlySet<string>;
  /** Try 1's source. */
  readonly own: TrySource;
  readonly candidateOf: (src: TrySource, id: string) => Promise<TryCandidate | undefined>;
  /** Whether a verifier failed the try's episode: with `shortest` and `first`, such a try is picked only when no other is left. */
  readonly verifierFailed?: (src: TrySource, id: string) => Promise<boolean>;
  /** A judged successful try left out (rows that do not parse, a stale record), named `<task_id> (try n)`. */
  readonly onSkip: (taskId: string, reason: string) => void;
}

/** The selection's input after the pick: tasks (entries) in order, their candidates, and each entry's unit. */
export interface PickedTries {
  readonly tasks: readonly RowsTaskRef[];
  readonly candidates: ReadonlyMap<string, number>;
  /** Entries whose try is not 1 or whose dir is not the task id; others are try 1's own. */
  readonly units: ReadonlyMap<string, TryUnit>;
}

/**
 * Each task's candidate tries, picked as `pick` says (see `RowsOptions.pick`); with `shortest` and `first`, among the
 * tries no verifier failed when there is one (`verifierFailed`).
 */
export async function pickTries(input: PickTriesInput): Promise<PickedTries> {
  const more = (await runTries(input.store, input.run)).filter((t) => t.n > 1);
  if (more.length === 0) return { tasks: input.tasks, candidates: input.candidates, units: new Map() };
  const ids = [...new Set(input.tasks.map((t) => t.task_id))].filter((id) => !input.relabeled.has(id));
  // Per task, its successful tries with their rows, in try order.
  const byTask = new Map<string, Array<{ n: number; rows: number; src: TrySource }>>(ids.map((id) => [id, []]));
  for (const id of ids) {
    const rows = input.candidates.get(id);
    if (rows !== undefined) byTask.get(id)!.push({ n: 1, rows, src: input.own });
  }
  for (const t of more) {
    const src = { run: t.dir, judgeDir: judgeDirOf(t.dir) };
    const found = await Promise.all(ids.map((id) => input.queue.add(() => input.candidateOf(src, id))));
    ids.forEach((id, i) => {
      const c = found[i];
      if (c === undefined || c.missing !== undefined) return;
      if (c.skip !== undefined) return input.onSkip(`${id} (try ${t.n})`, c.skip);
      byTask.get(id)!.push({ n: t.n, rows: c.rows, src });
    });
  }
  // A judged success its verifier failed is no success (a verifier over the judge): another try is picked before it.
  if (input.pick !== 'all' && input.verifierFailed) {
    for (const [id, tries] of byTask) {
      if (tries.length < 2) continue;
      const failed = await Promise.all(tries.map((t) => input.verifierFailed!(t.src, id)));
      const passed = tries.filter((_, i) => !failed[i]);
      if (passed.length) byTask.set(id, passed);
    }
  }
  const tasks: RowsTaskRef[] = [];
  const candidates = new Map<string, number>();
  const units = new Map<string, TryUnit>();
  for (const task of input.tasks) {
    if (input.relabeled.has(task.task_id)) continue;
    const tries = byTask.get(task.task_id) ?? [];
    const chosen = input.pick === 'all' ? tries : tries.length ? [input.pick === 'first' ? tries[0]! : shortest(tries)] : [];
    if (chosen.length === 0) tasks.push(task); // no candidate: counted as the seed counts a task without one
    for (const c of chosen) {
      const out = input.pick === 'all' && c.n > 1 ? path.posix.join(RUN_DIRS.tries, String(c.n), task.task_id) : task.task_id;
      tasks.push({ ...task, task_id: out });
      candidates.set(out, c.rows);
      units.set(out, { id: task.task_id, n: c.n, src: c.src, out });
    }
  }
  for (const [id, rows] of input.candidates) if (input.relabeled.has(id)) candidates.set(id, rows);
  return { tasks, candidates, units };
}

// The try with the fewest rows; the lower try on a tie (the list is in try order).
function shortest<T extends { rows: number }>(tries: readonly T[]): T {
  return tries.reduce((best, t) => (t.rows < best.rows ? t : best));
}
