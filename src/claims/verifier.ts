/**
 * A verifier of the sandbox's kind (answer, request and state checks) as a claim, so the two can be compared on
 * the same episodes: a written claim against the hand-written verifier it should agree with.
 * @module
 */
import type { AnswerCheck, RequestCheck, StateCheck, Verifier } from '../core/schemas';
import { z } from 'zod';
import { FootprintEntrySchema, type Claim, type FootprintEntry } from './schema';

/**
 * The claim a verifier makes: every check, as a claim, and that the episode changed nothing but what the verifier's
 * task asks for (`{only: verifierFootprint(verifier)}`), under `all`; `null` for a verifier with no checks. An `exact` answer is the whole answer, `includes` each value contained, `number` a
 * number written in it; a request check a request (`not` one, for `should_not_exist`); a state check a data change
 * of the table whose row matches `where` and `values`. A `should_not_exist` check ("no such row") is a `state` claim
 * that no row of the table matches `where` at the cut, decided on the start rows with the changes applied (not
 * checkable, and never holding, on an episode that recorded no start rows).
 *
 * A positive state check reads the changes, not the tables: where the verifier passes on a row the session never
 * touched (there from the start), the claim has no change to show and does not hold: the agent did nothing.
 */
export function verifierClaim(verifier: Verifier): Claim | null {
  const claims: Claim[] = [
    ...(verifier.answer ? [answerClaim(verifier.answer)] : []),
    ...(verifier.requests ?? []).map(requestClaim),
    ...(verifier.state ?? []).map(stateClaim),
  ];
  if (claims.length === 0) return null;
  return { all: [...claims, { only: verifierFootprint(verifier) }] };
}

function answerClaim(check: AnswerCheck): Claim {
  const values = Array.isArray(check.value) ? check.value : [check.value];
  if (check.type === 'number') return { answer: { number: Number(values[0]), ...(check.tolerance ? { tolerance: check.tolerance } : {}) } };
  if (check.type === 'exact') return oneOrAny(values.map((v) => ({ answer: String(v) })));
  const parts: Claim[] = values.map((v) => ({ answer: { contains: String(v) } }));
  return parts.length === 1 ? parts[0]! : { all: parts };
}

function oneOrAny(claims: Claim[]): Claim {
  return claims.length === 1 ? claims[0]! : { any: claims };
}

function requestClaim(check: RequestCheck): Claim {
  const claim: Claim = { request: { method: check.method, path: check.path, ...(check.params ? { params: { ...check.params } } : {}) } };
  return check.should_not_exist ? { not: claim } : claim;
}

function stateClaim(check: StateCheck): Claim {
  // "No such row" is a statement about the state at the cut, never "no such row was created".
  if (check.should_not_exist) return { state: { table: check.table, fields: { ...check.where }, rows: 'none' } };
  return { change: { table: check.table, fields: { ...check.where, ...check.values } } };
}

/**
 * The changes a hand-written verifier's task makes: for a state check that a row exists, a row created that matches
 * its `where` (whatever it held first) and updates of it changing only the fields the check names, to its values; for one that no
 * row does, a delete of a matching row or an update of its `where` fields; plus the verifier's own `allow` list
 * (the changes its task makes that its checks do not show: every item of a list it fills, the cart row a purchase
 * needs). A verifier with no state checks asks for no change.
 */
export function verifierFootprint(verifier: Verifier): FootprintEntry[] {
  const entries = (verifier.state ?? []).flatMap((check): FootprintEntry[] => {
    const where = { ...check.where };
    const fields = [...new Set([...Object.keys(where), ...Object.keys(check.values ?? {})])];
    if (check.should_not_exist) return [{ table: check.table, op: 'delete', where }, { table: check.table, op: 'update', before: where, fields }];
    // An update leaves the row as asked: a write of another value (the same setting written to several values) is not the task's.
    return [{ table: check.table, op: 'create', where }, { table: check.table, op: 'update', where: { ...where, ...check.values }, fields }];
  });
  const allow = z.array(FootprintEntrySchema).safeParse((verifier as { allow?: unknown }).allow ?? []);
  return [...entries, ...(allow.success ? allow.data : [])];
}
