/**
 * The judge measured against the task verifiers on a human-task run (the seed's `cmd_validate`): agreement,
 * and the precision that matters for training data, P(verifier passes | judge passes), with 95% Wilson
 * intervals, overall, per site and per task kind.
 * @module
 */
import path from 'node:path';
import { nodeStore } from './fs/node';
import { episodeIdOf, judgeRecordState } from './episode-id';
import { InputError } from './errors';
import { readTextIfExists, type FileStore } from './fs/types';
import { parseJsonText, parseWith, readJsonFileIfExists } from './io';
import { judgeRun, type JudgeRunOptions, type JudgeRunResult } from './judge/run';
import { assertPlainName } from './names';
import { pyDumps } from './py/json';
import { pyPathStr } from './py/path';
import { pyRound } from './py/round';
import { compareCodePoints, pyIsBlank } from './py/text';
import {
  JudgeRecordSchema,
  ResultLineSchema,
  type Interval,
  type JudgeScore,
  type JudgeScoreWithIntervals,
  type ValidateReport,
} from './schemas';

/** One episode's two answers: did the verifier pass, did the judge say SUCCESS. */
export type JudgePair = readonly [verifier: boolean, judge: boolean];

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/**
 * The 95% Wilson score interval of `successes` out of `n`, rounded to 3 places; `null` when `n` is 0.
 * @example wilsonInterval(15, 16) // [0.717, 0.989]
 */
