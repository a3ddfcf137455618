/**
 * What an answer asserts: an answer passes only when it parses, by a short grammar of asserting frames, into a frame and
 * one value, and the value is the expected one. The grammar is built from what must hold; whatever it does not parse
 * fails, and the failure is then named (a denial, a question, a hedge...) only to say why.
 *
 * An answer is `Lead? Prefix VALUE Suffix` or `VALUE Back`, after trimming, unwrapping quotes or bold, and dropping a
 * final `.` or `!`:
 * - **Lead**: `OK,` `So,` `Sure,` `According to the site,` ...
 * - **Prefix**: nothing; `<subject>:` (`Price:`, `The answer is:`); or `<subject> <verb> <post>` where the verb asserts
 *   (`is`, `are`, `was`, `'s`, `costs`, `has`, `totals`, `comes to`, `shows`...) and the post is at most three of `by`,
 *   `to`, `on`, `at`, `made`, `sent`, `due`, `exactly`... (`It is`, `The brand is`, `There are`, `It is made by`).
 * - **Suffix**: for a number, an optional scale (`out of 10`, `/10` where the question asks a rating) and a unit of at
 *   most four words (`reviews`, `left in stock`, `% APY`); then an optional phrase `for|of|on|in|at|with <subject>`
 *   and an optional attribution (`, according to the site`).
 * - **Back**: `is|was the <subject>` (`Mohr Supply is the supplier`) or `makes|sells|sent|wrote... <object>`.
 * - **Yes and no**: the word first, then any clause that neither hedges, asks, nor (after a yes) denies.
 * - **Several values asked** (a list asked for): every expected value once, joined by `,`, `;`, `&` or `and`.
 *
 * Subjects are plain words (and tokens the question itself names: `order #1042`, `Kettle 2000`), at most twelve, none
 * of the words that deny, hedge, approximate, offer an alternative or disown the value (`not`, `about`, `or`, `old`...)
 * unless the question uses it. No other value of the kind asked may stand anywhere in the answer.
 * @module
 */
import { dateSpans, isIsoDate, numberSpans } from './assert-values';
import { escapeRegex, near, norm } from './values';

/** What the grammar checks an answer against. */
export type AssertTarget =
  | { readonly kind: 'number'; readonly value: number; readonly tolerance: number }
  | { readonly kind: 'texts'; readonly values: readonly string[] }
  | { readonly kind: 'pattern'; readonly pattern: RegExp };

/** The context of an answer: the question, and the rivals of the kind asked that a text of the answer holds. */
export interface AssertContext {
  readonly question: string;
  /** The other values of the kind asked written in a part of the answer (the site's other brands, dates, e-mails). */
  readonly rivals: (text: string) => readonly string[];
}

/** The verdict: passed with its frame, or failed with the family it falls in. */
export interface Assertion {
  readonly ok: boolean;
  readonly detail: string;
}

const DENIALS = ['not', 'no', 'never', 'none', 'neither', 'nor', 'nothing', 'nobody', 'cannot', 'without', 'isnt', 'wasnt', 'arent', 'werent', 'dont', 'doesnt', 'didnt', 'cant', 'wont', 'hasnt', 'havent', 'false', 'wrong', 'incorrect'];
const HEDGES = [
  'about', 'around', 'approximately', 'approx', 'roughly', 'nearly', 'almost', 'circa', 'ca', 'maybe', 'perhaps', 'possibly', 'probably', 'likely',
  'unlikely', 'might', 'may', 'could', 'would', 'should', 'seems', 'seem', 'seemed', 'appears', 'appear', 'guess', 'think', 'thought', 'believe',
  'suppose', 'assume', 'estimate', 'estimated', 'close', 'ish', 'somewhere', 'some', 'something', 'unsure', 'unclear', 'unknown', 'if',
  'unless', 'whether', 'over', 'under', 'above', 'below', 'up', 'than', 'less', 'more', 'fewer', 'least', 'most', 'upwards', 'range', 'ranges',
  'ranging', 'plus', 'minus', 'rounded', 'guessed', 'usually', 'typically', 'normally', 'sometimes', 'often', 'expected', 'supposed', 'allegedly', 'hmm',
  'supposedly', 'reportedly', 'apparently', 'presumably', 'arguably', 'seemingly', 'thereabouts', 'tops', 'max', 'maximum', 'min', 'minimum', 'odd', 'ballpark', 'give',
];
const ALTERNATIVES = ['or', 'either', 'vs', 'versus', 'between', 'rather', 'instead', 'alternatively', 'else', 'but', 'except', 'though', 'although', 'however'];
const DISOWNING = ['old', 'previous', 'previously', 'former', 'formerly', 'original', 'originally', 'used', 'other', 'another', 'different', 'second', 'last', 'next'];
const BARRED = new Set([...DENIALS, ...HEDGES, ...ALTERNATIVES, ...DISOWNING]);

