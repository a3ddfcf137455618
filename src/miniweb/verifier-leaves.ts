/**
 * The answer, reasoning and page checks of a MiniWeb verifier: `answer_matches`, `qa_answer`, `reasoning_contains`,
 * `answer_grounded`, `page_visited`, `action_included`. Each reads only what it is given; a parameter `{open: true}`,
 * null or empty is not asserted (as MiniWeb's `arg()`).
 * @module
 */
import { decideAnswer, ANSWER_SLACK, type AnswerWant } from '../claims/answer';
import { near, numbersIn } from '../claims/values';
import { cpLength } from '../core/py/text';
import { pyStr } from '../core/py/repr';
import { isOpen, type MiniwebAnswerMode, type MiniwebLeafOf } from './verifier-schema';
import { show, type LeafContext, type LeafOutcome } from './verifier-input';
import { alternativesOf, containsWords, denial, hasPlaceholder, mwNorm, numericValue, placeholderPattern, roundingTolerance } from './verifier-text';

/** Whether a parameter asserts something: given, not open, not empty (a dict: some field not open). */
export function given(value: unknown): boolean {
  if (value === null || value === undefined || isOpen(value)) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  // A dict of fields asserts something only if some field does.
  if (typeof value === 'object') return Object.values(value).some((v) => !isOpen(v));
  return true;
}

/** A parameter's value, or undefined when it asserts nothing. */
export const arg = <T>(value: T | null | undefined): Exclude<T, { open: true }> | undefined => (given(value) ? (value as Exclude<T, { open: true }>) : undefined);

/** The values a check accepts: `expected` and its alternatives, as texts (numbers as JSON writes them). */
export function candidatesOf(leaf: { expected?: unknown; alternatives?: unknown }): string[] {
  const expected = arg(leaf.expected);
  const alternatives = arg(leaf.alternatives);
  const all = [...(expected === undefined ? [] : [pyStr(expected)]), ...alternativesOf(alternatives)];
  return [...new Set(all.map((c) => c.trim()).filter(Boolean))];
}

const listed = (values: readonly string[]): string => values.map((v) => show(v)).join(' or ');

// One candidate against the answer by the project's answer rule: `judgeable` when the answer does not state it at all
// (another phrasing the judge may recognise), never when it states it and fails for a gaming reason.
interface Strict {
  readonly ok: boolean;
  readonly detail: string;
  readonly judgeable: boolean;
}

function strictAnswer(answer: string, candidate: string, mode: MiniwebAnswerMode, ctx: LeafContext): Strict | null {
  let want: AnswerWant;
  let holds: (text: string) => boolean;
  const number = numericValue(candidate);
  if (hasPlaceholder(candidate)) {
    const pattern = placeholderPattern(candidate);
    if (!pattern) return null;
    want = { kind: 'pattern', pattern };
    holds = (text) => pattern.test(text);
  } else if (number !== null) {
    const target = { number, tolerance: roundingTolerance(number, answer) };
    want = { kind: 'number', value: number, tolerance: target.tolerance };
    holds = (text) => numbersIn(text).some((x) => near(x, target));
  } else {
    if (containsWords(candidate, candidate) === null) return null;
    want = { kind: mode === 'exact' ? 'exact' : 'includes', values: [candidate] };
    holds = (text) => containsWords(text, candidate) === true;
  }
  const tooLong = cpLength(answer) - cpLength(candidate) > ANSWER_SLACK;
  if (!holds(answer)) {
    return { ok: false, detail: `${show(candidate)} is not stated in the answer ${show(answer)}`, judgeable: !tooLong };
  }
  const denied = denial(answer, holds, [ctx.input.question, candidate]);
  if (denied) return { ok: false, detail: `the answer ${show(answer)} denies ${show(candidate)} ("${denied}"): a denial is no answer`, judgeable: false };
  const decided = decideAnswer(answer, want, { question: ctx.input.question, start: ctx.input.start ?? null });
  return { ok: decided.ok, detail: decided.detail, judgeable: false };
}

/**
 * The agent's reported answer states one of the candidates, by the project's answer rule (stated, no competing
 * candidate, short, not denied); with mode `fuzzy`, an answer that states none of them in these words goes to the
 * judge. No answer fails (MiniWeb's `qa_answer` without `leaf` falls back to the reasoning, which passes a human's
 * missing one: an agent could then skip answering).
 */
export async function checkAnswer(leaf: { expected?: unknown; alternatives?: unknown; mode?: unknown }, defaultMode: MiniwebAnswerMode, ctx: LeafContext): Promise<LeafOutcome> {
  const candidates = candidatesOf(leaf);
  const mode = (arg(leaf.mode) as MiniwebAnswerMode | undefined) ?? defaultMode;
  const answer = ctx.input.answer;
  if (!answer || !answer.trim()) return { ok: false, detail: 'no answer' };
  const results = candidates.map((c) => strictAnswer(answer, c, mode, ctx)).filter((r): r is Strict => r !== null);
  if (!results.length) return { ok: false, detail: `asserts nothing: no expected value with a letter or digit (${listed(candidates)})` };
  const passed = results.find((r) => r.ok);
  if (passed) return { ok: true, detail: passed.detail };
  const why = results.map((r) => r.detail).join('; ');
  if (mode !== 'fuzzy' || !results.every((r) => r.judgeable)) return { ok: false, detail: why };
  return judged(ctx, 'reported answer', candidates, answer, why);
}

