/**
 * Specificity of a written claim: a value the task's instruction names (a quoted text, a number, an identifier with
 * digits such as `DSH-17`) that the episode's changes make (a field of a created row, a field an update changed) or
 * the request the claim asserts sends (a parameter) must appear among the claim's values. A claim that drops it
 * accepts the same change with any other value: a comment claim without its body accepts any comment on the issue.
 * Only values the evidence carries count, so a value the instruction names for another reason asks for nothing; nor
 * does a request's parameter that an updated row kept as it was (an edit form posts the title it left alone, which
 * names the row rather than the change).
 * @module
 */
import { changeOp, changedFields, rowOf } from '../claims/changes';
import { checkClaim } from '../claims/check';
import type { StepEvidence } from '../claims/evidence';
import type { ChangeClaim, Claim, ClaimValue, RequestClaim, StateClaim } from '../claims/schema';
import { looseEqual, norm, numbersIn, requestParams } from '../claims/values';

/** A value the instruction names, as the evidence would carry it. */
type Named = string | number;

/**
 * The values an instruction names, extracted conservatively: quoted texts (`"…"`, `“…”`, `'…'` between spaces),
 * then, outside them, identifiers with a letter and a digit (`DSH-17`, `HH-10431`), e-mail addresses, ISO dates
 * (`2026-03-28`), times (`09:30`) and plain numbers (`3`, `$12.50`); other mixed tokens are left out.
 */
export function namedValues(instruction: string): Named[] {
  const found: Named[] = [];
  const rest = instruction.replace(/"([^"]+)"|“([^”]+)”|(?<=^|[\s(])'([^']+)'(?=[\s.,;:!?)]|$)/g, (_, a?: string, b?: string, c?: string) => {
    const text = (a ?? b ?? c ?? '').trim();
    if (text) found.push(text);
    return ' ';
  });
  for (const raw of rest.split(/\s+/)) {
    const token = raw.replace(/^[(#]+|[.,;:!?)]+$/g, '');
    if (/^[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)*$/.test(token) && /\d/.test(token)) found.push(token);
    else if (/^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/.test(token) || /^\d{4}-\d{2}-\d{2}$|^\d{1,2}:\d{2}$/.test(token)) found.push(token);
    else if (/^[$€£]?\d[\d,]*(?:\.\d+)?%?$/.test(token)) found.push(numbersIn(token)[0]!);
  }
  return [...new Map(found.map((v) => [typeof v === 'string' ? `s${norm(v)}` : `n${v}`, v])).values()];
}

/**
 * The first value the instruction names that the episode's changes or the claim's matching requests carry and the
 * claim does not pin, with what carries it; `null` when there is none. Every change of the episode counts, not only
 * those the claim matches: a claim that leaves out the change that stores a named value (a thread claim without its
 * first post's message) does not pin it either. Requests count only where the claim asserts them: an episode's other
 * requests are its navigation (a search for the named title).
 */
export function unpinnedValue(claim: Claim, instruction: string, evidence: StepEvidence): { value: Named; carrier: 'change' | 'request' } | null {
  const named = namedValues(instruction);
  if (named.length === 0) return null;
  const parts = positiveParts(claim);
  const values = parts.flatMap((p) => claimValues(p));
  const kept = keptValues(evidence);
  const carriers: Array<['change' | 'request', unknown[]]> = [
    ['change', changeValues(evidence)],
    ...parts.flatMap((p): Array<['request', unknown[]]> => ('request' in p ? [['request', requestValues(p.request, evidence)]] : [])),
  ];
  for (const [carrier, carried] of carriers) {
    for (const v of named) {
      if (carrier === 'request' && kept.some((c) => looseEqual(c, v))) continue;
      if (carried.some((c) => looseEqual(c, v)) && !values.some((w) => pins(w, v))) return { value: v, carrier };
    }
  }
  return null;
}

type Part = { change: ChangeClaim } | { request: RequestClaim } | { state: StateClaim };

// The change, request and state claims the claim asserts (not those under a `not`).
function positiveParts(claim: Claim): Part[] {
  if ('all' in claim) return claim.all.flatMap(positiveParts);
  if ('any' in claim) return claim.any.flatMap(positiveParts);
  if ('change' in claim || 'request' in claim || 'state' in claim) return [claim];
  return [];
}

function claimValues(part: Part): ClaimValue[] {
  if ('change' in part) return Object.values(part.change.fields ?? {});
  if ('state' in part) return part.state.rows === 'none' ? [] : Object.values(part.state.fields ?? {});
  return [part.request.path, ...Object.values(part.request.params ?? {})];
}

// What the episode's changes make: a created row's fields (its id aside: the server picks it), an update's changed
// fields. A delete's row identifies what went; the claim may name it by another field.
function changeValues(ev: StepEvidence): unknown[] {
  const out: unknown[] = [];
  for (const item of ev.changes) {
    const op = changeOp(item.change);
    if (op === 'delete') continue;
    const row = rowOf(item.change, op);
    const fields = op === 'create' ? Object.keys(row).filter((k) => k !== 'id') : [...changedFields(item.change, op)];
    out.push(...fields.map((k) => row[k]));
  }
  return out;
}

// The values of the fields the episode's updates left as they were.
function keptValues(ev: StepEvidence): unknown[] {
  return ev.changes.flatMap(({ change }) => {
    const op = changeOp(change);
    if (op !== 'update') return [];
    const row = rowOf(change, op);
    const changed = changedFields(change, op);
    return Object.keys(row).filter((k) => !changed.has(k)).map((k) => row[k]);
  });
}

function requestValues(claim: RequestClaim, ev: StepEvidence): unknown[] {
  return ev.log.filter((item) => checkClaim({ request: claim }, { ...ev, log: [item], steps: Math.max(ev.steps, 1) }).holds).flatMap(({ entry }) => Object.values(requestParams(entry)));
}

// A claim value pins a named value when it accepts that value and not just any: leniently, so that a claim is
// called loose only when none of its values says the named one.
function pins(w: ClaimValue, v: Named): boolean {
  const text = norm(String(v));
  if (typeof w === 'string') return norm(w).includes(text);
  if (typeof w === 'number') return looseEqual(v, w);
  if (w === null || typeof w === 'boolean') return false;
  if ('contains' in w) {
    const c = norm(w.contains);
    return c.includes(text) || (text.includes(c) && c.length * 2 >= text.length);
  }
  if ('pattern' in w) {
    const re = new RegExp(w.pattern, 'i');
    return re.test(String(v)) && !re.test('zzzz') && !re.test('0');
  }
  const n = typeof v === 'number' ? [v] : numbersIn(v);
  return n.some((x) => Math.abs(x - w.number) <= (w.tolerance ?? 0) + 1e-9);
}
