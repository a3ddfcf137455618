/** Judging every episode of a run: the seed's `cmd_judge` and `_instructions`. @module */
import path from 'node:path';
import PQueue from 'p-queue';
import { InputError, describeError } from '../core/errors';
import { nodeStore } from '../files/node';
import type { FileStore } from '../files/types';
import { readJsonl } from '../core/io';
import { StageGuard, stopsStage, type CallFailure, type StageStoppedError } from '../models/failures';
import type { LanguageModel } from '../models/types';
import { assertPlainName, isPlainName } from '../core/names';
import { pyNumber } from '../core/py/float';
import { pyDumps } from '../core/py/dumps';
import { pyPathStr } from '../core/py/path';
import { pyRound } from '../core/py/round';
import { TaskRefSchema, type JudgeRecord, type JudgeSummary, type TaskRef } from '../core/schemas';
import { shardTasks, type Shard } from '../core/shard';
import { judgeEpisodeDetailed, type JudgeOutcome } from './episode';
import { isSeedJudge, type JudgeVariant } from './variant';
import { episodeDirOf, episodeFile, judgeDirOf, judgeRecordFile, labDirOf, recordTaskId, runFile } from '../files/layout';
import { bindingFileOf } from '../files/episode-id';
import { claimSetup, formatDifferences } from '../files/setup';
import { countBySetup, type SetupCount } from '../files/setup-counts';
import { judgeSetup } from './setup';
import { checkEntry } from '../core/check';

/** What {@link runJudge} reports while it works. */
export type JudgeEvent =
  | {
      readonly type: 'start';
      readonly run: string;
      readonly judgeDir: string;
      readonly model: string;
      readonly episodes: number;
      /** The shard judged, and the episodes of all shards; absent for an unsharded pass. */
      readonly shard?: { readonly index: number; readonly count: number; readonly total: number };
    }
  | {
      readonly type: 'episode';
      readonly taskId: string;
      readonly outcome: JudgeOutcome;
      readonly record: JudgeRecord | null;
      readonly done: number;
      readonly total: number;
    }
  | { readonly type: 'error'; readonly taskId: string; readonly error: string; readonly done: number; readonly total: number }
  | { readonly type: 'warning'; readonly message: string }
  /** A model call failed (the episode is retried within its tries, or left unjudged for a rerun). */
  | { readonly type: 'call-failed'; readonly failure: CallFailure }
  /** The judge stopped before the end: its model calls cannot succeed (see {@link StageGuard}). */
  | { readonly type: 'stopped'; readonly error: StageStoppedError }
  | { readonly type: 'done'; readonly summary: JudgeSummary };

/** Options of {@link loadInstructions}. */
export interface InstructionsOptions {
  /** Another tasks file, read after the run's own `tasks.jsonl` (the seed reads its default proposed-tasks file). */
  readonly tasks?: string;
  /** Human-task annotations, used as the seed uses `human_tasks()`: when no tasks file names this run's episodes. */
  readonly humanTasks?: readonly TaskRef[];
  /** Where the run, its judge records and the tasks files are. Default the local disk. */
  readonly store?: FileStore;
  /** Receives events; reading the tasks files sends a `warning` for each line skipped. */
  readonly onEvent?: (event: JudgeEvent) => void;
}

/**
 * `task_id -> task` for a run's episodes, as the seed's `_instructions`: the run's `tasks.jsonl`, then the given
 * tasks file (later lines win); when that gives nothing, or the first task id has no episode dir in the run, the
 * human tasks are added.
 */
export async function loadInstructions(run: string, options: InstructionsOptions = {}): Promise<Map<string, TaskRef>> {
  return readInstructions(run, { ...options, store: options.store ?? nodeStore() });
}

