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
// Issue 10 (branch shards): shards of a run and many writers on one run dir.
export { assertShard, describeShard, inShard, parseShard, shardFromEnv, shardTasks, ShardError, SHARDS_ENV } from './shard';
export type { Shard, ShardFromEnvOptions, ShardSource } from './shard';
export type { ValidateShardResult } from './validate';
export { formatRunStatus, runStatus } from './status';
export { ASIDE_DIR, ClaimLostError, ClaimSchema, EpisodeClaims, readClaims, WORK_DIR } from './agent/claims';
export type { Acquired, ClaimRecord, ClaimsOptions, FoundClaim, HeldClaim } from './agent/claims';
export type { RunningEpisode, RunStatus, RunStatusOptions, ShardStatus } from './status';
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
