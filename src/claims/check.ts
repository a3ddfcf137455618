/**
 * Deciding a claim on a recorded episode at every step prefix: the claim's value after each of the first k steps,
 * for k = 1..steps, from the evidence tagged with a step up to k (the answer from its `done` step on). Values
 * compare by the verifiers' rules (`./values.ts`).
 * @module
 */
import type { LogEntry } from '../core/schemas';
import { matchText, matchValue as matchField, norm, requestParams, trimSlash, type MatchCache as Cache } from './values';
import { parseWith } from '../core/io';
import { ClaimSchema, type ChangeClaim, type Claim, type ClaimValue, type FootprintEntry, type RequestClaim } from './schema';
import { footprintOf, unrequestedChanges } from './footprint';
import { changeOp, changedFields, rowOf } from './changes';
import { stateTrace } from './state';
import type { StepEvidence } from './evidence';
import { decideAnswer, type AnswerWant } from './answer';

/** A claim decided on an episode. */
export interface ClaimResult {
  /** Whether the claim holds on the whole episode. */
  readonly holds: boolean;
  /**
   * The fewest steps whose evidence makes the claim hold (the episode cut there satisfies it), `null` when no
   * prefix does. With `not`, a claim may hold on a prefix but not on the whole episode, or the reverse.
   */
  readonly firstStep: number | null;
  /** Why, in words: what matched and at which step, or what was missing. */
  readonly detail: string;
  /**
   * Why the claim proves nothing the agent did, `null` when it does: it holds on the empty episode (no request, no
   * change, no answer, the tables as they started), or already at the episode's start, before the first action.
   * A vacuous claim is never a label, a verifier or a reward, whether it holds or not.
   */
  readonly vacuous: string | null;
}

/** How a claim is checked. */
export interface CheckClaimOptions {
  /**
   * The instruction of the task the claim is for: numbers and values it names are no competing answer
   * (`src/claims/answer.ts`). Without it, every other number in an answer competes.
   */
  readonly question?: string | null;
}

/**
 * Decides `claim` on an episode's evidence at every step prefix (see {@link ClaimResult}). Besides its own parts, a
 * claim holds only where the episode made no unrequested change (`src/claims/footprint.ts`): its `{only}`, or the
 * changes its `change` and `state` parts ask for, and the site's declared consequences. A claim that does not fit
 * {@link ClaimSchema} throws an `InputError` naming the field (file `(claim)`).
 */
export function checkClaim(claim: Claim, evidence: StepEvidence, options: CheckClaimOptions = {}): ClaimResult {
  if (!VALID.has(claim)) {
    parseWith(ClaimSchema, claim, { file: '(claim)' });
    if (typeof claim === 'object' && claim !== null) VALID.add(claim);
  }
  // An episode of no steps has one prefix: all of it.
  const prefixes = evidence.steps > 0 ? Array.from({ length: evidence.steps }, (_, i) => i + 1) : [0];
  const ctx: Ctx = { cache: new Map(), question: options.question ?? null };
  const own = decide(claim, evidence, prefixes, ctx);
  const footprint = footprintOf(claim);
  const trace = footprint === null ? own : both(own, onlyTrace(footprint, evidence, prefixes, ctx));
  const first = trace.at.indexOf(true);
  return { holds: trace.at.at(-1) === true, firstStep: first >= 0 ? prefixes[first]! : null, detail: trace.detail, vacuous: vacuity(claim, evidence, ctx) };
}

// Kleene's and of a claim's own trace and its footprint's; the footprint's detail only where it fails.
function both(own: Trace, footprint: Trace): Trace {
  const at = own.at.map((v, j) => (v === false || footprint.at[j] === false ? false : v === null ? null : true));
  return { at, detail: footprint.at.at(-1) === false ? `${own.detail}; ${footprint.detail}` : own.detail };
}

