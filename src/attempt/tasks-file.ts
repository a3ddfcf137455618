/**
 * A run dir's `tasks.jsonl`: every task attempted in the run, in the order first attempted, one JSON line each.
 * Each writer merges its tasks in (read, add the new ones at the end, write atomically, read back), so any number of
 * processes may share the file. {@link mergeTasksFile} reads it whole; {@link TasksIndex} is the same merge for a
 * writer that merges into one file again and again (the env server at every episode, a results sync after every
 * episode): it parses only the lines added since its last read, where parsing the whole file each time made an
 * episode's bookkeeping grow with the run (164 ms of CPU per episode at 5,000 tasks, `npm run bench -- run-files`).
 * @module
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { FileStore } from '../files/types';
import { guardText, isNotFound, namedIsDirectory, readTextIfExists } from '../files/types';
import { TaskSchema, type Task } from '../core/schemas';
import { InputError } from '../core/errors';
import { redactKnownSecrets } from '../core/secrets';
import { RUN_FILES } from '../files/layout';
import { episodeDirs, readFinished } from './episode-file';

const MERGE_ROUNDS = 50;

/**
 * The run's task list: the tasks already in `tasks.jsonl` (in their order), then the new ones, whose lines are added
 * at the file's end (the lines there are kept as written). Lines that are not a task (or repeat an id) are reported
 * through `warn` and the file is rewritten without them. Written atomically, then read back: another writer that
 * replaced the file from an older read is merged with again until these tasks are in. A task whose episode is
 * published in the run but that the file does not list (another writer's rewrite from an older read dropped it after
 * its writer had read it back) is listed again from its `episode.json`, as `results.jsonl` is derived from the
 * episodes: each writer looks after each of its writes, so the last one leaves every published episode's task listed.
 * Returns the list.
 */
export async function mergeTasksFile(
  store: FileStore,
  out: string,
  tasks: readonly Task[],
  warn: (message: string) => void = () => {},
): Promise<Task[]> {
  const file = path.posix.join(out, RUN_FILES.tasks);
  const wanted = [...tasks];
  let report = warn;
  // Each round is another writer's change seen; past a bound the file is not ours to settle.
  for (let round = 0; ; round++) {
    if (round === MERGE_ROUNDS) throw new Error(`${file}: still changing or not reading back as written after ${MERGE_ROUNDS} rewrites; is another writer rewriting it?`);
    const text = (await readTextIfExists(store, file)) ?? '';
    const { tasks: merged, clean, lines } = parseTasks(text, file, report);
    report = () => {}; // each bad line is reported once
    const ids = new Set(merged.map((t) => t.task_id));
    const fresh: Task[] = [];
    for (const task of wanted) {
      if (ids.has(task.task_id)) {
        const recorded = merged.find((t) => t.task_id === task.task_id) ?? fresh.find((t) => t.task_id === task.task_id)!;
        assertSameTask(recorded, task, { file, line: lines.get(task.task_id) });
        continue;
      }
      ids.add(task.task_id);
      fresh.push(task);
    }
    if (!fresh.length && clean) {
      const lost = await unlistedTasks(store, out, ids);
      if (!lost.length) return merged;
      wanted.push(...lost);
      continue;
    }
    await store.writeAtomic(file, clean ? withLines(text, fresh) : withLines('', [...merged, ...fresh]));
  }
}

// `text` with a line for each task added at its end.
function withLines(text: string, tasks: readonly Task[]): string {
  const lines = tasks.map((t) => `${JSON.stringify(t)}\n`).join('');
  return text && !text.endsWith('\n') ? `${text}\n${lines}` : text + lines;
}

// A task attempted in the run must stay the task its episode was recorded for: the same id with another
// instruction or start page would file the old episode (and its verdict) under the new task. Files hold a task as
// written, without a key the process holds: the same task read back.
function assertSameTask(recorded: Task, given: Task, where: { file: string; line: number | undefined }): void {
  for (const field of ['instruction', 'start_path'] as const) {
    const now = redactKnownSecrets(given[field]);
    if (recorded[field] === now) continue;
    throw new InputError(
      { ...where, field },
      `task ${given.task_id} is ${JSON.stringify(recorded[field])} in the run but ${JSON.stringify(now)} now: a run's task never changes; use another --out for the new tasks`,
    );
  }
}

