/**
 * What an export reads from a run, checked before a byte is written: every episode with its provenance (no
 * stale verdict, no missing screenshot), every selected step (no torn `rows.jsonl`, no missing image, rows copied
 * from the episode the run holds now). The plan keeps counts and names only; the rows themselves are read again,
 * one episode at a time, while the shards are written, so memory does not grow with the run.
 * @module
 */
import path from 'node:path';
import { InputError } from '../core/errors';
import { SYMBOLIC_LINK_PROBLEM, readTextIfExists, symbolicLinksIn, type FileStore } from '../files/types';
import { refuseLinkedFiles, type EpisodeReads } from '../files/links';
import { parseJsonl, readJsonFileIfExists, readJsonl } from '../core/io';
import { isPlainName } from '../core/names';
import { readRunLabels } from '../rows/labels';
import { RUN_DIRS } from '../files/layout';
import { readEpisodeProvenance, provenanceFileOf, ProvenanceSchema, type Provenance, type Recipe } from '../rows/provenance';
import { pyDumps } from '../core/py/dumps';
import { pyTruthy } from '../core/py/repr';
import { GradeInputsSchema, ResultLineSchema, RowSchema, RowsReportSchema, type Episode, type JudgeRecord, type Row } from '../core/schemas';

/** One episode of the plan. */
export interface PlannedEpisode {
  readonly dir: string;
  readonly episode: Episode;
  readonly record: JudgeRecord | null;
  readonly provenance: Provenance;
  /** Screenshot files before each step, in order. */
  readonly screenshots: readonly string[];
  /** `final.png`, when recorded. */
  readonly final: string | null;
}

/** The selected rows of one episode. */
export interface PlannedSteps {
  readonly taskId: string;
  /** `<rows>/<task_id>`. */
  readonly dir: string;
  readonly rows: number;
  readonly provenance: Provenance;
}

/** A run to read episodes from. */
export interface RunSource {
  readonly run: string;
  /** Default `<run>_judge`. */
  readonly judgeDir: string;
  /** The tasks file whose `verifiers.jsonl` labels episodes (`label_source`); default `<run>/tasks.jsonl`. */
  readonly tasksFile?: string;
}

// What the export reads of an episode into the dataset: its summary, its evidence, its screenshots.
const EXPORT_READS: EpisodeReads = { files: new Set(['episode.json', 'grade_inputs.json', 'final.png']), screenshots: true };

/**
 * Reads a run's episodes, each checked ({@link readEpisodeProvenance}, screenshots on disk). A file it would put
 * in the dataset that is a symbolic link (the results, a judge record, an episode's files) stops the export, named.
 */
export async function planEpisodes(
  store: FileStore,
  source: RunSource,
  recipe: Recipe,
): Promise<PlannedEpisode[]> {
  const entries = await store.list(source.run);
  const judgeLinks = await symbolicLinksIn(store, source.judgeDir);
  const results = await readResults(store, source.run, new Set(entries.filter((e) => e.isSymbolicLink).map((e) => e.name)));
  const labels = await readRunLabels({ store, run: source.run, ...(source.tasksFile ? { tasksFile: source.tasksFile } : {}) });
  const out: PlannedEpisode[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory || !isPlainName(entry.name)) continue;
    const dir = path.posix.join(source.run, entry.name);
    if (!(await store.exists(path.posix.join(dir, 'grade_inputs.json'))) && !(await store.exists(path.posix.join(dir, 'episode.json')))) continue;
    await refuseLinkedFiles(store, dir, EXPORT_READS);
    const recordFile = path.posix.join(source.judgeDir, `${entry.name}.json`);
    if (judgeLinks.has(path.posix.basename(recordFile))) throw new InputError({ file: recordFile }, `episode ${entry.name}: ${SYMBOLIC_LINK_PROBLEM}`);
    const { episode, record, provenance } = await readEpisodeProvenance({
      store,
      run: source.run,
      judgeDir: source.judgeDir,
      taskId: entry.name,
      recipe,
      results,
      labels,
    });
    const screenshots: string[] = [];
    for (let i = 0; i < episode.steps; i++) {
      const file = path.posix.join(dir, 'screenshots', `step_${i}.png`);
      if (!(await store.exists(file))) throw new InputError({ file }, `episode ${entry.name}: missing screenshot of step ${i}`);
      screenshots.push(file);
    }
    const final = path.posix.join(dir, 'final.png');
    out.push({ dir, episode, record, provenance, screenshots, final: (await store.exists(final)) ? final : null });
  }
  return out;
}

