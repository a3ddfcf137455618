/**
 * Written verifiers: a claim over the server's evidence written for each proposed task from one judged-successful
 * episode of it, kept only when it holds on that episode, into `verifiers.jsonl` beside the tasks; then used by
 * `attempt` (results for proposed tasks), `validate`, the judge lab and the report. Internals live in `src/verifiers/`.
 * @module
 */
export {
  runWriteVerifiers,
  type WriteVerifiersOptions,
  type WriteVerifiersResult,
  type WriteVerifiersEvent,
  type VerifierOutcome,
  type RejectedReply,
} from './verifiers/run';
export { readWrittenVerifiers, WrittenVerifierSchema, type WrittenVerifier, type WrittenVerifiers } from './verifiers/file';
export { verifierPrompt, parseClaimReply, SYSTEM_VERIFIER, type VerifierPromptInput, type ParsedClaim } from './verifiers/prompt';
export { claimVerdict, type ClaimVerdict, type FinalEvidence, type WrittenClaim } from './claims/grade';
export type { Looseness } from './verifiers/vet';
export { scoreWrittenVerifiers, type ScoreWrittenVerifiersOptions, type WrittenVerifierScores, type VerifierPair } from './verifiers/measure';
