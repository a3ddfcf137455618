/**
 * Step 3, judge (DESIGN.md §3): each episode judged from its screenshots and the server's evidence, with the
 * seed's prompt byte for byte. Split into `src/judge/`: formatting, prompt, screenshots, one episode, a run.
 * @module
 */
export { EvidenceError, formatActions, formatChanges, formatLog, lastSeen } from './judge/format';
export { judgePrompt, SYSTEM_JUDGE } from './judge/prompt';
export { pickScreenshots, type PickScreenshotsOptions } from './judge/screenshots';
export { buildJudgeRequest, judgeEpisode, parseVerdict, type JudgeEpisodeOptions, type JudgeOutcome, type JudgeRequest } from './judge/episode';
export {
  runJudge,
  loadInstructions,
  type InstructionsOptions,
  type JudgeEvent,
  type JudgeOptions,
  type JudgeResult,
  type ModelCount,
  type NoVerdictCause,
} from './judge/run';
