/**
 * Training rows written from the selection: each picked episode's rows copied as `<out>/<task_id>/`, with
 * `_report.json` and the provenance of every row; bad rows and episodes judged from another recording left out, named.
 * @module
 */
import path from 'node:path';
import PQueue from 'p-queue';
import { InputError } from '../core/errors';
import { parseWith, readJsonFileIfExists, readJsonl } from '../core/io';
import { pyDumps } from '../core/py/dumps';
import { JudgeRecordSchema, RowsTaskSchema, type RowsReport } from '../core/schemas';
import { judgeDirOf, judgeRecordFile, labelsFileOf, relabelDirOf, ROWS_FILES, rowsReportFile, runFile } from '../files/layout';
import { nodeStore } from '../files/node';
import { readTextIfExists, symbolicLinksIn, type FileStore } from '../files/types';
import { judgedIds } from '../judge/run';
import { assembleProvenance, provenanceFileOf, readEpisodeProvenance, type Provenance, type Recipe } from './provenance';
import { selectRows, type RowsSelection, type RowsTaskRef } from './select';
import { labelCandidates, runLabelsReader, verifierFailed } from './label-rows';
import type { LabelSource, LabelsReport } from './labels-format';
import { pickTries, type TryUnit, type TrySource } from './tries';
import { candidateRows, rowsDir } from './candidate';
import { checkEntry } from '../core/check';

/** Which successful tries of a task become rows: see {@link RowsOptions.pick}. */
export type RowsPick = 'shortest' | 'first' | 'all';

/** What {@link runRows} reports while it works. */
export type RowsEvent =
  | { readonly type: 'selected'; readonly report: RowsReport }
  | { readonly type: 'copied'; readonly taskId: string; readonly done: number; readonly total: number }
  | { readonly type: 'warning'; readonly message: string }
  /** A dir of `out` outside this selection, removed (`stale: 'remove'`). */
  | { readonly type: 'removed'; readonly dir: string }
  /** A judged success left out: its rows do not parse, or its judge record was made from another episode. */
  | { readonly type: 'skipped'; readonly taskId: string; readonly reason: string }
  /** A judged success left out by its label: its verifier failed it, or it is judge-only and below the precision target. */
  | { readonly type: 'left-out'; readonly taskId: string; readonly reason: string }
  /** The labels of the rows written (`<out>_labels.json`); `report.target` says why no judge-only rows were taken, when none were. */
  | { readonly type: 'labels'; readonly report: LabelsReport };

/** Options of {@link runRows}. */
export interface RowsOptions {
  /** The run dir: `<run>/<task_id>/rows/` and the judge records in `<run>_judge/`. */
  readonly run: string;
  /**
   * The rows dir to fill. It ends holding exactly this selection: a dir already there that is not part of it, or
   * that holds another recording of a picked episode, is refused before anything is written.
   */
  readonly out: string;
  /** The tasks file (JSONL), or the tasks themselves, in order. */
  readonly tasks: string | readonly RowsTaskRef[];
  /** Default {@link DEFAULT_BUDGET}. */
  readonly budget?: number;
  /**
   * What to do with dirs of `out` that are not this selection (or hold another recording of a picked episode):
   * `refuse` (the default: they may be someone's data) or `remove` them, each named in a `removed` event, for an
   * `out` the caller owns (the pipeline's rows dir).
   */
  readonly stale?: 'refuse' | 'remove';
  /** Default the local disk. */
  readonly store?: FileStore;
  /** Files read or copied at once. Default 16. */
  readonly workers?: number;
  /** What the run does not record, for `<out>_provenance.jsonl` (the proposer model, the judge variant). */
  readonly recipe?: Recipe;
  /**
   * The relabel dir whose accepted tasks (`tasks.jsonl`) are candidates too, with the same round robin and budget.
   * Default `<run>_relabel` when it has a tasks file; `false`: none.
   */
  readonly relabel?: string | false;
  /** Relabeled tasks only after every original task had its turn. Default false (one round robin for all). */
  readonly originalsFirst?: boolean;
  /**
   * A precision target for judge-only rows (0 to 1): among the judge configurations the runs have records for, the
   * one with the most rows whose lower 95% bound on precision on the scored sets is at least this; judge-only
   * candidates it does not accept are left out, and when none reaches it no judge-only row is. Default none.
   */
  readonly minPrecision?: number;
  /** Runs whose verifier results score the judge. Default the run and, in a pipeline work dir, its `human` run. */
  readonly scored?: readonly string[];
  /**
   * In a run with several tries per task (`<run>/_tries/<n>/`), which judged successful tries of a task are
   * candidates: `shortest` (the default: the one with the fewest rows, the lower try on a tie) or `first` (the lowest
   * try), each copied as `<out>/<task_id>/`; or `all`, try n copied as `<out>/_tries/<n>/<task_id>/` (the run's
   * layout). A run of one try selects as the seed does, whatever this says.
   */
  readonly pick?: RowsPick;
  /** Receives the selection, each episode copied, removals, skips and warnings. */
  readonly onEvent?: (event: RowsEvent) => void;
}

