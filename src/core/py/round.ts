/** Python's `round`: half to even on the exact binary value. @module */

const view = new DataView(new ArrayBuffer(8));

// x = mantissa * 2^exponent exactly, for finite non-zero x (sign dropped).
function decompose(x: number): { mantissa: bigint; exponent: number } {
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  return biased === 0
    ? { mantissa: fraction, exponent: -1074 }
    : { mantissa: fraction | (1n << 52n), exponent: biased - 1075 };
}

/**
 * Python's `round(x)` (an integer) and `round(x, ndigits)` for a float: the exact binary value is rounded,
 * ties to even, so `pyRound(0.0625, 3) === 0.062` and `pyRound(2.675, 2) === 2.67`.
 */
export function pyRound(x: number, ndigits?: number): number {
  if (!Number.isFinite(x) || x === 0) {
    if (ndigits === undefined && !Number.isFinite(x)) throw new RangeError(`cannot round ${x} to an integer`);
    return x;
  }
  const n = ndigits ?? 0;
  const { mantissa, exponent } = decompose(x);
  // value * 10^n = num / den exactly
  let num = mantissa;
  let den = 1n;
  if (exponent >= 0) num <<= BigInt(exponent);
  else den <<= BigInt(-exponent);
  if (n >= 0) num *= 10n ** BigInt(n);
  else den *= 10n ** BigInt(-n);
  let q = num / den;
  const twice = 2n * (num - q * den);
  if (twice > den || (twice === den && q % 2n === 1n)) q += 1n;
  const magnitude = Number(`${q}e${-n}`);
  // round(x) is an int (no -0); round(x, n) is a float and keeps the sign of -0.0.
  if (ndigits === undefined && magnitude === 0) return 0;
  return x < 0 ? -magnitude : magnitude;
}
