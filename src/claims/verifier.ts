/**
 * A verifier of the sandbox's kind (answer, request and state checks) as a claim, so the two can be compared on
 * the same episodes: a written claim against the hand-written verifier it should agree with.
 * @module
 */
import type { AnswerCheck, RequestCheck, StateCheck, Verifier } from '../core/schemas';
import type { Claim } from './schema';

/**
 * The claim a verifier makes: every check, as a claim, under `all` (one check alone stands as it is); `null` for a
 * verifier with no checks. An `exact` answer is the whole answer, `includes` each value contained, `number` a
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
  return claims.length === 1 ? claims[0]! : { all: claims };
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
