/**
 * The run directory's shared files: `tasks.jsonl` (every task attempted in the run) and `results.jsonl`
 * (`{task_id, ok}` per verified episode), both rebuilt whole and written atomically from the finished episodes,
 * so a run killed at any moment never loses or doubles a line.
 *
 * Many processes may write one run dir (DESIGN.md §8). The per-writer records are the episodes themselves
 * (`<task_id>/episode.json`, published by one rename, see `claims.ts`); the run files are derived from them in
 * the order of `tasks.jsonl`, never from one process's view: each writer rewrites `results.jsonl` from what is
 * on disk and looks again after its write, rewriting until no episode appeared meanwhile, so the last writer
 * to finish leaves the file a one-process run would. Every shard writes the whole task list to `tasks.jsonl`
 * (the same text), checked the same way.
 * @module
 */
import path from 'node:path';
import type { FileStore } from '../files/types';
import { readTextIfExists } from '../files/types';
import { ResultLineSchema, type Outcome } from '../core/schemas';
import type { SetupRecord } from '../files/setup';
import { countBySetup, type SetupCount } from '../files/setup-counts';
import { bindJudgeRecord, episodeIdOf, judgeRecordState } from '../files/episode-id';
import { parseJsonl } from '../core/io';
import { isPlainName } from '../core/names';
import { EPISODE_FILES, RUN_DIRS, RUN_FILES, judgeDirOf, keptName } from '../files/layout';
import { ASIDE_DIR, WORK_DIR } from './claims';
import { episodeDirs, readEpisode, readFinished, toFinished, type FinishedEpisode } from './episode-file';
import { parseTasks, TasksIndex } from './tasks-file';

/** Options of {@link scanRun}. */
export interface ScanRunOptions {
  /** Told of each finished episode that no longer parses and is moved aside to be redone. */
  readonly onWarning?: (message: string) => void;
}

/** Where {@link scanRun} keeps finished episodes that no longer parse: `<run>/_quarantine/<task_id>.bad.<time>.<unique>/`. */
export const QUARANTINE_DIR = RUN_DIRS.quarantine;

/**
 * The finished episodes among `taskIds` (those with a readable `episode.json`); an episode directory without
 * one (or with a torn one) is moved to `_aside/` so it is redone from scratch. Episodes in progress are never
 * here (they are recorded under `_work/`), so nothing another process is writing is touched. An `episode.json`
 * that is there but does not parse is a finished episode gone bad: it is never deleted, but named through
 * `onWarning` and moved to `<run>/_quarantine/<task_id>.bad.<time>.<unique>/`, and a judge record with no episode identity is
 * first bound to it, so the verdict cannot pass for the redone episode's.
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
    if (read.episode) finished.set(id, toFinished(read.episode));
    else if (read.problem !== undefined) {
      const aside = await quarantine(store, out, id);
      if (aside !== null) options.onWarning?.(`${read.problem}; the episode is redone and the old one kept in ${aside}`);
    } else await moveAside(store, out, id);
  }
  return finished;
}

// A finished episode gone bad, kept under _quarantine/ (renamed: atomic, and a second process finds it gone).
async function quarantine(store: FileStore, out: string, taskId: string): Promise<string | null> {
  const dir = path.posix.join(out, taskId);
  const judgeDir = judgeDirOf(out);
  const episodeId = await episodeIdOf(store, dir);
  if (episodeId !== null && (await judgeRecordState(store, judgeDir, taskId, episodeId)) === 'unbound') {
    await bindJudgeRecord(store, judgeDir, taskId, episodeId, await store.readBytes(path.posix.join(judgeDir, `${taskId}.json`)));
  }
  const aside = path.posix.join(out, QUARANTINE_DIR, keptName(taskId, 'bad'));
  try {
    await store.rename(dir, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null; // another process moved it first
    throw error;
  }
  return aside;
}

// An unfinished episode dir of an earlier layout or a torn write: kept under _aside/, out of the readers' way.
async function moveAside(store: FileStore, out: string, id: string): Promise<void> {
  try {
    await store.rename(path.posix.join(out, id), path.posix.join(out, ASIDE_DIR, keptName(id, 'unfinished')));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // another process moved it first
  }
}

/** What {@link syncResults} keeps of each finished episode: at least its verifier's `ok`. */
export interface KeptResult {
  readonly ok: boolean | undefined;
}

