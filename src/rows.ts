/**
 * Training rows from the judged successes (the seed's `cmd_rows`): sites interleaved round robin, each site's
 * tasks in file order, whole episodes until the step budget, copied as `<out>/<task_id>/` plus `_report.json`.
 * @module
 */
import path from 'node:path';
import PQueue from 'p-queue';
import { nodeStore } from './fs/node';
import { readTextIfExists, type FileStore } from './fs/types';
import { parseWith, readJsonFileIfExists, readJsonl } from './io';
import { judgeDirOf, judgedIds } from './judge/run';
import { assertPlainName } from './names';
import { pyDumps } from './py/json';
import { pyPathStr } from './py/path';
import { compareCodePoints, pyIsBlank } from './py/text';
import { InputError } from './errors';
import { assembleProvenance, provenanceFileOf, readEpisodeProvenance, type Provenance, type Recipe } from './provenance';
import { JudgeRecordSchema, RowsTaskSchema, type RowsReport, type RowsTask } from './schemas';

/** The skill-centric executor's training steps: the default budget. */
export const DEFAULT_BUDGET = 27644;

/** A task as row selection sees it. */
export type RowsTaskRef = Pick<RowsTask, 'task_id' | 'site'>;

/** Input of {@link selectRows}. */
export interface SelectRowsInput {
  /** The run dir, as given (the report holds `str(Path(run))`). */
  readonly run: string;
  /** The tasks, in file order (duplicates count as often as they appear, as in the seed). */
  readonly tasks: readonly RowsTaskRef[];
  /** The judged successes that have a rows file: task id to its number of rows (non-blank lines). */
  readonly candidates: ReadonlyMap<string, number>;
  /** Default {@link DEFAULT_BUDGET}. */
  readonly budget?: number;
}

/** What {@link selectRows} chose. */
export interface RowsSelection {
  /** The selected task ids, in selection order. */
  readonly picked: readonly string[];
  /** The seed's report. */
  readonly report: RowsReport;
}

/** The seed's task order: tasks grouped by site in file order, sites sorted by name, then round robin. */
export function interleaveBySite<T extends { readonly site: string }>(tasks: readonly T[]): T[] {
  const bySite = new Map<string, T[]>();
  for (const t of tasks) {
    const list = bySite.get(t.site);
    if (list) list.push(t);
    else bySite.set(t.site, [t]);
  }
  const queues = [...bySite.keys()].sort(compareCodePoints).map((site) => bySite.get(site)!);
  const order: T[] = [];
  const rounds = Math.max(0, ...queues.map((q) => q.length));
  for (let r = 0; r < rounds; r++) for (const q of queues) if (r < q.length) order.push(q[r]!);
  return order;
}

/**
 * The site part of a task id as the seed counts sites: `t.split("-", 1)[1].rsplit("-", 1)[0]`
 * (`tg-shop-01-1a2b3c4d` gives `shop-01`); `undefined` for an id without `-` (where the seed would crash).
 */
export function siteOfTaskId(taskId: string): string | undefined {
  const i = taskId.indexOf('-');
  if (i < 0) return undefined;
  const rest = taskId.slice(i + 1);
  const j = rest.lastIndexOf('-');
  return j < 0 ? rest : rest.slice(0, j);
}

/**
 * Chooses the rows as the seed's `cmd_rows` does, without touching files: in {@link interleaveBySite} order,
 * each candidate counts; one with no rows is skipped; once the budget is reached the rest are skipped (still
 * counted as candidates); whole episodes are taken, so the last one may overshoot the budget. `sites` counts
 * the picked task ids' site parts ({@link siteOfTaskId}; an id without `-` counts under its task's site).
 */
export function selectRows(input: SelectRowsInput): RowsSelection {
  const budget = input.budget ?? DEFAULT_BUDGET;
  const picked: string[] = [];
  const sites = new Set<string>();
  let steps = 0;
  let candidates = 0;
  for (const t of interleaveBySite(input.tasks)) {
    const n = input.candidates.get(t.task_id);
    if (n === undefined) continue;
    candidates++;
    if (n === 0 || steps >= budget) continue;
    picked.push(t.task_id);
    sites.add(siteOfTaskId(t.task_id) ?? t.site);
    steps += n;
  }
  const report: RowsReport = {
    run: pyPathStr(input.run),
    candidates,
    selected_trajectories: picked.length,
    selected_rows: steps,
    budget,
    short_by: Math.max(0, budget - steps),
    sites: sites.size,
  };
  return { picked, report };
}

/** What {@link writeRows} reports while it works. */
export type RowsEvent =
  | { readonly type: 'selected'; readonly report: RowsReport }
  | { readonly type: 'copied'; readonly taskId: string; readonly done: number; readonly total: number }
  | { readonly type: 'warning'; readonly message: string };

