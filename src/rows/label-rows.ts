/**
 * The labels of the rows step's candidates: each judged success's label source, the verifier's word over the judge's
 * (a judged success its verifier failed is left out, listed as a disagreement), the precision target's choice of a
 * judge configuration (judge-only candidates it does not accept are left out), each source's measured precision, and
 * the dataset's estimate, as `<rows>_labels.json`.
 * @module
 */
import path from 'node:path';
import { InputError } from '../core/errors';
import { readJsonFileIfExists } from '../core/io';
import { JudgeRecordSchema } from '../core/schemas';
import { episodeIdOf } from '../files/episode-id';
import { episodeDirOf, judgeDirOf, judgeRecordFile } from '../files/layout';
import type { FileStore } from '../files/types';
import { judgedIds } from '../judge/run';
import { readVerifierResults } from '../validate';
import { asJudged, chooseConfig, configName, measureConfigs, readRecordSets, shortOfTarget, type ScoredSet } from './calibrate';
import { labelOf, readRunLabels, type EpisodeLabel, type RunLabels } from './labels';
import { BELOW_TARGET, LABEL_SOURCES, type JudgeConfig, type LabelSource, type LabelsReport, type Precision, type SourceFigures } from './labels-format';

/** Input of {@link labelCandidates}. */
export interface LabelCandidatesInput {
  readonly store: FileStore;
  readonly run: string;
  /** The tasks file, beside which `verifiers.jsonl` is; default `<run>/tasks.jsonl`. */
  readonly tasksFile?: string;
  /** The judged successes with their rows (task id to rows). */
  readonly candidates: ReadonlyMap<string, number>;
  /** The relabel dir and its candidates' ids, when relabels are candidates. */
  readonly relabel?: { readonly dir: string; readonly ids: ReadonlySet<string> };
  /** Runs whose verifier results score the judge; default the run and, in a pipeline work dir, its `human` run. */
  readonly scored?: readonly string[];
  /** The precision target for judge-only rows, 0 to 1. */
  readonly minPrecision?: number;
  readonly onWarning?: (message: string) => void;
  /**
   * Where a candidate's episode is: its run dir (a try's, `<run>/_tries/<n>`, in a run of several tries) and task id.
   * Default the run and the candidate's key.
   */
  readonly unitOf?: (key: string) => { readonly run: string; readonly id: string };
  /** Reads a run dir's labels (`readRunLabels`), once per dir; default a reader of its own. */
  readonly runLabels?: (run: string) => Promise<RunLabels>;
}

/** What {@link labelCandidates} decided. */
export interface CandidateLabels {
  /** Each candidate's label. */
  readonly labels: ReadonlyMap<string, EpisodeLabel>;
  /** Candidates left out, with why. */
  readonly leftOut: ReadonlyMap<string, string>;
  /** Why the target selected no judge-only rows, when it did not. */
  readonly target: string | null;
  /** The labels report for the rows finally picked. */
  report(picked: readonly string[]): LabelsReport;
}

