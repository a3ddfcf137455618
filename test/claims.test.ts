import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeStore } from '../src/index';
import { ClaimLostError, EpisodeClaims, readClaims, type ClaimRecord } from '../src/attempt/claims';
import { tempDir } from './helpers/runs';

// The claim protocol of many writers on one run dir (DESIGN.md §8), on the local disk.

const store = nodeStore();
const never = async () => false;

function claims(run: string, staleMs = 60_000, heartbeatMs?: number) {
  return new EpisodeClaims({ store, run, staleMs, ...(heartbeatMs ? { heartbeatMs } : {}) });
}

// A claim left by someone else: `pid` on `host`, last heard of `silentMs` ago, with a partial episode.
async function foreignClaim(run: string, taskId: string, gen: number, over: Partial<ClaimRecord>, silentMs = 0) {
  const when = new Date(Date.now() - silentMs).toISOString();
  const record: ClaimRecord = {
    task_id: taskId, gen, token: 'old', host: os.hostname(), pid: process.pid, pid_start: null, started: when, heartbeat: when, shard: '0/2', ...over,
  };
  await mkdir(path.join(run, '_work', `${taskId}.${gen}`, 'screenshots'), { recursive: true });
  await writeFile(path.join(run, '_work', `${taskId}.${gen}`, 'screenshots', 'step_0.png'), 'png');
  await writeFile(path.join(run, '_work', `${taskId}.${gen}.claim`), JSON.stringify(record));
}

const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

describe('episode claims', () => {
  it('lets one process hold an episode; the others find it busy, then finished once published', async () => {
    const run = await tempDir('claims-');
    const a = await claims(run).acquire('t1', never);
    expect(a.kind).toBe('claimed');
    if (a.kind !== 'claimed') return;
    expect(await claims(run).acquire('t1', never)).toMatchObject({ kind: 'busy', holder: { pid: process.pid, task_id: 't1' } });
    await store.writeAtomic(path.join(a.claim.staging, 'episode.json'), '{}');
    expect(await a.claim.commit()).toBe('committed');
    expect(await readFile(path.join(run, 't1', 'episode.json'), 'utf8')).toBe('{}');
    expect(await readdir(path.join(run, '_work'))).toEqual([]);
    expect(await claims(run).acquire('t1', async () => existsSync(path.join(run, 't1', 'episode.json')))).toEqual({ kind: 'finished' });
  });

  it('takes over the claim of a dead process or a silent one, moving its partial episode aside', async () => {
    const run = await tempDir('claims-');
    await foreignClaim(run, 'dead', 1, { pid: deadPid() });
    await foreignClaim(run, 'silent', 3, { host: 'another-host', pid: 1 }, 120_000);
    await foreignClaim(run, 'alive', 1, { host: 'another-host', pid: 1 }, 1000);
    const found = await readClaims(store, run, 60_000);
    expect(found.get('dead')![0]!.stale).toMatch(/process \d+ is gone/);
    expect(found.get('silent')![0]!.stale).toMatch(/no heartbeat for 120 s/);
    expect(found.get('alive')![0]!.stale).toBeNull();

    const mine = claims(run);
    expect((await mine.acquire('alive', never)).kind).toBe('busy');
    for (const [task, gen] of [['dead', 2], ['silent', 4]] as const) {
      const got = await mine.acquire(task, never);
      expect(got).toMatchObject({ kind: 'claimed', claim: { gen } });
      if (got.kind !== 'claimed') continue;
      expect(got.claim.asides).toHaveLength(1);
      expect(await readdir(path.join(got.claim.asides[0]!, 'screenshots'))).toEqual(['step_0.png']);
      expect(JSON.parse(await readFile(path.join(got.claim.asides[0]!, 'claim.json'), 'utf8'))).toMatchObject({ task_id: task, token: 'old' });
      await got.claim.release();
    }
  });

  it('gives a stale claim to exactly one of many processes taking it over at once', async () => {
    const run = await tempDir('claims-');
    await foreignClaim(run, 't', 1, { pid: deadPid() });
    const got = await Promise.all(Array.from({ length: 6 }, () => claims(run).acquire('t', never)));
    expect(got.filter((g) => g.kind === 'claimed')).toHaveLength(1);
    expect(got.filter((g) => g.kind === 'busy')).toHaveLength(5);
    expect((await readdir(path.join(run, '_aside'))).filter((n) => n.startsWith('t.1.stale.'))).toHaveLength(1);
  });

  it('tells a holder whose claim was taken over, and keeps its recording aside instead of publishing it', async () => {
    const run = await tempDir('claims-');
    const got = await claims(run, 60_000, 50).acquire('t', never);
    if (got.kind !== 'claimed') throw new Error(got.kind);
    await store.writeAtomic(path.join(got.claim.staging, 'episode.json'), '{}');
    await foreignClaim(run, 't', 2, { host: 'another-host', pid: 1 }); // another process found ours stale
    await new Promise((resolve) => got.claim.lost.addEventListener('abort', resolve, { once: true }));
    expect(got.claim.lost.reason).toBeInstanceOf(ClaimLostError);
    await expect(got.claim.commit()).rejects.toThrow(/took it over/);
    expect(existsSync(path.join(run, 't'))).toBe(false);
    expect((await readdir(path.join(run, '_aside'))).filter((n) => n.startsWith('t.1.lost.'))).toHaveLength(1);
  });

  it('never publishes a second episode over a finished one: the later copy is moved aside', async () => {
    const run = await tempDir('claims-');
    const got = await claims(run).acquire('t', never);
    if (got.kind !== 'claimed') throw new Error(got.kind);
    await mkdir(path.join(run, 't'));
    await writeFile(path.join(run, 't', 'episode.json'), 'first');
    await store.writeAtomic(path.join(got.claim.staging, 'episode.json'), 'second');
    expect(await got.claim.commit()).toBe('duplicate');
    expect(await readFile(path.join(run, 't', 'episode.json'), 'utf8')).toBe('first');
    const aside = await readdir(path.join(run, '_aside'));
    expect(await readFile(path.join(run, '_aside', aside[0]!, 'episode.json'), 'utf8')).toBe('second');
  });
});