async function readInstructions(run: string, options: InstructionsOptions & { readonly store: FileStore }): Promise<Map<string, TaskRef>> {
  const { store } = options;
  const out = new Map<string, TaskRef>();
  const onIssue = (issue: { file: string; line: number; problem: string }) =>
    options.onEvent?.({ type: 'warning', message: `${issue.file}:${issue.line}: ${issue.problem}` });
  const own = runFile(run, 'tasks');
  for (const file of [own, options.tasks]) {
    if (file === undefined) continue;
    if (!(await store.exists(file))) {
      if (file === own) continue;
      throw new InputError({ file }, 'no such tasks file');
    }
    const lines: number[] = [];
    const tasks = await readJsonl(store, file, TaskRefSchema, { onIssue, onLine: (line) => lines.push(line) });
    for (const [i, task] of tasks.entries()) {
      // An episode attempted with the run's instruction, judged against another, would get a verdict that is wrong.
      const attempted = file === own ? undefined : out.get(task.task_id);
      if (attempted && attempted.instruction !== task.instruction && isPlainName(task.task_id) && (await store.exists(episodeDirOf(run, task.task_id)))) {
        throw new InputError(
          { file, line: lines[i]!, field: 'instruction' },
          `task ${task.task_id} is ${JSON.stringify(task.instruction)} here but was attempted as ${JSON.stringify(attempted.instruction)} (${own}): give the tasks file the run was attempted with`,
        );
      }
      out.set(task.task_id, task);
    }
  }
  const first = out.keys().next().value;
  const firstHere = first !== undefined && isPlainName(first) && (await store.exists(path.posix.join(run, first)));
  if (!firstHere) for (const task of options.humanTasks ?? []) out.set(task.task_id, task);
  return out;
}

/** Options of {@link runJudge}. */
export interface JudgeOptions extends InstructionsOptions {
  /** The run dir: one subdir per episode, named by its task id. */
  readonly run: string;
  /** The judge model. */
  readonly llm: LanguageModel;
  /** The model name written into records and the summary. Default `llm.modelId`. */
  readonly model?: string;
  /** Episodes judged at once. Default 16. */
  readonly workers?: number;
  /** Attempts at a verdict per episode (per vote). Default 3. */
  readonly tries?: number;
  /** Stop the run after this many failed model calls before any succeeded. Default 5; 0 never stops for that. */
  readonly failFast?: number;
  /**
   * Judge only this shard's episodes: those of the tasks at positions `[index::count]` of the run's task list
   * (`tasks.jsonl` order, as `attempt` shards them). The summary covers the shard. Default all.
   */
  readonly shard?: Shard;
  /** The judge set-up. Default the seed's judge, which writes the seed's records into `<run>_judge`. */
  readonly variant?: JudgeVariant;
  /**
   * Where the records go. Default `<run>_judge` for the seed's judge, `<run>_judge/lab/<name>` for another
   * variant (never `<run>_judge` itself: its records are the seed's judge's).
   */
  readonly judgeDir?: string;
  /** Records carry the variant, votes, calls and tokens beside the seed's fields. Default: for variants other than the seed. */
  readonly extraFields?: boolean;
  /**
   * Judge into a dir whose records were made with another set-up (another model, variant or prompt) on purpose;
   * the summary then counts per model. Default false: such a dir is refused before any model call, the
   * differences named (`SetupMismatchError`).
   */
  readonly mixSetup?: boolean;
}

/** What {@link runJudge} returns. */
export interface JudgeResult {
  /** The seed's summary line: `{episodes, success, rate, no_verdict, errors, judge}`. */
  readonly summary: JudgeSummary;
  /** The records of the episodes with grade inputs, in episode order (no-verdict ones were not written). */
  readonly records: readonly JudgeRecord[];
  /** Episodes that failed, with why. */
  readonly errors: ReadonlyArray<{ readonly taskId: string; readonly error: string }>;
  /** `<run>_judge`. */
  readonly judgeDir: string;
  /** The tasks the instructions came from, by id. */
  readonly tasks: ReadonlyMap<string, TaskRef>;
  /** Failed model calls in all (their episodes have no record unless a later try gave a verdict). */
  readonly callErrors: number;
  /** The first failed model calls, with their causes. */
  readonly failures: readonly CallFailure[];
  /** The records counted per model that made them (more than one only in a dir judged with `mixSetup`). */
  readonly byModel: readonly ModelCount[];
  /**
   * The records counted per judge set-up that made them (more than one only in a dir judged with `mixSetup`, or
   * beside records of the seed or an earlier taskgen, which name no set-up: `digest: null`).
   */
  readonly bySetup: readonly SetupCount[];
  /** Episodes left without a verdict (not written; a rerun judges them), with why: the reply did not parse, or the call failed. */
  readonly noVerdict: readonly NoVerdictCause[];
}

