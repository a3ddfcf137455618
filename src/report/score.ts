/**
 * The judge-versus-verifier figures the report shows when a run has no `_validate.json`: the seed's confusion
 * matrix and rates, with 95% Wilson intervals, overall and per group. Pure functions.
 * @module
 */
import { compareCodePoints } from '../py/text';
import type { Interval, JudgeScoreWithIntervals } from '../schemas';

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/** One episode judged and verified: did the verifier pass it, did the judge. */
export interface JudgedPair {
  readonly verifier: boolean;
  readonly judge: boolean;
}

/**
 * The 95% Wilson score interval of `k` successes in `n` trials, `null` when `n` is 0.
 * @example wilsonInterval(8, 10) // ≈ [0.490, 0.943]
 */
export function wilsonInterval(k: number, n: number): Interval {
  if (n <= 0) return null;
  const p = k / n;
  const z2 = Z95 * Z95;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return [Math.max(0, center - half), Math.min(1, center + half)];
}

/**
 * The seed's validate figures for these pairs (precision = P(verifier passes | judge passes)), unrounded, with
 * 95% Wilson intervals. Rates with nothing to count are 0, as the seed's `max(1, ...)` makes them.
 */
export function scorePairs(pairs: readonly JudgedPair[]): JudgeScoreWithIntervals {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (const { verifier, judge } of pairs) {
    if (verifier && judge) tp++;
    else if (judge) fp++;
    else if (verifier) fn++;
    else tn++;
  }
  const n = pairs.length;
  return {
    episodes: n,
    agreement: (tp + tn) / Math.max(1, n),
    verifier_pass: tp + fn,
    judge_pass: tp + fp,
    precision: tp / Math.max(1, tp + fp),
    recall: tp / Math.max(1, tp + fn),
    tp,
    fp,
    fn,
    tn,
    precision_ci: wilsonInterval(tp, tp + fp),
    recall_ci: wilsonInterval(tp, tp + fn),
    agreement_ci: wilsonInterval(tp + tn, n),
  };
}

/** Scores per group (site, task kind...), groups in code point order. */
export function scoreGroups<T extends JudgedPair>(
  pairs: readonly T[],
  groupOf: (pair: T) => string,
): Record<string, JudgeScoreWithIntervals> {
  const groups = new Map<string, T[]>();
  for (const pair of pairs) {
    const key = groupOf(pair);
    const list = groups.get(key);
    if (list) list.push(pair);
    else groups.set(key, [pair]);
  }
  const out: Record<string, JudgeScoreWithIntervals> = {};
  for (const key of [...groups.keys()].sort(compareCodePoints)) out[key] = scorePairs(groups.get(key)!);
  return out;
}