/** Labels the candidates and applies the verifier-over-judge rule and the precision target. */
export async function labelCandidates(input: LabelCandidatesInput): Promise<CandidateLabels> {
  const { store, run, candidates } = input;
  const target = input.minPrecision;
  if (target !== undefined && !(target >= 0 && target <= 1)) throw new InputError({ file: 'options', field: 'minPrecision' }, `expected a precision between 0 and 1, got ${target}`);
  const unitOf = input.unitOf ?? ((key: string) => ({ run, id: key }));
  // Each try is a run dir of its own, with its own verifier results: a candidate is labelled from its try's.
  const labelsOfRun = input.runLabels ?? runLabelsReader(input);
  const labels = new Map<string, EpisodeLabel>();
  for (const key of candidates.keys()) {
    const relabeled = input.relabel?.ids.has(key) ?? false;
    const unit = relabeled ? { run, id: key } : unitOf(key);
    const episodeId = relabeled ? null : await episodeIdOf(store, episodeDirOf(unit.run, unit.id));
    labels.set(key, labelOf(await labelsOfRun(unit.run), { taskId: unit.id, episodeId, origin: relabeled ? 'relabel' : 'task' }));
  }
  const leftOut = new Map<string, string>();
  const disagreements: LabelsReport['disagreements'] = [];
  for (const [taskId, label] of labels) {
    if (label.verifier !== false) continue;
    const resolution = `left out: the ${label.source} failed the episode the judge called a SUCCESS (a verifier over the judge)`;
    disagreements.push({ task_id: taskId, source: label.source, verifier: false, judge: true, resolution });
    leftOut.set(taskId, resolution);
  }

  const scored = await scoredSets(store, run, input.scored);
  const judgeOnly = new Map([...candidates].filter(([id]) => labels.get(id)?.source === 'judge' && !leftOut.has(id)));
  const setsOfRun = memo((dir: string) => readRecordSets(store, dir));
  const runSets = await setsOfRun(run);
  // Each judge-only candidate counted on its own try's records of the configuration's set-up.
  const candidateSets = new Map(await Promise.all([...judgeOnly.keys()].map(async (key) => [key, await setsOfRun(unitOf(key).run)] as const)));
  const sameSetup = (key: string, set: { records: string; variant: string }) => candidateSets.get(key)?.find((s) => s.records === set.records && s.variant === set.variant);
  const configs = measureConfigs(runSets, scored, judgeOnly, (key, set) => sameSetup(key, set)?.tallies.get(unitOf(key).id));
  let judge: JudgeConfig | undefined;
  let why: string | null = null;
  if (target !== undefined) {
    judge = chooseConfig(configs, target);
    if (!judge) why = shortOfTarget(configs, target);
    for (const [taskId] of judgeOnly) {
      const tally = judge && sameSetup(taskId, judge)?.tallies.get(unitOf(taskId).id);
      const accepted = judge !== undefined && tally !== undefined && tally.k === judge.votes && tally.yes >= judge.threshold;
      if (!accepted) leftOut.set(taskId, BELOW_TARGET);
    }
  } else {
    const own = runSets.find((s) => s.records === 'judge');
    const key = own && asJudged(own);
    judge = key && configs.find((c) => c.name === configName(key));
  }
  const relabelAgreement = input.relabel ? await relabelAgreementOf(store, input.relabel.dir) : null;

  return {
    labels,
    leftOut,
    target: why,
    report(picked) {
      const sources: SourceFigures[] = LABEL_SOURCES.map((source) => {
        const ids = picked.filter((id) => labels.get(id)?.source === source);
        const rows = ids.reduce((n, id) => n + (candidates.get(id) ?? 0), 0);
        const measured = source === 'judge' ? (judge?.precision ?? null) : null;
        const unmeasured = source === 'relabel' && relabelAgreement ? relabelAgreement : UNMEASURED[source];
        return { source, episodes: ids.length, rows, measured, unmeasured: measured ? null : unmeasured };
      });
      return {
        min_precision: target ?? null,
        scored: scored.map((s) => ({ run: s.run, episodes: s.results.size })),
        sources,
        configs,
        judge: judge?.name ?? null,
        target: why,
        estimate: estimateOf(sources),
        disagreements,
        left_out: [...leftOut].map(([taskId, reason]) => ({ task_id: taskId, rows: candidates.get(taskId) ?? 0, reason })),
      };
    },
  };
}

const UNMEASURED: Record<LabelSource, string> = {
  verifier: 'not measured: a hand-written verifier is the reference the other sources are measured against',
  'written-verifier': 'not measured on this run: written verifiers are measured against hand-written ones on a human-task run (scoreWrittenVerifiers)',
  relabel: 'not measured: no relabeled episode was judged (and agreement with the judge is no precision: see the relabel guide)',
  judge: 'not measured: no judged SUCCESS on a scored set (a run with verifier results)',
};

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/**
 * The dataset's estimated label precision over the rows of measured sources: each source's precision weighted by its
 * rows, rounded to 3 places. The interval is for the share of right labels among these very rows: each source's
 * Wilson interval widened by the chance in which of its episodes were kept (`z * sqrt(p (1 - p) / episodes)` at
 * each end, within 0 and 1), then its ends weighted by the rows.
 */
