/**
 * miniweb-taskgen: task-centric web-agent training data. Propose goal-level tasks per site with an LLM, attempt
 * them with a browser agent, judge each episode from screenshots and server evidence, validate the judge
 * against task verifiers, and select the judged successes as training rows.
 * @packageDocumentation
 */
export * from './schemas';
export * from './errors';
export * from './names';
export * from './llm/index';
export * from './fs/index';
export * from './source/index';
export * from './agent/index';
export * from './io';
export * from './py';
export * from './context';
export * from './propose';
export * from './propose-file';
export * from './report/index';
export * from './judge';
export * from './validate';
export * from './rows';
export * from './crawl';
export * from './verify';
export * from './pipeline';
// issue 12 (rel-data): episode identity, binding each judge record to the episode it judged.
export {
  EPISODE_BINDINGS_DIR,
  EPISODE_ID_FILES,
  bindJudgeRecord,
  bindingFileOf,
  episodeIdOf,
  judgeRecordState,
  judgedEpisodeIdOf,
  recordDigest,
  type JudgeRecordState,
} from './episode-id';
// Issue 12 (branch rel-faults): failed model calls with their causes, and the guard that stops a stage.
export {
  StageGuard,
  StageStoppedError,
  callFailureOf,
  formatFailure,
  stopsStage,
  type CallFailure,
  type StageGuardOptions,
} from './failures';
