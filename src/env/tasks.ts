/**
 * The environment's tasks: a list in splits, picked by id, by split and index, or by seed.
 * @module
 */
import type { Task } from '../core/schemas';
import type { Claim } from '../claims/schema';
import type { RewardSource } from '../attempt/reward';
import { assertPlainName } from '../core/names';
import type { EnvReset } from './protocol';

/** An error a client caused (an unknown task, a bad index): the session stays open. */
export class EnvRequestError extends Error {
  override readonly name = 'EnvRequestError';
}

/** A task as the server lists it (`GET /tasks`). */
export interface EnvTaskInfo {
  readonly task_id: string;
  readonly site: string;
  readonly split: string;
  readonly instruction: string;
  readonly task_kind: string | null;
  /** How the episode is rewarded: `verifier`, `written-verifier`, `judge` or `none`. */
  readonly reward_source: string;
}

/** The tasks of a server and their splits. */
export class EnvTasks {
  private readonly byId = new Map<string, { task: Task; split: string }>();
  private readonly bySplit = new Map<string, Task[]>();
  private readonly all: Task[] = [];

  /**
   * @param tasks - the tasks; a repeated id is an error.
   * @param splitOf - each task's split (default `train`).
   * @param written - written verifiers by task id, for tasks without one of their own.
   */
  constructor(
    tasks: readonly Task[],
    splitOf: (task: Task) => string = () => 'train',
    readonly written: ReadonlyMap<string, Claim> = new Map(),
  ) {
    for (const task of tasks) {
      assertPlainName(task.task_id, 'task id');
      assertPlainName(task.site, 'site');
      if (this.byId.has(task.task_id)) throw new Error(`serveEnv: tasks: task ${task.task_id} is listed twice`);
      const split = splitOf(task);
      this.byId.set(task.task_id, { task, split });
      this.all.push(task);
      const list = this.bySplit.get(split) ?? [];
      list.push(task);
      this.bySplit.set(split, list);
    }
    if (this.all.length === 0) throw new Error('serveEnv: tasks: no tasks to serve');
  }

  /** How many tasks. */
  get size(): number {
    return this.all.length;
  }

  /** The splits and their task counts. */
  splits(): Record<string, number> {
    return Object.fromEntries([...this.bySplit].map(([k, v]) => [k, v.length]));
  }

  /** A task's split. */
  splitOf(taskId: string): string | null {
    return this.byId.get(taskId)?.split ?? null;
  }

  /** The task `reset` asks for; a task or split that does not exist is an {@link EnvRequestError} naming it. */
  pick(reset: EnvReset): Task {
    if (reset.task_id !== undefined) {
      const found = this.byId.get(reset.task_id);
      if (!found) throw new EnvRequestError(`reset: unknown task_id ${JSON.stringify(reset.task_id)} (GET /tasks lists the ${this.all.length} tasks)`);
      return found.task;
    }
    const list = reset.split === undefined ? this.all : this.bySplit.get(reset.split);
    if (!list) throw new EnvRequestError(`reset: unknown split ${JSON.stringify(reset.split)} (the splits are ${[...this.bySplit.keys()].join(', ')})`);
    if (reset.index !== undefined) {
      const task = list[reset.index];
      if (!task) throw new EnvRequestError(`reset: index ${reset.index} is past the ${list.length} tasks of ${reset.split === undefined ? 'the server' : `split ${reset.split}`}`);
      return task;
    }
    return list[(reset.seed ?? 0) % list.length]!;
  }

  /** How a task is rewarded. */
  rewardSource(task: Task, judge: boolean): RewardSource {
    if (task.verifier) return 'verifier';
    if (this.written.has(task.task_id)) return 'written-verifier';
    return judge ? 'judge' : 'none';
  }

  /** A page of the task list, of one split or all. */
  list(options: { split?: string; offset?: number; limit?: number; judge: boolean }): { total: number; tasks: EnvTaskInfo[] } {
    const list = options.split === undefined ? this.all : (this.bySplit.get(options.split) ?? []);
    const offset = options.offset ?? 0;
    const page = list.slice(offset, offset + (options.limit ?? 1000));
    return {
      total: list.length,
      tasks: page.map((task) => ({
        task_id: task.task_id,
        site: task.site,
        split: this.byId.get(task.task_id)!.split,
        instruction: task.instruction,
        task_kind: typeof task.task_kind === 'string' ? task.task_kind : null,
        reward_source: this.rewardSource(task, options.judge),
      })),
    };
  }

  /** A task by id. */
  get(taskId: string): Task | undefined {
    return this.byId.get(taskId)?.task;
  }
}
