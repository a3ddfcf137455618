/**
 * How MiniWeb's verifier compares texts and numbers, written for this library: its `_norm` (case-folded, punctuation
 * but `.` dropped, whitespace collapsed; here letters and digits of every script are kept, where MiniWeb's ASCII-only
 * rule turns a Greek or Chinese value into an empty text that is "in" anything), its compact form, its "essentially a
 * number" and its number tolerance; and the few rules of ours on top: whole-word containment, template placeholders as
 * patterns, alternatives one per line, a denial of the value, Python's `urlencode` of a logged query.
 * @module
 */
import { escapeRegex } from '../claims/values';
import { pyRound } from '../core/py/round';
import { pyStr } from '../core/py/repr';

/** MiniWeb's `_norm`, for every script: lower case, all but letters, digits, whitespace and `.` to spaces, collapsed. */
export function mwNorm(value: unknown): string {
  const s = value === null || value === undefined ? '' : typeof value === 'string' ? value : textOf(value);
  return s.toLowerCase().replace(/[^\p{L}\p{N}\s.]+/gu, ' ').replace(/\s+/g, ' ').trim();
}

/** MiniWeb's `_compact`: {@link mwNorm} without spaces and dashes (`(555) 123-4567` is `555 1234567` is `5551234567`). */
export function mwCompact(value: unknown): string {
  return mwNorm(value).replace(/[\s-]+/g, '');
}

/** A value as text: strings as they are, other JSON values as JSON (a logged body, a response). */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return JSON.stringify(value) ?? String(value);
}

/**
 * Whether `needle`, normalised, stands in `haystack`, normalised, as whole words: `5` is not in `15`, `52` not in
 * `52.99`, `cat` not in `category` (MiniWeb's plain substring test says yes to all three). `null` when the needle has
 * no letter or digit: it asserts nothing.
 */
export function containsWords(haystack: unknown, needle: unknown): boolean | null {
  const core = mwNorm(needle).replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  if (!core) return null;
  const source = `(?<![\\p{L}\\p{N}]|\\p{N}\\.)${escapeRegex(core)}(?![\\p{L}\\p{N}]|\\.\\p{N})`;
  return new RegExp(source, 'u').test(mwNorm(haystack));
}

const NUMBER_ALONE = [
  /^[-+$€£¥]?\s*\d{1,3}(?:,\d{3})*(?:\.\d+)?\s*[a-zA-Z%/]{0,6}$/,
  /^[-+$€£¥]?\s*\d+(?:\.\d+)?\s*[a-zA-Z%/]{0,6}$/,
];

/**
 * The number a text essentially is, as MiniWeb's `_numeric_value` reads it (`80`, `$52`, `388.013581`, `52 mph`,
 * `1,240`), else null (`Cascade Kitchen`, `2026-07-15`, `ORD-123`). A JSON number is itself.
 */
export function numericValue(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const t = value.trim();
  if (!t || !NUMBER_ALONE.some((r) => r.test(t))) return null;
  const m = /-?\d[\d,]*(?:\.\d+)?/.exec(t);
  const n = m ? Number(m[0].replace(/,/g, '')) : NaN;
  return Number.isFinite(n) ? n : null;
}

/** MiniWeb's `_num_close`: within 1% (at least 0.01), or equal once rounded to an integer (Python's rounding). */
export function numClose(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.max(0.01, Math.abs(a) * 0.01) || pyRound(a) === pyRound(b);
}

/**
 * How far a written number of the answer may be from an expected one: a computed value with more than two decimals
 * (`388.013581`) may be given rounded to the precision the answer writes (`388`, `388.01`); a value written to the
 * cent or less (`99.99`, `52`) must be given as it is. MiniWeb's 1% would take `$99` for `$99.99`.
 */
export function roundingTolerance(expected: number, answer: string): number {
  const decimals = (String(expected).split('.')[1] ?? '').length;
  if (decimals <= 2) return 0;
  let tolerance = 0;
  for (const m of answer.matchAll(/-?\$?\d[\d,]*(?:\.(\d+))?/g)) {
    const x = Number(m[0].replace(/[,$]/g, ''));
    const k = m[1]?.length ?? 0;
    if (k < decimals && Math.abs(pyRound(expected, k) - x) < 1e-9) tolerance = Math.max(tolerance, Math.abs(x - expected) + 1e-9);
  }
  return tolerance;
}