/** Why the judge left an episode without a verdict. */
export interface NoVerdictCause {
  /** The episode's task id. */
  readonly taskId: string;
  /**
   * Why: `the reply did not parse as a verdict (SUCCESS or NOT SUCCESS): "<the reply's first 120 characters, keys
   * removed>"`, or `the model call failed: <the error>`.
   */
  readonly why: string;
}

/** Records of one model: how many, and how many say SUCCESS. */
export interface ModelCount {
  /** The model named in the records. */
  readonly model: string;
  /** Its records. */
  readonly episodes: number;
  /** Of them, those that say SUCCESS. */
  readonly success: number;
}

/** Where the lab keeps a variant's records: `<run>_judge/lab/<variant>`. */
export function variantJudgeDir(run: string, variant: string): string {
  assertPlainName(variant, 'judge variant name');
  return path.posix.join(labDirOf(run), variant);
}

export { labDirOf };

/**
 * The task ids with a record in a judge dir (its `<task_id>.json` files), from one listing: callers test this
 * set instead of opening each record file, which spares a failed open per task not yet judged.
 */
export async function judgedIds(store: FileStore, judgeDir: string): Promise<Set<string>> {
  const files = (await store.list(judgeDir)).filter((e) => !e.isDirectory);
  return new Set(files.map((e) => recordTaskId(e.name)).filter((id): id is string => id !== null));
}

/**
 * Judges every episode of a run, as the seed's `cmd_judge`: the episodes are the run's subdirs named by a known
 * task id (sorted by name), judged `workers` at a time into `<run>_judge/<task_id>.json` (with a `variant` other
 * than the seed's, into `<run>_judge/lab/<name>/`). One episode's error is reported through `onEvent` and the rest
 * go on; a rerun judges only what has no record yet, or a stale one (made from an earlier recording of the episode:
 * `src/files/episode-id.ts`). A run dir that does not exist is an error.
 * @example
 * const { summary } = await runJudge({ run: 'runs/r1', llm: gemini({ apiKey }), onEvent: console.log });
 */
