/**
 * Claims over evidence: a small JSON language for what a recorded episode's evidence must show (a data change,
 * a request, an answer, a value on a page the agent saw, rows of a table at the cut; all / any / not), decided at every step prefix so the
 * first step at which a claim holds is known. Internals live in `src/claims/`.
 * @module
 */
export { ClaimSchema, ClaimValueSchema, ChangeClaimSchema, RequestClaimSchema, StateClaimSchema, FootprintEntrySchema, ConsequenceEntrySchema, ConsequenceSchema, CHANGE_OPS, type Claim, type ClaimValue, type ChangeClaim, type RequestClaim, type StateClaim, type FootprintEntry, type ConsequenceEntry, type Consequence } from './claims/schema';
export { loadStepEvidence, type StepEvidence } from './claims/evidence';
export { checkClaim, emptyEvidence, type ClaimResult, type CheckClaimOptions } from './claims/check';
export { decideAnswer, ANSWER_SLACK, type AnswerWant, type AnswerContext, type AnswerDecision } from './claims/answer';
export { footprintOf, unrequestedChanges, type Unrequested, type FootprintContext } from './claims/footprint';
export { replayState } from './claims/state';
export { StartRowsSchema, type StartRows } from './claims/start-rows';
export { EvidenceStepsSchema, type EvidenceSteps } from './claims/steps';
export { verifierClaim } from './claims/verifier';
