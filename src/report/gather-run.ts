/**
 * Reading a run for the report: its tasks, episode dirs, judge records, verifier results, `_validate.json` and a
 * rows dir's `_report.json`. Tolerant by design: a report is how people look at partial or damaged runs, so a
 * bad line or file becomes a {@link ReportIssue} (shown in the report) and the rest is still read.
 * @module
 */
import path from 'node:path';
import PQueue from 'p-queue';
import type { z } from 'zod';
import { InputError, describeError } from '../core/errors';
import { SYMBOLIC_LINK_PROBLEM, readTextIfExists, symbolicLinksIn, type FileStore } from '../files/types';
import { parseJsonAs, parseJsonl, readJsonFile } from '../core/io';
import { isPlainName } from '../core/names';
import { pyTruthy } from '../core/py/repr';
import { compareCodePoints } from '../core/py/text';
import {
  JudgeRecordSchema,
  ResultLineSchema,
  RowsReportSchema,
  TaskSchema,
  ValidateReportSchema,
  type JudgeRecord,
  type RowsReport,
  type Task,
  type ValidateReport,
} from '../core/schemas';
import type { ReportIssue } from './types';
import { EPISODE_MARKERS, JUDGE_FILES, judgeDirOf, recordTaskId, RESULTS_FILES, ROWS_FILES, RUN_FILES } from '../files/layout';

/** Options of {@link readRunForReport}. */
export interface ReadRunForReportOptions {
  /** The run dir. */
  readonly run: string;
  /** Where the run is read from. */
  readonly store: FileStore;
  /** The judge records. Default `<run>_judge`, as the seed names it. */
  readonly judgeDir?: string;
  /** A rows dir whose `_report.json` to show. */
  readonly rows?: string;
  /** Called for each problem met, as it is met. */
  readonly onIssue?: (issue: ReportIssue) => void;
}

/** What the report knows of a run before reading its episodes one by one. */
export interface ReportRunData {
  /** The run dir, trailing slashes removed. */
  readonly run: string;
  /** The judge records' dir, trailing slashes removed. */
  readonly judgeDir: string;
  /** The episodes to show: task ids with an episode dir, a judge record or a result; in `tasks.jsonl` order. */
  readonly ids: readonly string[];
  /** Which of `ids` have an episode dir. */
  readonly dirs: ReadonlySet<string>;
  /** The run's `tasks.jsonl` by task id (the first line of each id wins). */
  readonly tasks: ReadonlyMap<string, Task>;
  /** The judge records by task id. */
  readonly judge: ReadonlyMap<string, JudgeRecord>;
  /** The verifier results by task id (a later line wins). */
  readonly results: ReadonlyMap<string, boolean>;
  /** `results_regraded.jsonl` or `results.jsonl`, whichever was read; `null` when neither exists. */
  readonly resultsFile: string | null;
  /** The judge dir's `_validate.json`; `null` when it is missing or unreadable. */
  readonly validate: ValidateReport | null;
  /** The rows dir's `_report.json`; `null` without a rows dir, or when unreadable. */
  readonly rowsReport: RowsReport | null;
  /** Tasks of `tasks.jsonl` with no episode dir, judge record or result. */
  readonly notAttempted: number;
  /** Every problem met, in the order met. */
  readonly issues: readonly ReportIssue[];
}

const READ_CONCURRENCY = 32;

/** The run dir without trailing slashes (`runs/a/` → `runs/a`). */
export function trimSlashes(dir: string): string {
  return dir.replace(/(?<=.)\/+$/, '');
}

/**
 * Reads what a report needs of a run besides the episodes' own files. Never fails on bad content: each bad line
 * or file is reported through `onIssue`, collected in `issues`, and skipped. A file read here that is a symbolic
 * link (`tasks.jsonl`, the results, a judge record, `_validate.json`, the rows dir's `_report.json`), or an episode
 * dir that is one, is reported and read as absent: never followed, it may point out of the run.
 */
