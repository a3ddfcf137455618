/**
 * The on-disk formats' names, in one place: every file of a run dir, an episode dir, a judge dir and a rows dir
 * (the seed's names, byte for byte). Other modules build paths through these and never spell a name out.
 *
 * ```
 * <run>/tasks.jsonl                  the run's tasks
 * <run>/results.jsonl                verifier results (results_regraded.jsonl wins when present)
 * <tasks dir>/verifiers.jsonl        verifiers written for proposed tasks, beside their tasks file
 * <run>/<task_id>/                   an episode: episode.json, grade_inputs.json, screenshots/, final.png,
 *                                    rows/{rows.jsonl, episode.json, step_*.png}; evidence_steps.json beside them
 * <run>/_work/<task_id>.<gen>.claim  an episode in progress, claimed (and <run>/_work/<task_id>.<gen>/ its recording)
 * <run>/_aside/, <run>/_quarantine/  unfinished episodes of dead writers, and finished ones gone bad: kept, never deleted
 *                                    (as <task_id>[.<gen>].<why>.<time>.<pid>-<random>/, see keptName)
 * <run>_judge/<task_id>.json         a judge record; _validate.json: the judge against the verifiers
 * <run>_judge/_episodes/<task_id>.json  the episode that record judged (episode identity)
 * <run>_judge/lab/                   the judge lab: lab.json, lab.html, <variant>/ records and _variant.json
 * <rows>/<task_id>/                  the selected episodes' rows dirs; _report.json: the selection
 * <rows>_provenance.jsonl            where each selected episode came from (beside the seed's rows dir)
 * <dir>/_setup/<digest>.json         the set-up a stage wrote its outputs with (run, judge dir, tasks file's dir)
 * <run>_relabel/                     relabeled episodes, laid out as a run: tasks.jsonl, <task_id>/ (the cut episode),
 *                                    _parents/<task_id>.json (what was proposed for each parent episode, and why kept)
 * <run>_relabel_judge/               the judge's records of the relabeled episodes
 * <run>/_tries/<n>/                  try n (2..k) of the run's tasks, laid out as a run dir of its own (tasks.jsonl,
 *                                    <task_id>/, results.jsonl...); try 1 is the run dir itself, so a run of one try
 *                                    is what it always was, and the seed's Python sees try 1 as the task's episode
 *                                    (it reads only dirs named by task ids, so it ignores `_tries`); `runTries` and
 *                                    `nextFreeTry` (`files/tries.ts`) list a run's tries (docs/tries.md)
 * <run>/_tries/<n>_judge/            the judge's records of try n (judgeDirOf of the try's run dir)
 * ```
 * @module
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { assertPlainName } from '../core/names';
import { pyPathStr } from '../core/py/path';

/** The files of a run dir. */
export const RUN_FILES = Object.freeze({ tasks: 'tasks.jsonl', results: 'results.jsonl', resultsRegraded: 'results_regraded.jsonl' });

/** Verifiers written for proposed tasks: `verifiers.jsonl`, in the dir of the tasks file they are for. */
export const VERIFIERS_FILE = 'verifiers.jsonl';

/** The written verifiers of a tasks file: `verifiers.jsonl` beside it (`<dir>/tasks.jsonl` → `<dir>/verifiers.jsonl`). */
export function verifiersFileOf(tasksFile: string): string {
  return path.posix.join(path.posix.dirname(tasksFile), VERIFIERS_FILE);
}

/** The verifier results of a run, in the order the seed looks for them: the first that exists is read. */
export const RESULTS_FILES: readonly string[] = Object.freeze([RUN_FILES.resultsRegraded, RUN_FILES.results]);

/** The dirs of a run dir that are the library's own, not episodes (names starting with `_` are never a task id's). */
export const RUN_DIRS = Object.freeze({ work: '_work', aside: '_aside', quarantine: '_quarantine', tries: '_tries' });

/**
 * The most tries of one task a run may hold: a bound on every loop over tries. High, since an environment server
 * recording an RL run gives one task an episode (a try) every time a trainer resets it, for days.
 */
export const MAX_TRIES = 10_000;