/** Options of {@link syncResults}. */
export interface SyncResultsOptions<T extends KeptResult> {
  /** What is kept of a finished episode read (the env server keeps only `ok`: an RL run has hundreds of thousands). */
  readonly keep: (finished: FinishedEpisode) => T;
  /** Told when a results file that said something else is kept aside. */
  readonly onKept?: (message: string) => void;
  /** Told of each line of `tasks.jsonl` that is not a task. */
  readonly onWarning?: (message: string) => void;
  /** Write nothing while no task has a verifier and no episode an `ok` (a run of proposed tasks). */
  readonly gradedOnly?: boolean;
}

// Rounds of one results sync: each is another writer's episode published while it wrote.
const RESULTS_ROUNDS = 50;

/**
 * Writes `results.jsonl` from every finished episode on disk (this process's and others'), in the order of the run's
 * `tasks.jsonl` as read then (`tasks`), adding to `finished` the episodes finished since it was read; then looks
 * again, and while episodes were published meanwhile (another writer's, perhaps of a task new to the list) does it
 * over, so a slower writer's older view never stays on disk. Returns the lines written.
 */
export async function syncResults<T extends KeptResult>(
  store: FileStore,
  out: string,
  tasks: TasksIndex,
  finished: Map<string, T>,
  options: SyncResultsOptions<T>,
): Promise<number> {
  let lines = 0;
  for (let round = 0; round < RESULTS_ROUNDS; round++) {
    // Listed first: every episode published by then has its task in the list read next.
    const before = await episodeDirs(store, out);
    const { ids: order, graded } = await tasks.merge([], options.onWarning, before);
    for (const id of order) {
      if (finished.has(id) || !before.has(id)) continue;
      const episode = await readFinished(store, out, id);
      if (episode) finished.set(id, options.keep(episode));
    }
    if (options.gradedOnly && !graded && ![...finished.values()].some((f) => f.ok !== undefined)) return 0;
    lines = await writeResults(store, out, order, finished, options.onKept);
    const after = await episodeDirs(store, out);
    if ([...after].every((id) => before.has(id))) break;
  }
  return lines;
}

/**
 * Re-derives `results.jsonl` of a run that this library's `runAttempt` wrote (it has a `_work/` dir) from its
 * finished episodes, in `tasks.jsonl` order (a published episode's task the list lacks listed again), so a reader
 * after a multi-process run sees what one process would have written even if a writer died between its write and its
 * check. Other runs (the seed's) are left as they are. `warn` is told of a results file kept aside and of a line of
 * `tasks.jsonl` that is not a task (dropped). Returns whether it wrote.
 */
export async function syncRunFiles(store: FileStore, run: string, warn: (message: string) => void = () => {}): Promise<boolean> {
  if (!(await store.exists(path.posix.join(run, WORK_DIR)))) return false;
  const text = await readTextIfExists(store, path.posix.join(run, RUN_FILES.tasks));
  const tasks = text === null ? [] : parseTasks(text, RUN_FILES.tasks, () => {}).tasks;
  // A run of proposed tasks has results only when it was attempted with written verifiers.
  if (!tasks.some((t) => t.verifier) && !(await store.exists(path.posix.join(run, RUN_FILES.results)))) return false;
  await syncResults(store, run, new TasksIndex(store, run), new Map<string, FinishedEpisode>(), { keep: (f) => f, onKept: warn, onWarning: warn });
  return true;
}

/**
 * Writes `results.jsonl`: `{task_id, ok}` for each verified finished episode, in task order. A file there that says
 * something the episodes do not (a line changed, lost or unreadable; lines still to come are no difference) is
 * first copied to `_aside/` and named through `onKept`: derived, but never replaced without a word.
 */