/** The tasks of a `tasks.jsonl` text, first line of an id kept (`lines`: its line); `clean` when no line had to be dropped. */
export function parseTasks(text: string, file: string, warn: (message: string) => void): { tasks: Task[]; clean: boolean; lines: Map<string, number> } {
  const out: Task[] = [];
  const ids = new Set<string>();
  const lines = new Map<string, number>();
  let clean = true;
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      const task = TaskSchema.parse(JSON.parse(line));
      if (!ids.has(task.task_id)) {
        out.push(task);
        lines.set(task.task_id, i + 1);
      } else clean = false;
      ids.add(task.task_id);
    } catch (error) {
      clean = false;
      warn(`${file}:${i + 1}: skipped a line that is not a task (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    }
  });
  return { tasks: out, clean, lines };
}

/** What {@link TasksIndex.merge} returns: the run's task ids in file order, and whether any task has a verifier. */
export interface TasksSummary {
  readonly ids: readonly string[];
  readonly graded: boolean;
}

/** What a {@link TasksIndex} has read of its file: the file's length and digest (bytes), and what its lines held. */
interface Seen {
  length: number;
  digest: string;
  /** Lines read (blank ones too, as {@link parseTasks} numbers them). */
  lineCount: number;
  ids: string[];
  /** Per id: its 1-based line and the byte where that line starts. */
  lines: Map<string, { line: number; start: number }>;
  graded: boolean;
}

/**
 * {@link mergeTasksFile} for a writer that merges into one run's `tasks.jsonl` again and again (the env server, at
 * every episode): it keeps the ids and lines it has read, and while the file has only grown at its end since (as
 * every writer's merge leaves a clean file) it decodes and parses only the lines added. A file that is not clean (a
 * line that is not a task, an id twice, a last line without its newline) or that was rewritten otherwise is merged
 * whole by {@link mergeTasksFile}, with its warnings, and read afresh the next time. The same file comes out either way.
 */
export class TasksIndex {
  private seen: Seen = emptySeen();
  private readonly file: string;

  constructor(
    private readonly store: FileStore,
    private readonly out: string,
  ) {
    this.file = path.posix.join(out, RUN_FILES.tasks);
  }

  /**
   * Merges `tasks` into the file (new ones at its end), and the tasks of published episodes it does not list (as
   * {@link mergeTasksFile}); returns the run's task ids in order and whether any is graded.
   * @param listed - the run dir's episode dirs, when the caller has just listed them (else they are listed here).
   */
  async merge(tasks: readonly Task[], warn: (message: string) => void = () => {}, listed?: ReadonlySet<string>): Promise<TasksSummary> {
    const { store, file } = this;
    const wanted = [...tasks];
    for (let round = 0; round < MERGE_ROUNDS; round++) {
      const bytes = await readBytesIfExists(store, file);
      const seen = this.readOn(bytes);
      if (!seen) break;
      const fresh: Task[] = [];
      for (const task of wanted) {
        const at = seen.lines.get(task.task_id);
        const earlier = fresh.find((t) => t.task_id === task.task_id);
        if (at) assertSameTask(TaskSchema.parse(JSON.parse(lineAt(bytes, at.start))), task, { file, line: at.line });
        else if (earlier) assertSameTask(earlier, task, { file, line: undefined });
        else fresh.push(task);
      }
      if (!fresh.length) {
        const lost = await unlistedTasks(store, this.out, seen.lines, listed);
        if (!lost.length) return { ids: [...seen.ids], graded: seen.graded };
        wanted.push(...lost);
        continue;
      }
      // The lines read are written back as they are; the new ones as text is written (without a key the process holds).
      await store.writeAtomic(file, Buffer.concat([bytes, Buffer.from(guardText(withLines('', fresh)))]));
    }
    this.seen = emptySeen();
    const all = await mergeTasksFile(store, this.out, wanted, warn);
    return { ids: all.map((t) => t.task_id), graded: all.some((t) => t.verifier) };
  }

  // What is seen once the lines added since the last read are read; null when the file is not clean (then the next
  // read starts afresh). A file that no longer starts with the bytes seen is read from its start.
  private readOn(bytes: Uint8Array): Seen | null {
    const kept = this.seen;
    const seen = bytes.length >= kept.length && digestOf(bytes.subarray(0, kept.length)) === kept.digest ? kept : emptySeen();
    this.seen = emptySeen();
    for (let start = seen.length; start < bytes.length; ) {
      const end = bytes.indexOf(NEWLINE, start);
      if (end < 0) return null; // a last line without its newline: the whole merge mends it
      const raw = decode(bytes, start, end);
      seen.lineCount++;
      if (raw.trim()) {
        const task = TaskSchema.safeParse(parseOrUndefined(raw));
        if (!task.success || seen.lines.has(task.data.task_id)) return null;
        seen.ids.push(task.data.task_id);
        seen.lines.set(task.data.task_id, { line: seen.lineCount, start });
        seen.graded ||= Boolean(task.data.verifier);
      }
      start = end + 1;
    }
    if (seen.length !== bytes.length) {
      seen.length = bytes.length;
      seen.digest = digestOf(bytes);
    }
    this.seen = seen;
    return seen;
  }
}

const NEWLINE = 0x0a;

function emptySeen(): Seen {
  return { length: 0, digest: digestOf(new Uint8Array()), lineCount: 0, ids: [], lines: new Map(), graded: false };
}

async function readBytesIfExists(store: FileStore, file: string): Promise<Uint8Array> {
  try {
    return await store.readBytes(file);
  } catch (error) {
    if (isNotFound(error)) return new Uint8Array();
    throw namedIsDirectory(error, file);
  }
}

function digestOf(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex');
}

function decode(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8');
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function lineAt(bytes: Uint8Array, start: number): string {
  const end = bytes.indexOf(NEWLINE, start);
  return decode(bytes, start, end < 0 ? bytes.length : end);
}

// The tasks of the episodes finished in the run that `ids` does not name, from their `episode.json` (a dir without a
// finished episode is not published, or is the run scan's to name and move aside).
async function unlistedTasks(store: FileStore, out: string, ids: { has(id: string): boolean }, dirs?: ReadonlySet<string>): Promise<Task[]> {
  const lost: Task[] = [];
  for (const name of dirs ?? (await episodeDirs(store, out))) {
    if (ids.has(name)) continue;
    const finished = await readFinished(store, out, name);
    if (finished) lost.push(finished.episode.task);
  }
  return lost;
}
