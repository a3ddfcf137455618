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
import { bindJudgeRecord, episodeIdOf, judgeRecordState } from '../episode-id';
import { InputError } from '../errors';
import { parseJsonText, parseWith } from '../io';
import { judgeDirOf } from '../judge/run';
import { EPISODE_FILES } from './recorder';

/** The run's file names. */
export const RUN_FILES = Object.freeze({ tasks: 'tasks.jsonl', results: 'results.jsonl' });

/** A finished episode found in the run directory. */
export interface FinishedEpisode {
  readonly episode: Episode;
  /** The verifier's result, when the task has one. */
  readonly ok: boolean | undefined;
}

/** Options of {@link scanRun}. */
export interface ScanRunOptions {
  /** Told of each finished episode that no longer parses and is moved aside to be redone. */
  readonly onWarning?: (message: string) => void;
}

/** Where {@link scanRun} keeps finished episodes that no longer parse: `<run>/_quarantine/<task_id>-<stamp>/`. */
export const QUARANTINE_DIR = '_quarantine';

/**
 * The finished episodes among `taskIds` (those with a readable `episode.json`); an episode directory without
 * one (or with a torn one) is removed so it is redone from scratch. An `episode.json` that is there but does
 * not parse is a finished episode gone bad: it is never deleted, but named through `onWarning` and moved to
 * `<run>/_quarantine/<task_id>-<stamp>/`, and a judge record with no episode identity is first bound to it, so
 * the verdict cannot pass for the redone episode's.
 */
export async function scanRun(
  store: FileStore,
  out: string,
  taskIds: readonly string[],
  options: ScanRunOptions = {},
): Promise<Map<string, FinishedEpisode>> {
  const finished = new Map<string, FinishedEpisode>();
  const present = new Set((await store.list(out)).filter((e) => e.isDirectory).map((e) => e.name));
  for (const id of taskIds) {
    if (!present.has(id)) continue;
    const dir = path.posix.join(out, id);
    const file = path.posix.join(dir, EPISODE_FILES.episode);
    const read = await readEpisode(store, file);
    if (read.episode) finished.set(id, { episode: read.episode, ok: typeof read.episode.ok === 'boolean' ? read.episode.ok : undefined });
    else if (read.problem !== undefined) {
      const aside = await quarantine(store, out, id);
      options.onWarning?.(`${read.problem}; the episode is redone and the old one kept in ${aside}`);
    } else await store.remove(dir);
  }
  return finished;
}

async function quarantine(store: FileStore, out: string, taskId: string): Promise<string> {
  const dir = path.posix.join(out, taskId);
  const judgeDir = judgeDirOf(out);
  const episodeId = await episodeIdOf(store, dir);
  if (episodeId !== null && (await judgeRecordState(store, judgeDir, taskId, episodeId)) === 'unbound') {
    await bindJudgeRecord(store, judgeDir, taskId, episodeId, await store.readBytes(path.posix.join(judgeDir, `${taskId}.json`)));
  }
  const stamp = new Date().toISOString().replace(/[-:.]/g, '');
  const aside = path.posix.join(out, QUARANTINE_DIR, `${taskId}-${stamp}`);
  // Copied, then removed: a crash between the two leaves two copies, never none.
  await store.copyDir(dir, aside, { mode: 'link' });
  await store.remove(dir);
  return aside;
}

async function readEpisode(store: FileStore, file: string): Promise<{ episode?: Episode; problem?: string }> {
  const text = await readTextIfExists(store, file);
  if (text === null) return {};
  try {
    return { episode: parseWith(EpisodeSchema, parseJsonText(text, { file }), { file }) };
  } catch (error) {
    if (error instanceof InputError) return { problem: error.message };
    throw error;
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