const VERBS = new Set(["'s", 'is', 'are', 'was', 'were', 'costs', 'cost', 'has', 'have', 'had', 'totals', 'totaled', 'totalled', 'equals', 'shows', 'reads', 'says', 'lists']);
const VERB_PAIRS = new Set(['comes to', 'came to', 'amounts to', 'stands at', 'sits at', 'adds up']);
const POST = new Set([
  'by', 'to', 'on', 'for', 'in', 'at', 'from', 'of', 'as', 'the', 'a', 'an', 'exactly', 'currently', 'now', 'still', 'just', 'only', 'made', 'sent', 'led',
  'assigned', 'due', 'scheduled', 'set', 'written', 'reported', 'filed', 'owned', 'created', 'posted', 'sold', 'supplied', 'manufactured', 'listed',
  'priced', 'shown', 'marked', 'labeled', 'labelled', 'called', 'named', 'organized', 'organised', 'hosted', 'located', 'held', 'booked', 'routed',
  'shipped', 'delivered', 'rated', 'dated', 'billed', 'charged', 'paid', 'handled', 'managed', 'run', 'signed', 'approved', 'opened', 'closed', 'given',
]);
const BACK_VERBS = new Set(['makes', 'made', 'sells', 'sold', 'sent', 'wrote', 'leads', 'led', 'owns', 'owned', 'manufactures', 'supplies', 'supplied', 'reported', 'filed', 'created', 'posted', 'organizes', 'organized', 'hosts', 'hosted', 'does', 'did']);
const BACK_DETERMINERS = new Set(['the', 'its', 'their', 'his', 'her', 'our', 'your', 'this', 'that', 'my']);
// What a report says a thing became (`Order #1042 placed`), and the nouns that label a value without a colon (`total $12`).
const STATES = new Set(['placed', 'shipped', 'sent', 'created', 'booked', 'cancelled', 'canceled', 'confirmed', 'done', 'completed', 'submitted', 'saved', 'added', 'updated', 'deleted', 'paid', 'delivered', 'scheduled', 'approved', 'archived', 'moved', 'renamed', 'posted', 'closed', 'opened', 'removed', 'starred', 'sold']);
const LABELS = new Set(['total', 'subtotal', 'price', 'cost', 'balance', 'amount', 'status', 'answer', 'result', 'count', 'rating', 'due']);
const PREPOSITIONS = new Set(['for', 'of', 'on', 'in', 'at', 'with', 'from', 'per', 'to']);
const UNIT_STOP = new Set(['is', 'are', 'was', 'were', 'be', 'been', "'s", 'it', 'this', 'that', 'which', 'who', 'i', 'you', 'we', 'they', 'he', 'she', 'and', 'the', 'a', 'an']);
const CONTRACTED = new Set(['it', 'that', 'there', 'this', 'what', 'here', 'he', 'she', 'who']);
const YES_NO: Readonly<Record<string, boolean>> = { yes: true, no: false, true: true, false: false };