/**
 * The run dir of try `n` of a run's tasks (1-based): the run dir itself for try 1, `<run>/_tries/<n>` past it. Each is
 * laid out as a run dir, so every step (judge, verifiers, validate, relabel, rows) reads a try as it reads a run; a
 * task id never starts with `_`, so no try dir meets an episode dir.
 */
export function tryRunDir(run: string, n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > MAX_TRIES) throw new RangeError(`try must be an integer in 1..${MAX_TRIES}, got ${String(n)}`);
  return n === 1 ? run : path.posix.join(run, RUN_DIRS.tries, String(n));
}

/**
 * The name of something kept under `_aside/` or `_quarantine/`: `<what>.<why>.<UTC time>.<pid>-<random>`, e.g.
 * `t1.3.stale.20261203T171500123Z.4242-9f0c`. The pid and random part keep apart two processes (or two calls)
 * that keep the same task in the same millisecond, so a rename into place never meets an existing name.
 */
export function keptName(what: string, why: string): string {
  const time = new Date().toISOString().replace(/[-:.]/g, '');
  return `${what}.${why}.${time}.${process.pid}-${randomBytes(2).toString('hex')}`;
}

/** The dir of set-up records in a stage's output dir: `<dir>/_setup/` (never a task id: it starts with `_`). */
export const SETUP_DIR = '_setup';

/** A set-up record's file: `<dir>/_setup/<digest>.json`, one file per set-up, so many writers never share one. */
export function setupRecordFile(dir: string, digest: string): string {
  assertPlainName(digest, 'set-up digest');
  return path.posix.join(dir, SETUP_DIR, `${digest}.json`);
}

/** The file names inside an episode directory. */
export const EPISODE_FILES = Object.freeze({
  episode: 'episode.json',
  gradeInputs: 'grade_inputs.json',
  screenshots: 'screenshots',
  final: 'final.png',
  rows: 'rows',
  rowsFile: 'rows/rows.jsonl',
  rowsEpisode: 'rows/episode.json',
  /** Not the seed's: the step after which each piece of evidence appeared (claims are checked at step prefixes). */
  evidenceSteps: 'evidence_steps.json',
  /** Each step as the agent's prompt showed it (beside the seed's files): what re-renders its rows under another instruction. */
  agentSteps: 'agent_steps.json',
  /** Not the seed's: the rows of the site's tables before the first action (state claims read start plus changes). */
  startRows: 'start_rows.json',
  /** Not the seed's: the site's own record of the user's actions, where it keeps one (MiniWeb's recorder stream). */
  siteRecord: 'site_record.json',
  /** Not the seed's: the LLM's decisions on a MiniWeb verifier's fuzzy checks, reused whenever the episode is graded. */
  verifierDecisions: 'verifier_decisions.json',
});

/** The name of step `n`'s screenshot, in `screenshots/` and `rows/`: `step_<n>.png`. */
export function stepImageName(step: number): string {
  return `step_${step}.png`;
}

/** Files an episode dir has; a directory with none of them is not an episode. */
export const EPISODE_MARKERS: readonly string[] = Object.freeze([
  EPISODE_FILES.gradeInputs,
  EPISODE_FILES.episode,
  EPISODE_FILES.screenshots,
  EPISODE_FILES.final,
]);

/** The files of a judge dir besides the records. Names starting with `_` are never a task's record. */
export const JUDGE_FILES = Object.freeze({
  validate: '_validate.json',
  recordSuffix: '.json',
  bindings: '_episodes',
  lab: 'lab',
  labJson: 'lab.json',
  labHtml: 'lab.html',
  variant: '_variant.json',
});

/** The files of a rows dir besides the episodes' dirs. */
export const ROWS_FILES = Object.freeze({ report: '_report.json', rows: 'rows.jsonl' });

/** The judge dir of a run: `str(Path(run)) + "_judge"`, as the seed names it. */
export function judgeDirOf(run: string): string {
  return `${pyPathStr(run)}_judge`;
}

/** `<rows>_provenance.jsonl`: beside the rows dir, so the seed's rows dir stays as the seed writes it. */
export function provenanceFileOf(rowsDir: string): string {
  const dir = path.posix.normalize(rowsDir).replace(/\/+$/, '');
  return `${dir}_provenance.jsonl`;
}

