/**
 * `runReport`: a static HTML report of a run that people can open in a browser: `<out>/index.html` plus one
 * small `<out>/episodes/<task_id>.js` per episode, loaded when the episode is opened. Screenshots are linked
 * into the run dir by relative path, not copied, so keep the report beside the run (the default
 * `<run>_report/` is).
 * @module
 */
import path from 'node:path';
import { runTries } from '../files/tries';
import { readPassAtK } from '../validate/pass-at-k';
import PQueue from 'p-queue';
import { InputError } from '../core/errors';
import { nodeStore } from '../files/node';
import type { FileStore } from '../files/types';
import { readReportEpisode } from './gather-episode';
import { readRunForReport, trimSlashes, type ReportRunData } from './gather-run';
import { renderEpisodeScript, renderPage } from './html';
import { readRowsForReport } from './gather-rows';
import { renderRowsPage } from './rows-page';
import { usageFromRun, usageFromSummary } from './usage';
import { scoreGroups, scoreJudge } from '../validate';
import type { UsageSummary } from '../models/usage';
import type { ReportEpisode } from './gather-episode';
import type { ReportEpisodeSummary, ReportPageModel, ReportIssue, ReportTotals, ReportScores } from './types';
import { checkEntry } from '../core/check';
import { runFile, verifiersFileOf } from '../files/layout';
import { readWrittenVerifiers } from '../verifiers/file';
import { writtenFor } from '../claims/grade';
import type { Claim } from '../claims/schema';
import type { Task } from '../core/schemas';
import { reportSetups } from './setups';

/** The rows page's file name, beside `index.html` (written when a rows dir is given). */
export const ROWS_PAGE = 'rows.html';

/** What {@link runReport} reports as it goes. */
export type ReportEvent =
  | ({ readonly type: 'issue' } & ReportIssue)
  | { readonly type: 'start'; readonly episodes: number }
  | { readonly type: 'episode'; readonly taskId: string; readonly done: number; readonly total: number }
  | { readonly type: 'done'; readonly path: string; readonly episodes: number; readonly issues: number };

/** Options of {@link runReport}. */
export interface ReportOptions {
  /** The run dir. */
  readonly run: string;
  /** Where to write the report. Default `<run>_report`. */
  readonly out?: string;
  /** The judge records. Default `<run>_judge`. */
  readonly judgeDir?: string;
  /**
   * The tasks file the run was made from: its `verifiers.jsonl` holds the written verifiers, which check the episodes
   * of tasks without a hand-written one. Default `<run>/tasks.jsonl`.
   */
  readonly tasksFile?: string;
  /** A rows dir whose `_report.json` the header shows. */
  readonly rows?: string;
  /** Default the local disk. */
  readonly store?: FileStore;
  /** Episodes read at once. Default 16. */
  readonly workers?: number;
  /**
   * The model calls to chart per stage and model (a pipeline's `UsageMeter` summary). Default what the run's files
   * record: the agent's tokens in each `episode.json`, the judge's in records that carry them.
   */
  readonly usage?: UsageSummary;
  /** Receives the start, each issue as it is met, each episode written, and the end. */
  readonly onEvent?: (event: ReportEvent) => void;
}

/** The report dir of a run by default: `<run>_report`. */
export function defaultReportDir(run: string): string {
  return `${trimSlashes(run)}_report`;
}

/**
 * Writes the report of a run and returns the path of its `index.html`. Works on partial runs (episodes not judged
 * yet, missing screenshots, a torn results line): what cannot be read is listed in the report and sent as an
 * `issue` event, as is an episode's file that is a symbolic link (never read nor linked to: it may point out of the run). Throws an {@link InputError} only when the run dir does not exist.
 * @example
 * const file = await runReport({ run: 'runs/base', rows: 'data/rows_27k' });
 * console.log(`open file://${path.resolve(file)}`);
 */
