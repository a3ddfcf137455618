/**
 * Many writers on one run dir (DESIGN.md §8): an episode in progress is claimed, recorded in a private staging
 * dir, and published by one atomic rename, so processes sharing a run dir on a shared file system (shards, or
 * a shard restarted while its old job is still dying) never redo, delete or mix each other's episodes. Only
 * `createExclusive` (link) and `rename` need to be atomic, as they are on NFS; nothing relies on locks.
 *
 * Layout under the run dir:
 * - `_work/<task_id>.<gen>.claim`: the claim, JSON {@link ClaimRecord}; its heartbeat is renewed while the
 *   episode runs. Generations only grow: a claim is taken over by creating the next one, never by replacing
 *   the old file, so two processes that both find a claim stale cannot both win.
 * - `_work/<task_id>.<gen>/`: the episode as it is recorded; renamed to `<task_id>/` when finished. A rename
 *   onto a finished episode fails, so a task never gets two.
 * - `_aside/<task_id>.<gen>.<why>.<time>.<unique>/` (`stale`, `lost`, `duplicate`): the partial episode (and claim) of a process found dead, or an episode
 *   that lost the race to another's finished one; kept for inspection, never read as data.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { FileStore } from '../files/types';
import { isNotFound, readTextIfExists } from '../files/types';
import { RUN_DIRS, keptName } from '../files/layout';

/** Claims and staging dirs of episodes in progress, under the run dir (named in `src/files/layout.ts`). */
export const WORK_DIR = RUN_DIRS.work;
/** Partial episodes of dead processes, and duplicates, moved out of the way under the run dir. */
export const ASIDE_DIR = RUN_DIRS.aside;

/** A claim file: who runs the episode, since when, and when it last said it was alive. */
export const ClaimSchema = z.object({
  task_id: z.string(),
  gen: z.number().int().positive(),
  /** Random; tells this claim from an earlier one of the same host and pid. */
  token: z.string(),
  host: z.string(),
  pid: z.number().int(),
  /** The process's start time in clock ticks since boot (`/proc/<pid>/stat`), to tell a reused pid; null off Linux. */
  pid_start: z.string().nullable(),
  started: z.string(),
  heartbeat: z.string(),
  /** `K/N`, or null for an unsharded run. */
  shard: z.string().nullable(),
});

/** A claim as written in `_work/<task_id>.<gen>.claim`. */
export type ClaimRecord = z.infer<typeof ClaimSchema>;

/** A claim found in a run dir, and whether it is stale (then why). */
export interface FoundClaim {
  readonly file: string;
  readonly gen: number;
  /** `null` when the file does not parse. */
  readonly record: ClaimRecord | null;
  readonly stale: string | null;
}

/** Options of {@link EpisodeClaims}. */
export interface ClaimsOptions {
  readonly store: FileStore;
  readonly run: string;
  /** A claim whose heartbeat is older than this is stale: the episode time limit. */
  readonly staleMs: number;
  /** How often a held claim's heartbeat is renewed. Default `staleMs / 5`, between 1 s and 60 s. */
  readonly heartbeatMs?: number;
  /** This writer's shard, written into its claims. */
  readonly shard?: { readonly index: number; readonly count: number };
}

/** What {@link EpisodeClaims.acquire} found. */
export type Acquired =
  | { readonly kind: 'claimed'; readonly claim: HeldClaim }
  /** The episode is finished (by anyone). */
  | { readonly kind: 'finished' }
  /** Another live process holds it. */
  | { readonly kind: 'busy'; readonly holder: ClaimRecord | null };

/** A claim this process holds. */
export interface HeldClaim {
  readonly taskId: string;
  readonly gen: number;
  /** Where to record the episode. */
  readonly staging: string;
  /** Aborted when the claim is found taken over: stop the episode, it is someone else's now. */
  readonly lost: AbortSignal;
  /** Earlier partial episodes moved aside by this takeover. */
  readonly asides: readonly string[];
  /** Publishes the staging dir as `<run>/<task_id>/` and releases; `duplicate` when one was there (ours moved aside). */
  commit(): Promise<'committed' | 'duplicate'>;
  /** Stops the heartbeat and removes the claim file (the staging dir is the caller's to discard). */
  release(): Promise<void>;
  /** Moves the staging dir to `_aside/` (`why` in its name), unpublished, and releases; returns where. */
  setAside(why: string): Promise<string>;
}

const CLAIM_FILE = /^(.+)\.(\d+)\.claim$/;
const STAGING_DIR = /^(.+)\.(\d+)$/;

/** Claims episodes of one run dir for this process. */
export class EpisodeClaims {
  private readonly store: FileStore;
  private readonly work: string;
  private readonly host = hostname();
  private readonly pidStart = processStart(process.pid);
  private readonly heartbeatMs: number;

