/**
 * Where a session's episode is recorded: the first try of its task that is neither finished nor held, `<out>/<id>/`
 * for the first session of a task, then `<out>/_tries/<n>/<id>/` (`tryRunDir`), claimed with the attempt step's
 * claims so that any number of servers may share one out dir; published by one rename, or nothing at all.
 * @module
 */
import type { FileStore } from '../files/types';
import type { Task } from '../core/schemas';
import { MAX_TRIES, tryRunDir } from '../files/layout';
import { EpisodeClaims, type HeldClaim } from '../attempt/claims';
import { scanRun, syncResults } from '../attempt/run-dir';
import { readFinished } from '../attempt/episode-file';
import { TasksIndex } from '../attempt/tasks-file';
import { claimSetup, type StageSetup } from '../files/setup';

// Tries whose tasks.jsonl is kept read: the ones in use at once (each task's first open try) are a few.
const TASK_INDEXES = 32;

/** A claimed try of a task: record into `claim.staging`, then commit. */
export interface ClaimedTry {
  /** The try's run dir. */
  readonly run: string;
  /** The try number, 1 for the out dir itself. */
  readonly n: number;
  readonly claim: HeldClaim;
  /** The set-up digest of the try's run dir. */
  readonly setup: string;
}

/** Options of {@link EpisodeSlots}. */
export interface EpisodeSlotsOptions {
  readonly store: FileStore;
  readonly out: string;
  /** A claim older than this is stale (a dead server's): the episode time limit. */
  readonly staleMs: number;
  /** The run dirs' set-up (policy `env`, max steps, site prefix, server). */
  readonly setup: StageSetup;
  /** Record into tries another set-up wrote too (a `taskgen attempt` run of another policy); default refused. */
  readonly mixSetup?: boolean;
  readonly onWarning: (message: string) => void;
}

/** The out dir's tries, claimed for sessions. */
export class EpisodeSlots {
  private readonly claims = new Map<number, EpisodeClaims>();
  private readonly setups = new Map<number, Promise<string>>();
  /** Per try: its `tasks.jsonl` as last read (the tries used last; an RL run opens hundreds). */
  private readonly taskIndexes = new Map<string, TasksIndex>();
  /** Task ids already in each try's `tasks.jsonl` (written by this process). */
  private readonly merged = new Map<number, Set<string>>();
  /** Per try: the `tasks.jsonl` merge running or last run, and the batch of tasks waiting for the next one. */
  private readonly merges = new Map<number, Promise<void>>();
  private readonly mergeBatches = new Map<number, { tasks: Task[]; done: Promise<void> }>();
  /** Per run dir: the results sync running or last run, and the one waiting to start. */
  private readonly syncs = new Map<string, Promise<void>>();
  private readonly queued = new Map<string, Promise<void>>();
  /**
   * Per task: the first try not seen finished. A finished episode stays finished, so a reset starts looking there
   * instead of reading every try of the task again (an RL run gives one task hundreds of episodes).
   */
  private readonly firstOpen = new Map<string, number>();
  /** Per run dir: the verifier's `ok` of each finished episode seen (the episode stays on disk; only this is kept). */
  private readonly oks = new Map<string, Map<string, { readonly ok: boolean | undefined }>>();

  constructor(private readonly options: EpisodeSlotsOptions) {}

  /** Claims the first free try of `task` (its run dir gets the task and the set-up first). */
  async claim(task: Task): Promise<ClaimedTry> {
    const { store } = this.options;
    let allFinished = true;
    for (let n = this.firstOpen.get(task.task_id) ?? 1; n <= MAX_TRIES; n++) {
      const run = tryRunDir(this.options.out, n);
      if (await readFinished(store, run, task.task_id)) {
        if (allFinished) this.firstOpen.set(task.task_id, n + 1);
        continue;
      }
      allFinished = false; // a try in progress elsewhere may still end without an episode
      const claims = this.claimsOf(n, run);
      const got = await claims.acquire(task.task_id, async () => (await readFinished(store, run, task.task_id)) !== null);
      if (got.kind !== 'claimed') continue;
      try {
        for (const aside of got.claim.asides) this.options.onWarning(`episode ${task.task_id}: a dead server's partial episode was moved to ${aside}`);
        const setup = await this.setupOf(n, run);
        await this.mergeTask(n, run, task);
        return { run, n, claim: got.claim, setup };
      } catch (error) {
        await got.claim.release();
        throw error;
      }
    }
    throw new Error(`task ${task.task_id} has ${MAX_TRIES} episodes in ${this.options.out} (finished or in progress): no try is left`);
  }

