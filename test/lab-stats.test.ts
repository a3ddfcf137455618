/**
 * The lab's statistics against references computed independently in Python from the formulas (standard library
 * only): Wilson score intervals, and exact McNemar p-values as exact binomial tails in fractions.
 */
import { describe, expect, it } from 'vitest';
import { mcnemarExact, wilsonInterval } from '../src/index';
import { runPython } from './helpers/python';

const WILSON: Array<[number, number]> = [[0, 1], [1, 1], [0, 10], [15, 16], [7, 9], [50, 100], [1, 3], [99, 100], [123, 456], [2, 1000], [9, 12], [10, 12]];
const MCNEMAR: Array<[number, number]> = [[0, 0], [0, 1], [1, 1], [1, 9], [9, 1], [3, 4], [0, 12], [5, 20], [30, 45], [100, 140], [600, 700], [1200, 1500], [0, 2000]];

const reference = runPython<{ wilson: Array<[number, number] | null>; mcnemar: number[] }>(
  `
from fractions import Fraction
from math import comb, sqrt
from statistics import NormalDist

z = NormalDist().inv_cdf(0.975)

def wilson(k, n):
    # the score interval: centre (k + z^2/2) / (n + z^2), half-width z sqrt(k (n - k) / n + z^2 / 4) / (n + z^2)
    if n == 0:
        return None
    centre = (k + z * z / 2) / (n + z * z)
    half = z * sqrt(k * (n - k) / n + z * z / 4) / (n + z * z)
    return [round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3)]

def mcnemar(b, c):
    n = b + c
    if n == 0:
        return 1.0
    tail = Fraction(sum(comb(n, i) for i in range(min(b, c) + 1)), 2 ** n)
    return float(min(Fraction(1), 2 * tail))

emit({"wilson": [wilson(k, n) for k, n in INPUT["wilson"]], "mcnemar": [mcnemar(b, c) for b, c in INPUT["mcnemar"]]})
`,
  { wilson: WILSON, mcnemar: MCNEMAR },
);

describe('lab statistics', () => {
  it('gives the Wilson intervals Python computes from the formula', () => {
    expect(WILSON.map(([k, n]) => wilsonInterval(k, n))).toEqual(reference.wilson);
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it('gives the exact McNemar p-values Python computes in exact fractions', () => {
    MCNEMAR.forEach(([b, c], i) => {
      const want = reference.mcnemar[i]!;
      const got = mcnemarExact(b, c);
      // relative error: the tails reach 1e-600 and below, where only the ratio means anything
      if (want === 0) expect(got).toBeLessThan(1e-300);
      else expect(Math.abs(got - want) / want, `b=${b} c=${c}`).toBeLessThan(1e-9);
    });
    expect(mcnemarExact(1, 9)).toBe(mcnemarExact(9, 1));
    expect(() => mcnemarExact(-1, 2)).toThrow(RangeError);
  });
});
