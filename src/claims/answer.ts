/**
 * An answer checked as an answer: it passes only when it **asserts** the expected value, by the asserting grammar of
 * `assert.ts` (the value alone, `It is X`, `The <subject> is X`, `X <unit>`, `<subject>: X`, `X is the <subject>`...),
 * with exactly one candidate of the kind asked. One rule for hand-written verifiers' answer checks, claims' `{answer}`
 * and so every reward. Denials, questions, hedges, approximations, alternatives, lists, structures and values only
 * mentioned fall outside the grammar and fail.
 *
 * - **Exact**: the whole answer is the value (quotes and a final `.` aside).
 * - **Numbers** (numerals, words, currency, thousands separators, units): the one number the frame asserts is within
 *   the tolerance, and no other number is written, unless the question names it (`order 1043`) or it is the scale of
 *   a rating (`8.7 out of 10`).
 * - **Texts**: the frame's value is the expected text (a date in any of its notations; several values asked: each
 *   once, as a list); no other value of the kind asked stands in the answer: the other values of the site's columns
 *   that hold the expected value (read from the episode's start rows), values of the same shape (e-mail addresses,
 *   ISO dates, times, ids such as `DSH-17`), the other of yes and no. A rival the question names, one inside an
 *   expected value, or one made of expected values only does not count.
 * - **A pattern**: one text it matches, standing as the frame's value.
 * - **Short**: at most {@link ANSWER_SLACK} characters besides the expected values (a page dump is thousands).
 * @module
 */
import { assertion, type AssertTarget } from './assert';
import type { StartRows } from './start-rows';
import { escapeRegex, norm } from './values';

/** What an answer must state. */
export type AnswerWant =
  | { readonly kind: 'number'; readonly value: number; readonly tolerance?: number }
  | { readonly kind: 'includes'; readonly values: readonly string[] }
  | { readonly kind: 'exact'; readonly values: readonly string[] }
  | { readonly kind: 'pattern'; readonly pattern: RegExp };

/** What a competitor is judged against: the question asked and the site's rows at the episode's start. */
export interface AnswerContext {
  /** The task's instruction: numbers and values it names are not competitors, its words may stand in a subject. */
  readonly question?: string | null;
  /** The site's tables at the start (`start_rows.json`): where the other values of the asked kind are found. */
  readonly start?: StartRows | null;
}

/** An answer's verdict and why. */
export interface AnswerDecision {
  readonly ok: boolean;
  readonly detail: string;
}

/** The most characters an answer may have besides its expected values: a sentence or two of phrasing. */
export const ANSWER_SLACK = 160;

// Shapes of values that come in kinds: another value of the same shape is a competing candidate.
const SHAPES: readonly RegExp[] = [
  /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, // e-mail
  /\b\d{4}-\d{2}-\d{2}\b/g, // ISO date
  /\b\d{1,2}:\d{2}(?:\s?[ap]m)?\b/gi, // time
  /\b[A-Z]{2,6}-\d+\b/g, // id such as DSH-17
];

const OPPOSITES: Readonly<Record<string, string>> = { yes: 'no', no: 'yes', true: 'false', false: 'true' };

/** Decides an answer (see the module notes). */
export function decideAnswer(answer: string | null | undefined, want: AnswerWant, context: AnswerContext = {}): AnswerDecision {
  const quoted = answer ? JSON.stringify(answer.length > 120 ? `${answer.slice(0, 120)}…` : answer) : '(no answer)';
  if (!answer || !answer.trim()) return { ok: false, detail: 'no answer' };
  const stated = statedParts(want);
  const extra = [...answer].length - stated.reduce((n, s) => n + [...s].length, 0);
  if (extra > ANSWER_SLACK) return { ok: false, detail: `the answer is ${[...answer].length} characters, far more than the fact needs: ${quoted}` };
  const question = context.question ?? '';
  if (want.kind === 'exact') {
    const bare = (s: string): string => norm(s).replace(/^["'`]+|["'`]+$/g, '').replace(/[.!]+$/, '');
    const ok = want.values.some((v) => bare(v) === bare(answer));
    return { ok, detail: ok ? `the answer is ${quoted}` : `the answer ${quoted} is not ${want.values.map((v) => JSON.stringify(v)).join(' or ')}` };
  }
  const target: AssertTarget = want.kind === 'number'
    ? { kind: 'number', value: want.value, tolerance: want.tolerance ?? 0 }
    : want.kind === 'pattern' ? want : { kind: 'texts', values: want.values };
  const values = want.kind === 'includes' ? want.values : [];
  return assertion(answer, target, { question, rivals: (text) => competitors(text, values, question, context.start ?? null) });
}

function statedParts(want: AnswerWant): readonly string[] {
  if (want.kind === 'number') return [String(want.value)];
  if (want.kind === 'pattern') return [];
  return want.values;
}

// The other candidates of the asked kind that the answer states, besides the expected values.
function competitors(answer: string, values: readonly string[], question: string, start: StartRows | null): string[] {
  const want = values.map(norm);
  const got = norm(answer);
  const q = norm(question);
  // A rival inside an expected value, made of expected values only ("3d-printing, filament"), or named by the
  // question, is no competitor.
  const leftover = (c: string): string => want.reduce((rest, w) => rest.split(w).join(' '), c).replace(/[\s,;/&|+.-]+|\band\b/g, '');
  const counts = (c: string): boolean => c.length > 0 && !want.some((w) => w.includes(c)) && leftover(c) !== '' && !q.includes(c);
  const out = new Set<string>();
  for (const w of want) {
    const opposite = OPPOSITES[w];
    if (opposite !== undefined && counts(opposite) && wordIn(got, opposite)) out.add(opposite);
  }
  for (const shape of SHAPES) {
    if (!want.some((w) => new RegExp(`^(?:${shape.source})$`, 'i').test(w))) continue;
    for (const m of got.matchAll(new RegExp(shape.source, 'gi'))) if (counts(norm(m[0]))) out.add(norm(m[0]));
  }
  for (const c of columnRivals(want, start)) if (counts(c) && wordIn(got, c)) out.add(c);
  return [...out];
}

// Whether a phrase stands as whole words in the text.
function wordIn(text: string, phrase: string): boolean {
  return new RegExp(`(?:^|[^\\p{L}\\p{N}])${escapeRegex(phrase)}(?:$|[^\\p{L}\\p{N}])`, 'u').test(text);
}

// The site's values that are rivals of the expected ones: the other values of every text column holding one of them
// (a date also as the beginning of a timestamp, whose rivals are then the other timestamps' dates).
function columnRivals(want: readonly string[], start: StartRows | null): Set<string> {
  const out = new Set<string>();
  if (!start) return out;
  const holds = (cell: string, w: string): boolean => cell === w || (ISO_DATE.test(w) && cell.startsWith(w));
  for (const rows of Object.values(start)) {
    const columns = new Map<string, number>();
    for (const row of rows) {
      for (const [k, v] of Object.entries(row)) {
        const w = typeof v === 'string' ? want.find((x) => holds(norm(v), x)) : undefined;
        if (w !== undefined) columns.set(k, w.length);
      }
    }
    for (const [column, size] of columns) {
      for (const row of rows) {
        const v = row[column];
        if (typeof v !== 'string') continue;
        const full = norm(v);
        const n = size === 10 && ISO_DATE.test(full) ? full.slice(0, 10) : full;
        if (n.length >= 2 && n.length <= 80) out.add(n);
      }
    }
  }
  return out;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;
