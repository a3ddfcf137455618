/**
 * Shards (DESIGN.md §8): one run split over many processes, as InSTA's Slurm arrays split theirs: shard `K` of
 * `N` takes the tasks at file positions `K, K+N, K+2N…` (`tasks[K::N]`). The shard is given (`--shard K/N`) or
 * read from the scheduler's environment: a Slurm job array, a Kubernetes Indexed Job, or `RANK`/`WORLD_SIZE`.
 * In `core/` because the steps that split their tasks (attempt, judge, relabel) sit below `shards/` (status, Slurm),
 * which uses them.
 * @module
 */

/** Shard `index` (zero-based) of `count`. */
export type Shard = { readonly index: number; readonly count: number };

/** A shard that cannot be: a bad `K/N`, an index past the count, an environment that names half of one. */
export class ShardError extends Error {
  /** Always `ShardError`. */
  override readonly name = 'ShardError';
}

/** Throws a {@link ShardError} unless `shard` is `0 <= index < count` in integers. */
export function assertShard(shard: Shard): void {
  const { index, count } = shard;
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(count) || count < 1 || index < 0 || index >= count) {
    throw new ShardError(`shard ${index}/${count}: expected an index from 0 to count-1 and a count of at least 1`);
  }
}

/**
 * The tasks of `shard`, in file order: `tasks[index::count]`. Without a shard, all of them (a copy). With `tries`
 * (`{n, of}`: try `n` of `of` per task), the shard splits the tries, not only the tasks: try `n` of the task at
 * position `i` is unit `i * of + n - 1` of the run, and the shard takes the tasks whose try `n` is its unit
 * (`units[index::count]`), so `of` tries of few tasks still spread over every shard. One try per task is the plain split.
 * @example shardTasks(['a', 'b', 'c', 'd', 'e'], { index: 1, count: 2 }) // ['b', 'd']
 * @example shardTasks(['a', 'b'], { index: 1, count: 2 }, { n: 2, of: 2 }) // ['a', 'b'] (units a1 a2 b1 b2: a2, b2)
 */
export function shardTasks<T>(tasks: readonly T[], shard?: Shard, tries?: { readonly n: number; readonly of: number }): T[] {
  if (!shard) return [...tasks];
  assertShard(shard);
  const of = tries?.of ?? 1;
  const n = tries?.n ?? 1;
  if (!Number.isInteger(of) || of < 1 || !Number.isInteger(n) || n < 1 || n > of) throw new ShardError(`tries: try ${n} of ${of}: expected 1 <= n <= of`);
  return tasks.filter((_, i) => inShard(i * of + n - 1, shard));
}

/** Whether the task at file position `position` belongs to `shard` (every position does without a shard). */
export function inShard(position: number, shard?: Shard): boolean {
  return !shard || position % shard.count === shard.index;
}

/**
 * Parses `K/N` (zero-based `K`), as the `--shard` flag takes it.
 * @example parseShard('2/8') // { index: 2, count: 8 }
 */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new ShardError(`shard "${text}": expected K/N, shard K (from 0) of N`);
  const shard = { index: Number(m[1]), count: Number(m[2]) };
  assertShard(shard);
  return shard;
}

/** The environment variable that gives the shard count to a Kubernetes Indexed Job (or overrides Slurm's). */
export const SHARDS_ENV = 'TASKGEN_SHARDS';

/** Options of {@link shardFromEnv}. */
export interface ShardFromEnvOptions {
  /**
   * The shard count (`--shards N`); default the environment's `TASKGEN_SHARDS`. With Slurm, a count given
   * here means the array task ids are the shard indexes themselves, so a rerun of failed indexes
   * (`sbatch --array=3,7`) still takes shards 3 and 7 of N; without it, the array is the whole run
   * (`SLURM_ARRAY_TASK_COUNT` shards, offset by `SLURM_ARRAY_TASK_MIN`).
   */
  readonly shards?: number;
}

/** Where {@link shardFromEnv} found the shard, for the start line. */
export type ShardSource = 'slurm' | 'kubernetes' | 'rank';

/**
 * The shard the scheduler gave this process, or `undefined` when the environment names none:
 * - Slurm job arrays: `SLURM_ARRAY_TASK_ID` − `SLURM_ARRAY_TASK_MIN` of `SLURM_ARRAY_TASK_COUNT` (or, when a
 *   count is given, `SLURM_ARRAY_TASK_ID` of that count; see {@link ShardFromEnvOptions.shards});
 * - Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX` of the given count (`--shards N` or `TASKGEN_SHARDS`);
 * - `RANK` of `WORLD_SIZE` (torchrun, InSTA's own scripts).
 *
 * Throws a {@link ShardError} when a variable is not a whole number, an index is out of range, or a
 * Kubernetes index comes without a count.
 */
export function shardFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
  options: ShardFromEnvOptions = {},
): (Shard & { readonly source: ShardSource }) | undefined {
  const num = (name: string): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return undefined;
    if (!/^\s*\d+\s*$/.test(raw)) throw new ShardError(`${name}=${JSON.stringify(raw)}: expected a whole number`);
    return Number(raw);
  };
  const given = options.shards ?? num(SHARDS_ENV);
  const make = (index: number, count: number, source: ShardSource, from: string) => {
    const shard = { index, count, source };
    if (index < 0 || index >= count || count < 1) {
      throw new ShardError(`shard ${index}/${count} from ${from}: the index must be from 0 to ${count - 1}`);
    }
    return shard;
  };
  const slurmId = num('SLURM_ARRAY_TASK_ID');
  if (slurmId !== undefined) {
    if (given !== undefined) return make(slurmId, given, 'slurm', `SLURM_ARRAY_TASK_ID of --shards/${SHARDS_ENV}`);
    const count = num('SLURM_ARRAY_TASK_COUNT');
    if (count === undefined) throw new ShardError('SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: give --shards N');
    const min = num('SLURM_ARRAY_TASK_MIN') ?? 0;
    return make(slurmId - min, count, 'slurm', 'SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN of SLURM_ARRAY_TASK_COUNT');
  }
  const k8s = num('JOB_COMPLETION_INDEX');
  if (k8s !== undefined) {
    if (given === undefined) throw new ShardError(`JOB_COMPLETION_INDEX is set but the shard count is not: give --shards N or set ${SHARDS_ENV}`);
    return make(k8s, given, 'kubernetes', 'JOB_COMPLETION_INDEX');
  }
  const rank = num('RANK');
  const world = num('WORLD_SIZE');
  if (rank !== undefined && world !== undefined) return make(rank, given ?? world, 'rank', 'RANK of WORLD_SIZE');
  return undefined;
}

/**
 * The split line printed at start: `shard 1/3: 4 of 10 tasks (positions 1, 4, 7, 10)`.
 */
export function describeShard(shard: Shard, total: number): string {
  const positions: number[] = [];
  for (let i = shard.index; i < total; i += shard.count) positions.push(i);
  const shown = positions.length > 6 ? `${positions.slice(0, 5).join(', ')}, … ${positions.at(-1)}` : positions.join(', ');
  return `shard ${shard.index}/${shard.count}: ${positions.length} of ${total} tasks (positions ${shown || 'none'})`;
}
