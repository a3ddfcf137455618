/**
 * The run directory's shared files: `tasks.jsonl` (every task attempted in the run) and `results.jsonl`
 * (`{task_id, ok}` per verified episode), both rebuilt whole and written atomically from the finished episodes,
 * so a run killed at any moment never loses or doubles a line.
 * @module
 */
import path from 'node:path';
import type { FileStore } from '../fs/types';
import { readTextIfExists } from '../fs/types';
import { EpisodeSchema, TaskSchema, type Episode, type Task } from '../schemas';
import { EPISODE_FILES, RUN_FILES } from '../fs/layout';

/** The run's file names. */

/** A finished episode found in the run directory. */
export interface FinishedEpisode {
  readonly episode: Episode;
  /** The verifier's result, when the task has one. */
  readonly ok: boolean | undefined;
}

/**
 * The finished episodes among `taskIds` (those with a readable `episode.json`); an episode directory without
 * one (or with a torn one) is removed so it is redone from scratch.
 */
export async function scanRun(store: FileStore, out: string, taskIds: readonly string[]): Promise<Map<string, FinishedEpisode>> {
  const finished = new Map<string, FinishedEpisode>();
  const present = new Set((await store.list(out)).filter((e) => e.isDirectory).map((e) => e.name));
  for (const id of taskIds) {
    if (!present.has(id)) continue;
    const dir = path.posix.join(out, id);
    const episode = await readEpisode(store, path.posix.join(dir, EPISODE_FILES.episode));
    if (episode) finished.set(id, { episode, ok: typeof episode.ok === 'boolean' ? episode.ok : undefined });
    else await store.remove(dir);
  }
  return finished;
}

async function readEpisode(store: FileStore, file: string): Promise<Episode | null> {
  const text = await readTextIfExists(store, file);
  if (text === null) return null;
  try {
    const parsed = EpisodeSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The run's task list: the tasks already in `tasks.jsonl` (in their order), then the new ones. Lines that do
 * not parse are reported through `warn` and dropped. Written atomically; returns the merged list.
 */
export async function mergeTasksFile(
  store: FileStore,
  out: string,
  tasks: readonly Task[],
  warn: (message: string) => void = () => {},
): Promise<Task[]> {
  const file = path.posix.join(out, RUN_FILES.tasks);
  const text = (await readTextIfExists(store, file)) ?? '';
  const merged: Task[] = [];
  const ids = new Set<string>();
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      const task = TaskSchema.parse(JSON.parse(line));
      if (!ids.has(task.task_id)) merged.push(task);
      ids.add(task.task_id);
    } catch (error) {
      warn(`${file}:${i + 1}: skipped a line that is not a task (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    }
  });
  for (const task of tasks) {
    if (ids.has(task.task_id)) continue;
    ids.add(task.task_id);
    merged.push(task);
  }
  await store.writeAtomic(file, merged.map((t) => `${JSON.stringify(t)}\n`).join(''));
  return merged;
}

/** Writes `results.jsonl`: `{task_id, ok}` for each verified finished episode, in task order. */
export async function writeResults(
  store: FileStore,
  out: string,
  order: readonly string[],
  finished: ReadonlyMap<string, FinishedEpisode>,
): Promise<number> {
  const lines: string[] = [];
  for (const id of order) {
    const ok = finished.get(id)?.ok;
    if (ok !== undefined) lines.push(JSON.stringify({ task_id: id, ok }));
  }
  await store.writeAtomic(path.posix.join(out, RUN_FILES.results), lines.map((l) => `${l}\n`).join(''));
  return lines.length;
}