/** What {@link runRows} returns: the selection, and the judged successes it left out with why. */
export interface RowsResult extends RowsSelection {
  /** Judged successes not used: rows that do not parse (`file:line: field: problem`) or a stale judge record. */
  readonly skipped: ReadonlyArray<{ readonly taskId: string; readonly reason: string }>;
  /** Dirs of `out` removed as not this selection (`stale: 'remove'`). */
  readonly removed: readonly string[];
  /** The picked tasks that are relabeled ones (from the relabel dir), and their rows. */
  readonly relabeled: { readonly picked: readonly string[]; readonly rows: number };
  /** Where each row's label came from and how precise each source measured (`<out>_labels.json`). */
  readonly labels: LabelsReport;
  /**
   * The try of each picked entry (`picked` holds task ids, and with `pick: 'all'` `_tries/<n>/<task_id>` for a try
   * past the first: the entry's dir under `out`).
   */
  readonly tries: ReadonlyMap<string, number>;
}

/**
 * Selects the rows ({@link selectRows}) and copies each picked `<run>/<task_id>/rows/` to `<out>/<task_id>/`
 * (hard links where the file system allows), then writes `<out>/_report.json` atomically as the seed does
 * (`json.dumps(report, indent=1)`, plus `skipped`: how many judged successes were left out, when any were). Every task id is checked to be a plain name before any path is built, and
 * the inputs are all read before anything is written. Unlike the seed, nothing is taken on trust: a missing run
 * dir, tasks file or judge dir is an error; each candidate's `rows.jsonl` is parsed (every line a row whose
 * images are files of its rows dir) and one that does not is skipped with its file and line named; a judge
 * record made from another recording of the episode (`src/files/episode-id.ts`) is not used; and `out` must not hold
 * episodes outside this selection.
 */