/** `<rows>_labels.json`: beside the rows dir, where each row's label came from and how precise each source measured. */
export function labelsFileOf(rowsDir: string): string {
  const dir = path.posix.normalize(rowsDir).replace(/\/+$/, '');
  return `${dir}_labels.json`;
}

/** The judge lab's dir of a run: `<run>_judge/lab` (its `lab.json`, `lab.html` and one records dir per variant). */
export function labDirOf(run: string): string {
  return path.posix.join(judgeDirOf(run), JUDGE_FILES.lab);
}

/** An episode's dir: `<run>/<task_id>` (the task id checked plain first). */
export function episodeDirOf(run: string, taskId: string): string {
  assertPlainName(taskId, 'task id');
  return path.posix.join(run, taskId);
}

/** A file of an episode dir by its role. */
export function episodeFile(episodeDir: string, file: keyof typeof EPISODE_FILES): string {
  return path.posix.join(episodeDir, EPISODE_FILES[file]);
}

/** A file of a run dir by its role. */
export function runFile(run: string, file: keyof typeof RUN_FILES): string {
  return path.posix.join(run, RUN_FILES[file]);
}

/** A judge record's file: `<judgeDir>/<task_id>.json`. */
export function judgeRecordFile(judgeDir: string, taskId: string): string {
  assertPlainName(taskId, 'task id');
  return path.posix.join(judgeDir, `${taskId}${JUDGE_FILES.recordSuffix}`);
}

/** The task id of a judge dir's file name, or `null` for a file that is not a record (`_validate.json`, ...). */
export function recordTaskId(name: string): string | null {
  return name.endsWith(JUDGE_FILES.recordSuffix) && !name.startsWith('_') ? name.slice(0, -JUDGE_FILES.recordSuffix.length) : null;
}

/** The judge-vs-verifier report of a judge dir: `<judgeDir>/_validate.json`. */
export function validateFile(judgeDir: string): string {
  return path.posix.join(judgeDir, JUDGE_FILES.validate);
}

/** The selection report of a rows dir: `<rows>/_report.json`. */
export function rowsReportFile(rows: string): string {
  return path.posix.join(rows, ROWS_FILES.report);
}

/** The files of a relabel dir besides the cut episodes (names starting with `_` are never a task id's). */
export const RELABEL_FILES = Object.freeze({ parents: '_parents' });

/** The relabel dir of a run: `<run>_relabel`, laid out as a run (its judge dir is `<run>_relabel_judge`). */
export function relabelDirOf(run: string): string {
  return `${pyPathStr(run)}_relabel`;
}

/** What relabel decided for one parent episode: `<relabelDir>/_parents/<task_id>.json`. */
export function relabelParentFile(relabelDir: string, taskId: string): string {
  assertPlainName(taskId, 'task id');
  return path.posix.join(relabelDir, RELABEL_FILES.parents, `${taskId}.json`);
}

/** The dirs that go with a run dir: its judge records, its relabels and their judge records, and each try's dir. */
export interface RunLayout {
  /** The run dir. */
  readonly run: string;
  /** `<run>_judge`: the judge's records of the run's episodes (`judgeDirOf`). */
  readonly judge: string;
  /** `<run>_relabel`: the relabeled episodes, laid out as a run. */
  readonly relabel: string;
  /** `<run>_relabel_judge`: the judge's records of the relabeled episodes. */
  readonly relabelJudge: string;
  /** The run dir of try `n` (1-based): the run dir itself for try 1, `<run>/_tries/<n>` past it. */
  tryDir(n: number): string;
}

/**
 * The dirs of a run (see {@link RunLayout}); `pipelineLayout` gives a pipeline's work dir's.
 * @example
 * const { judge, tryDir } = runLayout('work/run');
 * tryDir(2); // 'work/run/_tries/2'
 */
export function runLayout(run: string): RunLayout {
  const relabel = relabelDirOf(run);
  return { run, judge: judgeDirOf(run), relabel, relabelJudge: judgeDirOf(relabel), tryDir: (n) => tryRunDir(run, n) };
}
