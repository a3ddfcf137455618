/**
 * Step 2, attempt (DESIGN.md §5): the agent works each task in the browser harness and the episode is kept in
 * the run dir (claims for shared run dirs, the server's evidence, the task's verifier). Internals live in
 * `src/attempt/`; the agent is `src/agent.ts`, the harness `src/browser.ts`.
 * @module
 */
export { runAttempt, type AttemptEvent, type AttemptOptions, type AttemptResult } from './attempt/run';
export type { FinishedTotals } from './attempt/run-dir';
export { attemptTask, type AttemptTaskOptions, type AttemptTaskResult, type StepInfo, type VerifyFunction } from './attempt/episode';
export { browserEvidence, type BrowserEvidenceOptions } from './attempt/evidence';
export type { EvidenceProvider, EvidenceSession, SessionEvidence } from './attempt/types';
export { verifyEpisode, type CheckResult, type EpisodeEvidence, type StateReader, type VerifyResult } from './attempt/verify';
export { decideReward, readEpisodeReward, type EpisodeReward, type RewardInput } from './attempt/reward';