/** Whether an expected text holds a MiniWeb template placeholder (`#ORD-{YYYYMMDD}-001`). */
export const hasPlaceholder = (expected: string): boolean => /\{[^}]*\}/.test(expected);

/**
 * A template with placeholders as a pattern, as MiniWeb matches it (punctuation and spacing ignored, so
 * `#ORD-{YYYYMMDD}-001` matches `ORD-20260810-001`), each placeholder one run of letters and digits, bounded by
 * non-alphanumerics. Null when the template has no letter or digit outside its placeholders: it asserts nothing.
 */
export function placeholderPattern(expected: string): RegExp | null {
  const pieces: string[] = [];
  let literal = false;
  for (const part of expected.toLowerCase().split(/(\{[^}]*\})/)) {
    if (/^\{[^}]*\}$/.test(part)) {
      pieces.push('[a-z0-9]+');
      continue;
    }
    const tokens = part.match(/[a-z0-9]+/g) ?? [];
    if (tokens.length) literal = true;
    pieces.push(...tokens.map(escapeRegex));
  }
  return literal ? new RegExp(`(?<![a-z0-9])${pieces.join('[^a-z0-9]*')}(?![a-z0-9])`, 'i') : null;
}

/**
 * Alternatives as a list: a list as given; a text (task.json's textarea, "one per line") split on new lines and `;`,
 * not on commas as MiniWeb's `qa_answer` does (`1,240` and `Paris, France` are one answer each). MiniWeb's
 * `answer_matches` iterates a text's characters, which accepts any answer holding one of its letters.
 */
export function alternativesOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value.map((v) => pyStr(v)) : typeof value === 'string' ? value.split(/[\n;]/) : [];
  return list.map((s) => s.trim()).filter(Boolean);
}

const NEGATIONS = new Set(['not', 'no', 'never', 'none', 'neither', 'nor', 'cannot', 'nothing', 'nobody']);
const wordsOf = (s: string): string[] => s.toLowerCase().replace(/’/g, "'").match(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu) ?? [];
const isNegation = (w: string): boolean => NEGATIONS.has(w) || w.endsWith("n't");

/**
 * The negation in the sentence that states the value (`It is not $99.99.`, `$99.99 is not the price`), else null. A
 * negation the question or the expected value itself holds with the word after it (`Which item is not in stock?` and
 * `the item not in stock is…`; expected `not shipped`) does not count; the same word before another one does (`It is
 * not $99.99` for `Which item is not on sale?`). A sentence ends at `.`, `;`, `!`, `?` before a space, or a new line
 * (not inside `99.99`).
 */
export function denial(answer: string, holds: (sentence: string) => boolean, exempt: readonly string[]): string | null {
  const allowed = exempt.map((e) => ` ${wordsOf(e).join(' ')} `);
  const sentences = answer.split(/(?<=[.;!?])\s+|\n+/).filter((s) => s.trim());
  const stating = sentences.filter(holds);
  for (const sentence of stating.length ? stating : [answer]) {
    const words = wordsOf(sentence);
    const found = words.find((w, i) => isNegation(w) && !allowed.some((a) => a.includes(` ${[w, ...words.slice(i + 1, i + 2)].join(' ')} `)));
    if (found) return found;
  }
  return null;
}

// Python's quote_plus: letters, digits and `_.-~` kept, a space as `+`, every other UTF-8 byte as %XX.
function quotePlus(s: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(s)) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9_.~-]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A logged request's URL as MiniWeb's trajectory writes it: the path, and `?` with the query `urlencode`d. */
export function loggedUrl(path: unknown, query: unknown, encode = true): string {
  const base = typeof path === 'string' ? path : '';
  if (!query || typeof query !== 'object' || Array.isArray(query)) return base;
  const pairs = Object.entries(query as Record<string, unknown>).map(([k, v]) => (encode ? `${quotePlus(k)}=${quotePlus(pyStr(v))}` : `${k}=${pyStr(v)}`));
  return pairs.length ? `${base}?${pairs.join('&')}` : base;
}
