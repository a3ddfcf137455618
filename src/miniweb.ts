/**
 * MiniWeb, the platform the pipeline runs on: evidence from its own record (its request log, its session overlay of
 * data changes, its recorder), read through its routes and its SQLite file; its annotated tasks (`task.json` dirs)
 * read as human tasks, and its `verifier.json` graded on that evidence.
 * @module
 */
export { miniwebEvidence, type MiniwebEvidenceOptions } from './miniweb/evidence';
export { readMiniwebTasks, MiniwebTasksError, type ReadMiniwebTasksOptions } from './miniweb/tasks';
export {
  gradeMiniwebVerifier, miniwebJudge,
  type GradeMiniwebOptions, type MiniwebGradeResult, type MiniwebGradeInput, type MiniwebVerifierInput,
  type MiniwebJudge, type MiniwebJudgeInput, type MiniwebJudgeDecision, type MiniwebJudgeOptions,
} from './miniweb/verifier';
