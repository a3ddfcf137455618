/** The `--shard K/N` and `--shards N` flags of attempt, judge, validate and pipeline (DESIGN.md §8). @module */
import { InvalidArgumentError, type Command } from 'commander';
import { describeShard, parseShard, shardFromEnv, ShardError, SHARDS_ENV, type Shard } from '../core/shard';
import { integer } from './flags';

/** The shard flags as commander parses them. */
export interface ShardFlags {
  shard?: Shard;
  shards?: number;
}

/** Adds `--shard K/N` and `--shards N`. */
export function shardOptions(command: Command): Command {
  return command
    .option(
      '--shard <K/N>',
      'run only shard K (from 0) of N: the tasks at positions K, K+N, K+2N... of the file; default from the environment ' +
        '(Slurm SLURM_ARRAY_TASK_ID/COUNT/MIN, Kubernetes JOB_COMPLETION_INDEX, RANK/WORLD_SIZE)',
      (value: string) => {
        try {
          return parseShard(value);
        } catch (error) {
          throw new InvalidArgumentError((error as Error).message);
        }
      },
    )
    .option('--shards <n>', `the shard count for an index from the environment (JOB_COMPLETION_INDEX, or Slurm array ids used as shard indexes; default $${SHARDS_ENV})`, integer(1));
}

/** The shard the flags give, else the environment's, with where it came from; `undefined` for a whole run. */
export function resolveShard(flags: ShardFlags, env: NodeJS.ProcessEnv = process.env): { shard: Shard; from: string } | undefined {
  if (flags.shard) {
    if (flags.shards !== undefined && flags.shards !== flags.shard.count) {
      throw new ShardError(`--shard ${flags.shard.index}/${flags.shard.count} and --shards ${flags.shards} disagree`);
    }
    return { shard: flags.shard, from: '--shard' };
  }
  const found = shardFromEnv(env, flags.shards !== undefined ? { shards: flags.shards } : {});
  if (!found) {
    if (flags.shards !== undefined) throw new ShardError(`--shards ${flags.shards} needs an index: --shard K/N, or JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or RANK in the environment`);
    return undefined;
  }
  const from = { slurm: 'the Slurm array', kubernetes: 'the Kubernetes job index', rank: 'RANK/WORLD_SIZE' }[found.source];
  return { shard: { index: found.index, count: found.count }, from };
}

/** The split line printed at start: which shard, from where, and which of the `total` tasks it takes. */
export function shardLine(resolved: { shard: Shard; from: string }, total: number, what = 'tasks'): string {
  return `${describeShard(resolved.shard, total).replace(' tasks ', ` ${what} `)}, from ${resolved.from}`;
}
