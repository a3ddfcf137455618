import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHost, connectEnv, nodeStore, runAttempt, runTries, serveEnv, verifyEpisode, type BrowserHost, type EnvClient, type EnvEvent, type EnvStepResult, type Verifier } from 'miniweb-taskgen';
import { oraclePolicy, sandboxEvidence, startSandbox, type SandboxServer, type SandboxTask } from 'miniweb-taskgen/sandbox';
import { exited, resolveStep, startEnvCli, type EnvCli } from './helpers/env';

// Stopping the environment server with sessions in flight (the library's close() and `taskgen env` on SIGTERM), and
// several servers and an attempt run recording into one out dir. One sandbox and one browser for the file.

let sandbox: SandboxServer;
let host: BrowserHost;
let tmp: string;
let info: SandboxTask;
let action: SandboxTask;
let tasksFile: string;
const children: EnvCli[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, catalog: { variants: 1, testVariants: [] } });
  host = browserHost();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'env-stop-'));
  const human = sandbox.catalog.tasks(sandbox.catalog.sites()[0]!)!.human;
  info = human.find((t) => t.task_kind === 'info')!;
  action = human.find((t) => t.task_kind === 'action')!;
  tasksFile = path.join(tmp, 'tasks.jsonl');
  await writeFile(tasksFile, `${JSON.stringify(info)}\n${JSON.stringify(action)}\n`);
});
afterAll(async () => {
  for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  await host?.close();
  await sandbox?.close();
  await rm(tmp, { recursive: true, force: true });
});

const evidence = () => sandboxEvidence({ url: sandbox.url });
const cliArgs = (out: string, ...more: string[]) => ['--tasks', tasksFile, '--base-url', sandbox.url, '--evidence', 'sandbox', '--out', out, '--no-screenshot', ...more];
const lines = async (file: string) => (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean);
const claimsIn = async (run: string) => (await readdir(path.join(run, '_work')).catch(() => [])).filter((n) => n.endsWith('.claim'));

// Plays `task`'s oracle up to (not including) its last step; returns the last reply and the last step as an action.
async function playAllButLast(c: EnvClient, task: SandboxTask): Promise<{ last: EnvStepResult; final: ReturnType<typeof resolveStep> }> {
  let r = await c.reset({ task_id: task.task_id });
  for (const step of task.oracle.slice(0, -1)) r = await c.step({ action: resolveStep(step, r.observation.elements) });
  return { last: r, final: resolveStep(task.oracle.at(-1)!, r.observation.elements) };
}

async function play(url: string, task: SandboxTask): Promise<EnvStepResult> {
  const c = await connectEnv(url);
  try {
    const { final } = await playAllButLast(c, task);
    return await c.step({ action: final });
  } finally {
    await c.close();
  }
}

// A verifier that waits for `open()` once it is called (the episode's last step then is a message being answered).
function gatedVerify() {
  let open!: () => void;
  let called!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<void>((resolve) => (called = resolve));
  return {
    open,
    reached,
    verify: async (task: SandboxTask | { verifier?: unknown }, input: Parameters<typeof verifyEpisode>[1]) => {
      called();
      await gate;
      return verifyEpisode(task.verifier as Verifier, input);
    },
  };
}

