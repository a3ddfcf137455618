/**
 * How values compare, for claims and the sandbox's kind of verifiers alike: loosely, as they travel through forms and
 * JSON. Strings after whitespace collapse and case folding, numbers by value (`"2"` equals `2`), booleans as
 * `true`/`1`/`on` and `false`/`0`/empty, `null` as absent or empty; a request's parameters are its query and body.
 * @module
 */
import type { LogEntry, Scalar } from '../core/schemas';

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
  return (text.match(/-?\d[\d,]*(?:\.\d+)?|-?\.\d+/g) ?? []).map((m) => Number(m.replace(/,/g, ''))).filter(Number.isFinite);
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
