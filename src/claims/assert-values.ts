/**
 * The values an answer can assert, read where they are written: numbers (numerals with thousands separators, signs,
 * currency symbols and codes, percent; numbers in words, `three`, `twenty-one`, `one hundred and five`, `no` before
 * a noun and `none` as 0) and dates (ISO, `March 14, 2025`, `14 March 2025`). Each is a span of the text with its value,
 * so that the asserting grammar (`assert.ts`) can check what stands around it.
 * @module
 */

/** A value written in a text, from `start` to `end` (code units). */
export interface Span<T> {
  readonly start: number;
  readonly end: number;
  readonly value: T;
}

// A numeral: an optional currency code or symbol (`USD`, `$`, `C$`, `€`), a sign, digits with or without thousands separators, decimals, an
// optional percent sign and currency code. Not inside a word or a longer numeral (`4B`, `2h`, `v1.2.3`).
const NUMERAL = /(?<![\p{L}\p{N}.,])(?:(?:USD|EUR|GBP|CAD|AUD|NZD|CHF|JPY|INR)\s?)?[-−]?(?:[A-Z]{1,2}\$|[$€£¥₹])?\s?[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s?%)?(?:\s?(?:USD|EUR|GBP|CAD|AUD|NZD|CHF|JPY|INR)\b)?(?![\p{L}\p{N}]|[.,]\d)/gu;

const UNITS: Readonly<Record<string, number>> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Readonly<Record<string, number>> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const SCALES: Readonly<Record<string, number>> = { hundred: 100, thousand: 1000, million: 1_000_000 };

/** The numbers written in a text, numerals and words, in order. */
export function numberSpans(text: string): Span<number>[] {
  const out: Span<number>[] = [];
  for (const m of text.matchAll(NUMERAL)) {
    const raw = m[0];
    const negative = /[-−]/.test(raw);
    const digits = raw.replace(/[^\d.]/g, '');
    const value = Number(digits) * (negative ? -1 : 1);
    if (Number.isFinite(value)) out.push({ start: m.index, end: m.index + raw.trimEnd().length, value });
  }
  out.push(...wordNumbers(text));
  return out.sort((a, b) => a.start - b.start);
}

type Part = 'unit' | 'teen' | 'tens' | 'hundred' | 'big';

// Numbers in words: a run of number words joined by spaces, hyphens or an `and` after a scale. A word that cannot
// follow the run (`three four`) starts a new number.
function wordNumbers(text: string): Span<number>[] {
  const out: Span<number>[] = [];
  let run: { start: number; end: number; total: number; current: number; last: Part } | null = null;
  const flush = (): void => {
    if (run) out.push({ start: run.start, end: run.end, value: run.total + run.current });
    run = null;
  };
  for (const m of text.matchAll(/\p{L}+/gu)) {
    const word = m[0].toLowerCase();
    const start = m.index;
    const end = start + m[0].length;
    const gap = run ? text.slice(run.end, start) : '';
    const joined = run !== null && (/^[ -]$/.test(gap) || /^ and $/i.test(gap));
    if (run && !joined) flush();
    const rest = text.slice(end);
    if (word === 'zero' || word === 'none' || (word === 'no' && /^ \p{L}/u.test(rest) && !/^ (?:longer|more|less|fewer|doubt|idea)\b/i.test(rest))) {
      flush();
      out.push({ start, end, value: 0 });
      continue;
    }
    // `one hundred and five`: an `and` after a scale joins the run when a number word follows.
    if (word === 'and' && run && (run.last === 'hundred' || run.last === 'big') && /^ (?:\p{L}+)/u.test(rest) && partOf(/^ (\p{L}+)/u.exec(rest)![1]!.toLowerCase(), '') !== null) continue;
    const part = partOf(word, rest);
    if (!part) {
      flush();
      continue;
    }
    if (run && (!follows(run.last, part) || (/ and /i.test(gap) && part !== 'unit' && part !== 'teen' && part !== 'tens'))) flush();
    if (!run) run = { start, end, total: 0, current: 0, last: part };
    const n = word === 'a' ? 1 : (UNITS[word] ?? TENS[word] ?? SCALES[word] ?? 0);
    if (part === 'hundred') run.current = (run.current || 1) * 100;
    else if (part === 'big') {
      run.total += (run.current || 1) * n;
      run.current = 0;
    } else run.current += n;
    run.end = end;
    run.last = part;
  }
  flush();
  return out;
}

function partOf(word: string, rest: string): Part | null {
  if (word === 'a') return /^ (?:hundred|thousand|million)\b/i.test(rest) ? 'unit' : null;
  if (word in UNITS) return UNITS[word]! >= 10 ? 'teen' : 'unit';
  if (word in TENS) return 'tens';
  if (word === 'hundred') return 'hundred';
  if (word in SCALES) return 'big';
  return null;
}

// Which word may continue a number: `twenty` `one`, `one` `hundred`, `hundred` `five`, `thousand` `two`...
function follows(last: Part, next: Part): boolean {
  if (next === 'unit') return last === 'tens' || last === 'hundred' || last === 'big';
  if (next === 'teen' || next === 'tens') return last === 'hundred' || last === 'big';
  if (next === 'hundred') return last === 'unit' || last === 'teen';
  return last !== 'big';
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const WEEKDAY = '(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,? )?';
const DATES: readonly { re: RegExp; order: 'ymd' | 'mdy' | 'dmy' }[] = [
  { re: /(?<![\p{N}-])(\d{4})-(\d{2})-(\d{2})(?![\p{N}])/gu, order: 'ymd' },
  { re: new RegExp(`(?<![\\p{L}])${WEEKDAY}${MONTH} (\\d{1,2})(?:st|nd|rd|th)?,? (\\d{4})(?![\\p{N}])`, 'giu'), order: 'mdy' },
  { re: new RegExp(`(?<![\\p{L}\\p{N}])${WEEKDAY}(\\d{1,2})(?:st|nd|rd|th)? (?:of )?${MONTH},? (\\d{4})(?![\\p{N}])`, 'giu'), order: 'dmy' },
];

/** Whether a text is an ISO date (`2025-03-14`). */
export const isIsoDate = (s: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(s.trim());

/** The dates written in a text, as ISO dates. */
export function dateSpans(text: string): Span<string>[] {
  const out: Span<string>[] = [];
  for (const { re, order } of DATES) {
    for (const m of text.matchAll(re)) {
      const [a, b, c] = [m[1]!, m[2]!, m[3]!];
      const month = (s: string): string => (/^\d+$/.test(s) ? s : String(MONTHS.indexOf(s.slice(0, 3).toLowerCase()) + 1)).padStart(2, '0');
      const [y, mo, d] = order === 'ymd' ? [a, b, c] : order === 'mdy' ? [c, month(a), b] : [c, month(b), a];
      out.push({ start: m.index, end: m.index + m[0].length, value: `${y}-${mo}-${d.padStart(2, '0')}` });
    }
  }
  return out.sort((x, y) => x.start - y.start);
}
