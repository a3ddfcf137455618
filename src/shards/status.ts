/**
 * `runStatus`: a run's progress across its shards (DESIGN.md §8), read from the run dir alone: finished
 * episodes, episodes in progress (their claims: host, pid, age, steps so far, stale or not) and what is left,
 * per shard, so a user can watch a job array and rerun the indexes that died.
 * @module
 */
import path from 'node:path';
import { readClaims, WORK_DIR, type FoundClaim } from '../attempt/claims';
import { EPISODE_FILES, RUN_FILES, tryRunDir } from '../files/layout';
import { runTries } from '../files/tries';
import { readFinished } from '../attempt/episode-file';
import { InputError } from '../core/errors';
import { nodeStore } from '../files/node';
import type { FileStore } from '../files/types';
import { readJsonl } from '../core/io';
import { TaskRefSchema } from '../core/schemas';

/** Options of {@link runStatus}. */
export interface RunStatusOptions {
  /** The run dir. */
  readonly run: string;
  /** The shard count; default the one written in the run's claims, else 1. */
  readonly shardCount?: number;
  /** A claim with no heartbeat for this long is stale: the episode time limit. Default 300 000 ms. */
  readonly staleMs?: number;
  /** Where the run is read from. Default the local disk. */
  readonly store?: FileStore;
  /** Tries per task, when more than the try dirs on disk (a run not started on every try). Default those on disk. */
  readonly attempts?: number;
}

/** An episode in progress. */
export interface RunningEpisode {
  /** The episode's task id. */
  readonly taskId: string;
  /** The shard its task falls in (its position in `tasks.jsonl` modulo the shard count). */
  readonly shard: number;
  /** The host named in its claim; `null` when the claim cannot be read. */
  readonly host: string | null;
  /** The process id named in its claim; `null` when the claim cannot be read. */
  readonly pid: number | null;
  /** Seconds since the episode started, and since its last heartbeat. */
  readonly ageS: number | null;
  /** Seconds since its last heartbeat; `null` when the claim does not say. */
  readonly heartbeatS: number | null;
  /** Steps recorded so far (screenshots in its staging dir). */
  readonly steps: number;
  /** Why its claim is stale (its process is gone, or silent too long), or `null` while it runs. */
  readonly stale: string | null;
  /** Its try, in a run of several tries per task. */
  readonly try?: number;
}

/** One shard's progress. */
export interface ShardStatus {
  /** The shard's index, 0-based. */
  readonly index: number;
  /** Tasks of the shard (positions `index`, `index + N`... of `tasks.jsonl`). */
  readonly tasks: number;
  /** Of these, the finished episodes. */
  readonly done: number;
  /** Steps of the finished episodes. */
  readonly steps: number;
  /** Claimed by a live process. */
  readonly running: number;
  /** Claimed by a process that is gone (taken over by the next process that comes to them). */
  readonly stale: number;
  /** Neither finished nor running (stale ones included). */
  readonly todo: number;
}

/** What {@link runStatus} returns. */
export interface RunStatus {
  /** The run dir, as given. */
  readonly run: string;
  /** The shard count used: the one given, else the claims', else 1. */
  readonly shardCount: number;
  /** Tasks in the run's `tasks.jsonl`. */
  readonly tasks: number;
  /** Tries per task (the try dirs on disk, `<run>/_tries/<n>/`, or the count given); 1 for a run of one try. */
  readonly attempts: number;
  /** Episodes to make: tasks times tries (a shard's `tasks` count its tries). */
  readonly episodes: number;
  /** Finished episodes, all shards together. */
  readonly done: number;
  /** Steps of those finished episodes. */
  readonly steps: number;
  /** Each shard's progress, by index. */
  readonly shards: readonly ShardStatus[];
  /** Episodes claimed but not finished, stale claims included. */
  readonly running: readonly RunningEpisode[];
  /** Shards with work left and no live episode: the indexes to start again. */
  readonly rerun: readonly number[];
}

/**
 * The progress of `run` per shard of `shardCount`: shard `K` has the tasks at positions `[K::N]` of the run's
 * `tasks.jsonl`, as `attempt --shard K/N` takes them from the same tasks file.
 */