// `{only}`: at each prefix, no change up to it outside the footprint and the site's consequences.
function onlyTrace(entries: readonly FootprintEntry[], ev: StepEvidence, prefixes: number[], ctx: Ctx): Trace {
  const changes = ev.changes.map((c) => c.change);
  const bad = unrequestedChanges(changes, entries, { consequences: ev.consequences ?? [], log: ev.log.map((l) => l.entry), cache: ctx.cache });
  const firstBad = bad.length ? Math.min(...bad.map((b) => ev.changes[b.index]!.step)) : null;
  const at = prefixes.map((k) => firstBad === null || firstBad > k);
  const detail = bad.length
    ? `unrequested change${bad.length > 1 ? 's' : ''}: ${bad.slice(0, 3).map((b) => b.what).join('; ')}${bad.length > 3 ? ` and ${bad.length - 3} more` : ''}`
    : `no change but ${entries.length ? entries.map((e) => `${e.op ?? 'create/update'} ${e.table}`).join(', ') : 'none'}`;
  return { at, detail };
}

/** The episode in which the agent did nothing: no step, request, change, answer or page; the tables as they started. */
export function emptyEvidence(start: StepEvidence['start'] = null): StepEvidence {
  return { steps: 0, answer: null, answerStep: null, log: [], changes: [], seen: [], start };
}

// Why a claim proves nothing (see ClaimResult.vacuous).
function vacuity(claim: Claim, ev: StepEvidence, ctx: Ctx): string | null {
  const empty = decide(claim, emptyEvidence(ev.start ?? null), [0], ctx);
  if (empty.at[0] === true) return `holds on an episode that did nothing (${empty.detail})`;
  const start = decide(claim, ev, [0], ctx);
  if (start.at[0] === true) return `holds at the episode's start, before the first action (${start.detail})`;
  return null;
}

// Claims already validated: one claim checked on many episodes (a verifier) is validated once. A claim is data
// and is not changed after it is written, so a checked object stays valid.
const VALID = new WeakSet<object>();

// A claim's value at each prefix, and why: `null` where it cannot be decided (a state claim without start rows),
// which `all`, `any` and `not` carry as unknown (Kleene's logic), and which never holds.
interface Trace {
  readonly at: Array<boolean | null>;
  readonly detail: string;
}

// What deciding a claim needs besides the evidence: compiled expressions, and the question its answer answers.
interface Ctx {
  readonly cache: Cache;
  readonly question: string | null;
}

function decide(claim: Claim, ev: StepEvidence, prefixes: number[], ctx: Ctx): Trace {
  const { cache } = ctx;
  if ('all' in claim || 'any' in claim) {
    const all = 'all' in claim;
    const parts = (all ? claim.all : claim.any).map((c) => decide(c, ev, prefixes, ctx));
    const at = prefixes.map((_, j) => {
      const values = parts.map((p) => p.at[j] ?? null);
      if (values.includes(!all)) return !all;
      return values.includes(null) ? null : all;
    });
    return { at, detail: `${all ? 'all' : 'any'}(${parts.map((p) => p.detail).join('; ')})` };
  }
  if ('not' in claim) {
    const inner = decide(claim.not, ev, prefixes, ctx);
    return { at: inner.at.map((v) => (v === null ? null : !v)), detail: `not(${inner.detail})` };
  }
  if ('only' in claim) return onlyTrace(claim.only, ev, prefixes, ctx);
  if ('answer' in claim) return answerTrace(claim.answer, ev, prefixes, ctx.question);
  if ('state' in claim) return stateTrace(claim.state, ev, prefixes, (actual, want) => matchField(actual, want, cache));
  const found = 'change' in claim ? firstChange(claim.change, ev, cache) : 'request' in claim ? firstRequest(claim.request, ev, cache) : firstSeen(claim.seen, ev, cache);
  return { at: prefixes.map((k) => found.step !== null && found.step <= k), detail: found.detail };
}

// Evidence items match from their step on: the earliest matching step, or why none.
interface Found {
  readonly step: number | null;
  readonly detail: string;
}

function firstOf<T extends { step: number }>(items: readonly T[], test: (item: T) => boolean): T | null {
  let best: T | null = null;
  for (const item of items) if ((best === null || item.step < best.step) && test(item)) best = item;
  return best;
}

const show = (v: unknown): string => JSON.stringify(v) ?? String(v);