export async function writeResults(
  store: FileStore,
  out: string,
  order: readonly string[],
  finished: ReadonlyMap<string, { readonly ok: boolean | undefined }>,
  onKept: (message: string) => void = () => {},
): Promise<number> {
  const results = new Map<string, boolean>();
  for (const id of order) {
    const ok = finished.get(id)?.ok;
    if (ok !== undefined) results.set(id, ok);
  }
  const file = path.posix.join(out, RUN_FILES.results);
  const text = [...results].map(([id, ok]) => `${JSON.stringify({ task_id: id, ok })}\n`).join('');
  const old = await readTextIfExists(store, file);
  if (old !== null && old !== text) {
    const differs = await resultsDiffer(store, out, old, text, results);
    if (differs !== undefined) {
      const aside = path.posix.join(out, RUN_DIRS.aside, keptName(RUN_FILES.results, 'replaced'));
      await store.writeAtomic(aside, old);
      onKept(`${differs}; rewritten from the episodes, the old file kept in ${aside}`);
    }
  }
  await store.writeAtomic(file, text);
  return results.size;
}

// The first line of an existing results file that the episodes contradict (or that does not parse). A line the new
// text holds as it is says what the episodes say: only a file with another line is parsed (at every episode's end
// the file differs by its new lines alone, and parsing it whole each time grew with the run). A line of a task this
// writer has no result for is read against its episode on disk: another writer, seeing an episode published after
// this writer listed the run, wrote it, and it says what that episode says.
async function resultsDiffer(store: FileStore, out: string, text: string, next: string, results: ReadonlyMap<string, boolean>): Promise<string | undefined> {
  const kept = new Set(next.split('\n'));
  if (text.split('\n').every((line) => !line.trim() || kept.has(line))) return undefined;
  const file = path.posix.join(out, RUN_FILES.results);
  let first: string | undefined;
  const lines = parseJsonl(text, file, ResultLineSchema, {
    lenient: true,
    onIssue: (issue) => (first ??= `${file}:${issue.line}: ${issue.problem}`),
  });
  if (first !== undefined) return first;
  for (const { task_id: id, ok } of lines) {
    const now = results.get(id);
    if (now === ok) continue;
    if (now === undefined && isPlainName(id) && (await readFinished(store, out, id))?.ok === ok) continue;
    return `${file}: ${id} has ok ${JSON.stringify(ok)} there but ${now === undefined ? 'no verified finished episode' : `ok ${now} in its episode`}`;
  }
  return undefined;
}

/** Episodes counted with their steps and outcomes. */
export interface FinishedTotals {
  /** Finished episodes counted. */
  readonly episodes: number;
  /** Their steps in all. */
  readonly steps: number;
  /** How many ended with each outcome. */
  readonly outcomes: Readonly<Record<Outcome, number>>;
  /**
   * The same episodes counted per set-up that recorded them (`success`: the verifier passed): more than one only
   * in a run dir attempted with `mixSetup`, or beside episodes that name no set-up (the seed's, `digest: null`).
   */
  readonly bySetup: readonly SetupCount[];
}

/** The totals of finished episodes, counted per set-up with `setups` (the run dir's set-up records). */
export function finishedTotals(given: readonly FinishedEpisode[], setups: readonly SetupRecord[]): FinishedTotals {
  const episodes = given.map((f) => f.episode);
  const outcomes: Record<Outcome, number> = { done: 0, max_steps: 0, timeout: 0, error: 0 };
  for (const e of episodes) outcomes[e.outcome]++;
  const bySetup = countBySetup(setups, given.map((f) => ({ setup: typeof f.episode.setup === 'string' ? f.episode.setup : null, success: f.ok === true })));
  return { episodes: episodes.length, steps: episodes.reduce((n, e) => n + e.steps, 0), outcomes, bySetup };
}