export async function runRows(options: RowsOptions): Promise<RowsResult> {
  checkEntry('runRows', options);
  const store = options.store ?? nodeStore();
  const judgeDir = judgeDirOf(options.run);
  if (!(await store.exists(options.run))) throw new InputError({ file: options.run }, 'no such run dir');
  const tasks = await readTasks(store, options);
  if (!(await store.exists(judgeDir))) throw new InputError({ file: judgeDir }, 'no such judge dir: judge the run first');
  const queue = new PQueue({ concurrency: Math.max(1, options.workers ?? 16) });
  const relabel = await readRelabel(store, options, tasks);
  const own: Source = { run: options.run, judgeDir };
  const sourceOf = (id: string): Source => (relabel?.ids.has(id) ? relabel.source : own);
  const recorded = await judgedIds(store, judgeDir);
  const relabelRecorded = relabel ? await judgedIds(store, relabel.source.judgeDir) : new Set<string>();
  // Listed once: a judge record or an episode dir that is a symbolic link is never read through.
  const links = new Map(await Promise.all([own, ...(relabel ? [relabel.source] : [])].map(async (src) => [src, { run: await symbolicLinksIn(store, src.run), judge: await symbolicLinksIn(store, src.judgeDir) }] as const)));
  const ids = [...new Set([...tasks, ...(relabel?.tasks ?? [])].map((t) => t.task_id))];
  const found = await Promise.all(
    ids.map((id) => {
      const src = sourceOf(id);
      const judged = src === own ? recorded.has(id) : relabelRecorded.has(id);
      return judged ? queue.add(() => candidateRows(store, src, links.get(src)!, id)) : undefined;
    }),
  );
  const candidates = new Map<string, number>();
  const skipped: Array<{ taskId: string; reason: string }> = [];
  let unbound = 0;
  const withBom = new Set<string>();
  ids.forEach((id, i) => {
    const c = found[i];
    if (c === undefined) return;
    if (c.missing !== undefined) {
      options.onEvent?.({ type: 'warning', message: c.missing });
      return;
    }
    if (c.skip !== undefined) {
      skipped.push({ taskId: id, reason: c.skip });
      options.onEvent?.({ type: 'skipped', taskId: id, reason: c.skip });
      return;
    }
    if (c.unbound) unbound++;
    if (c.bom) withBom.add(id);
    candidates.set(id, c.rows);
  });
  // The tries past the first: each task's successful tries, then the pick (a run of one try has none).
  const candidateOf = async (src: Source, id: string) => candidateRows(store, src, { run: await symbolicLinksIn(store, src.run), judge: await symbolicLinksIn(store, src.judgeDir) }, id);
  const runLabels = runLabelsReader({ store, ...(typeof options.tasks === 'string' ? { tasksFile: options.tasks } : {}), onWarning: (message) => options.onEvent?.({ type: 'warning', message }) });
  const failed = (src: Source, id: string) => verifierFailed(store, runLabels, src.run, id);
  const picks = await pickTries({ store, queue, run: options.run, pick: options.pick ?? 'shortest', tasks, candidates, relabeled: relabel?.ids ?? new Set(), own, candidateOf, verifierFailed: failed, onSkip: (taskId, reason) => {
    skipped.push({ taskId, reason });
    options.onEvent?.({ type: 'skipped', taskId, reason });
  } });
  const unitOf = (key: string): TryUnit => picks.units.get(key) ?? { id: key, n: 1, src: sourceOf(key), out: key };
  if (unbound > 0) {
    options.onEvent?.({
      type: 'warning',
      message: `${unbound} judge records in ${judgeDir} have no episode identity (written by the seed or an older taskgen): used as the seed would; \`taskgen judge\` binds them`,
    });
  }
  const labelling = await labelCandidates({
    store,
    run: options.run,
    ...(typeof options.tasks === 'string' ? { tasksFile: options.tasks } : {}),
    candidates: picks.candidates,
    unitOf: (key) => ({ run: unitOf(key).src.run, id: unitOf(key).id }),
    runLabels,
    ...(relabel ? { relabel: { dir: relabel.source.run, ids: relabel.ids } } : {}),
    ...(options.scored ? { scored: options.scored } : {}),
    ...(options.minPrecision !== undefined ? { minPrecision: options.minPrecision } : {}),
    onWarning: (message) => options.onEvent?.({ type: 'warning', message }),
  });
  // Left out by its label: still a candidate, as the seed counts them, but with no rows to take.
  const selectable = new Map(picks.candidates);
  for (const [taskId, reason] of labelling.leftOut) {
    selectable.set(taskId, 0);
    options.onEvent?.({ type: 'left-out', taskId, reason });
  }
  const selection = selectRows({ run: options.run, tasks: picks.tasks, candidates: selectable, budget: options.budget, relabeled: relabel?.tasks, originalsFirst: options.originalsFirst });
  const unique = [...new Set(selection.picked)];
  const foreign = await foreignDirs(store, (key) => rowsDir(unitOf(key).src.run, unitOf(key).id), options.out, unique);
  if (foreign.length > 0 && options.stale !== 'remove') {
    const names = foreign.slice(0, 5).join(', ') + (foreign.length > 5 ? `, ... (${foreign.length} in all)` : '');
    throw new InputError(
      { file: options.out },
      `holds episode dirs that are not this selection (${names}): remove them or choose an empty --out, so the rows dir holds exactly what _report.json counts`,
    );
  }
  options.onEvent?.({ type: 'selected', report: selection.report });
  const removed: string[] = [];
  for (const name of foreign) {
    const dir = path.posix.join(options.out, name);
    await store.remove(dir);
    removed.push(dir);
    options.onEvent?.({ type: 'removed', dir });
  }

  await store.mkdir(options.out);
  let done = 0;
  await Promise.all(
    unique.map((id) =>
      queue.add(async () => {
        const unit = unitOf(id);
        await store.copyDir(rowsDir(unit.src.run, unit.id), path.posix.join(options.out, unit.out));
        if (withBom.has(id)) await dropBom(store, path.posix.join(rowsDir(unit.src.run, unit.id), ROWS_FILES.rows), path.posix.join(options.out, unit.out, ROWS_FILES.rows), options);
        options.onEvent?.({ type: 'copied', taskId: id, done: ++done, total: unique.length });
      }),
    ),
  );
  // The seed's report, byte for byte; a count of what was left out only when something was.
  const report = skipped.length > 0 ? { ...selection.report, skipped: skipped.length } : selection.report;
  await store.writeAtomic(rowsReportFile(options.out), pyDumps(report, { indent: 1 }));
  // Provenance beside the rows dir, one line per selected episode in selection order, so the dir stays the seed's.
  const provenance = await Promise.all(unique.map((key) => queue.add(() => rowsProvenance(store, options, unitOf(key), [...tasks, ...(relabel?.tasks ?? [])], labelling.labels.get(key)?.source ?? null))));
  await store.writeAtomic(provenanceFileOf(options.out), provenance.map((p) => `${JSON.stringify(p)}\n`).join(''));
  const labels = labelling.report(unique);
  await store.writeAtomic(labelsFileOf(options.out), `${JSON.stringify(labels, null, 1)}\n`);
  options.onEvent?.({ type: 'labels', report: labels });
  const relabeled = unique.filter((id) => relabel?.ids.has(id));
  return { ...selection, skipped, removed, relabeled: { picked: relabeled, rows: relabeled.reduce((n, id) => n + (candidates.get(id) ?? 0), 0) }, labels, tries: new Map(unique.map((key) => [key, unitOf(key).n])) };
}

