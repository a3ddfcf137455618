/**
 * The judge's figures against the verifiers: agreement, precision P(verifier passes | judge passes), recall, with 95%
 * Wilson intervals, per group, and the seed's printed line of a score.
 * @module
 */
import { pyDumps } from '../core/py/dumps';
import { pyRound } from '../core/py/round';
import { compareCodePoints } from '../core/py/text';
import {
    type Interval,
    type JudgeScore,
    type JudgeScoreWithIntervals
} from '../core/schemas';

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
  /** Whether the verifier passed the episode. */
  readonly verifier: boolean;
  /** Whether the judge said SUCCESS. */
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
/** The figures of a score that the seed writes as floats (`1.0`), for `json.dumps` of a score or a report. */
export const FLOAT_KEYS: ReadonlySet<string> = new Set(['agreement', 'precision', 'recall']);

/** The seed's printed line for a score: `json.dumps` of its figures, floats as Python prints them (`1.0`). */
export function formatScore(score: JudgeScore): string {
  return pyDumps(Object.fromEntries(SCORE_KEYS.map((k) => [k, score[k]])), { floatKeys: FLOAT_KEYS });
}