/** The `try` column of `steps` and `episodes`: 1 for the run dir itself, n for `<run>/_tries/<n>/` (the provenance's `try`). */
export function tryOf(provenance: Provenance): number {
  return provenance.try ?? 1;
}

/**
 * The rows dir's selection: its episodes in `<rows>_provenance.jsonl` order (else name order), each checked
 * against the run: a judged success, copied from the episode the run holds now, every line whole, every image on
 * disk. `episodes` holds the run's episodes by task id, and those of its tries past the first by `<task_id>#<n>`
 * (a line of the provenance names its try); a rows dir of every try holds try n's rows in `_tries/<n>/<task_id>/`.
 */
export async function planSteps(
  store: FileStore,
  rowsDir: string,
  episodes: ReadonlyMap<string, PlannedEpisode>,
  where: (p: Provenance) => boolean,
): Promise<PlannedSteps[]> {
  const report = path.posix.join(rowsDir, '_report.json');
  if ((await readJsonFileIfExists(store, report, RowsReportSchema)) === null) {
    throw new InputError({ file: report }, 'no rows report: run `taskgen rows` first (or pass the rows dir)');
  }
  const out: PlannedSteps[] = [];
  const recorded = await rowsProvenance(store, rowsDir);
  for (const key of await selectedIds(store, rowsDir, recorded)) {
    const dir = path.posix.join(rowsDir, key);
    const line = recorded.get(key);
    const taskId = line?.task_id ?? key;
    const planned = episodes.get(line?.try ? `${taskId}#${line.try}` : taskId);
    if (!planned) throw new InputError({ file: dir }, `episode ${taskId}: its rows were selected but the run has no such episode`);
    if (!where(planned.provenance)) continue;
    if (planned.provenance.verdict !== true) {
      throw new InputError({ file: dir }, `episode ${taskId}: its rows were selected but its judge record is not a SUCCESS`);
    }
    // Its rows, the copied episode.json and the images: none read through a link.
    const links = await symbolicLinksIn(store, dir);
    for (const name of ['rows.jsonl', 'episode.json']) {
      if (links.has(name)) throw new InputError({ file: path.posix.join(dir, name) }, `episode ${taskId}: ${SYMBOLIC_LINK_PROBLEM}`);
    }
    await checkCopy(store, planned, dir, line);
    const rows = await readStepRows(store, dir, taskId);
    for (const [i, row] of rows.entries()) {
      for (const image of row.images) {
        const file = path.posix.join(dir, image);
        if (links.has(image)) throw new InputError({ file, line: i + 1 }, `episode ${taskId}: ${SYMBOLIC_LINK_PROBLEM}`);
        if (!isPlainName(image) || !(await store.exists(file))) {
          throw new InputError({ file, line: i + 1 }, `episode ${taskId}: missing screenshot ${image} of row ${i + 1}`);
        }
      }
    }
    out.push({ taskId: key, dir, rows: rows.length, provenance: planned.provenance });
  }
  return out;
}

/** An episode's `rows.jsonl`, every line whole: a torn or bad line stops the export, naming file and line. */
export async function readStepRows(store: FileStore, dir: string, taskId: string): Promise<Row[]> {
  const file = path.posix.join(dir, 'rows.jsonl');
  const text = await readTextIfExists(store, file);
  if (text === null) throw new InputError({ file }, `episode ${taskId}: no rows.jsonl`);
  return parseJsonl(text, file, RowSchema, {
    onIssue: (issue) => {
      throw new InputError({ file, line: issue.line }, `episode ${taskId}: ${issue.problem}`);
    },
  });
}

/** The episode's grade inputs as the episodes config summarises them. */
export async function readEvidence(store: FileStore, dir: string): Promise<{ requests: string[]; changes: string[]; actions: string[] }> {
  const inputs = await readJsonFileIfExists(store, path.posix.join(dir, 'grade_inputs.json'), GradeInputsSchema);
  const requests = (inputs?.log ?? []).map((r) => `${String(r.method ?? '')} ${String(r.path ?? '')} -> ${String(r.status ?? '')}`);
  // pyDumps: the values as the seed's files hold them (integral floats, ints past 2^53).
  const changes = (inputs?.changes ?? []).map((c) => pyDumps(c, { ensureAscii: false }));
  const actions = (inputs?.actions ?? []).map((a) => pyDumps(a, { ensureAscii: false }));
  return { requests, changes, actions };
}

