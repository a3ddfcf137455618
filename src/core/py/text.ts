/**
 * Python's view of strings: code points (not UTF-16 units), its Unicode whitespace, code-point order.
 * @module
 */

/**
 * Python's whitespace (`str.isspace()`, `\s` in `re` on str, `str.strip()`): ASCII whitespace, `\x1c`-`\x1f`,
 * `\x85`, `\xa0`, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000. Unlike JavaScript's `\s` it
 * includes `\x1c`-`\x1f` and `\x85` and excludes U+FEFF.
 */
export const PY_WHITESPACE = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

const WS_RUN = new RegExp(`[${PY_WHITESPACE}]+`, 'g');
const WS_ONE = new RegExp(`^[${PY_WHITESPACE}]$`);
const WS_LEAD = new RegExp(`^[${PY_WHITESPACE}]+`);
const WS_TRAIL = new RegExp(`[${PY_WHITESPACE}]+$`);
const NON_WS = new RegExp(`[^${PY_WHITESPACE}]`);

/** `re.sub(r"\s+", replacement, s)` with Python's whitespace. */
export function collapseWhitespace(s: string, replacement = ' '): string {
  return s.replace(WS_RUN, replacement);
}

/** Python's `s.strip()` (no argument). */
export function pyStrip(s: string): string {
  return s.replace(WS_LEAD, '').replace(WS_TRAIL, '');
}

/** `not s.strip()`: whether `s` is empty or all Python whitespace (one scan, no copies). */
export function pyIsBlank(s: string): boolean {
  return !NON_WS.test(s);
}

/** Python's `c.isspace()` for one character. */
export function pyIsSpace(c: string): boolean {
  return WS_ONE.test(c);
}

/** Python's `len(s)`: code points, a lone surrogate counting as one. */
export function cpLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

// The UTF-16 offset of code point `n` (or s.length when there are fewer).
function cpOffset(s: string, n: number): number {
  if (n <= 0) return 0;
  let count = 0;
  for (let i = 0; i < s.length; i++) {
    if (count === n) return i;
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    count++;
  }
  return s.length;
}

// Whether a surrogate is among the first `n` code units of `s`.
function hasSurrogate(s: string, n: number): boolean {
  const stop = Math.min(n, s.length);
  for (let i = 0; i < stop; i++) {
    if ((s.charCodeAt(i) & 0xf800) === 0xd800) return true;
  }
  return false;
}

/**
 * Python's `s[start:end]` on code points, with Python's negative indices and clamping (no step).
 * @example cpSlice('a😀b', 0, 2) === 'a😀'
 */
export function cpSlice(s: string, start: number | null = 0, end: number | null = null): string {
  // Fast paths: a string no longer than the cut in code units is whole; no surrogates before the cut means
  // code units are code points.
  if ((start ?? 0) === 0 && end !== null && s.length <= end) return s;
  if ((start ?? 0) >= 0 && end !== null && end >= 0 && !hasSurrogate(s, end)) return s.slice(start ?? 0, end);
  const len = start !== null && start < 0 ? cpLength(s) : end !== null && end < 0 ? cpLength(s) : -1;
  const clamp = (i: number | null, dflt: number) => {
    if (i === null) return dflt;
    if (i < 0) return Math.max(0, len + i);
    return i;
  };
  const a = clamp(start, 0);
  const b = end === null ? Number.POSITIVE_INFINITY : clamp(end, 0);
  if (b <= a) return '';
  const from = cpOffset(s, a);
  const to = b === Number.POSITIVE_INFINITY ? s.length : cpOffset(s, b);
  return s.slice(from, to);
}

/** Python's string order: by code point (JavaScript's `<` compares UTF-16 units). For `Array.prototype.sort`. */
export function compareCodePoints(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length) {
    // Positions stay aligned while the strings agree, so both code points start at i.
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
  }
  return (a.length - i) - (b.length - i);
}