/**
 * The agent's final reasoning reaches one of the candidates: it holds one (normalised, whole words), or with mode
 * `fuzzy` the judge says so. No reasoning is undecided: MiniWeb passes it as a human's perfect trace, which would pay
 * an agent that records none.
 */
export async function checkReasoning(leaf: { expected?: unknown; alternatives?: unknown; mode?: unknown }, ctx: LeafContext): Promise<LeafOutcome> {
  const candidates = candidatesOf(leaf);
  const mode = (arg(leaf.mode) as MiniwebAnswerMode | undefined) ?? 'fuzzy';
  const reasoning = ctx.input.reasoning;
  if (!reasoning || !reasoning.trim()) return { ok: null, detail: 'undecided: no reasoning was recorded (MiniWeb would pass it as a perfect trace)' };
  const found = candidates.find((c) => containsWords(reasoning, c) === true);
  if (found) return { ok: true, detail: `the final reasoning holds ${show(found)}` };
  const why = `the final reasoning holds none of ${listed(candidates)}`;
  if (mode !== 'fuzzy') return { ok: false, detail: why };
  return judged(ctx, 'final reasoning', candidates, reasoning, why);
}

async function judged(ctx: LeafContext, kind: string, candidates: readonly string[], text: string, strict: string): Promise<LeafOutcome> {
  const expected = candidates.length === 1 ? candidates[0]! : `${candidates[0]} (also accepted: ${candidates.slice(1).join('; ')})`;
  const decision = await ctx.ask(kind, expected, text);
  if (!decision) return { ok: null, detail: `undecided: ${strict}, and no judge was given to read another phrasing` };
  return { ok: decision.match, detail: `${strict}; the judge says ${decision.match ? 'it does' : 'it does not'}: ${decision.why}` };
}

/** `qa_answer`: the reasoning for a chained macro (`leaf: false`), else the reported answer. */
export function checkQaAnswer(leaf: MiniwebLeafOf<'qa_answer'>, ctx: LeafContext): Promise<LeafOutcome> {
  return leaf.leaf === false ? checkReasoning(leaf, ctx) : checkAnswer(leaf, 'fuzzy', ctx);
}

/** The last page the agent was on contains `url`, and its text shows `text` (normalised, whole words). */
export function checkGrounded(leaf: MiniwebLeafOf<'answer_grounded'>, ctx: LeafContext): LeafOutcome {
  const url = arg(leaf.url);
  const text = arg(leaf.text);
  const last = ctx.input.urls.at(-1);
  if (last === undefined) return { ok: false, detail: 'no page was recorded' };
  if (url !== undefined && !last.includes(url)) return { ok: false, detail: `the last page was ${show(last)}, not one with ${show(url)}` };
  if (text !== undefined) {
    const page = ctx.input.lastPageText;
    if (page === null) return { ok: false, detail: `the last page's text was not recorded, so ${show(text)} is not shown on it` };
    const holds = containsWords(page, text);
    if (holds === null) return { ok: false, detail: `asserts nothing: ${show(text)} has no letter or digit` };
    if (!holds) return { ok: false, detail: `${show(text)} is not on the last page ${show(last)}` };
  }
  return { ok: true, detail: `the last page was ${show(last)}${text !== undefined ? `, showing ${show(text)}` : ''}` };
}

/** Some page the agent was on has `url` in its path and query. */
export function checkVisited(leaf: MiniwebLeafOf<'page_visited'>, ctx: LeafContext): LeafOutcome {
  const want = arg(leaf.url)!;
  const hit = ctx.input.urls.find((u) => u.includes(want));
  return hit === undefined ? { ok: false, detail: `no page with ${show(want)} among ${ctx.input.urls.length} visited` } : { ok: true, detail: `visited ${show(hit)}` };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A recorded action matches: `action` exactly, `target` a normalised substring of the target, `selector` exactly,
 * `value` (normalised, whole words) in the value, typed text or option text. The recorder's actions, else (none
 * recorded) the beacons, as MiniWeb assembles them.
 */
export function checkAction(leaf: MiniwebLeafOf<'action_included'>, ctx: LeafContext): LeafOutcome {
  const action = arg(leaf.action);
  const target = arg(leaf.target);
  const selector = arg(leaf.selector);
  const value = arg(leaf.value);
  if (target !== undefined && !mwNorm(target)) return { ok: false, detail: `asserts nothing: the target ${show(target)} has no letter or digit` };
  const recorded = ctx.input.records.filter((r): r is Record<string, unknown> => isRecord(r) && r.type === 'action');
  const source = recorded.length ? 'recorded' : 'beacon';
  const actions = recorded.length ? recorded : ctx.input.beacons.filter(isRecord);
  const hit = actions.find((a) => {
    if (action !== undefined && a.action !== action) return false;
    if (target !== undefined && !mwNorm(a.target).includes(mwNorm(target))) return false;
    if (selector !== undefined && a.selector !== selector) return false;
    if (value !== undefined && ![a.value, a.text, a.option_text].some((v) => given(v) && containsWords(v, value) === true)) return false;
    return true;
  });
  if (!hit) return { ok: false, detail: `no ${source} action of ${actions.length} matches` };
  return { ok: true, detail: `${source} ${pyStr(hit.action)} on ${show(pyStr(hit.target ?? ''))}${given(hit.value) ? ` = ${show(hit.value)}` : ''}` };
}