export async function readRunForReport(options: ReadRunForReportOptions): Promise<ReportRunData> {
  const { store } = options;
  const run = trimSlashes(options.run);
  const judgeDir = trimSlashes(options.judgeDir ?? judgeDirOf(run));
  const issues: ReportIssue[] = [];
  const report = (issue: ReportIssue) => {
    issues.push(issue);
    options.onIssue?.(issue);
  };

  // Listed before anything is read: a link is known by its listing, never by following it.
  const [runLinks, judgeLinks] = await Promise.all([symbolicLinksIn(store, run), symbolicLinksIn(store, judgeDir)]);
  const unlinked = (links: ReadonlySet<string>, file: string): boolean => {
    if (!links.has(path.basename(file))) return true;
    report({ file, problem: SYMBOLIC_LINK_PROBLEM });
    return false;
  };
  const tasksFile = path.join(run, RUN_FILES.tasks);
  const taskList = unlinked(runLinks, tasksFile) ? await readLines(store, tasksFile, TaskSchema, report) : [];
  const tasks = new Map<string, Task>();
  for (const task of taskList) if (!tasks.has(task.task_id)) tasks.set(task.task_id, task);

  const [judge, resultsRead, validate, rowsReport] = await Promise.all([
    readJudgeRecords(store, judgeDir, report),
    readResults(store, run, (file) => unlinked(runLinks, file), report),
    unlinked(judgeLinks, path.join(judgeDir, JUDGE_FILES.validate)) ? readOptional(store, path.join(judgeDir, JUDGE_FILES.validate), ValidateReportSchema, report) : null,
    options.rows ? readRowsReport(store, trimSlashes(options.rows), unlinked, report) : null,
  ]);
  const { results, file: resultsFile } = resultsRead;

  const known = new Set<string>([...judge.keys(), ...results.keys()]);
  const dirs = await episodeDirs(store, run, (name) => known.has(name) || tasks.has(name));
  for (const name of runLinks) if (isPlainName(name) && (known.has(name) || tasks.has(name))) report({ file: path.join(run, name), problem: SYMBOLIC_LINK_PROBLEM });
  for (const id of dirs) known.add(id);
  for (const id of known) {
    if (!isPlainName(id)) {
      known.delete(id);
      report({ file: resultsFile ?? judgeDir, problem: `task id ${JSON.stringify(id)} is not a plain name: skipped` });
    }
  }
  const listed = new Set(taskList.map((t) => t.task_id).filter((id) => known.has(id)));
  const rest = [...known].filter((id) => !listed.has(id)).sort(compareCodePoints);
  const notAttempted = [...tasks.keys()].filter((id) => !known.has(id)).length;

  return {
    run,
    judgeDir,
    ids: [...listed, ...rest],
    dirs,
    tasks,
    judge,
    results,
    resultsFile,
    validate,
    rowsReport,
    notAttempted,
    issues,
  };
}

/** The run's episode dirs: plain-named directories that are known task ids or hold episode files. */
async function episodeDirs(store: FileStore, run: string, isKnown: (name: string) => boolean): Promise<Set<string>> {
  const entries = await store.list(run);
  const queue = new PQueue({ concurrency: READ_CONCURRENCY });
  const found = await Promise.all(
    entries
      .filter((e) => e.isDirectory && isPlainName(e.name))
      .map((e) =>
        queue.add(async () => {
          if (isKnown(e.name)) return e.name;
          for (const marker of EPISODE_MARKERS) if (await store.exists(path.join(run, e.name, marker))) return e.name;
          return null;
        }),
      ),
  );
  return new Set(found.filter((name): name is string => typeof name === 'string'));
}