export async function runReport(options: ReportOptions): Promise<string> {
  checkEntry('runReport', options);
  const store = options.store ?? nodeStore();
  const run = trimSlashes(options.run);
  const out = trimSlashes(options.out ?? defaultReportDir(run));
  const emit = options.onEvent ?? (() => {});
  if (!(await store.exists(run))) throw new InputError({ file: run }, 'run dir not found');

  const issues: ReportIssue[] = [];
  const onIssue = (issue: ReportIssue) => {
    issues.push(issue);
    emit({ type: 'issue', ...issue });
  };
  const data = await readRunForReport({ run, store, judgeDir: options.judgeDir, rows: options.rows, onIssue });
  const written = await writtenVerifiersOf(store, options.tasksFile ?? runFile(run, 'tasks'), [...data.tasks.values()], onIssue);
  // Every try of the run, each a run dir of its own (`<run>/_tries/<n>/`), listed after try 1's episodes.
  const tries = await runTries(store, run);
  const runs: Array<{ n: number; data: ReportRunData }> = [{ n: 1, data }];
  for (const t of tries.filter((t) => t.n > 1)) runs.push({ n: t.n, data: await readRunForReport({ run: t.dir, store, onIssue }) });
  const work = runs.flatMap(({ n, data: d }) => d.ids.map((id) => ({ n, d, id })));
  emit({ type: 'start', episodes: work.length });

  const summaries: ReportEpisodeSummary[] = new Array(work.length);
  const agentUsage: Array<ReportEpisode['usage']> = new Array(work.length);
  const setups: Array<ReportEpisode['setups']> = new Array(work.length);
  const queue = new PQueue({ concurrency: options.workers ?? 16 });
  let done = 0;
  await Promise.all(
    work.map(({ n, d, id }, i) =>
      queue.add(async () => {
        const href = path.posix.relative(run, d.run);
        const { summary, detail, usage, setups: madeBy } = await readReportEpisode(d, id, { store, onIssue, written, try: { n, href } });
        await store.writeAtomic(path.join(out, 'episodes', `${summary.key}.js`), renderEpisodeScript(detail));
        summaries[i] = summary;
        agentUsage[i] = usage;
        setups[i] = madeBy;
        emit({ type: 'episode', taskId: id, done: ++done, total: work.length });
      }),
    ),
  );
  const firstTry = summaries.filter((s) => s.try === 1);

  const { scores, note } = reportScores(data, summaries, tries.length);
  const usage = options.usage && options.usage.lines.length > 0 ? usageFromSummary(options.usage) : usageFromRun(agentUsage, data.judge.values());
  const rowsDir = options.rows === undefined ? null : trimSlashes(options.rows);
  if (rowsDir !== null) {
    const rows = await readRowsForReport({ store, run: options.run, rowsDir: options.rows!, report: data.rowsReport, episodes: firstTry, onIssue });
    await store.writeAtomic(path.join(out, ROWS_PAGE), renderRowsPage(rows));
  }
  const model: ReportPageModel = {
    run: options.run,
    runHref: relativeHref(out, run),
    totals: reportTotals(data, summaries, tries.length),
    scores,
    scoresNote: note,
    rowsReport: data.rowsReport,
    rowsDir: options.rows ?? null,
    issues,
    episodes: summaries,
    usage: usage.lines,
    usageSource: usage.source,
    rowsPage: rowsDir === null ? null : ROWS_PAGE,
    setups: await reportSetups(store, data, summaries.flatMap((summary, i) => (summary.try === 1 ? [{ summary, setups: setups[i]! }] : []))),
    passAtK: tries.length > 1 ? await readPassAtK({ run, store, ...(options.tasksFile ? { tasksFile: options.tasksFile } : {}) }) : null,
  };
  const file = path.join(out, 'index.html');
  await store.writeAtomic(file, renderPage(model));
  emit({ type: 'done', path: file, episodes: summaries.length, issues: issues.length });
  return file;
}

/** The header figures, over the episodes of every try. */
export function reportTotals(data: ReportRunData, summaries: readonly ReportEpisodeSummary[], tries = 1): ReportTotals {
  const count = (test: (s: ReportEpisodeSummary) => boolean) => summaries.filter(test).length;
  return {
    episodes: summaries.length,
    tries,
    judged: count((s) => s.verdict !== 'none'),
    judgedSuccesses: count((s) => s.verdict === 'success'),
    verified: count((s) => s.verifier !== null),
    writtenVerified: count((s) => s.verifierSource === 'written-verifier'),
    verifierPasses: count((s) => s.verifier === true),
    disagreements: count((s) => s.disagree),
    notAttempted: data.notAttempted,
  };
}

/**
 * The judge-versus-verifier figures: `_validate.json` when there is one and the run has one try (it scores try 1's
 * episodes), else computed from every episode with a verdict and a verifier result (hand-written or written).
 */
export function reportScores(data: ReportRunData, summaries: readonly ReportEpisodeSummary[], tries = 1): { scores: ReportScores | null; note: string | null } {
  if (data.validate && tries === 1) {
    const v = data.validate;
    return {
      scores: { source: `_validate.json (judge ${v.judge})`, overall: v.overall, bySite: v.by_site, byKind: v.by_kind },
      note: null,
    };
  }
  const pairs = summaries
    .filter((s) => s.verifier !== null && s.verdict !== 'none')
    .map((s) => ({ verifier: s.verifier === true, judge: s.verdict === 'success', site: s.site, kind: s.kind }));
  if (pairs.length === 0) {
    const why = data.resultsFile === null ? 'the run has no verifier results (results.jsonl)' : 'no episode has both a judge record and a verifier result';
    return { scores: null, note: `No judge-vs-verifier figures: no _validate.json, and ${why}.` };
  }
  const written = pairs.length - summaries.filter((s) => s.verifier !== null && s.verdict !== 'none' && s.verifierSource === 'verifier').length;
  const against = written > 0 ? `verifier results (${written} from written verifiers)` : 'verifier results';
  const over = tries > 1 ? `, over ${tries} tries` : '';
  const why = data.validate ? `_validate.json scores try 1 only; computed here` : 'no _validate.json; computed here';
  const source = `${pairs.length} judge records and ${against} (${why}${over})`;
  return {
    scores: {
      source,
      overall: scoreJudge(pairs.map((p) => [p.verifier, p.judge] as const)),
      bySite: scoreGroups(pairs, (p) => p.site),
      byKind: scoreGroups(pairs, (p) => p.kind),
    },
    note: null,
  };
}

/** The run dir as a URL relative to the report dir (`../run`), each segment encoded. */
export function relativeHref(out: string, run: string): string {
  const rel = path.relative(path.resolve(out), path.resolve(run));
  if (rel === '') return '.';
  return rel.split(path.sep).map((seg) => (seg === '..' ? seg : encodeURIComponent(seg))).join('/');
}

/** The written verifiers of the tasks file's `verifiers.jsonl` that check the run's tasks; what cannot be used is an issue. */
async function writtenVerifiersOf(store: FileStore, tasksFile: string, tasks: readonly Task[], onIssue: (issue: ReportIssue) => void): Promise<Map<string, Claim>> {
  const file = verifiersFileOf(tasksFile);
  const read = await readWrittenVerifiers(store, file);
  for (const issue of read.issues) onIssue({ file: issue.file, line: issue.line, problem: issue.problem });
  return writtenFor(tasks, [...read.byTask.values()], (problem) => onIssue({ file, problem }));
}