export function wilsonInterval(successes: number, n: number, z = Z95): Interval {
  if (n === 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return [pyRound(Math.max(0, center - half), 3), pyRound(Math.min(1, center + half), 3)];
}

/**
 * The seed's validate figures for `pairs` (`round(x, 3)` half-even on the binary value, so 1/16 gives
 * `0.062`), in the seed's key order, followed by 95% Wilson intervals for precision, recall and agreement.
 */
export function scoreJudge(pairs: readonly JudgePair[]): JudgeScoreWithIntervals {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (const [v, j] of pairs) {
    if (v && j) tp++;
    else if (j) fp++;
    else if (v) fn++;
    else tn++;
  }
  const n = pairs.length;
  return {
    episodes: n,
    agreement: pyRound((tp + tn) / Math.max(1, n), 3),
    verifier_pass: tp + fn,
    judge_pass: tp + fp,
    precision: pyRound(tp / Math.max(1, tp + fp), 3),
    recall: pyRound(tp / Math.max(1, tp + fn), 3),
    tp,
    fp,
    fn,
    tn,
    precision_ci: wilsonInterval(tp, tp + fp),
    recall_ci: wilsonInterval(tp, tp + fn),
    agreement_ci: wilsonInterval(tp + tn, n),
  };
}

/** An episode with its verifier's and its judge's result, for {@link scoreGroups}. */
export interface VerifiedJudgment {
  readonly verifier: boolean;
  readonly judge: boolean;
}

/** {@link scoreJudge} per group (site, task kind...), the groups in code-point order. */
export function scoreGroups<T extends VerifiedJudgment>(
  items: readonly T[],
  groupOf: (item: T) => string,
): Record<string, JudgeScoreWithIntervals> {
  const groups = new Map<string, JudgePair[]>();
  for (const item of items) {
    const key = groupOf(item);
    const list = groups.get(key) ?? [];
    list.push([item.verifier, item.judge]);
    groups.set(key, list);
  }
  const keys = [...groups.keys()].sort(compareCodePoints);
  return Object.fromEntries(keys.map((k) => [k, scoreJudge(groups.get(k)!)]));
}

const SCORE_KEYS = ['episodes', 'agreement', 'verifier_pass', 'judge_pass', 'precision', 'recall', 'tp', 'fp', 'fn', 'tn'] as const;
const FLOAT_KEYS = new Set(['agreement', 'precision', 'recall']);

/** The seed's printed line for a score: `json.dumps` of its figures, floats as Python prints them (`1.0`). */
export function formatScore(score: JudgeScore): string {
  return pyDumps(Object.fromEntries(SCORE_KEYS.map((k) => [k, score[k]])), { floatKeys: FLOAT_KEYS });
}

/** Options of {@link validate}: those of {@link judgeRun}. */
export type ValidateOptions = JudgeRunOptions;

/** What {@link validate} returns. */
export interface ValidateResult {
  /** The report, also written to `<run>_judge/_validate.json`. */
  readonly report: ValidateReport;
  /** The judge pass over the run. */
  readonly judged: JudgeRunResult;
  /** The pairs scored, in the results file's order. */
  readonly pairs: ReadonlyArray<{ readonly taskId: string; readonly verifier: boolean; readonly judge: boolean }>;
}

/**
 * Judges a human-task run (see {@link judgeRun}) and scores the judge against the verifiers' results:
 * `results_regraded.jsonl` when present, else `results.jsonl`; a task counts when it has a judge record. Where the
 * seed trusts anything, a clear error instead: `ok` must be a boolean (`file:line: ok: expected boolean`), a task id
 * listed twice must have the same result, and the file must hold a result line. Figures overall, per site and per task kind;
 * written to `<run>_judge/_validate.json` atomically.
 */
export async function validate(run: string, options: ValidateOptions): Promise<ValidateResult> {
  const store = options.store ?? nodeStore();
  const results = await readResults(store, run, options);
  const judged = await judgeRun(run, { ...options, store });
  const pairs = (
    await Promise.all(
      [...results].map(async ([taskId, verifier]) => {
        // A record left from an earlier recording of the episode (judged again without a verdict) is not its verdict.
        const episodeId = await episodeIdOf(store, path.posix.join(run, taskId));
        if ((await judgeRecordState(store, judged.judgeDir, taskId, episodeId)) === 'stale') return null;
        const record = await readJsonFileIfExists(store, path.posix.join(judged.judgeDir, `${taskId}.json`), JudgeRecordSchema);
        // `== 1` in the seed; the schema admits only the ints 0 and 1.
        return record === null ? null : { taskId, verifier, judge: record.predicted_label === 1 };
      }),
    )
  ).filter((p) => p !== null);

  const task = (taskId: string) => judged.tasks.get(taskId);
  const report: ValidateReport = {
    run: pyPathStr(run),
    judge: judged.summary.judge,
    overall: scoreJudge(pairs.map((p) => [p.verifier, p.judge])),
    by_site: scoreGroups(pairs, (p) => task(p.taskId)?.site ?? '(unknown)'),
    by_kind: scoreGroups(pairs, (p) => task(p.taskId)?.task_kind ?? '(unknown)'),
  };
  await store.writeAtomic(
    path.posix.join(judged.judgeDir, '_validate.json'),
    pyDumps(report, { indent: 1, ensureAscii: false, floatKeys: FLOAT_KEYS }),
  );
  return { report, judged, pairs };
}

// task_id -> ok, as the seed's dict comprehension (the first results file found) but strict where the seed trusts
// anything: `ok` must be a boolean, a task id listed twice must have one result, and a results file must hold one.
async function readResults(store: FileStore, run: string, options: ValidateOptions): Promise<Map<string, boolean>> {
  const results = new Map<string, { ok: boolean; line: number }>();
  for (const name of ['results_regraded.jsonl', 'results.jsonl']) {
    const file = path.posix.join(run, name);
    const text = await readTextIfExists(store, file);
    if (text === null) continue;
    const lines = text.split('\n');
    lines.forEach((raw, i) => {
      if (pyIsBlank(raw)) return;
      const where = { file, line: i + 1 };
      let value: unknown;
      try {
        value = parseJsonText(raw, where);
      } catch (error) {
        if (i < lines.length - 1 || !(error instanceof InputError)) throw error;
        options.onEvent?.({ type: 'warning', message: `${file}:${i + 1}: torn last line (no newline, not valid JSON): skipped` });
        return;
      }
      const { task_id: taskId, ok } = parseWith(ResultLineSchema, value, where);
      assertPlainName(taskId, 'task id');
      // A boolean, not Python truthiness, where `"ok": "no"` would count as a pass.
      if (typeof ok !== 'boolean') throw new InputError({ ...where, field: 'ok' }, 'expected boolean');
      const earlier = results.get(taskId);
      if (earlier && earlier.ok !== ok) {
        throw new InputError({ ...where, field: 'ok' }, `${taskId} has ok ${ok} here but ${earlier.ok} on line ${earlier.line}`);
      }
      results.set(taskId, { ok, line: i + 1 });
    });
    if (results.size === 0) throw new InputError({ file }, 'no result line: nothing to score the judge against');
    return new Map([...results].map(([id, r]) => [id, r.ok]));
  }
  options.onEvent?.({ type: 'warning', message: `${run}: no results_regraded.jsonl or results.jsonl: nothing to score` });
  return new Map();
}