  constructor(private readonly options: ClaimsOptions) {
    this.store = options.store;
    this.work = path.posix.join(options.run, WORK_DIR);
    this.heartbeatMs = options.heartbeatMs ?? Math.min(60_000, Math.max(1000, options.staleMs / 5));
  }

  /**
   * Claims `taskId` unless it is finished (`isFinished`) or held by a live process. A stale claim is taken
   * over: its partial episode is moved aside. Safe against any number of processes doing the same at once.
   */
  async acquire(taskId: string, isFinished: () => Promise<boolean>): Promise<Acquired> {
    if (await isFinished()) return { kind: 'finished' };
    const before = await this.claimsOf(taskId);
    const top = before.at(-1);
    if (top && !top.stale) return { kind: 'busy', holder: top.record };
    const gen = (top?.gen ?? 0) + 1;
    const record = this.record(taskId, gen);
    const file = this.claimFile(taskId, gen);
    if (!(await this.store.createExclusive(file, json(record)))) return { kind: 'busy', holder: null };
    // A process that read an older listing may have made a higher generation meanwhile: the highest one wins.
    const after = await this.claimsOf(taskId);
    if ((after.at(-1)?.gen ?? 0) > gen) {
      await this.store.remove(file);
      return { kind: 'busy', holder: after.at(-1)?.record ?? null };
    }
    const held = this.hold(record);
    if (await isFinished()) {
      await held.release();
      return { kind: 'finished' };
    }
    for (const old of after.filter((c) => c.gen < gen)) held.asides.push(await this.moveAside(taskId, old));
    for (const orphan of await this.orphanStaging(taskId, gen)) held.asides.push(await this.moveAside(taskId, { gen: orphan, file: null }));
    return { kind: 'claimed', claim: held };
  }

  /** The claims of `taskId`, lowest generation first, each with whether it is stale. */
  async claimsOf(taskId: string): Promise<FoundClaim[]> {
    return (await readClaims(this.store, this.options.run, this.options.staleMs, taskId)).get(taskId) ?? [];
  }

  private record(taskId: string, gen: number): ClaimRecord {
    const now = new Date().toISOString();
    const { shard } = this.options;
    return {
      task_id: taskId,
      gen,
      token: randomBytes(8).toString('hex'),
      host: this.host,
      pid: process.pid,
      pid_start: this.pidStart,
      started: now,
      heartbeat: now,
      shard: shard ? `${shard.index}/${shard.count}` : null,
    };
  }

  private claimFile(taskId: string, gen: number): string {
    return path.posix.join(this.work, `${taskId}.${gen}.claim`);
  }

  // Renews the heartbeat until released; aborts `lost` when the claim is gone or a higher generation exists.
  private hold(record: ClaimRecord): HeldClaim & { asides: string[] } {
    const { store } = this;
    const file = this.claimFile(record.task_id, record.gen);
    const staging = path.posix.join(this.work, `${record.task_id}.${record.gen}`);
    const lost = new AbortController();
    let released = false;
    const stillMine = async (): Promise<string | null> => {
      const text = await readTextIfExists(store, file);
      if (text === null || parseClaim(text)?.token !== record.token) return 'its claim file was replaced or removed';
      const top = (await this.claimsOf(record.task_id)).at(-1);
      return top && top.gen > record.gen ? `another process (${describeHolder(top.record)}) took it over` : null;
    };
    let beating = Promise.resolve();
    const timer = setInterval(() => {
      beating = beating.then(async () => {
        if (released || lost.signal.aborted) return;
        const why = await stillMine().catch((e: unknown) => `its claim could not be read (${String(e)})`);
        if (why) lost.abort(new ClaimLostError(record.task_id, why));
        else await store.writeAtomic(file, json({ ...record, heartbeat: new Date().toISOString() })).catch(() => {});
      });
    }, this.heartbeatMs);
    timer.unref?.();
    const release = async () => {
      if (released) return;
      released = true;
      clearInterval(timer);
      await beating;
      await store.remove(file);
    };
    const held = {
      taskId: record.task_id,
      gen: record.gen,
      staging,
      lost: lost.signal,
      asides: [] as string[],
      release,
      setAside: async (why: string): Promise<string> => {
        const to = this.asidePath(record.task_id, record.gen, why);
        try {
          await ignoreMissing(store.rename(staging, to));
        } finally {
          await release();
        }
        return to;
      },
      commit: async (): Promise<'committed' | 'duplicate'> => {
        const why = await stillMine();
        if (why) {
          await release();
          await ignoreMissing(store.rename(staging, this.asidePath(record.task_id, record.gen, 'lost')));
          throw new ClaimLostError(record.task_id, why);
        }
        try {
          await store.rename(staging, path.posix.join(this.options.run, record.task_id));
          return 'committed';
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
          await store.rename(staging, this.asidePath(record.task_id, record.gen, 'duplicate'));
          return 'duplicate';
        } finally {
          await release();
        }
      },
    };
    return held;
  }