function firstChange(claim: ChangeClaim, ev: StepEvidence, cache: Cache): Found {
  const what = `change ${claim.op ?? 'any'} ${claim.table}${claim.fields ? ` ${show(claim.fields)}` : ''}${claim.changed ? ` changing ${claim.changed.join(', ')}` : ''}`;
  const table = norm(claim.table);
  const ofTable = ev.changes.filter((c) => norm(String(c.change.table ?? c.change.collection ?? c.change.kind ?? '')) === table);
  const hit = firstOf(ofTable, ({ change }) => {
    const op = changeOp(change);
    if (claim.op && op !== claim.op) return false;
    const row = rowOf(change, op);
    if (claim.fields && !Object.entries(claim.fields).every(([k, v]) => matchField(row[k], v, cache))) return false;
    const changed = changedFields(change, op);
    return !claim.changed || claim.changed.every((k) => changed.has(k));
  });
  if (hit) return { step: hit.step, detail: `${what}: at step ${hit.step}` };
  return { step: null, detail: `${what}: ${ofTable.length ? `${ofTable.length} change(s) to ${claim.table}, none matching` : `no change to ${claim.table} (${ev.changes.length} change(s) in all)`}` };
}

function firstRequest(claim: RequestClaim, ev: StepEvidence, cache: Cache): Found {
  const method = claim.method?.toUpperCase();
  const what = `request ${method ?? 'any'} ${show(claim.path)}${claim.params ? ` with ${show(claim.params)}` : ''}`;
  const onPath = ev.log.filter(({ entry }) => !refused(entry) && (!method || String(entry.method ?? '').toUpperCase() === method) && matchPath(entry.path, claim.path, cache));
  const params = Object.entries(claim.params ?? {});
  const hit = firstOf(onPath, ({ entry }) => {
    const got = params.length ? requestParams(entry) : {};
    return params.every(([k, v]) => matchField(got[k], v, cache));
  });
  if (hit) return { step: hit.step, detail: `${what}: at step ${hit.step}` };
  return { step: null, detail: `${what}: ${onPath.length ? `${onPath.length} request(s) there, none with those parameters` : `none (${ev.log.length} request(s) in all)`}` };
}

// A request the server answered with an error did not happen.
function refused(entry: LogEntry): boolean {
  return typeof entry.status === 'number' && entry.status >= 400;
}

function matchPath(actual: unknown, want: ClaimValue, cache: Cache): boolean {
  if (typeof want === 'string') return typeof actual === 'string' && trimSlash(actual) === trimSlash(want);
  return matchField(typeof actual === 'string' ? trimSlash(actual) : actual, want, cache);
}

function firstSeen(want: ClaimValue, ev: StepEvidence, cache: Cache): Found {
  const hit = firstOf(ev.seen, (item) => matchText(item.text, want, cache));
  const what = `seen ${show(want)}`;
  return hit ? { step: hit.step, detail: `${what}: on the page after step ${hit.step}` } : { step: null, detail: `${what}: on none of ${ev.seen.length} page(s)` };
}

function answerTrace(want: ClaimValue, ev: StepEvidence, prefixes: number[], question: string | null): Trace {
  // Before its done step the episode has no answer yet.
  const given = ev.answer !== null ? (ev.answerStep ?? ev.steps) : null;
  // `{answer: null}`: no answer (yet).
  if (want === null) {
    const at = prefixes.map((k) => given === null || k < given);
    return { at, detail: `answer null: ${given === null ? 'none given' : `given at step ${given}`}` };
  }
  const decided = decideAnswer(ev.answer, answerWant(want), { question, start: ev.start ?? null });
  const at = prefixes.map((k) => given !== null && k >= given && decided.ok);
  return { at, detail: `answer ${show(want)}: ${decided.ok ? 'given' : 'not given'}${given !== null ? ` at step ${given}` : ''}: ${decided.detail}` };
}

// A claim's answer value as what the answer must state: a plain text is the whole answer, a number or `{number}` a
// number written in it, `{contains}` a text in it, `{pattern}` one match; true and false the words.
function answerWant(want: Exclude<ClaimValue, null>): AnswerWant {
  if (typeof want === 'boolean') return { kind: 'exact', values: [String(want)] };
  if (typeof want === 'string') return { kind: 'exact', values: [want] };
  if (typeof want === 'number') return { kind: 'number', value: want };
  if ('number' in want) return { kind: 'number', value: want.number, tolerance: want.tolerance ?? 0 };
  if ('contains' in want) return { kind: 'includes', values: [want.contains] };
  return { kind: 'pattern', pattern: new RegExp(want.pattern, 'i') };
}
