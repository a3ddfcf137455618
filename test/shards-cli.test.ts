import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCatalog, startSandbox, type SandboxServer } from '../sandbox/index';
import { fakeLLM, runStatus, runValidate } from '../src/index';
import { finish, runCli, spawnScript, type Finished } from './helpers/cli';

// Many `taskgen attempt` processes on one run dir (DESIGN.md §8), with the sandbox's stand-in oracle: three
// shards at once plus a duplicate of one of them, one shard killed with SIGKILL mid-episode and started again.
// The run dir must end as a one-process run's: one finished episode per task, the same tasks.jsonl and
// results.jsonl, nothing lost (the killed partial episode is kept under _aside/).

let sandbox: SandboxServer;
let tmp: string;
let tasksFile: string;
let taskIds: string[];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  const catalog = defaultCatalog();
  const tasks = catalog.sites().slice(0, 2).flatMap((site) => catalog.tasks(site)!.human.slice(0, 3));
  taskIds = tasks.map((t) => t.task_id);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'shards-cli-'));
  tasksFile = path.join(tmp, 'tasks.jsonl');
  await writeFile(tasksFile, tasks.map((t) => JSON.stringify(t)).join('\n') + '\n');
});
afterAll(async () => {
  await sandbox?.close();
  await rm(tmp, { recursive: true, force: true });
});

function attempt(out: string, ...extra: string[]): ChildProcess {
  const args = ['attempt', '--tasks', tasksFile, '--out', out, '--base-url', sandbox.url, '--policy', 'oracle',
    '--concurrency', '1', '--no-progress', ...extra];
  return spawnScript('src/cli.ts', args, { detached: true });
}

interface Summary {
  tasks: number;
  skipped: number;
  recorded: number;
  failed: number;
  elsewhere?: number;
  verified: number;
}

function summary(r: Finished): Summary {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Summary;
}

// The pid's claim in `_work/` once its episode has recorded a screenshot: the process is mid-episode.
async function claimInProgress(out: string, pid: number): Promise<string | null> {
  const work = path.join(out, '_work');
  for (const name of existsSync(work) ? await readdir(work) : []) {
    if (!name.endsWith('.claim')) continue;
    const claim = JSON.parse(await readFile(path.join(work, name), 'utf8').catch(() => '{}'));
    const shots = path.join(work, name.slice(0, -'.claim'.length), 'screenshots');
    if (claim.pid === pid && existsSync(shots) && (await readdir(shots)).some((f) => f.endsWith('.png'))) return claim.task_id;
  }
  return null;
}

const read = (file: string) => readFile(file, 'utf8');

describe('many attempt processes on one run dir', () => {
  it('three shards, a duplicate shard and a shard killed mid-episode end as one process would', async () => {
    const whole = path.join(tmp, 'whole');
    const shared = path.join(tmp, 'shared');
    const one = finish(attempt(whole));
    const shards = [0, 1, 2].map((k) => attempt(shared, '--shard', `${k}/3`));
    const twin = attempt(shared, '--shard', '2/3'); // a duplicate array index
    const done = shards.map((child) => finish(child));
    const twinDone = finish(twin);

    // SIGKILL shard 1 (and its Chromium) while one of its episodes is being recorded.
    const victim = shards[1]!;
    let killedTask: string | null = null;
    while (victim.exitCode === null && !(killedTask = await claimInProgress(shared, victim.pid!))) await new Promise((r) => setTimeout(r, 20));
    expect(killedTask, 'shard 1 was killed mid-episode').not.toBeNull();
    process.kill(-victim.pid!, 'SIGKILL');
    expect((await done[1]!).code).toBeNull();

    // The others finish their shards; the killed episode shows as stale, and shard 1 as the one to rerun.
    const [s0, s2, s2b] = [summary(await done[0]!), summary(await done[2]!), summary(await twinDone)];
    const status = await runStatus({ run: shared });
    expect(status.shardCount).toBe(3);
    expect(status.running).toEqual([expect.objectContaining({ taskId: killedTask, shard: 1, pid: victim.pid, stale: expect.stringContaining('gone') })]);
    expect(status.rerun).toEqual([1]);
    expect(status.shards[0]).toMatchObject({ tasks: 2, done: 2, todo: 0 });

    const rerun = summary(await finish(attempt(shared, '--shard', '1/3')));
    const baseline = summary(await one);

    // Each task once: the duplicate pair split shard 2 and neither ran an episode the other had.
    expect(s0).toMatchObject({ tasks: 2, recorded: 2, failed: 0 });
    expect(s2.recorded + s2b.recorded).toBe(2);
    expect(s2.recorded + (s2.elsewhere ?? 0)).toBe(2);
    expect(s2b.recorded + (s2b.elsewhere ?? 0)).toBe(2);
    expect(rerun).toMatchObject({ tasks: 2, failed: 0 });
    expect(rerun.skipped + rerun.recorded).toBe(2);
    expect(baseline).toMatchObject({ tasks: 6, recorded: 6, verified: 6 });

    // The run files equal the one-process run's, and every task has exactly one finished episode.
    expect(await read(path.join(shared, 'tasks.jsonl'))).toBe(await read(path.join(whole, 'tasks.jsonl')));
    expect(await read(path.join(shared, 'results.jsonl'))).toBe(await read(path.join(whole, 'results.jsonl')));
    const entries = (dir: string) => readdir(dir).then((names) => names.filter((n) => n !== '_aside').sort());
    expect(await entries(shared)).toEqual(await entries(whole));
    for (const id of taskIds) {
      const episode = JSON.parse(await read(path.join(shared, id, 'episode.json')));
      expect(episode.task.task_id).toBe(id);
      expect(await read(path.join(shared, id, 'rows', 'rows.jsonl'))).toBe(await read(path.join(whole, id, 'rows', 'rows.jsonl')));
    }
    expect(await readdir(path.join(shared, '_work'))).toEqual([]);

    // Nothing lost: the killed episode's partial recording and claim were moved aside, and nothing else was.
    const aside = await readdir(path.join(shared, '_aside'));
    expect(aside).toEqual([expect.stringMatching(new RegExp(`^${killedTask}\\.\\d+\\.stale\\.`))]);
    const claim = JSON.parse(await read(path.join(shared, '_aside', aside[0]!, 'claim.json')));
    expect(claim).toMatchObject({ task_id: killedTask, pid: victim.pid, shard: '1/3' });
    expect((await readdir(path.join(shared, '_aside', aside[0]!, 'screenshots'))).length).toBeGreaterThan(0);

    // A writer that died between writing an older view of results.jsonl and checking it: validate re-derives it.
    const results = await read(path.join(whole, 'results.jsonl'));
    await writeFile(path.join(shared, 'results.jsonl'), results.split('\n')[0] + '\n');
    const scored = await runValidate({ run: shared, llm: fakeLLM({ replies: ['{"verdict": "SUCCESS"}'] }) });
    expect(scored.report.overall.episodes).toBe(6);
    expect(await read(path.join(shared, 'results.jsonl'))).toBe(results);

    const final = await runCli(['status', shared]);
    expect(final.code).toBe(0);
    expect(final.stdout).toContain('6 of 6 episodes done');
    expect(final.stdout).toContain('all done');
  });
});
