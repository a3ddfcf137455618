/**
 * Past one machine (DESIGN.md §8): a run split into shards, `[index::count]` of the tasks in file order, from
 * `--shard K/N` or the scheduler's environment, and the progress of every shard of one run dir.
 * Internals live in `src/shards/` (with `slurm/`), `src/attempt/claims.ts` and, for the split itself, which the steps
 * below use, `src/core/shard.ts`.
 * @module
 */
export { shardTasks, shardFromEnv, parseShard, ShardError, type Shard, type ShardFromEnvOptions, type ShardSource } from './core/shard';
export { runStatus, type RunStatus, type RunStatusOptions, type ShardStatus, type RunningEpisode } from './shards/status';
export { slurmPlan, type SlurmAgent, type SlurmPlan, type SlurmPlanOptions, type SlurmScript, type SlurmStage } from './shards/slurm/plan';
export { submitSlurm, writeSlurmScripts, SlurmSubmitError, type SlurmJob, type SubmitSlurmOptions } from './shards/slurm/submit';
