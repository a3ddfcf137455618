/**
 * The tries of a run (`files/layout.ts`): try 1 is the run dir itself, try n >= 2 the run dir `<run>/_tries/<n>/`.
 * What the attempt step, the environment server and every reader of tries share: which tries a run holds, and the
 * next try dir without an episode of a task.
 * @module
 */
import { episodeDirOf, MAX_TRIES, RUN_DIRS, tryRunDir } from './layout';
import type { FileStore } from './types';
import path from 'node:path';

/** One try of a run: its number (1-based) and its run dir. */
export interface RunTry {
  /** 1 for the run dir itself, n >= 2 for `<run>/_tries/<n>/`. */
  readonly n: number;
  /** The try's run dir, laid out as a run (`tasks.jsonl`, `<task_id>/`, `results.jsonl`); its judge dir is `judgeDirOf(dir)`. */
  readonly dir: string;
}

/**
 * The tries a run holds, in order: try 1 (the run dir, when it exists), then every `<run>/_tries/<n>/` with `n` a whole
 * number in 2..{@link MAX_TRIES} (the tries' judge dirs `<n>_judge` and anything else there are not tries).
 */
export async function runTries(store: FileStore, run: string): Promise<RunTry[]> {
  if (!(await store.exists(run))) return [];
  const more = (await store.list(path.posix.join(run, RUN_DIRS.tries)))
    .filter((e) => e.isDirectory && !e.isSymbolicLink && /^[1-9]\d*$/.test(e.name))
    .map((e) => Number(e.name))
    .filter((n) => n >= 2 && n <= MAX_TRIES)
    .sort((a, b) => a - b);
  return [1, ...more].map((n) => ({ n, dir: tryRunDir(run, n) }));
}

/**
 * The first try of `taskId` with no episode dir yet (1 when the run has none): where a new episode of the task goes.
 * Throws a `RangeError` when all {@link MAX_TRIES} tries of it exist.
 */
export async function nextFreeTry(store: FileStore, run: string, taskId: string): Promise<RunTry> {
  for (let n = 1; n <= MAX_TRIES; n++) {
    const dir = tryRunDir(run, n);
    if (!(await store.exists(episodeDirOf(dir, taskId)))) return { n, dir };
  }
  throw new RangeError(`task ${taskId}: all ${MAX_TRIES} tries of ${run} hold an episode`);
}
