/**
 * An episode's `episode.json` as the run dir's files read it: a finished episode is one whose file is there, parses and
 * names its own dir's task. Read by the results sync, the scan of a run and the repair of `tasks.jsonl`.
 * @module
 */
import path from 'node:path';
import type { FileStore } from '../files/types';
import { readTextIfExists } from '../files/types';
import { EpisodeSchema, type Episode } from '../core/schemas';
import { InputError } from '../core/errors';
import { parseJsonText, parseWith } from '../core/io';
import { EPISODE_FILES } from '../files/layout';

/** A finished episode found in the run directory. */
export interface FinishedEpisode {
  readonly episode: Episode;
  /** The verifier's result, when the task has one. */
  readonly ok: boolean | undefined;
}

/** The run dir's episode dirs (a task id never starts with `_`; the run's own dirs all do). */
export async function episodeDirs(store: FileStore, out: string): Promise<Set<string>> {
  return new Set((await store.list(out)).filter((e) => e.isDirectory && !e.name.startsWith('_')).map((e) => e.name));
}

/** The finished episode of `taskId` in the run dir, or `null` (none, or a torn `episode.json`). */
export async function readFinished(store: FileStore, out: string, taskId: string): Promise<FinishedEpisode | null> {
  const { episode } = await readEpisode(store, path.posix.join(out, taskId, EPISODE_FILES.episode));
  return episode ? toFinished(episode) : null;
}

/** A finished episode of what its file holds: the verifier's `ok` only when the episode recorded a boolean one. */
export function toFinished(episode: Episode): FinishedEpisode {
  return { episode, ok: typeof episode.ok === 'boolean' ? episode.ok : undefined };
}

/**
 * A run dir's `<task_id>/episode.json`: the episode, or the problem that keeps it from being one (it does not parse, or
 * it names another task); neither when the file is not there.
 */
export async function readEpisode(store: FileStore, file: string): Promise<{ episode?: Episode; problem?: string }> {
  const text = await readTextIfExists(store, file);
  if (text === null) return {};
  try {
    const episode = parseWith(EpisodeSchema, parseJsonText(text, { file }), { file });
    // An episode dir holds its own task's episode; another's (a copy gone wrong) would pass for this task's.
    const taskId = path.posix.basename(path.posix.dirname(file));
    if (episode.task.task_id !== taskId) {
      throw new InputError({ file, field: 'task.task_id' }, `names task ${episode.task.task_id}, not ${taskId}`);
    }
    return { episode };
  } catch (error) {
    if (error instanceof InputError) return { problem: error.message };
    throw error;
  }
}