// An episode's provenance; where the run cannot give it (no episode.json, a stale verdict) what is known, with a
// warning: the rows step selects as the seed does, and `export` refuses such an episode later.
async function rowsProvenance(store: FileStore, options: RowsOptions, unit: TryUnit, tasks: readonly RowsTaskRef[], labelSource: LabelSource | null): Promise<Provenance> {
  const { src, id: taskId, n } = unit;
  const { judgeDir } = src;
  // A relabeled episode is the run's too: its run id is the run's.
  const recipe: Recipe = { ...options.recipe, runId: options.recipe?.runId ?? path.posix.basename(path.posix.normalize(options.run).replace(/(.)\/+$/, '$1')) };
  try {
    const { provenance } = await readEpisodeProvenance({ store, run: src.run, judgeDir, taskId, recipe, try: n });
    return { ...provenance, label_source: labelSource };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    options.onEvent?.({ type: 'warning', message: `provenance of ${taskId}: ${error.message}` });
    const record = await readJsonFileIfExists(store, judgeRecordFile(judgeDir, taskId), JudgeRecordSchema).catch(() => null);
    const site = tasks.find((t) => t.task_id === taskId)?.site ?? '';
    return assembleProvenance({ run: options.run, taskId, site, episode: null, record, episodeId: null, recipe, labelSource, try: n });
  }
}

async function readTasks(store: FileStore, options: RowsOptions): Promise<RowsTaskRef[]> {
  if (typeof options.tasks !== 'string') {
    const tasks = options.tasks.map((t, i) => parseWith(RowsTaskSchema, t, { file: '(tasks)', field: String(i) }));
    return onceEach(tasks, (i, first) => `runRows: tasks.${i}.task_id: ${tasks[i]!.task_id} is given again (first as tasks.${first}): counted once`, options);
  }
  const file = options.tasks;
  if (!(await store.exists(file))) throw new InputError({ file }, 'no such tasks file');
  const lines: number[] = [];
  const tasks = await readJsonl(store, file, RowsTaskSchema, {
    onIssue: (issue) => options.onEvent?.({ type: 'warning', message: `${file}:${issue.line}: ${issue.problem}` }),
    onLine: (line) => lines.push(line),
  });
  return onceEach(tasks, (i, first) => `${file}:${lines[i]}: task_id: ${tasks[i]!.task_id} is given again (first on line ${lines[first]}): counted once`, options);
}

