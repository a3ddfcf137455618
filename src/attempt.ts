/**
 * Step 2, attempt (DESIGN.md §5): a browser agent works each task in Chromium and records the episode; the
 * task's verifier is checked against the server's evidence. Internals live in `src/agent/` and `src/agent/verify.ts`.
 * @module
 */
export { runAttempt, type AttemptEvent, type AttemptOptions, type AttemptResult, type FinishedTotals } from './agent/attempt';
export { attemptTask, type AttemptTaskOptions, type AttemptTaskResult, type StepInfo, type VerifyFunction } from './agent/episode';
export { browserHost, type BrowserHost, type BrowserOptions } from './agent/browser';
export { browserEvidence, type BrowserEvidenceOptions } from './agent/evidence';
export { qwenPolicy, qwenModel, type QwenModelOptions, type QwenPolicyBaseOptions, type QwenPolicyEndpointOptions, type QwenPolicyModelOptions, type QwenPolicyOptions } from './agent/qwen-policy';
export { scriptedPolicy, type ScriptFunction, type ScriptedPolicyOptions, type ScriptedStep } from './agent/scripted-policy';
export { serveQwen, DEFAULT_QWEN_MODEL, type QwenServer, type ServeQwenOptions } from './agent/serve-qwen';
export { parseAction, type ParsedAction } from './agent/parse-action';
export type { ImagePosition } from './agent/prompt';
export type {
  BrowserRequest,
  EvidenceProvider,
  EvidenceSession,
  Observation,
  ObservedElement,
  Policy,
  PolicyDecision,
  PolicyInput,
  SessionEvidence,
  StepRecord,
} from './agent/types';
export { verifyEpisode, type CheckResult, type EpisodeEvidence, type StateReader, type VerifyResult } from './agent/verify';
export { OutsideSiteError } from './agent/site-boundary';