/** Every judge record of the judge dir by task id (the file's name, as the seed writes it). */
async function readJudgeRecords(
  store: FileStore,
  judgeDir: string,
  report: (issue: ReportIssue) => void,
): Promise<Map<string, JudgeRecord>> {
  const entries = (await store.list(judgeDir)).filter((e) => !e.isDirectory);
  for (const e of entries) if (e.isSymbolicLink && recordTaskId(e.name) !== null) report({ file: path.join(judgeDir, e.name), problem: SYMBOLIC_LINK_PROBLEM });
  const names = entries
    .filter((e) => !e.isSymbolicLink)
    .map((e) => recordTaskId(e.name))
    .filter((id): id is string => id !== null);
  const queue = new PQueue({ concurrency: READ_CONCURRENCY });
  const records = await Promise.all(
    names.map((id) =>
      queue.add(async () => {
        const file = path.join(judgeDir, `${id}.json`);
        if (!isPlainName(id)) {
          report({ file, problem: 'the task id in the file name is not a plain name: skipped' });
          return null;
        }
        try {
          return [id, await readJsonFile(store, file, JudgeRecordSchema)] as const;
        } catch (error) {
          report(issueOf(error, file));
          return null;
        }
      }),
    ),
  );
  return new Map(records.filter((r): r is readonly [string, JudgeRecord] => r !== null));
}

/**
 * The verifier results: `results_regraded.jsonl` wins over `results.jsonl`; a later line wins over an earlier one.
 * One that is a link (`unlinked` false: reported) stops the search: the file behind it is not read, nor the one it
 * would have won over.
 */
async function readResults(
  store: FileStore,
  run: string,
  unlinked: (file: string) => boolean,
  report: (issue: ReportIssue) => void,
): Promise<{ results: Map<string, boolean>; file: string | null }> {
  for (const name of RESULTS_FILES) {
    const file = path.join(run, name);
    if (!unlinked(file)) break;
    const text = await readTextIfExists(store, file);
    if (text === null) continue;
    const lines = parseLines(text, file, ResultLineSchema, report);
    return { results: new Map(lines.map((l) => [l.task_id, pyTruthy(l.ok)])), file };
  }
  return { results: new Map(), file: null };
}

async function readRowsReport(
  store: FileStore,
  rows: string,
  unlinked: (links: ReadonlySet<string>, file: string) => boolean,
  report: (issue: ReportIssue) => void,
): Promise<RowsReport | null> {
  const file = path.join(rows, ROWS_FILES.report);
  if (!unlinked(await symbolicLinksIn(store, rows), file)) return null;
  return readOptional(store, file, RowsReportSchema, report, 'no rows report here');
}

/**
 * A JSON file if it exists and is valid; a bad one is reported and read as absent, and so is a missing one when
 * `missing` says what to report.
 */
async function readOptional<S extends z.ZodType>(
  store: FileStore,
  file: string,
  schema: S,
  report: (issue: ReportIssue) => void,
  missing?: string,
): Promise<z.output<S> | null> {
  try {
    const text = await readTextIfExists(store, file);
    if (text === null) {
      if (missing) report({ file, problem: missing });
      return null;
    }
    return parseJsonAs(schema, text, { file });
  } catch (error) {
    report(issueOf(error, file));
    return null;
  }
}

/**
 * The valid lines of a JSONL file (missing: none). A torn last line and any bad line are reported and skipped,
 * so one damaged line does not hide the rest of a run.
 */
async function readLines<S extends z.ZodType>(
  store: FileStore,
  file: string,
  schema: S,
  report: (issue: ReportIssue) => void,
): Promise<Array<z.output<S>>> {
  const text = await readTextIfExists(store, file);
  return text === null ? [] : parseLines(text, file, schema, report);
}

/** The valid lines of `text`, the content of the JSONL `file`; see {@link readLines}. */
function parseLines<S extends z.ZodType>(text: string, file: string, schema: S, report: (issue: ReportIssue) => void): Array<z.output<S>> {
  return parseJsonl(text, file, schema, { lenient: true, onIssue: ({ file, line, problem }) => report({ file, line, problem }) });
}

/** A thrown error as an issue of `file`, keeping the line and field an {@link InputError} names. */
export function issueOf(error: unknown, file: string): ReportIssue {
  if (error instanceof InputError) {
    const field = error.field ? `${error.field}: ` : '';
    return { file: error.file, ...(error.line === undefined ? {} : { line: error.line }), problem: `${field}${error.problem}` };
  }
  return { file, problem: describeError(error) };
}
