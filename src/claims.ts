/**
 * Claims over evidence: a small JSON language for what a recorded episode's evidence must show (a data change,
 * a request, an answer, a value on a page the agent saw; all / any / not), decided at every step prefix so the
 * first step at which a claim holds is known. Internals live in `src/claims/`.
 * @module
 */
export { ClaimSchema, ClaimValueSchema, ChangeClaimSchema, RequestClaimSchema, CHANGE_OPS, type Claim, type ClaimValue, type ChangeClaim, type RequestClaim } from './claims/schema';
export { loadStepEvidence, type StepEvidence } from './claims/evidence';
export { checkClaim, type ClaimResult } from './claims/check';
export { EvidenceStepsSchema, type EvidenceSteps } from './claims/steps';
export { verifierClaim } from './claims/verifier';