/** Options of {@link writeRows}. */
export interface WriteRowsOptions {
  /** The run dir: `<run>/<task_id>/rows/` and the judge records in `<run>_judge/`. */
  readonly run: string;
  /** The rows dir to fill; what is already there is kept. */
  readonly out: string;
  /** The tasks file (JSONL), or the tasks themselves, in order. */
  readonly tasks: string | readonly RowsTaskRef[];
  /** Default {@link DEFAULT_BUDGET}. */
  readonly budget?: number;
  /** Default the local disk. */
  readonly store?: FileStore;
  /** Files read or copied at once. Default 16. */
  readonly workers?: number;
  /** What the run does not record, for `<out>_provenance.jsonl` (the proposer model, the judge variant). */
  readonly recipe?: Recipe;
  readonly onEvent?: (event: RowsEvent) => void;
}

/**
 * Selects the rows ({@link selectRows}) and copies each picked `<run>/<task_id>/rows/` to `<out>/<task_id>/`
 * (hard links where the file system allows), then writes `<out>/_report.json` atomically as the seed does
 * (`json.dumps(report, indent=1)`), and beside the rows dir `<out>_provenance.jsonl`: one line per selected
 * episode, in selection order ({@link Provenance}), so the rows dir itself stays as the seed writes it. Every task id is checked to be a plain name before any path is built, and
 * the inputs are all read before anything is written.
 */
export async function writeRows(options: WriteRowsOptions): Promise<RowsSelection> {
  const store = options.store ?? nodeStore();
  const tasks = await readTasks(store, options);
  const queue = new PQueue({ concurrency: Math.max(1, options.workers ?? 16) });
  const judgeDir = judgeDirOf(options.run);
  const recorded = await judgedIds(store, judgeDir);
  const ids = [...new Set(tasks.map((t) => t.task_id))];
  const counts = await Promise.all(
    ids.map((id) =>
      recorded.has(id)
        ? queue.add(() => candidateRows(store, path.posix.join(judgeDir, `${id}.json`), rowsDir(options.run, id)))
        : undefined,
    ),
  );
  const candidates = new Map<string, number>();
  ids.forEach((id, i) => {
    const n = counts[i];
    if (n !== undefined) candidates.set(id, n);
  });
  const selection = selectRows({ run: options.run, tasks, candidates, budget: options.budget });
  options.onEvent?.({ type: 'selected', report: selection.report });

  await store.mkdir(options.out);
  const unique = [...new Set(selection.picked)];
  let done = 0;
  await Promise.all(
    unique.map((id) =>
      queue.add(async () => {
        await store.copyDir(rowsDir(options.run, id), path.posix.join(options.out, id));
        options.onEvent?.({ type: 'copied', taskId: id, done: ++done, total: unique.length });
      }),
    ),
  );
  await store.writeAtomic(path.posix.join(options.out, '_report.json'), pyDumps(selection.report, { indent: 1 }));
  const provenance = await Promise.all(unique.map((id) => queue.add(() => rowsProvenance(store, options, judgeDir, id, tasks))));
  await store.writeAtomic(provenanceFileOf(options.out), provenance.map((p) => `${JSON.stringify(p)}\n`).join(''));
  return selection;
}

// An episode's provenance; where the run cannot give it (no episode.json, a stale verdict) what is known, with a
// warning: the rows step selects as the seed does, and `export` refuses such an episode later.
async function rowsProvenance(store: FileStore, options: WriteRowsOptions, judgeDir: string, taskId: string, tasks: readonly RowsTaskRef[]): Promise<Provenance> {
  try {
    const { provenance } = await readEpisodeProvenance({ store, run: options.run, judgeDir, taskId, recipe: options.recipe });
    return provenance;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    options.onEvent?.({ type: 'warning', message: `provenance of ${taskId}: ${error.message}` });
    const record = await readJsonFileIfExists(store, path.posix.join(judgeDir, `${taskId}.json`), JudgeRecordSchema).catch(() => null);
    const site = tasks.find((t) => t.task_id === taskId)?.site ?? '';
    return assembleProvenance({ run: options.run, taskId, site, episode: null, record, episodeId: null, recipe: options.recipe });
  }
}

function rowsDir(run: string, taskId: string): string {
  assertPlainName(taskId, 'task id');
  return path.posix.join(run, taskId, 'rows');
}

async function readTasks(store: FileStore, options: WriteRowsOptions): Promise<RowsTaskRef[]> {
  if (typeof options.tasks !== 'string') {
    return options.tasks.map((t, i) => parseWith(RowsTaskSchema, t, { file: '(tasks)', field: String(i) }));
  }
  const file = options.tasks;
  return readJsonl(store, file, RowsTaskSchema, {
    onIssue: (issue) => options.onEvent?.({ type: 'warning', message: `${file}:${issue.line}: ${issue.problem}` }),
  });
}

// The number of rows of a judged success with a rows file; undefined for any other task.
async function candidateRows(store: FileStore, recordFile: string, rows: string): Promise<number | undefined> {
  const record = await readJsonFileIfExists(store, recordFile, JudgeRecordSchema);
  if (record?.predicted_label !== 1) return undefined; // the schema admits only the ints 0 and 1
  const text = await readTextIfExists(store, path.posix.join(rows, 'rows.jsonl'));
  return text === null ? undefined : countNonBlankLines(text);
}

// `sum(1 for l in text.split("\n") if l.strip())`
function countNonBlankLines(text: string): number {
  let n = 0;
  for (const line of text.split('\n')) if (!pyIsBlank(line)) n++;
  return n;
}