// The rows step's provenance lines by their dir under the rows dir (the task id, or `_tries/<n>/<task_id>` for a try
// of a selection of every try), in selection order; empty for a rows dir made without them.
async function rowsProvenance(store: FileStore, rowsDir: string): Promise<Map<string, Provenance>> {
  const file = provenanceFileOf(rowsDir);
  const lines = await readJsonl(store, file, ProvenanceSchema, {
    missingOk: true,
    onIssue: (issue) => {
      throw new InputError({ file, line: issue.line }, issue.problem);
    },
  });
  const keyed = await Promise.all(lines.map(async (l) => {
    const nested = l.try ? path.posix.join(RUN_DIRS.tries, String(l.try), l.task_id) : null;
    return [nested && (await store.exists(path.posix.join(rowsDir, nested))) ? nested : l.task_id, l] as const;
  }));
  return new Map(keyed);
}

// The rows were copied from the episode the run holds now: the rows step recorded that episode's id, and the
// copied episode.json is the run's.
async function checkCopy(store: FileStore, planned: PlannedEpisode, dir: string, recorded: Provenance | undefined): Promise<void> {
  const taskId = planned.provenance.task_id;
  const copy = path.posix.join(dir, 'episode.json');
  const [copied, original] = await Promise.all([readTextIfExists(store, copy), readTextIfExists(store, path.posix.join(planned.dir, 'rows', 'episode.json'))]);
  const then = recorded?.episode_id ?? null;
  if ((then !== null && then !== planned.provenance.episode_id) || (copied !== null && original !== null && copied !== original)) {
    throw new InputError(
      { file: copy },
      `episode ${taskId}: the rows were copied from ${then === null ? 'another recording' : `episode ${then}`}, but the run now holds episode ${planned.provenance.episode_id}; run \`taskgen rows\` again`,
    );
  }
}

async function selectedIds(store: FileStore, rowsDir: string, recorded: ReadonlyMap<string, Provenance>): Promise<string[]> {
  const file = provenanceFileOf(rowsDir);
  const lines = [...recorded.values()];
  const entries = await store.list(rowsDir);
  const listed = entries.filter((e) => e.isDirectory && isPlainName(e.name) && e.name !== RUN_DIRS.tries).map((e) => e.name);
  // A selection of every try: try n's rows under `_tries/<n>/`.
  if (entries.some((e) => e.isDirectory && e.name === RUN_DIRS.tries)) {
    for (const n of await store.list(path.posix.join(rowsDir, RUN_DIRS.tries))) {
      for (const e of await store.list(path.posix.join(rowsDir, RUN_DIRS.tries, n.name))) if (e.isDirectory) listed.push(path.posix.join(RUN_DIRS.tries, n.name, e.name));
    }
  }
  if (lines.length === 0) return listed;
  const order = [...recorded.keys()];
  const missing = listed.filter((id) => !order.includes(id));
  if (missing.length) throw new InputError({ file }, `episode ${missing[0]}: in the rows dir but not in its provenance file`);
  const gone = order.filter((id) => !listed.includes(id));
  if (gone.length) throw new InputError({ file }, `episode ${gone[0]}: selected, but ${path.posix.join(rowsDir, gone[0]!)} is missing`);
  return order;
}

// task_id -> ok: `results_regraded.jsonl` wins over `results.jsonl`; a later line wins. A bad line stops, and so
// does a results file that is a symbolic link (in `links`, the run dir's).
async function readResults(store: FileStore, run: string, links: ReadonlySet<string>): Promise<Map<string, boolean>> {
  const out = new Map<string, boolean>();
  for (const name of ['results_regraded.jsonl', 'results.jsonl']) {
    const file = path.posix.join(run, name);
    if (links.has(name)) throw new InputError({ file }, SYMBOLIC_LINK_PROBLEM);
    const text = await readTextIfExists(store, file);
    if (text === null) continue;
    const lines = parseJsonl(text, file, ResultLineSchema, {
      onIssue: (issue) => {
        throw new InputError({ file, line: issue.line }, issue.problem);
      },
    });
    for (const line of lines) out.set(line.task_id, pyTruthy(line.ok));
    return out;
  }
  return out;
}