export async function runJudge(options: JudgeOptions): Promise<JudgeResult> {
  checkEntry('runJudge', options);
  const { run } = options;
  const store = options.store ?? nodeStore();
  const model = options.model ?? options.llm.modelId;
  const seedJudge = isSeedJudge(options.variant);
  const judgeDir = options.judgeDir ?? (seedJudge ? judgeDirOf(run) : variantJudgeDir(run, options.variant!.name));
  if (!seedJudge && path.resolve(judgeDir) === path.resolve(judgeDirOf(run))) {
    throw new Error(`judge variant ${options.variant!.name} would write into ${judgeDir}, which holds the seed's judge's records: give it a dir of its own`);
  }
  // A mistyped run is an error, and leaves no `<run>_judge` behind.
  if (!(await store.exists(run))) throw new InputError({ file: run }, 'no such run dir');
  const tasks = await readInstructions(run, { ...options, store });
  // Before any model call: a dir judged with another set-up is refused (or mixed on purpose).
  const setup = await claimSetup({ store, dir: judgeDir, setup: judgeSetup(options.llm, model, options.variant), mix: options.mixSetup });
  if (setup.moved.length) options.onEvent?.({ type: 'warning', message: `${judgeDir}: the judge now runs elsewhere (${formatDifferences(setup.moved)}); same set-up, going on` });
  const dirs = (await store.list(run)).filter((e) => e.isDirectory).map((e) => e.name);
  const all = dirs.filter((id) => tasks.has(id));
  const mine = options.shard ? new Set(shardTasks([...tasks.keys()], options.shard)) : null;
  const episodes = mine ? all.filter((id) => mine.has(id)) : all;
  const total = episodes.length;
  const recorded = await judgedIds(store, judgeDir);
  const shard = options.shard ? { shard: { ...options.shard, total: all.length } } : {};
  options.onEvent?.({ type: 'start', run: pyPathStr(run), judgeDir, model, episodes: total, ...shard });
  const unlisted = await unlistedEpisodes(store, run, dirs, tasks);
  if (unlisted.length) {
    const files = [runFile(run, 'tasks'), ...(options.tasks ? [options.tasks] : [])].join(', ');
    const names = `${unlisted.slice(0, 5).join(', ')}${unlisted.length > 5 ? `, and ${unlisted.length - 5} more` : ''}`;
    const message = `${run}: ${unlisted.length} recorded episode${unlisted.length > 1 ? 's' : ''} whose task no tasks file lists (${files}): ${names}; not judged: give a tasks file that lists them (--tasks)`;
    options.onEvent?.({ type: 'warning', message });
  }

  const results: Array<JudgeRecord | null> = new Array(total).fill(null);
  const whys: Array<string | undefined> = new Array(total).fill(undefined);
  const setups: Array<string | null> = new Array(total).fill(null);
  const errors: Array<{ taskId: string; error: string }> = [];
  let done = 0;
  let unbound = 0;
  const guard = new StageGuard('judge', {
    failFast: options.failFast,
    onFailure: (failure) => options.onEvent?.({ type: 'call-failed', failure }),
  });
  const queue = new PQueue({ concurrency: Math.max(1, options.workers ?? 16) });
  episodes.forEach((taskId, i) =>
    queue.add(async () => {
      if (guard.stopped) return;
      try {
        assertPlainName(taskId, 'task id');
        const { record, outcome, identity, why, setup: madeBy, edited, textOnly, finalOnly } = await judgeEpisodeDetailed({
          episode: path.posix.join(run, taskId),
          instruction: tasks.get(taskId)!.instruction,
          judgeDir,
          llm: guard.wrap(options.llm, taskId),
          model,
          store,
          tries: options.tries,
          recorded,
          variant: options.variant,
          extraFields: options.extraFields,
          setup: setup.digest,
        });
        results[i] = record;
        setups[i] = madeBy;
        whys[i] = why;
        if (identity === 'stale') {
          const message = edited
            ? `${judgeRecordFile(judgeDir, taskId)}: edited after it was written (its bytes are not those its binding ${bindingFileOf(judgeDir, taskId)} names; or a judge was killed between the two writes): not trusted, judged again`
            : `${taskId}: its judge record was made from an earlier recording of the episode: judged again`;
          options.onEvent?.({ type: 'warning', message });
        }
        if (textOnly) {
          const dir = episodeFile(episodeDirOf(run, taskId), 'screenshots');
          options.onEvent?.({ type: 'warning', message: `${dir}: no screenshot left (nor final.png): ${taskId} was judged from its text alone` });
        }
        if (finalOnly) {
          const dir = episodeFile(episodeDirOf(run, taskId), 'screenshots');
          const records = finalOnly.steps === null ? '' : `, though its episode.json records ${finalOnly.steps} steps`;
          options.onEvent?.({
            type: 'warning',
            message:
              `${dir}: no step screenshot left (step_<n>.png), only final.png${records}: ${taskId} was judged from its final screenshot alone; ` +
              `restore the step screenshots (or attempt the episode again), then delete ${judgeRecordFile(judgeDir, taskId)} and judge again`,
          });
        }
        if (outcome === 'no-inputs') {
          options.onEvent?.({ type: 'warning', message: `${episodeFile(episodeDirOf(run, taskId), 'gradeInputs')}: missing: ${taskId} is not judged (nothing to judge it from)` });
        }
        if (identity === 'unbound' && outcome === 'cached') unbound++;
        options.onEvent?.({ type: 'episode', taskId, outcome, record, done: ++done, total });
      } catch (error) {
        if (stopsStage(error)) {
          queue.clear();
          return;
        }
        errors.push({ taskId, error: describeError(error) });
        options.onEvent?.({ type: 'error', taskId, error: describeError(error), done: ++done, total });
      }
    }),
  );
  await queue.onIdle();
  if (unbound > 0) {
    options.onEvent?.({
      type: 'warning',
      message: `${unbound} judge records had no episode identity (written by the seed or an older taskgen): kept, and bound to the episodes now in ${pyPathStr(run)}`,
    });
  }
  if (guard.stopped) {
    options.onEvent?.({ type: 'stopped', error: guard.stopped });
    throw guard.stopped;
  }

  const records = results.filter((r): r is JudgeRecord => r !== null);
  const noVerdict = episodes.flatMap((taskId, i) => (whys[i] !== undefined ? [{ taskId, why: whys[i]! }] : []));
  const success = records.reduce((k, r) => k + (pyNumber(r.predicted_label) ?? 0), 0);
  const byModel = countByModel(records);
  const bySetup = countBySetup(
    setup.records,
    results.flatMap((r, i) => (r ? [{ setup: setups[i]!, success: pyNumber(r.predicted_label) === 1 }] : [])),
  );
  const summary: JudgeSummary = {
    episodes: records.length,
    success,
    rate: pyRound(success / Math.max(1, records.length), 4),
    no_verdict: records.filter((r) => !r.verdict).length,
    errors: errors.length,
    // The models that made the records, never one that did not.
    judge: byModel.length ? byModel.map((m) => m.model).join(', ') : model,
  };
  options.onEvent?.({ type: 'done', summary });
  return { summary, records, errors, judgeDir, tasks, callErrors: guard.failed, failures: guard.failures, byModel, bySetup, noVerdict };
}

