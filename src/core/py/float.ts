/** Python's float, where JavaScript's number loses the difference between `10` and `10.0`. @module */

/**
 * A JSON float literal whose value is integral (`10.0`, `1e5`, `-0.0`) or not finite, kept apart from an int so
 * that it prints back as Python prints it (`10.0`). Non-integral floats stay plain numbers: no int can be
 * confused with them. Produced by {@link parsePyJson}; understood by `pyDumps`, `pyStr`, `pyTruthy`, `pyEquals`.
 */
export class PyFloat {
  constructor(readonly value: number) {}
  /** The number, for arithmetic. */
  valueOf(): number {
    return this.value;
  }
  /** Serialized by `JSON.stringify` as the plain number. */
  toJSON(): number {
    return this.value;
  }
}

/** The numeric value of a number, `PyFloat`, bigint or boolean (Python's `True == 1`); `undefined` otherwise. */
export function pyNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (v instanceof PyFloat) return v.value;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  return undefined;
}

/**
 * `repr(x)` of a Python float: the shortest round-tripping digits, fixed notation for 1e-4 <= |x| < 1e16 with
 * at least one decimal (`10.0`), else scientific with a signed two-digit exponent (`1e-05`, `1e+16`).
 * Non-finite values print as `nan`, `inf`, `-inf` (json.dumps uses {@link jsonFloat}).
 */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  // Integral and below 1e16: JavaScript prints the same digits in fixed notation (the common case, `10.0`).
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return `${x}.0`;
  const sign = x < 0 ? '-' : '';
  const [mantissa, exp] = Math.abs(x).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const decpt = Number(exp) + 1; // x = 0.digits * 10^decpt
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
    if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
    return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  }
  const e = decpt - 1;
  const frac = digits.length > 1 ? `.${digits.slice(1)}` : '';
  return `${sign}${digits[0]}${frac}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

/** A float as `json.dumps` writes it: `NaN`, `Infinity`, `-Infinity`, else its repr. */
export function jsonFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  return floatRepr(x);
}

/** How Python prints a JavaScript number: an int when integral, else a float. */
export function numberRepr(x: number): string {
  if (Number.isInteger(x)) return Math.abs(x) < 1e21 ? String(x === 0 ? 0 : x) : BigInt(x).toString();
  return floatRepr(x);
}