  private asidePath(taskId: string, gen: number, why: string): string {
    return path.posix.join(this.options.run, ASIDE_DIR, keptName(`${taskId}.${gen}`, why));
  }

  // Moves a stale claim's partial episode (and its claim file) aside; returns where.
  private async moveAside(taskId: string, old: { gen: number; file: string | null }): Promise<string> {
    const to = this.asidePath(taskId, old.gen, 'stale');
    const staging = path.posix.join(this.work, `${taskId}.${old.gen}`);
    await ignoreMissing(this.store.rename(staging, to));
    await this.store.mkdir(to);
    if (old.file) await ignoreMissing(this.store.rename(old.file, path.posix.join(to, 'claim.json')));
    return to;
  }

  // Staging dirs of `taskId` up to `gen` that have no claim file (a process that died between removing its
  // staging dir and its claim, or one that kept writing after losing its claim), and one left at `gen` itself.
  private async orphanStaging(taskId: string, gen: number): Promise<number[]> {
    const entries = await this.store.list(this.work);
    const claimed = new Set(entries.filter((e) => !e.isDirectory).map((e) => e.name));
    return entries
      .filter((e) => e.isDirectory)
      .map((e) => STAGING_DIR.exec(e.name))
      .filter((m): m is RegExpExecArray => m !== null && m[1] === taskId && (Number(m[2]) === gen || (Number(m[2]) < gen && !claimed.has(`${m[0]}.claim`))))
      .map((m) => Number(m[2]));
  }
}

/** A claim this process held was taken over by another (it was judged stale): the episode is dropped. */
export class ClaimLostError extends Error {
  override readonly name = 'ClaimLostError';
  constructor(
    readonly taskId: string,
    why: string,
  ) {
    super(`episode ${taskId}: claim lost: ${why}`);
  }
}

/**
 * Every claim in a run dir by task id (or only `taskId`'s), lowest generation first, with why each is stale:
 * its process is gone (same host, pid not running or reused), its heartbeat is older than `staleMs`, or the
 * file does not parse.
 */
export async function readClaims(store: FileStore, run: string, staleMs: number, taskId?: string): Promise<Map<string, FoundClaim[]>> {
  const work = path.posix.join(run, WORK_DIR);
  const found = new Map<string, FoundClaim[]>();
  const host = hostname();
  for (const entry of await store.list(work)) {
    const m = entry.isDirectory ? null : CLAIM_FILE.exec(entry.name);
    if (!m || (taskId !== undefined && m[1] !== taskId)) continue;
    const file = path.posix.join(work, entry.name);
    const text = await readTextIfExists(store, file);
    if (text === null) continue; // released meanwhile
    const record = parseClaim(text);
    const claim: FoundClaim = { file, gen: Number(m[2]), record, stale: record ? staleness(record, host, staleMs) : 'the claim file does not parse' };
    found.set(m[1]!, [...(found.get(m[1]!) ?? []), claim]);
  }
  for (const list of found.values()) list.sort((a, b) => a.gen - b.gen);
  return found;
}

/** `host pid 123, 42 s old` for messages. */
export function describeHolder(record: ClaimRecord | null): string {
  if (!record) return 'an unknown process';
  const age = Math.round((Date.now() - Date.parse(record.started)) / 1000);
  return `${record.host} pid ${record.pid}${record.shard ? ` shard ${record.shard}` : ''}, started ${age} s ago`;
}

// Why the claim is stale, or null while its process may be alive.
function staleness(record: ClaimRecord, host: string, staleMs: number): string | null {
  const age = Date.now() - Date.parse(record.heartbeat);
  if (!(age <= staleMs)) return `no heartbeat for ${Math.round(age / 1000)} s (limit ${Math.round(staleMs / 1000)} s)`;
  if (record.host !== host) return null;
  if (record.pid === process.pid) return record.pid_start === processStart(process.pid) && record.pid_start !== null ? null : 'an earlier process with this pid';
  if (!pidAlive(record.pid)) return `process ${record.pid} is gone`;
  const start = processStart(record.pid);
  if (record.pid_start !== null && start !== null && start !== record.pid_start) return `process ${record.pid} is gone (its pid was reused)`;
  return null;
}

function parseClaim(text: string): ClaimRecord | null {
  try {
    const parsed = ClaimSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// Field 22 of /proc/<pid>/stat (after the parenthesised command name, which may hold spaces).
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function json(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

async function ignoreMissing(work: Promise<void>): Promise<void> {
  try {
    await work;
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}