// A task given twice would have its rows counted twice in _report.json (as the seed does): its first line is kept,
// each repeat named.
function onceEach(tasks: RowsTaskRef[], named: (index: number, first: number) => string, options: RowsOptions): RowsTaskRef[] {
  const first = new Map<string, number>();
  return tasks.filter((t, i) => {
    const seen = first.get(t.task_id);
    if (seen === undefined) return first.set(t.task_id, i), true;
    options.onEvent?.({ type: 'warning', message: named(i, seen) });
    return false;
  });
}

/**
 * The dirs of `out` that are not this selection (an earlier, larger selection: left there, the training set would
 * hold more than the report says) or a picked episode's dir whose `rows.jsonl` is another recording's.
 */
async function foreignDirs(store: FileStore, sourceOf: (key: string) => string, out: string, picked: readonly string[], under = ''): Promise<string[]> {
  const wanted = new Set(picked);
  const foreign: string[] = [];
  for (const entry of await store.list(path.posix.join(out, under))) {
    if (!entry.isDirectory) continue;
    const key = under ? `${under}/${entry.name}` : entry.name;
    // `_tries/<n>/` of a selection of every try: looked into, one level per part.
    if (picked.some((p) => p.startsWith(`${key}/`))) {
      foreign.push(...(await foreignDirs(store, sourceOf, out, picked, key)));
      continue;
    }
    if (!wanted.has(key)) {
      foreign.push(key);
      continue;
    }
    const there = await readTextIfExists(store, path.posix.join(out, key, 'rows.jsonl'));
    const source = await readTextIfExists(store, path.posix.join(sourceOf(key), 'rows.jsonl'));
    if (there !== null && there !== source) foreign.push(key);
  }
  return foreign;
}

/** Where a task's episode and judge record are: the run (or one of its tries), or its relabel dir. */
type Source = TrySource;

/** The relabel dir's accepted tasks; ids the run's own tasks already use are left out, with a warning. */
async function readRelabel(store: FileStore, options: RowsOptions, tasks: readonly RowsTaskRef[]): Promise<{ source: Source; tasks: RowsTaskRef[]; ids: Set<string> } | null> {
  if (options.relabel === false) return null;
  const dir = options.relabel ?? relabelDirOf(options.run);
  const file = runFile(dir, 'tasks');
  if (!(await store.exists(file))) {
    if (options.relabel === undefined) return null;
    throw new InputError({ file }, 'no such tasks file: relabel the run first');
  }
  const own = new Set(tasks.map((t) => t.task_id));
  const onIssue = (issue: { line: number; problem: string }) => options.onEvent?.({ type: 'warning', message: `${file}:${issue.line}: ${issue.problem}` });
  const relabeled: RowsTaskRef[] = [];
  for (const t of await readJsonl(store, file, RowsTaskSchema, { onIssue })) {
    if (own.has(t.task_id)) onIssue({ line: 0, problem: `${t.task_id} is a task of the run itself: its relabel is left out` });
    else relabeled.push(t);
  }
  return { source: { run: dir, judgeDir: judgeDirOf(dir) }, tasks: relabeled, ids: new Set(relabeled.map((t) => t.task_id)) };
}

// The copy of a rows file that starts with a UTF-8 BOM (read as Python's utf-8-sig reads it), written without it:
// a new file replaces the copy or hard link, so the episode's own file stays as it was.
async function dropBom(store: FileStore, source: string, copy: string, options: RowsOptions): Promise<void> {
  const text = await store.readText(copy);
  if (text.charCodeAt(0) !== 0xfeff) return;
  await store.writeAtomic(copy, text.slice(1));
  options.onEvent?.({ type: 'warning', message: `${source}:1: a UTF-8 BOM at the start of the file: not copied into the rows (${copy})` });
}
