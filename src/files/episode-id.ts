/**
 * Episode identity (DESIGN.md §9): every recorded episode has an id, a digest of the files the judge's verdict
 * rests on, and every judge record written by `judge` carries the id of the episode it judged in a binding file
 * beside the seed's record (`<run>_judge/_episodes/<task_id>.json`), so the record stays byte-identical. A record
 * whose episode has changed is stale: `judge` judges it again and `rows` does not use it.
 *
 * Records with no binding ("unbound": written by the seed's Python or an earlier taskgen) are used as the seed
 * uses them; `judge` binds them to the episode found at that moment, so any later change is caught.
 * @module
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { EPISODE_FILES, JUDGE_FILES } from './layout';
import type { FileStore } from './types';
import { guardText, isNotFound } from './types';
import { assertPlainName } from '../core/names';
import { EpisodeBindingSchema } from '../core/schemas';

/** The files of an episode dir that its id is made from: the episode summary and the judge's evidence. */
export const EPISODE_ID_FILES = Object.freeze([EPISODE_FILES.episode, EPISODE_FILES.gradeInputs] as const);

/** The folder of a judge dir that holds the bindings. Its `_` keeps it apart from `<task_id>.json` records. */
export const EPISODE_BINDINGS_DIR = JUDGE_FILES.bindings;

/** How a judge record stands against the episode now in the run. */
export type JudgeRecordState =
  /** No record. */
  | 'none'
  /** A record with no (readable) binding: written by the seed or an earlier taskgen. */
  | 'unbound'
  /** A record made from the episode now in the run. */
  | 'current'
  /** A record made from another episode (the episode was recorded again), or whose binding is for another record. */
  | 'stale';

async function readBytesIfExists(store: FileStore, file: string): Promise<Uint8Array | null> {
  try {
    return await store.readBytes(file);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

function digest(parts: ReadonlyArray<string | Uint8Array>): string {
  const hash = createHash('sha256');
  for (const part of parts) {
    const bytes = typeof part === 'string' ? Buffer.from(part) : part;
    hash.update(`${bytes.length}:`); // length-prefixed, so file boundaries cannot shift
    hash.update(bytes);
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The episode's id: a 16-hex-digit digest of its `episode.json` and `grade_inputs.json` (whichever exist, bytes as
 * they are, so even a file that no longer parses has one), which changes whenever the episode is recorded again
 * (`episode.json` holds its timings). `null` when the dir has neither file: there is no episode.
 */
export async function episodeIdOf(store: FileStore, episodeDir: string): Promise<string | null> {
  const parts: Array<string | Uint8Array> = [];
  for (const name of EPISODE_ID_FILES) {
    const bytes = await readBytesIfExists(store, path.posix.join(episodeDir, name));
    if (bytes !== null) parts.push(name, bytes);
  }
  return parts.length === 0 ? null : digest(parts);
}

/** The digest of a judge record file's bytes, as a binding names it. */
export function recordDigest(record: string | Uint8Array): string {
  // Of the text as the store writes it (keys removed), so the binding names the record on disk.
  return digest([guardText(record)]);
}

/** `<judgeDir>/_episodes/<task_id>.json`. */
export function bindingFileOf(judgeDir: string, taskId: string): string {
  assertPlainName(taskId, 'task id');
  return path.posix.join(judgeDir, EPISODE_BINDINGS_DIR, `${taskId}.json`);
}

async function readState(
  store: FileStore,
  judgeDir: string,
  taskId: string,
): Promise<{ record: Uint8Array | null; episodeId: string | null; bound: boolean; setup: string | null; edited?: boolean }> {
  const record = await readBytesIfExists(store, path.posix.join(judgeDir, `${taskId}.json`));
  if (record === null) return { record, episodeId: null, bound: false, setup: null };
  const text = await readBytesIfExists(store, bindingFileOf(judgeDir, taskId));
  if (text === null) return { record, episodeId: null, bound: false, setup: null };
  let parsed;
  try {
    parsed = EpisodeBindingSchema.safeParse(JSON.parse(Buffer.from(text).toString('utf8')));
  } catch {
    return { record, episodeId: null, bound: true, setup: null }; // a binding that does not parse binds to nothing
  }
  if (!parsed.success || parsed.data.task_id !== taskId) return { record, episodeId: null, bound: true, setup: null };
  if (parsed.data.record !== recordDigest(record)) return { record, episodeId: null, bound: true, setup: null, edited: true };
  return { record, episodeId: parsed.data.episode_id, bound: true, setup: parsed.data.setup ?? null };
}

/**
 * The id of the episode that `<judgeDir>/<task_id>.json` was made from, from its binding; `null` when there is no
 * record, no binding, or the binding belongs to another record (its digest differs).
 */
export async function judgedEpisodeIdOf(store: FileStore, judgeDir: string, taskId: string): Promise<string | null> {
  return (await readState(store, judgeDir, taskId)).episodeId;
}

/**
 * The digest of the judge set-up that wrote `<judgeDir>/<task_id>.json`, from its binding; `null` when there is no
 * record, no binding, a binding of another record, or one that names no set-up (bound after the fact).
 */
export async function judgedSetupOf(store: FileStore, judgeDir: string, taskId: string): Promise<string | null> {
  return (await readState(store, judgeDir, taskId)).setup;
}

/** How the judge record of `taskId` stands against the episode whose id is `episodeId` ({@link episodeIdOf}). */
export async function judgeRecordState(
  store: FileStore,
  judgeDir: string,
  taskId: string,
  episodeId: string | null,
): Promise<JudgeRecordState> {
  return (await judgeRecordStanding(store, judgeDir, taskId, episodeId)).state;
}

/**
 * {@link judgeRecordState} and {@link judgedSetupOf} from one read of the record and its binding; `edited` when the
 * record is stale because its bytes are not those its binding names (edited after it was written, or a judge killed
 * between writing the binding and the record) rather than because the episode was recorded again.
 */
export async function judgeRecordStanding(
  store: FileStore,
  judgeDir: string,
  taskId: string,
  episodeId: string | null,
): Promise<{ state: JudgeRecordState; setup: string | null; edited?: boolean }> {
  const read = await readState(store, judgeDir, taskId);
  const state: JudgeRecordState =
    read.record === null ? 'none' : !read.bound ? 'unbound' : read.episodeId !== null && read.episodeId === episodeId ? 'current' : 'stale';
  return { state, setup: read.setup, ...(read.edited ? { edited: true } : {}) };
}

/**
 * Writes the binding of the record `recordText` (about to be written, or on disk) to episode `episodeId`. Written
 * before the record: a crash between the two leaves a binding whose digest names the new record, so the old
 * record on disk reads as stale, never as current. `setup` is the digest of the judge set-up that made the record,
 * given only by the writer of the record (a record bound after the fact, such as the seed's, names none).
 */
export async function bindJudgeRecord(
  store: FileStore,
  judgeDir: string,
  taskId: string,
  episodeId: string,
  recordText: string | Uint8Array,
  setup?: string,
): Promise<void> {
  const binding = { task_id: taskId, episode_id: episodeId, record: recordDigest(recordText), ...(setup ? { setup } : {}) };
  await store.writeAtomic(bindingFileOf(judgeDir, taskId), `${JSON.stringify(binding)}\n`);
}
