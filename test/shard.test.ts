import { describe, expect, it } from 'vitest';
import { parseShard, shardFromEnv, shardTasks, ShardError, type Shard } from '../src/index';

describe('shardTasks', () => {
  const tasks = ['t0', 't1', 't2', 't3', 't4', 't5', 't6'];

  it('takes tasks[index::count] in file order, and the shards cover every task once', () => {
    expect(shardTasks(tasks, { index: 0, count: 3 })).toEqual(['t0', 't3', 't6']);
    expect(shardTasks(tasks, { index: 1, count: 3 })).toEqual(['t1', 't4']);
    expect(shardTasks(tasks, { index: 2, count: 3 })).toEqual(['t2', 't5']);
    const all = [0, 1, 2].flatMap((index) => shardTasks(tasks, { index, count: 3 }));
    expect([...all].sort()).toEqual(tasks);
  });

  it('gives everything without a shard, nothing to a shard past the tasks, and refuses a bad shard', () => {
    expect(shardTasks(tasks)).toEqual(tasks);
    expect(shardTasks(tasks, { index: 0, count: 1 })).toEqual(tasks);
    expect(shardTasks(['a', 'b'], { index: 4, count: 5 })).toEqual([]);
    for (const bad of [{ index: 3, count: 3 }, { index: -1, count: 2 }, { index: 0, count: 0 }, { index: 0.5, count: 2 }] as Shard[]) {
      expect(() => shardTasks(tasks, bad)).toThrow(ShardError);
    }
  });

  it('parses K/N', () => {
    expect(parseShard('2/8')).toEqual({ index: 2, count: 8 });
    for (const bad of ['8/8', '1', 'a/b', '-1/3', '1/0']) expect(() => parseShard(bad)).toThrow(ShardError);
  });
});

describe('shardFromEnv', () => {
  it('reads a Slurm array, offset by its first id', () => {
    expect(shardFromEnv({ SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_COUNT: '3', SLURM_ARRAY_TASK_MIN: '0' })).toEqual({ index: 2, count: 3, source: 'slurm' });
    expect(shardFromEnv({ SLURM_ARRAY_TASK_ID: '5', SLURM_ARRAY_TASK_COUNT: '4', SLURM_ARRAY_TASK_MIN: '3' })).toEqual({ index: 2, count: 4, source: 'slurm' });
  });

  it('takes Slurm array ids as shard indexes when the count is given (a rerun of failed indexes)', () => {
    // `sbatch --array=3,7` of a 10-shard run: Slurm says COUNT=2, MIN=3; the shard is still 7 of 10.
    const rerun = { SLURM_ARRAY_TASK_ID: '7', SLURM_ARRAY_TASK_COUNT: '2', SLURM_ARRAY_TASK_MIN: '3' };
    expect(shardFromEnv(rerun, { shards: 10 })).toEqual({ index: 7, count: 10, source: 'slurm' });
    expect(shardFromEnv({ ...rerun, TASKGEN_SHARDS: '10' })).toEqual({ index: 7, count: 10, source: 'slurm' });
    expect(() => shardFromEnv(rerun, { shards: 5 })).toThrow(/index must be from 0 to 4/);
  });

  it('reads a Kubernetes Indexed Job with its count from the options or TASKGEN_SHARDS', () => {
    expect(shardFromEnv({ JOB_COMPLETION_INDEX: '1' }, { shards: 4 })).toEqual({ index: 1, count: 4, source: 'kubernetes' });
    expect(shardFromEnv({ JOB_COMPLETION_INDEX: '3', TASKGEN_SHARDS: '4' })).toEqual({ index: 3, count: 4, source: 'kubernetes' });
    expect(() => shardFromEnv({ JOB_COMPLETION_INDEX: '1' })).toThrow(/TASKGEN_SHARDS/);
  });

  it('reads RANK/WORLD_SIZE, prefers Slurm, and gives undefined for a plain environment', () => {
    expect(shardFromEnv({ RANK: '0', WORLD_SIZE: '2' })).toEqual({ index: 0, count: 2, source: 'rank' });
    expect(shardFromEnv({ RANK: '1', WORLD_SIZE: '2', SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_COUNT: '3' })).toMatchObject({ index: 0, count: 3 });
    expect(shardFromEnv({ PATH: '/bin', RANK: '1' })).toBeUndefined();
  });

  it('names a variable that is not a whole number or out of range', () => {
    expect(() => shardFromEnv({ SLURM_ARRAY_TASK_ID: 'x', SLURM_ARRAY_TASK_COUNT: '3' })).toThrow(/SLURM_ARRAY_TASK_ID="x"/);
    expect(() => shardFromEnv({ RANK: '2', WORLD_SIZE: '2' })).toThrow(ShardError);
    expect(() => shardFromEnv({ SLURM_ARRAY_TASK_ID: '1' })).toThrow(/SLURM_ARRAY_TASK_COUNT/);
  });
});
