/**
 * Reading a rows dir for the rows page: how many steps each selected episode gave (non-blank lines of its
 * `rows.jsonl`), and each episode of the run's fate: selected, a judged success not taken, judged NOT SUCCESS, or
 * not judged; and the accepted relabels of the run's relabel dir (`<run>_relabel/tasks.jsonl`), selected or not, so
 * that the page's counts add up to `_report.json`'s (which counts the relabels it took). A dir without a readable `rows.jsonl` is reported as an issue, not counted, and so is an episode's dir
 * or `rows.jsonl` that is a symbolic link (never followed: it may point out of the run), and a dir that is neither an
 * episode of the run nor an accepted relabel (its steps are in no chart).
 * @module
 */
import path from 'node:path';
import PQueue from 'p-queue';
import { describeError } from '../core/errors';
import { parseJsonAs, readJsonl } from '../core/io';
import { RowsTaskSchema } from '../core/schemas';
import { compareCodePoints, pyIsBlank } from '../core/py/text';
import { labelsFileOf, relabelDirOf, ROWS_FILES, runFile } from '../files/layout';
import { LabelsReportSchema, type LabelsReport } from '../rows/labels-format';
import { SYMBOLIC_LINK_PROBLEM, readTextIfExists, symbolicLinksIn, type FileStore } from '../files/types';
import type { RowsReport } from '../core/schemas';
import type { ReportEpisodeSummary, ReportIssue, RowsFate, RowsPageModel } from './types';

/** Options of {@link readRowsForReport}. */
export interface ReadRowsOptions {
  readonly store: FileStore;
  /** The run dir as given. */
  readonly run: string;
  /** The rows dir. */
  readonly rowsDir: string;
  /** Its `_report.json`, already read; `null` when unreadable. */
  readonly report: RowsReport | null;
  /** The run's episodes, as the report lists them. */
  readonly episodes: readonly ReportEpisodeSummary[];
  /** Called for each problem met. */
  readonly onIssue: (issue: ReportIssue) => void;
}

const NO_FATES = (): Record<RowsFate, number> => ({
  selected: 0,
  relabeled: 0,
  'success-not-selected': 0,
  'relabel-not-selected': 0,
  'judged-fail': 0,
  'not-judged': 0,
});

/** The rows page's model: per site, the selected steps and every episode's fate. */
export async function readRowsForReport(o: ReadRowsOptions): Promise<RowsPageModel> {
  const { store } = o;
  const all = await store.list(o.rowsDir);
  const listing = all.filter((d) => !d.name.startsWith('_') && !d.name.startsWith('.'));
  for (const d of listing) if (d.isSymbolicLink) o.onIssue({ file: path.join(o.rowsDir, d.name), problem: `${SYMBOLIC_LINK_PROBLEM}: not counted as selected` });
  const dirs = listing.filter((d) => d.isDirectory && !d.isSymbolicLink);
  const queue = new PQueue({ concurrency: 16 });
  const steps = new Map<string, number>();
  await Promise.all(
    dirs.map((d) =>
      queue.add(async () => {
        const file = path.join(o.rowsDir, d.name, ROWS_FILES.rows);
        try {
          if ((await symbolicLinksIn(store, path.join(o.rowsDir, d.name))).has(ROWS_FILES.rows)) {
            return o.onIssue({ file, problem: `${SYMBOLIC_LINK_PROBLEM}: not counted as selected` });
          }
          const text = await readTextIfExists(store, file);
          if (text === null) return o.onIssue({ file, problem: 'no rows.jsonl: not counted as selected' });
          steps.set(d.name, text.split('\n').filter((line) => !pyIsBlank(line)).length);
        } catch (error) {
          o.onIssue({ file, problem: describeError(error) });
        }
      }),
    ),
  );
  const bySite = new Map<string, { steps: number; relabeledSteps: number; fates: Record<RowsFate, number> }>();
  const at = (site: string) => {
    let s = bySite.get(site);
    if (!s) bySite.set(site, (s = { steps: 0, relabeledSteps: 0, fates: NO_FATES() }));
    return s;
  };
  const counted = new Set<string>();
  for (const ep of o.episodes) {
    const s = at(ep.site);
    const picked = steps.get(ep.id);
    if (picked !== undefined) s.steps += picked;
    const fate: RowsFate = picked !== undefined ? 'selected' : ep.verdict === 'success' ? 'success-not-selected' : ep.verdict === 'fail' ? 'judged-fail' : 'not-judged';
    s.fates[fate]++;
    counted.add(ep.id);
  }
  for (const task of await relabelTasks(o)) {
    if (counted.has(task.task_id)) continue; // the rows step leaves such a relabel out too, with a warning
    const s = at(task.site);
    const picked = steps.get(task.task_id);
    if (picked !== undefined) s.relabeledSteps += picked;
    s.fates[picked !== undefined ? 'relabeled' : 'relabel-not-selected']++;
    counted.add(task.task_id);
  }
  for (const id of steps.keys()) {
    if (!counted.has(id)) o.onIssue({ file: path.join(o.rowsDir, id), problem: 'neither an episode of the run nor an accepted relabel of it: not counted' });
  }
  // A _report.json that is a link is named by the header's reading of it and not read here either.
  const linked = all.some((d) => d.isSymbolicLink && d.name === ROWS_FILES.report);
  const skipped = linked ? 0 : await skippedCount(store, path.join(o.rowsDir, ROWS_FILES.report));
  return {
    run: o.run,
    rowsDir: o.rowsDir,
    report: o.report,
    skipped,
    labels: await readLabels(store, labelsFileOf(o.rowsDir), o.onIssue),
    sites: [...bySite.keys()].sort(compareCodePoints).map((site) => ({ site, ...bySite.get(site)! })),
  };
}

// The accepted relabels, as the rows step reads them (a bad line named and skipped); none without a relabel dir.
async function relabelTasks(o: ReadRowsOptions) {
  const file = runFile(relabelDirOf(o.run), 'tasks');
  try {
    if ((await symbolicLinksIn(o.store, path.dirname(file))).has(path.basename(file))) {
      o.onIssue({ file, problem: `${SYMBOLIC_LINK_PROBLEM}: its relabels not counted` });
      return [];
    }
    const onIssue = (issue: { line: number; problem: string }) => o.onIssue({ file: `${file}:${issue.line}`, problem: issue.problem });
    return await readJsonl(o.store, file, RowsTaskSchema, { missingOk: true, lenient: true, onIssue });
  } catch (error) {
    o.onIssue({ file, problem: describeError(error) });
    return [];
  }
}

// `skipped` is this library's addition to the seed's _report.json (its schema keeps the seed's keys only).
async function skippedCount(store: FileStore, file: string): Promise<number> {
  try {
    const value: unknown = JSON.parse((await readTextIfExists(store, file)) ?? '{}');
    const n = (value as { skipped?: unknown }).skipped;
    return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : 0;
  } catch {
    return 0; // the header already names an unreadable _report.json
  }
}

// The rows step's labels report beside the rows dir; none (an earlier taskgen's rows) is no issue, a damaged one is.
async function readLabels(store: FileStore, file: string, onIssue: (issue: ReportIssue) => void): Promise<LabelsReport | null> {
  const text = await readTextIfExists(store, file).catch(() => null);
  if (text === null) return null;
  try {
    return parseJsonAs(LabelsReportSchema, text, { file });
  } catch (error) {
    onIssue({ file, problem: `${describeError(error)}: the labels section is left out` });
    return null;
  }
}