export function estimateOf(sources: readonly SourceFigures[]): LabelsReport['estimate'] {
  const measured = sources.filter((s) => s.measured !== null && s.rows > 0);
  const rows = measured.reduce((n, s) => n + s.rows, 0);
  if (rows === 0) return null;
  const mean = (f: (s: SourceFigures, p: Precision) => number) => Math.round((measured.reduce((sum, s) => sum + s.rows * f(s, s.measured!), 0) / rows) * 1000) / 1000;
  const spread = (p: number, episodes: number) => Z95 * Math.sqrt((p * (1 - p)) / Math.max(1, episodes));
  return {
    precision: mean((_, p) => p.right / p.n),
    interval: [mean((s, p) => Math.max(0, p.interval[0] - spread(p.interval[0], s.episodes))), mean((s, p) => Math.min(1, p.interval[1] + spread(p.interval[1], s.episodes)))],
    rows,
    of: sources.reduce((n, s) => n + s.rows, 0),
  };
}

// The scored sets: the runs given, else the run and a pipeline work dir's `human` run; those with verifier results.
async function scoredSets(store: FileStore, run: string, given: readonly string[] | undefined): Promise<ScoredSet[]> {
  const sibling = path.posix.join(path.posix.dirname(run), 'human');
  const runs = given ?? [run, ...(path.posix.basename(run) === 'run' && (await store.exists(sibling)) ? [sibling] : [])];
  const out: ScoredSet[] = [];
  for (const r of runs) {
    if (given && !(await store.exists(r))) throw new InputError({ file: r }, 'no such scored run dir');
    const results = await readVerifierResults(store, r, { allowEmpty: true });
    if (results.size > 0) out.push({ run: r, results, sets: await readRecordSets(store, r) });
  }
  return out;
}

/**
 * A relabel is kept only when its claim held and the relabel judge said yes: the share of claim-held relabels the
 * judge confirmed is how often the two agree, not a precision against a truth, so it is reported as such and the
 * source counts as unmeasured (a truth exists only where tasks have verifiers: the sandbox's benches measure it).
 */
async function relabelAgreementOf(store: FileStore, dir: string): Promise<string | null> {
  const judgeDir = judgeDirOf(dir);
  let yes = 0;
  let n = 0;
  for (const taskId of await judgedIds(store, judgeDir)) {
    const record = await readJsonFileIfExists(store, judgeRecordFile(judgeDir, taskId), JudgeRecordSchema).catch(() => null);
    if (!record?.verdict) continue;
    n++;
    yes += record.predicted_label;
  }
  if (n === 0) return null;
  return `not measured against a truth: the relabel judge confirmed ${yes} of the ${n} relabeled episodes whose claims held (agreement ${(yes / n).toFixed(3)}; a relabel is kept only when both say yes, so this is no precision)`;
}

/** A reader of run dirs' labels that reads each dir once (warnings about its files once). */
export function runLabelsReader(input: Pick<LabelCandidatesInput, 'store' | 'tasksFile' | 'onWarning'>): (run: string) => Promise<RunLabels> {
  return memo((dir: string) => readRunLabels({ store: input.store, run: dir, tasksFile: input.tasksFile, onWarning: input.onWarning }));
}

/**
 * Whether a verifier (hand-written or written) failed a task's episode in a run dir: such an episode is no success,
 * whatever the judge said.
 */
export async function verifierFailed(store: FileStore, runLabels: (run: string) => Promise<RunLabels>, run: string, taskId: string): Promise<boolean> {
  const episodeId = await episodeIdOf(store, episodeDirOf(run, taskId));
  return labelOf(await runLabels(run), { taskId, episodeId, origin: 'task' }).verifier === false;
}

/** One call per key, the first call's promise kept. */
function memo<T>(read: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const seen = new Map<string, Promise<T>>();
  return (key) => {
    let value = seen.get(key);
    if (!value) seen.set(key, (value = read(key)));
    return value;
  };
}