export async function runStatus(options: RunStatusOptions): Promise<RunStatus> {
  const { run } = options;
  const store = options.store ?? nodeStore();
  const file = path.posix.join(run, RUN_FILES.tasks);
  if (!(await store.exists(file))) throw new InputError({ file }, 'no tasks file: is this a run dir, and has attempt started on it?');
  const tasks = await readJsonl(store, file, TaskRefSchema);
  // Every try is a run dir of its own (files/layout.ts); a shard takes tries, try n of task i being unit i * k + n - 1.
  const onDisk = (await runTries(store, run)).length;
  const attempts = Math.max(onDisk, options.attempts ?? 1);
  const tries = Array.from({ length: attempts }, (_, i) => tryRunDir(run, i + 1));
  const claimsOf = await Promise.all(tries.map((dir) => readClaims(store, dir, options.staleMs ?? 300_000)));
  const shardCount = options.shardCount ?? countFromClaims(claimsOf.flatMap((c) => [...c.values()])) ?? 1;
  const shards = Array.from({ length: shardCount }, (_, index) => ({ index, tasks: 0, done: 0, steps: 0, running: 0, stale: 0, todo: 0 }));
  const running: RunningEpisode[] = [];
  for (const [position, task] of tasks.entries()) {
    for (const [t, dir] of tries.entries()) {
      const shard = shards[(position * attempts + t) % shardCount]!;
      shard.tasks++;
      const finished = await readFinished(store, dir, task.task_id);
      if (finished) {
        shard.done++;
        shard.steps += finished.episode.steps;
        continue;
      }
      shard.todo++;
      const claim = claimsOf[t]!.get(task.task_id)?.at(-1);
      if (!claim) continue;
      if (claim.stale) shard.stale++;
      else shard.running++;
      running.push({ ...(await describeRunning(store, dir, task.task_id, shard.index, claim)), ...(attempts > 1 ? { try: t + 1 } : {}) });
    }
  }
  for (const s of shards) s.todo -= s.running;
  return {
    run,
    shardCount,
    tasks: tasks.length,
    attempts,
    episodes: tasks.length * attempts,
    done: shards.reduce((n, s) => n + s.done, 0),
    steps: shards.reduce((n, s) => n + s.steps, 0),
    shards,
    running,
    rerun: shards.filter((s) => s.todo > 0 && s.running === 0).map((s) => s.index),
  };
}

async function describeRunning(store: FileStore, run: string, taskId: string, shard: number, claim: FoundClaim): Promise<RunningEpisode> {
  const r = claim.record;
  const since = (iso: string | undefined) => (iso ? Math.round((Date.now() - Date.parse(iso)) / 1000) : null);
  const shots = await store.list(path.posix.join(run, WORK_DIR, `${taskId}.${claim.gen}`, EPISODE_FILES.screenshots));
  return {
    taskId,
    shard,
    host: r?.host ?? null,
    pid: r?.pid ?? null,
    ageS: since(r?.started),
    heartbeatS: since(r?.heartbeat),
    steps: shots.filter((e) => e.name.endsWith('.png') && !e.name.includes('.tmp-')).length,
    stale: claim.stale,
  };
}

// The `K/N` count written in the claims, when they agree.
function countFromClaims(claims: ReadonlyArray<readonly FoundClaim[]>): number | undefined {
  const counts = new Set<number>();
  for (const list of claims) for (const c of list) if (c.record?.shard) counts.add(Number(c.record.shard.split('/')[1]));
  return counts.size === 1 ? [...counts][0] : undefined;
}

/** The status as a few lines of text: totals, a row per shard, the episodes in progress, the shards to rerun. */
export function formatRunStatus(s: RunStatus): string {
  const tries = s.attempts > 1 ? ` (${s.tasks} tasks x ${s.attempts} tries)` : '';
  const lines = [`${s.run}: ${s.done} of ${s.episodes} episodes done${tries} (${s.steps} steps), ${s.shardCount} shard${s.shardCount === 1 ? '' : 's'}`];
  lines.push(['shard', 'tasks', 'done', 'steps', 'running', 'stale', 'to do'].map((h) => h.padStart(8)).join(''));
  for (const x of s.shards) {
    lines.push([`${x.index}/${s.shardCount}`, x.tasks, x.done, x.steps, x.running, x.stale, x.todo].map((v) => String(v).padStart(8)).join(''));
  }
  for (const r of s.running) {
    const who = r.host ? `${r.host} pid ${r.pid}, started ${r.ageS} s ago, heartbeat ${r.heartbeatS} s ago` : 'an unreadable claim';
    lines.push(`  ${r.stale ? 'stale' : 'running'} ${r.taskId}${r.try ? ` try ${r.try}` : ''} (shard ${r.shard}): ${who}, ${r.steps} steps so far${r.stale ? `; ${r.stale}` : ''}`);
  }
  lines.push(s.rerun.length ? `to rerun (work left, nothing running): shards ${s.rerun.join(',')}` : s.done === s.episodes ? 'all done' : 'nothing to rerun: every shard with work left is running');
  return lines.join('\n');
}