  /**
   * After a commit: `results.jsonl` of the try's run dir from its finished episodes. Calls while one is waiting to
   * start share it (it will see their episodes), so episodes ending together cost one rewrite, not one each.
   */
  syncResults(run: string): Promise<void> {
    const queued = this.queued.get(run);
    if (queued) return queued;
    const next = (this.syncs.get(run) ?? Promise.resolve())
      .catch(() => {})
      .then(() => {
        this.queued.delete(run);
        return this.writeResults(run);
      });
    this.queued.set(run, next);
    this.syncs.set(run, next);
    return next;
  }

  // The first sync of a run dir reads every episode in it (moving torn ones aside); later ones read only the
  // episodes finished since (found by listing the dir): re-reading them all made each episode's end grow with the run.
  private async writeResults(run: string): Promise<void> {
    const { store, onWarning } = this.options;
    const tasks = this.tasksOf(run);
    let oks = this.oks.get(run);
    if (!oks) {
      const { ids } = await tasks.merge([], onWarning);
      oks = new Map([...(await scanRun(store, run, ids, { onWarning }))].map(([id, f]) => [id, { ok: f.ok }]));
      this.oks.set(run, oks);
    }
    await syncResults(store, run, tasks, oks, { keep: (f) => ({ ok: f.ok }), onKept: onWarning, onWarning, gradedOnly: true });
  }

  // The task into the try's tasks.jsonl. Sessions resetting together share one merge (one read and rewrite, not
  // one each racing the others); a batch that fails (a task changed since the run recorded it) is retried task by
  // task, so only the changed task's reset fails, with its own error.
  private mergeTask(n: number, run: string, task: Task): Promise<void> {
    const { onWarning } = this.options;
    const merged = this.merged.get(n) ?? new Set<string>();
    this.merged.set(n, merged);
    if (merged.has(task.task_id)) return Promise.resolve();
    let batch = this.mergeBatches.get(n);
    if (!batch) {
      const tasks: Task[] = [];
      const done = (this.merges.get(n) ?? Promise.resolve())
        .catch(() => {})
        .then(async () => {
          this.mergeBatches.delete(n);
          await this.tasksOf(run).merge(tasks, onWarning);
          for (const t of tasks) merged.add(t.task_id);
        });
      batch = { tasks, done };
      this.mergeBatches.set(n, batch);
      this.merges.set(n, done);
    }
    if (!batch.tasks.some((t) => t.task_id === task.task_id)) batch.tasks.push(task);
    return batch.done.catch(async () => {
      await this.tasksOf(run).merge([task], onWarning);
      merged.add(task.task_id);
    });
  }

  // The try's tasks index; the least recently used is dropped past TASK_INDEXES (read afresh if used again).
  private tasksOf(run: string): TasksIndex {
    let index = this.taskIndexes.get(run);
    if (index) this.taskIndexes.delete(run);
    else index = new TasksIndex(this.options.store, run);
    this.taskIndexes.set(run, index);
    if (this.taskIndexes.size > TASK_INDEXES) this.taskIndexes.delete(this.taskIndexes.keys().next().value!);
    return index;
  }

  private claimsOf(n: number, run: string): EpisodeClaims {
    let claims = this.claims.get(n);
    if (!claims) {
      claims = new EpisodeClaims({ store: this.options.store, run, staleMs: this.options.staleMs });
      this.claims.set(n, claims);
    }
    return claims;
  }

  private setupOf(n: number, run: string): Promise<string> {
    let digest = this.setups.get(n);
    if (!digest) {
      digest = (async () => {
        await this.options.store.mkdir(run);
        return (await claimSetup({ store: this.options.store, dir: run, setup: this.options.setup, mix: this.options.mixSetup ?? false })).digest;
      })();
      digest.catch(() => this.setups.delete(n));
      this.setups.set(n, digest);
    }
    return digest;
  }
}