describe('stopping the server', () => {
  it('close(): /health says so and new sessions are refused at once; an idle session gets SESSION_ERROR naming it; a step being answered finishes and is recorded', async () => {
    const out = path.join(tmp, 'lib');
    const gated = gatedVerify();
    const events: EnvEvent[] = [];
    const server = await serveEnv({ tasks: [info], baseUrl: sandbox.url, evidence: evidence(), out, browser: host, verify: gated.verify, onEvent: (e) => events.push(e) });
    const [a, b] = [await connectEnv(server.url), await connectEnv(server.url)];
    const { final } = await playAllButLast(a, info);
    await b.reset({ task_id: info.task_id });
    const ending = a.step({ action: final });
    await gated.reached;
    const closing = server.close({ reason: 'test stop', graceMs: 120_000 });

    const health = await fetch(`${server.url}/health`);
    expect([health.status, await health.json()]).toEqual([503, { status: 'unhealthy', detail: 'shutting down' }]);
    await expect(connectEnv(server.url)).rejects.toThrow(/503/);
    await expect(b.state()).rejects.toMatchObject({ code: 'SESSION_ERROR', message: expect.stringMatching(/the server is shutting down \(test stop\)/) });
    gated.open();
    expect(await ending).toMatchObject({ done: true, reward: 1, observation: { metadata: { episode_dir: path.join(out, info.task_id) } } });
    await expect(a.state()).rejects.toMatchObject({ code: 'SESSION_ERROR' });
    await closing;

    expect(events.filter((e) => e.type === 'shutdown' || e.type === 'stopped')).toEqual([
      { type: 'shutdown', sessions: 2, graceMs: 120_000 },
      { type: 'stopped', sessions: 2, cut: 0 },
    ]);
    expect(await readdir(path.join(out, '_tries', '2'))).not.toContain(info.task_id); // b's episode: dropped
    expect(await lines(path.join(out, 'results.jsonl'))).toHaveLength(1);
    expect([...(await claimsIn(out)), ...(await claimsIn(path.join(out, '_tries', '2')))]).toEqual([]);
  }, 300_000);

  it('close(): a step still being answered when the grace runs out is cut, and its episode is never published', async () => {
    const out = path.join(tmp, 'cut');
    const gated = gatedVerify();
    const events: EnvEvent[] = [];
    const server = await serveEnv({ tasks: [info], baseUrl: sandbox.url, evidence: evidence(), out, browser: host, verify: gated.verify, graceMs: 200, onEvent: (e) => events.push(e) });
    const a = await connectEnv(server.url);
    const { final } = await playAllButLast(a, info);
    const ending = a.step({ action: final }).catch((e: unknown) => e);
    await gated.reached;
    await server.close();
    expect(await ending).toMatchObject({ code: 'SESSION_ERROR', message: expect.stringMatching(/the server is shutting down/) });
    expect(events.at(-1)).toEqual({ type: 'stopped', sessions: 1, cut: 1 });
    // The episode stuck in its verifier ends after the server closed: kept aside, not counted finished.
    gated.open();
    await expect.poll(async () => (await readdir(path.join(out, '_aside')).catch(() => [])).join(' '), { timeout: 60_000 }).toMatch(new RegExp(`^${info.task_id}\\.1\\.dropped\\.`));
    expect(await readdir(out)).not.toContain(info.task_id);
    expect(await lines(path.join(out, 'results.jsonl'))).toEqual([]);
    expect(await claimsIn(out)).toEqual([]);
  }, 300_000);

  it('taskgen env on SIGTERM: the sessions in flight get SESSION_ERROR naming it, it exits, nothing half-recorded counts, and a restart on the same out dir goes on', async () => {
    const out = path.join(tmp, 'sigterm');
    const first = await startEnvCli(cliArgs(out, '--grace-ms', '2000'));
    children.push(first);
    const [a, b] = [await connectEnv(first.url), await connectEnv(first.url)];
    const start = await a.reset({ task_id: action.task_id });
    await a.step({ action: resolveStep(action.oracle[0]!, start.observation.elements) });
    await b.reset({ task_id: info.task_id });
    first.child.kill('SIGTERM');
    expect(await exited(first.child, 60_000)).toEqual({ code: 0, signal: null });
    for (const c of [a, b]) await expect(c.state()).rejects.toMatchObject({ code: 'SESSION_ERROR', message: expect.stringMatching(/the server is shutting down \(SIGTERM\)/) });
    expect(first.output()).toMatch(/stopping: no new sessions; 2 open/);
    expect((await readdir(out)).filter((n) => !n.startsWith('_'))).toEqual(['tasks.jsonl']);
    expect(await lines(path.join(out, 'results.jsonl'))).toEqual([]);
    expect(await claimsIn(out)).toEqual([]);

    const second = await startEnvCli(cliArgs(out));
    children.push(second);
    const end = await play(second.url, action);
    expect(end).toMatchObject({ done: true, reward: 1, observation: { metadata: { episode_dir: path.join(out, action.task_id) } } });
    second.child.kill('SIGINT');
    expect(await exited(second.child, 60_000)).toEqual({ code: 0, signal: null });
    expect(await lines(path.join(out, 'results.jsonl'))).toHaveLength(1);
  }, 300_000);
});

describe('several writers on one out dir', () => {
  it('two taskgen env processes and an attempt run record one task at once: tries numbered without a collision, every episode once', async () => {
    const out = path.join(tmp, 'shared');
    const servers = await Promise.all([startEnvCli(cliArgs(out, '--mix-setup')), startEnvCli(cliArgs(out, '--mix-setup'))]);
    children.push(...servers);
    const attempting = runAttempt({ tasks: [info], policy: oraclePolicy({ tasks: [info] }), source: { baseUrl: sandbox.url }, evidence: evidence(), out, browser: host, attempts: 3, concurrency: 2, mixSetup: true });
    const sessions = await Promise.all([0, 1, 2, 3].map((i) => play(servers[i % 2]!.url, info)));
    const attempted = await attempting;
    for (const s of servers) s.child.kill('SIGTERM');
    await Promise.all(servers.map((s) => exited(s.child, 60_000)));

    const sessionDirs = sessions.map((r) => r.observation.metadata.episode_dir as string);
    expect(new Set(sessionDirs).size).toBe(4);
    expect(sessions.every((r) => r.done && r.reward === 1)).toBe(true);
    const tries = await runTries(nodeStore(), out);
    const recorded: Array<{ n: number; policy: string; session: string | null }> = [];
    for (const t of tries) {
      const episode = JSON.parse(await readFile(path.join(t.dir, info.task_id, 'episode.json'), 'utf8')) as { policy: string; env?: { session: string } };
      recorded.push({ n: t.n, policy: episode.policy, session: episode.env?.session ?? null });
      expect(await lines(path.join(t.dir, 'results.jsonl'))).toEqual([JSON.stringify({ task_id: info.task_id, ok: true })]);
      expect(await claimsIn(t.dir)).toEqual([]);
      expect(await readdir(path.join(t.dir, '_aside')).catch(() => [])).toEqual([]);
    }
    // Tries 1..N, each one episode: the servers' four (four sessions) and the attempt run's own.
    expect(recorded.map((e) => e.n)).toEqual(Array.from({ length: 4 + attempted.recorded }, (_, i) => i + 1));
    expect(recorded.filter((e) => e.policy === 'env').map((e) => e.session).sort()).toHaveLength(4);
    expect(new Set(recorded.filter((e) => e.policy === 'env').map((e) => e.session)).size).toBe(4);
    expect(recorded.filter((e) => e.policy === 'oracle')).toHaveLength(attempted.recorded);
    expect(attempted.recorded + attempted.elsewhere + attempted.skipped).toBe(3);
  }, 300_000);
});