const LEAD = /^(?:(?:ok|okay|so|sure|well|alright|done|found it)[,!:]?\s+|(?:according to|per|as per|based on|from|on)\s+(?:the\s+|its\s+|this\s+|their\s+)?(?:[\p{L}'-]+\s+){0,3}[\p{L}'-]+,\s*)/iu;
const ATTRIBUTION = /(?:,\s*|\s+)(?:according to|as (?:shown|listed|stated|given) (?:on|in)|as per|per|based on)\s+(?:the\s+|its\s+|this\s+|their\s+)?(?:[\p{L}'-]+\s+){0,3}[\p{L}'-]+$|,?\s+as (?:shown|listed|stated)$/iu;
// A time adverb closing the sentence (`not shipped yet`, `in stock right now`).
const NOW = /(?:^|\s+)(?:yet|now|right now|currently|today|already|still|at the moment|at present|so far)$/i;
const PLAIN = /^[\p{L}][\p{L}\p{M}'-]*$/u;

/** Whether the answer asserts the target (see the module notes). */
export function assertion(answer: string, target: AssertTarget, context: AssertContext): Assertion {
  const text = clean(answer);
  const quoted = JSON.stringify(answer.length > 120 ? `${answer.slice(0, 120)}…` : answer);
  const q = questionWords(context.question);
  const spans = valueSpans(text, target);
  const others = spans.filter((s) => !s.right);
  const what = describe(target);
  for (const value of spans.filter((s) => s.right)) {
    const prefix = text.slice(0, value.start).replace(/["'`*_#$€£]+$/, '');
    const suffix = text.slice(value.end).replace(/^["'`*_]+/, '');
    const frame = frameOf(prefix, suffix, target, q) ?? clauseFrame(text, value, target, q);
    if (!frame) continue;
    // The scale of a rating (`8.7 out of 10`) is no rival; a number the question names neither.
    const scale = (o: ValueSpan): boolean => q.rating && o.start >= value.end && /^\s*(?:\/|out of)\s*$/i.test(text.slice(value.end, o.start));
    const rivals = [...others.filter((o) => !scale(o) && !q.numbers.has(o.text)).map((o) => o.text), ...context.rivals(`${prefix} ${suffix}`)];
    if (rivals.length) return { ok: false, detail: `several values: ${quoted} asserts ${what} beside ${rivals.slice(0, 4).map((r) => JSON.stringify(r)).join(', ')}` };
    return { ok: true, detail: `asserts ${what}: ${quoted} (${frame})` };
  }
  const several = target.kind === 'texts' && target.values.length > 1 ? eachAsPredicate(text, target.values, context, q) : null;
  return several ?? { ok: false, detail: whyNot(text, quoted, what, spans, q) };
}

// Several values asked and no list of them: one of them is the frame's value, the others stand in its subject, each once
// (`Order #1042 placed` for `order #1042` and `placed`).
function eachAsPredicate(text: string, values: readonly string[], context: AssertContext, q: QuestionWords): Assertion | null {
  if (values.some((v) => occurrences(text, v.replace(/[.!]+$/, '')).length !== 1)) return null;
  for (const v of values) {
    const rest = values.filter((x) => x !== v);
    const words = new Set([...q.words, ...rest.flatMap((x) => tokens(x))]);
    const got = assertion(text, { kind: 'texts', values: [v] }, { question: [...words].join(' '), rivals: context.rivals });
    if (got.ok) return { ok: true, detail: `${got.detail}, beside ${rest.map((x) => JSON.stringify(x)).join(', ')}` };
  }
  return null;
}

// The value asserted in one clause of a few (`Order #1042 placed, total $1,234.50`): the value's clause is a frame,
// and every other clause is one that asserts nothing of the kind asked (plain words with a verb, no barred word).
function clauseFrame(text: string, value: ValueSpan, target: AssertTarget, q: QuestionWords): string | null {
  const cuts = [...text.matchAll(/[,;]\s+/g)].filter((m) => m.index + m[0].length <= value.start || m.index >= value.end);
  if (!cuts.length) return null;
  const before = cuts.filter((m) => m.index < value.start).pop();
  const after = cuts.find((m) => m.index >= value.end);
  const from = before ? before.index + before[0].length : 0;
  const to = after ? after.index : text.length;
  const side = [text.slice(0, before ? before.index : 0), text.slice(to)].flatMap((part) => part.split(/[,;]\s+/)).map((c) => c.trim()).filter(Boolean);
  // A value of another kind may stand in a side clause (`total $1,234.50` beside an order's number), not one of the kind asked.
  const otherKind = (w: string): boolean => target.kind !== 'number' && /^[$€£#]?[\d.,]+%?$/.test(w);
  const clean = (clause: string): boolean => {
    const words = tokens(clause);
    if (words.length < 2 || words.length > 12 || !words.every((w) => subjectWord(w, q) || VERBS.has(w) || otherKind(w))) return false;
    return words.some((w) => VERBS.has(w) || BACK_VERBS.has(w) || STATES.has(w)) || words.slice(0, -1).some((w) => LABELS.has(w));
  };
  if (!side.every(clean)) return null;
  const frame = frameOf(text.slice(from, value.start).replace(/["'`*_#]+$/, ''), text.slice(value.end, to).replace(/^["'`*_]+/, ''), target, q);
  return frame ? `${frame}, beside a clause` : null;
}

interface ValueSpan {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly right: boolean;
}

// Quotes, bold and a final full stop are no part of an assertion; whitespace counts as one space.
function clean(answer: string): string {
  let t = answer.replace(/[’‘]/g, "'").replace(/[“”]/g, '"').trim();
  for (let m = /^(["'`]|\*\*|__|\*)([\s\S]+)\1$/.exec(t); m; m = /^(["'`]|\*\*|__|\*)([\s\S]+)\1$/.exec(t)) t = m[2]!.trim();
  return t.replace(/[ \t]+/g, ' ').replace(/\s*[.!]+$/, '');
}

interface QuestionWords {
  readonly words: ReadonlySet<string>;
  readonly numbers: ReadonlySet<string>;
  readonly rating: boolean;
}

function questionWords(question: string): QuestionWords {
  const words = new Set((norm(question).replace(/[’‘]/g, "'").match(/[^\s,;:!?()"]+/g) ?? []).map((w) => w.replace(/[.']+$/, '')));
  const numbers = new Set(numberSpans(question).map((s) => question.slice(s.start, s.end)));
  return { words, numbers, rating: /\b(?:rat(?:ing|ed)|score[ds]?|stars?|out of)\b/i.test(question) };
}

// Every value of the kind asked in the text, marked right where it is the expected one.
function valueSpans(text: string, target: AssertTarget): ValueSpan[] {
  const span = (start: number, end: number, right: boolean): ValueSpan => ({ start, end, text: text.slice(start, end), right });
  if (target.kind === 'number') {
    return numberSpans(text).map((s) => span(s.start, s.end, near(s.value, { number: target.value, tolerance: target.tolerance })));
  }
  if (target.kind === 'pattern') {
    const found = [...text.matchAll(new RegExp(target.pattern.source, 'gi'))].filter((m) => m[0].trim());
    const distinct = new Set(found.map((m) => norm(m[0])));
    return found.map((m) => span(m.index, m.index + m[0].length, distinct.size === 1));
  }
  if (target.values.length > 1) return listSpan(text, target.values, span);
  const want = target.values[0]!.replace(/[.!]+$/, '');
  if (isIsoDate(want)) return dateSpans(text).map((s) => span(s.start, s.end, s.value === want.trim()));
  return occurrences(text, want).map(([start, end]) => span(start, end, true));
}

// The whole-word occurrences of a text, case-folded, any run of whitespace for a space.
function occurrences(text: string, value: string): Array<[number, number]> {
  const source = norm(value).split(' ').map(escapeRegex).join('\\s+');
  const re = new RegExp(`(?<![\\p{L}\\p{N}])${source}(?![\\p{L}\\p{N}])`, 'giu');
  return [...text.matchAll(re)].map((m) => [m.index, m.index + m[0].length]);
}

// Several values asked: the span of the list that names each of them once, joined by `,` `;` `&` or `and`.
function listSpan(text: string, values: readonly string[], span: (s: number, e: number, right: boolean) => ValueSpan): ValueSpan[] {
  const found = values.map((v) => occurrences(text, v.replace(/[.!]+$/, '')));
  if (found.some((f) => f.length !== 1)) return [];
  const items = found.map((f) => f[0]!).sort((a, b) => a[0] - b[0]);
  const joined = items.slice(1).every((item, i) => /^\s*(?:,|;|&|,?\s+and)\s*$/i.test(text.slice(items[i]![1], item[0])));
  return joined ? [span(items[0]![0], items[items.length - 1]![1], true)] : [];
}

// The frame an answer's value stands in, or null (see the module notes).
function frameOf(prefix: string, suffix: string, target: AssertTarget, q: QuestionWords): string | null {
  const before = prefix.trim();
  const after = suffix.trim();
  const yesNo = target.kind === 'texts' && target.values.length === 1 ? YES_NO[norm(target.values[0]!)] : undefined;
  const lead = before.replace(LEAD, '').replace(LEAD, '');
  if (!lead && !after) return 'the value';
  if (yesNo !== undefined && !lead && yesNoClause(after, yesNo)) return 'yes or no, then a clause';
  const front = frontPrefix(lead, q);
  if (front && suffixOk(after, target, q)) return front;
  if (!after && reported(lead, target)) return '<thing> X (a report: `Order #1042 placed`)';
  // The value first, or after the noun it names (`Order #1042 placed`).
  const named = tokens(lead);
  return named.length <= 3 && named.every((w) => PLAIN.test(w) && !barred(w) && !VERBS.has(w)) ? backSuffix(after, q) : null;
}

// A report of what a thing became: a state word after the short noun phrase naming the thing (`Order #1042 placed`).
function reported(lead: string, target: AssertTarget): boolean {
  if (target.kind !== 'texts' || target.values.length !== 1 || !STATES.has(norm(target.values[0]!))) return false;
  // The thing is named by its id, last: `Order #1042`, `Issue DSH-17`, `the booking BK-220`.
  const words = tokens(lead);
  const id = words[words.length - 1] ?? '';
  const nouns = words.slice(0, -1);
  return /^#?[\p{L}\p{N}-]*\p{N}[\p{L}\p{N}-]*$/u.test(id) && nouns.length >= 1 && nouns.length <= 3 && nouns.every((w) => PLAIN.test(w) && !barred(w) && !VERBS.has(w) && !POST.has(w) && !UNIT_STOP.has(w) || w === 'the');
}

function tokens(s: string): string[] {
  return s.trim().split(/\s+/).filter(Boolean).flatMap((t) => {
    const m = /^(\p{L}+)'s$/u.exec(t);
    return m && CONTRACTED.has(m[1]!.toLowerCase()) ? [m[1]!.toLowerCase(), "'s"] : [t.toLowerCase()];
  });
}

// A word that denies, hedges, offers an alternative or disowns the value, itself or a part of it (`reviews-ish`).
const barred = (w: string): boolean => w.replace(/'/g, '').split('-').some((part) => BARRED.has(part));

// A word of a subject: a plain word that does not deny, hedge or disown (unless the question uses it), or a token the question names.
function subjectWord(t: string, q: QuestionWords): boolean {
  if (barred(t)) return q.words.has(t);
  if (PLAIN.test(t)) return true;
  return t === '&' || q.words.has(t);
}

function frontPrefix(prefix: string, q: QuestionWords): string | null {
  if (!prefix) return 'the value';
  if (prefix.endsWith(':')) {
    const words = tokens(prefix.slice(0, -1));
    return words.length >= 1 && words.length <= 12 && words.every((w) => subjectWord(w, q) || VERBS.has(w)) ? '<subject>: X' : null;
  }
  const words = tokens(prefix);
  if (LABELS.has(words[words.length - 1]!) && words.every((w) => subjectWord(w, q))) return '<label> X';
  let verb = -1;
  let width = 1;
  for (let i = words.length - 1; i >= 0 && verb < 0; i--) {
    if (VERBS.has(words[i]!)) verb = i;
    else if (i + 1 < words.length && VERB_PAIRS.has(`${words[i]} ${words[i + 1]}`)) [verb, width] = [i, 2];
  }
  if (verb < 0) return null;
  const subject = words.slice(0, verb);
  const post = words.slice(verb + width);
  // A copula needs its subject (`Is $99.99` asks); `Costs $99.99` and `Has 3 reviews` need none.
  if (subject.length === 0 && ['is', 'are', 'was', 'were', "'s"].includes(words[verb]!)) return null;
  if (subject.length > 12 || !subject.every((w) => subjectWord(w, q))) return null;
  if (post.length > 3 || !post.every((w) => POST.has(w))) return null;
  return `<subject> ${words.slice(verb, verb + width).join(' ')}${post.length ? ` ${post.join(' ')}` : ''} X`;
}

function suffixOk(suffix: string, target: AssertTarget, q: QuestionWords): boolean {
  const rest = suffix.replace(ATTRIBUTION, '').replace(NOW, '').trim();
  if (!rest) return true;
  const words = tokens(rest);
  let i = 0;
  if (target.kind === 'number' && q.rating) {
    if (/^\/\d+(?:\.\d+)?$/.test(words[0]!)) i = 1;
    else if (words[0] === 'out' && words[1] === 'of' && /^\d+(?:\.\d+)?$/.test(words[2] ?? '')) i = 3;
  }
  if (target.kind === 'number') {
    const start = i;
    while (i < words.length && i - start < 4 && (words[i] === '%' || (PLAIN.test(words[i]!) && !UNIT_STOP.has(words[i]!) && !barred(words[i]!) && !PREPOSITIONS.has(words[i]!)))) i++;
    // `in stock`, `in total`: a unit may end in a preposition's phrase too, read below.
  }
  if (i === words.length) return true;
  if (!PREPOSITIONS.has(words[i]!)) return false;
  const object = words.slice(i + 1);
  return object.length >= 1 && object.length <= 10 && object.every((w) => subjectWord(w, q));
}

function backSuffix(suffix: string, q: QuestionWords): string | null {
  const words = tokens(suffix.replace(ATTRIBUTION, ''));
  if (!words.length) return null;
  if (['is', 'was', 'are', 'were'].includes(words[0]!)) {
    const rest = words.slice(2);
    const ok = BACK_DETERMINERS.has(words[1] ?? '') && rest.length >= 1 && rest.length <= 10 && rest.every((w) => subjectWord(w, q));
    return ok ? `X ${words[0]} the <subject>` : null;
  }
  if (words.length === 1 && STATES.has(words[0]!)) return `X ${words[0]}`;
  const object = words.slice(1);
  return BACK_VERBS.has(words[0]!) && object.length <= 10 && object.every((w) => subjectWord(w, q)) ? `X ${words[0]} <object>` : null;
}

// `Yes, it shipped.`, `No, it has not shipped.`: the word, then a clause that neither asks, hedges nor offers another value.
function yesNoClause(suffix: string, positive: boolean): boolean {
  if (!suffix) return true;
  const m = /^[,;:—–-]?\s*([\p{L}\p{N}' ,#.$-]*)$/u.exec(suffix);
  if (!m) return false;
  const words = tokens(m[1]!.replace(/[,.]/g, ' '));
  return words.every((w) => {
    const bare = w.replace(/'/g, '');
    if (DENIALS.includes(bare) || w.endsWith("n't")) return !positive && !['false', 'wrong', 'incorrect'].includes(bare);
    return !HEDGES.includes(bare) && !ALTERNATIVES.includes(bare) && !['yes', 'no', 'true', 'false'].includes(bare);
  });
}

function describe(target: AssertTarget): string {
  if (target.kind === 'number') return `the number ${target.value}${target.tolerance ? ` ± ${target.tolerance}` : ''}`;
  if (target.kind === 'pattern') return `a match of /${target.pattern.source}/`;
  return target.values.map((v) => JSON.stringify(v)).join(' and ');
}

// Why an answer asserts no value: the first family its text falls in.
function whyNot(text: string, quoted: string, what: string, spans: readonly ValueSpan[], q: QuestionWords): string {
  const right = spans.filter((s) => s.right);
  const others = [...new Set(spans.filter((s) => !s.right && !q.numbers.has(s.text)).map((s) => s.text))];
  const words = tokens(text.replace(/[^\p{L}\p{N}'\s-]/gu, ' ')).map((w) => w.replace(/'/g, ''));
  const has = (list: readonly string[]): boolean => words.some((w) => list.includes(w) && !q.words.has(w));
  if (!right.length) return others.length ? `another value: ${quoted} asserts ${others.slice(0, 4).map((o) => JSON.stringify(o)).join(', ')}, not ${what}` : `no value: ${quoted} does not state ${what}`;
  if (/^\s*[{[]|"\s*:|<\w+[^>]*>/.test(text)) return `a structure: ${quoted} asserts no value (the value inside JSON or markup)`;
  if (/\n|^\s*(?:[-*•]|\d+[.)])\s|\|/.test(text)) return `a list: ${quoted} asserts no value (values in a list or table)`;
  if (text.includes('?')) return `a question: ${quoted} asserts no value`;
  if (others.length) return `alternatives: ${quoted} offers ${others.slice(0, 4).map((o) => JSON.stringify(o)).join(', ')} beside ${what}, not one value`;
  if (has(ALTERNATIVES)) return `alternatives: ${quoted} asserts no one value`;
  if (has(DENIALS) || /n't\b/i.test(text)) return `a denial: ${quoted} asserts no value`;
  if (has(HEDGES) || /[~≈]|-ish\b/i.test(text)) return `a hedge or an approximation: ${quoted} asserts no value`;
  if (has(DISOWNING)) return `a value disowned: ${quoted} does not assert ${what} as the answer`;
  return `not asserted: ${quoted} mentions ${what} but no asserting frame has it as its value`;
}
