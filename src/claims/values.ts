/**
 * How values compare, for claims and the sandbox's kind of verifiers alike: loosely, as they travel through forms and
 * JSON. Strings after whitespace collapse and case folding, numbers by value (`"2"` equals `2`), booleans as
 * `true`/`1`/`on` and `false`/`0`/empty, `null` as absent or empty; a request's parameters are its query and body.
 * @module
 */
import type { LogEntry, Scalar } from '../core/schemas';
import type { ClaimValue } from './schema';

/** Text as the checks compare it: whitespace collapsed, trimmed, case-folded. */
export const norm = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** Whether a value from a request or a row matches an expected scalar (see the module notes). */
export function looseEqual(actual: unknown, expected: Scalar): boolean {
  if (Array.isArray(actual)) return actual.some((a) => looseEqual(a, expected));
  if (expected === null) return actual === null || actual === undefined || actual === '';
  if (actual === null || actual === undefined) return false;
  if (typeof expected === 'boolean') {
    const a = typeof actual === 'string' ? norm(actual) : actual;
    return expected ? [true, 1, 'true', '1', 'on', 'yes'].includes(a as never) : [false, 0, 'false', '0', '', 'off', 'no'].includes(a as never);
  }
  if (typeof expected === 'number') {
    const n = typeof actual === 'number' ? actual : typeof actual === 'string' && actual.trim() !== '' ? Number(actual) : NaN;
    return n === expected;
  }
  if (typeof actual === 'number' || typeof actual === 'boolean') return norm(String(actual)) === norm(expected) || looseEqual(actual, Number(expected));
  return typeof actual === 'string' && norm(actual) === norm(expected);
}

/** The numbers written in a text (`1,234.5` is one number). */
export function numbersIn(text: string): number[] {
  return (text.match(/-?\$?\d[\d,]*(?:\.\d+)?|-?\.\d+/g) ?? []).map((m) => Number(m.replace(/[,$]/g, ''))).filter(Number.isFinite);
}

/** A path without its trailing slashes (`/` stays). */
export function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** A request's parameters: its query and its form or JSON body, the body's winning. */
export function requestParams(entry: LogEntry): Record<string, unknown> {
  const query = entry.query && typeof entry.query === 'object' ? (entry.query as Record<string, unknown>) : {};
  const body = entry.body && typeof entry.body === 'object' && !Array.isArray(entry.body) ? (entry.body as Record<string, unknown>) : {};
  return { ...query, ...body };
}

/** Regular expressions compiled once per check (a claim checked on many prefixes, a verifier on many episodes). */
export type MatchCache = Map<string, RegExp>;

/**
 * Whether a field's, a parameter's or a row's value shows `want`: plain scalars compare loosely ({@link looseEqual}),
 * `{number}` is a number within its tolerance (also one written in a text), `{contains}` and `{pattern}` match the
 * value's text. Every claim and every hand-written verifier compares values through this one function.
 */
export function matchValue(actual: unknown, want: ClaimValue, cache: MatchCache = new Map()): boolean {
  if (want === null || typeof want !== 'object') return looseEqual(actual, want);
  if (Array.isArray(actual)) return actual.some((a) => matchValue(a, want, cache));
  if (actual === null || actual === undefined) return false;
  if ('number' in want) {
    const n = typeof actual === 'number' ? [actual] : typeof actual === 'string' ? numbersIn(actual) : [];
    return n.some((x) => near(x, want));
  }
  return matchText(typeof actual === 'string' ? actual : (JSON.stringify(actual) ?? String(actual)), want, cache);
}

/** Whether a text shows the value: plain strings (and true, false, null) as substrings, numbers as numbers written in it. */
export function matchText(text: string, want: ClaimValue, cache: MatchCache = new Map()): boolean {
  if (want !== null && typeof want === 'object') {
    if ('contains' in want) return substringRegex(want.contains, cache).test(text);
    if ('pattern' in want) return patternRegex(want.pattern, cache).test(text);
    return numbersIn(text).some((x) => near(x, want));
  }
  if (typeof want === 'number') return numbersIn(text).some((x) => near(x, { number: want }));
  return substringRegex(String(want), cache).test(text);
}

/** Whether `x` is within the tolerance (default 0) of the wanted number. */
export function near(x: number, want: { number: number; tolerance?: number }): boolean {
  return Math.abs(x - want.number) <= (want.tolerance ?? 0) + 1e-9;
}

/**
 * `norm(text).includes(norm(needle))` without normalising the text (pages are a few KB): the needle, case-folded with
 * its whitespace collapsed, as a case-insensitive expression whose spaces match any run of whitespace.
 */
export function substringRegex(needle: string, cache: MatchCache): RegExp {
  const key = `\u0000${needle}`;
  let got = cache.get(key);
  if (got === undefined) {
    const source = norm(needle).split(' ').map(escapeRegex).join('\\s+');
    cache.set(key, (got = new RegExp(source, 'i')));
  }
  return got;
}

/** A claim's `{pattern}`, compiled case-insensitively. */
export function patternRegex(source: string, cache: MatchCache): RegExp {
  let got = cache.get(source);
  if (got === undefined) cache.set(source, (got = new RegExp(source, 'i')));
  return got;
}

/** A literal text as a regular expression source. */
export const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
