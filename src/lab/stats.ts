/**
 * The lab's paired test: two judges on the same episodes, each right or wrong against the verifier; the exact
 * McNemar test asks whether the episodes only one of them gets right lean one way more than chance would.
 * @module
 */

/**
 * The exact McNemar p-value (two-sided) for `b` and `c` discordant pairs: the binomial test of `min(b, c)` out of
 * `b + c` at 1/2, `min(1, 2 * P(X <= min(b, c)))`; 1 when there is no discordant pair. Summed in log space, so
 * thousands of pairs do not underflow.
 * @example mcnemarExact(1, 9) // 0.021484375
 */
export function mcnemarExact(b: number, c: number): number {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) throw new RangeError(`mcnemarExact needs counts, got ${b} and ${c}`);
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  // log C(n, i) - n log 2, for i = 0..k, then a log-sum-exp
  const logs: number[] = [];
  let logChoose = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logChoose += Math.log(n - i + 1) - Math.log(i);
    logs.push(logChoose - n * Math.LN2);
  }
  const top = Math.max(...logs);
  const tail = Math.exp(top) * logs.reduce((sum, l) => sum + Math.exp(l - top), 0);
  return Math.min(1, 2 * tail);
}

/** Two judges compared on the same episodes, each judged right when it agrees with the verifier. */
export interface PairedComparison {
  /** Episodes both judges judged (and the verifier graded). */
  readonly episodes: number;
  /** Both right. */
  readonly bothRight: number;
  /** Only the baseline right (the `b` of McNemar's table). */
  readonly baselineOnly: number;
  /** Only the variant right (`c`). */
  readonly variantOnly: number;
  /** Both wrong. */
  readonly bothWrong: number;
  /** The variant's agreement with the verifiers minus the baseline's, on these episodes: `(c - b) / n`. */
  readonly agreementDiff: number;
  /** The exact McNemar p-value of `b` against `c`. */
  readonly p: number;
}

/** One episode's two verdicts and its verifier's, for {@link comparePaired}. */
export interface PairedVerdicts {
  readonly verifier: boolean;
  readonly baseline: boolean;
  readonly variant: boolean;
}

/** The paired comparison of a variant with a baseline on the same episodes, with the exact McNemar test. */
export function comparePaired(items: readonly PairedVerdicts[]): PairedComparison {
  let bothRight = 0;
  let baselineOnly = 0;
  let variantOnly = 0;
  let bothWrong = 0;
  for (const { verifier, baseline, variant } of items) {
    const a = baseline === verifier;
    const v = variant === verifier;
    if (a && v) bothRight++;
    else if (a) baselineOnly++;
    else if (v) variantOnly++;
    else bothWrong++;
  }
  const n = items.length;
  return {
    episodes: n,
    bothRight,
    baselineOnly,
    variantOnly,
    bothWrong,
    agreementDiff: n === 0 ? 0 : (variantOnly - baselineOnly) / n,
    p: mcnemarExact(baselineOnly, variantOnly),
  };
}