/** The summary as the seed prints it: `json.dumps(summary)` (`rate` always a float, `0.5`, `1.0`). */
export function formatJudgeSummary(summary: JudgeSummary): string {
  return pyDumps(summary, { floatKeys: new Set(['rate']) });
}

/** The seed's first line: `judging N episodes of RUN with MODEL -> RUN_judge`. */
export function formatJudgeStart(event: Extract<JudgeEvent, { type: 'start' }>): string {
  return `judging ${event.episodes} episodes of ${event.run} with ${event.model} -> ${event.judgeDir}`;
}

function countByModel(records: readonly JudgeRecord[]): ModelCount[] {
  const counts = new Map<string, { episodes: number; success: number }>();
  for (const r of records) {
    const c = counts.get(r.model) ?? { episodes: 0, success: 0 };
    c.episodes++;
    c.success += pyNumber(r.predicted_label) ?? 0;
    counts.set(r.model, c);
  }
  return [...counts].map(([model, c]) => ({ model, ...c }));
}

// Episode dirs (a dir of the run holding grade inputs or an episode.json) whose task no tasks file read lists: the
// seed passes over them without a word; a run dir another writer left half-listed must not lose them silently.
async function unlistedEpisodes(store: FileStore, run: string, dirs: readonly string[], tasks: ReadonlyMap<string, unknown>): Promise<string[]> {
  const unlisted: string[] = [];
  for (const id of dirs) {
    if (tasks.has(id) || id.startsWith('_')) continue;
    const dir = path.posix.join(run, id);
    if ((await store.exists(episodeFile(dir, 'gradeInputs'))) || (await store.exists(episodeFile(dir, 'episode')))) unlisted.push(id);
  }
  return unlisted;
}
