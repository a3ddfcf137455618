import { execFile, execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHost, connectEnv, EnvServerError, nodeStore, readEpisodeReward, readPassAtK, runAttempt, runExport, runJudge, runRows, serveEnv, type BrowserHost, type EnvServer } from 'miniweb-taskgen';
import { oraclePolicy, sandboxEvidence, sandboxJudge, startSandbox, type SandboxServer, type SandboxTask } from 'miniweb-taskgen/sandbox';
import { resolveStep as resolve, startEnvCli as startCli } from './helpers/env';

// The environment server driven through whole sandbox episodes: from Python (Debian's `websockets`, a client no
// one here wrote) and from the library's client. One sandbox, one browser, one server for the suite.

const run = promisify(execFile);
let sandbox: SandboxServer;
let host: BrowserHost;
let server: EnvServer;
let tmp: string;
let out: string;
let info: SandboxTask;
let action: SandboxTask;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, catalog: { variants: 1, testVariants: [] } });
  host = browserHost();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'env-server-'));
  out = path.join(tmp, 'rollouts');
  const human = sandbox.catalog.tasks(sandbox.catalog.sites()[0]!)!.human;
  info = human.find((t) => t.task_kind === 'info')!;
  action = human.find((t) => t.task_kind === 'action')!;
  server = await serveEnv({ tasks: [info, action], baseUrl: sandbox.url, evidence: sandboxEvidence({ url: sandbox.url }), out, browser: host, maxSessions: 2 });
});
afterAll(async () => {
  await server?.close();
  await host?.close();
  await sandbox?.close();
  await rm(tmp, { recursive: true, force: true });
});

// What the tests read back: JSON files and the Python driver's lines.
type Obj = Record<string, unknown>;
interface Reply { type: string; done?: boolean; reward?: number | null; step?: number; has_prompt?: boolean; screenshot_bytes?: number; metadata?: Obj & { checks?: unknown[] }; data?: { code: string; message: string } }
interface Driven { task_id: string; reset: Reply; replies: Reply[]; malformed?: Reply[]; state?: Obj }
interface GradeInputs { actions: unknown; answer: unknown; seen: unknown; changes: unknown[]; log: Array<{ method: string; path: string }> }
const json = async <T = Obj>(file: string): Promise<T> => JSON.parse(await readFile(file, 'utf8')) as T;

async function python(plan: unknown): Promise<Driven[]> {
  const file = path.join(tmp, `plan-${Date.now()}.json`);
  await writeFile(file, JSON.stringify(plan));
  const { stdout } = await run('/usr/bin/python3', [path.join(import.meta.dirname, 'helpers', 'env_driver.py'), file], { timeout: 300_000 });
  return stdout.trim().split('\n').map((l) => JSON.parse(l) as Driven);
}

describe('the environment server, from Python over the WebSocket', () => {
  it('the known solution gets reward 1 and a wrong answer 0; a malformed message gets its error and the session goes on', async () => {
    const wrong = 'I could not find that on the site.';
    const got = await python({
      url: server.url,
      episodes: [
        { task_id: info.task_id, steps: info.oracle },
        { task_id: action.task_id, steps: action.oracle, malformed: true },
        { task_id: info.task_id, steps: info.oracle, wrong },
        { task_id: 'no-such-task', steps: [] },
      ],
    });
    const last = (e: Driven) => e.replies.at(-1)!;
    expect(got[0]!.reset).toMatchObject({ type: 'observation', done: false, reward: null, step: 0, has_prompt: true });
    expect(got[0]!.reset.screenshot_bytes).toBeGreaterThan(1000);
    expect(last(got[0]!)).toMatchObject({ done: true, reward: 1, metadata: { outcome: 'done', reward_source: 'verifier', episode_dir: path.join(out, info.task_id) } });
    expect(last(got[0]!).metadata!.checks!.length).toBeGreaterThan(0);
    expect(got[1]!.malformed!.map((r) => r.data!.code)).toEqual(['INVALID_JSON', 'UNKNOWN_TYPE', 'VALIDATION_ERROR', 'INVALID_JSON']);
    expect(last(got[1]!)).toMatchObject({ done: true, reward: 1 });
    expect(last(got[2]!)).toMatchObject({ done: true, reward: 0, metadata: { episode_dir: path.join(out, '_tries', '2', info.task_id) } });
    expect(got[2]!.state).toMatchObject({ task_id: info.task_id, done: true, step_count: info.oracle.length });
    expect(got[3]!.reset).toMatchObject({ type: 'error', data: { code: 'EXECUTION_ERROR' } });
    expect(got[3]!.reset.data!.message).toContain('unknown task_id "no-such-task"');

    const episode = await json(path.join(out, info.task_id, 'episode.json'));
    expect(episode).toMatchObject({ policy: 'env', outcome: 'done', ok: true, env: { reward: 1, reward_source: 'verifier' } });
    expect(await json(path.join(out, '_tries', '2', info.task_id, 'episode.json'))).toMatchObject({ ok: false, env: { reward: 0 } });
    expect((await readFile(path.join(out, 'results.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(2);
    // One reward: pass@k (and so the rollouts config) and readEpisodeReward, read from disk, give each episode the
    // reward the server gave it.
    const store = nodeStore();
    const byDir = new Map((await readPassAtK({ run: out, store })).tasks.flatMap((t) => t.tries.map((o) => [o.dir, [o.success, o.source]] as const)));
    expect(byDir.get(path.join(out, info.task_id))).toEqual([true, 'verifier']);
    expect(byDir.get(path.join(out, '_tries', '2', info.task_id))).toEqual([false, 'verifier']);
    expect(byDir.get(path.join(out, action.task_id))).toEqual([true, 'verifier']);
    const again = await readEpisodeReward(store, path.join(out, '_tries', '2', info.task_id), { task: info });
    expect([again.reward, again.source]).toEqual([0, 'verifier']);
  }, 600_000);

  it('records the episodes runAttempt records for the same actions, and judge, rows and export take them', async () => {
    const ref = path.join(tmp, 'attempt');
    await runAttempt({ tasks: [info, action], policy: oraclePolicy({ tasks: [info, action] }), source: { baseUrl: sandbox.url }, evidence: sandboxEvidence({ url: sandbox.url }), out: ref, browser: host, concurrency: 2 });
    for (const task of [info, action]) {
      const [a, b] = [path.join(ref, task.task_id), path.join(out, task.task_id)];
      const same = ({ timings: _t, policy: _p, model: _m, setup: _s, env: _e, ...rest }: Obj) => rest;
      expect(same(await json(path.join(b, 'episode.json')))).toEqual(same(await json(path.join(a, 'episode.json'))));
      expect(await json(path.join(b, 'agent_steps.json'))).toEqual(await json(path.join(a, 'agent_steps.json')));
      expect(await readFile(path.join(b, 'rows', 'rows.jsonl'), 'utf8').catch(() => 'none')).toEqual(await readFile(path.join(a, 'rows', 'rows.jsonl'), 'utf8').catch(() => 'none'));
      const grade = async (dir: string) => {
        const g = await json<GradeInputs>(path.join(dir, 'grade_inputs.json'));
        return { actions: g.actions, answer: g.answer, seen: g.seen, changes: g.changes.length, log: g.log.map((e) => `${e.method} ${e.path}`) };
      };
      expect(await grade(b)).toEqual(await grade(a));
      expect((await readdir(path.join(b, 'screenshots'))).sort()).toEqual((await readdir(path.join(a, 'screenshots'))).sort());
    }
    const judged = await runJudge({ run: out, llm: sandboxJudge({ runDir: out }), workers: 2 });
    expect(judged.records.map((r) => r.predicted_label)).toEqual([1, 1]);
    const rows = await runRows({ run: out, out: path.join(tmp, 'rows'), tasks: path.join(out, 'tasks.jsonl') });
    expect(rows.report.selected_rows).toBeGreaterThan(0);
    const exported = await runExport({ run: out, rows: path.join(tmp, 'rows'), out: path.join(tmp, 'dataset') });
    expect(exported).toBeTruthy();
    expect(await readdir(path.join(tmp, 'dataset'))).toContain('README.md');
  }, 600_000);
});

describe('sessions and faults', () => {
  it('two sessions on one site do not see each other\'s changes; past max sessions the capacity error', async () => {
    const [a, b] = await Promise.all([connectEnv(server.url), connectEnv(server.url)]);
    const third = await connectEnv(server.url);
    await expect(third.reset({ task_id: info.task_id })).rejects.toMatchObject({ code: 'CAPACITY_REACHED' });
    const [ra, rb] = await Promise.all([a.reset({ task_id: action.task_id }), b.reset({ task_id: action.task_id })]);
    expect(ra.observation.url).toBe(rb.observation.url);
    // a does the task; b, at the same time on the same site, only says done: its verifier must not see a's change
    let obs = ra.observation;
    let end = ra;
    for (const step of action.oracle) {
      end = await a.step({ action: resolve(step, obs.elements) });
      obs = end.observation;
    }
    const idle = await b.step({ action: { done: { answer: 'done' } } });
    expect(end).toMatchObject({ done: true, reward: 1 });
    expect(idle).toMatchObject({ done: true, reward: 0 });
    const dirs = [end, idle].map((r) => r.observation.metadata.episode_dir as string);
    const changes = await Promise.all(dirs.map(async (d) => (await json<GradeInputs>(path.join(d, 'grade_inputs.json'))).changes.length));
    expect(changes[0]).toBeGreaterThan(0);
    expect(changes[1]).toBe(0);
    await Promise.all([a.close(), b.close()]);
    expect(third).toBeTruthy();
  }, 300_000);

  it('a task reset for the 81st time in one out dir is recorded as its 81st try (an RL run resets a task for days)', async () => {
    const many = path.join(tmp, 'many');
    const small = await serveEnv({ tasks: [info], baseUrl: sandbox.url, evidence: sandboxEvidence({ url: sandbox.url }), out: many, browser: host, maxSessions: 1 });
    const solve = async () => {
      const c = await connectEnv(small.url);
      let end = await c.reset({ task_id: info.task_id });
      for (const step of info.oracle) end = await c.step({ action: resolve(step, end.observation.elements) });
      await c.close();
      return end;
    };
    try {
      expect(await solve()).toMatchObject({ done: true, reward: 1, observation: { metadata: { episode_dir: path.join(many, info.task_id) } } });
      // tries 2..80 finished (the first episode's record, copied), as a long run leaves them
      for (let n = 2; n <= 80; n++) {
        await mkdir(path.join(many, '_tries', String(n), info.task_id), { recursive: true });
        await copyFile(path.join(many, info.task_id, 'episode.json'), path.join(many, '_tries', String(n), info.task_id, 'episode.json'));
      }
      const end = await solve();
      expect(end).toMatchObject({ done: true, reward: 1, observation: { metadata: { episode_dir: path.join(many, '_tries', '81', info.task_id) } } });
      expect(await json(path.join(many, '_tries', '81', info.task_id, 'episode.json'))).toMatchObject({ ok: true, env: { reward: 1 } });
    } finally {
      await small.close();
    }
  }, 300_000);

  it('an idle session is closed with an error naming it; a bad token is refused; the HTTP routes answer as OpenEnv\'s', async () => {
    const small = await serveEnv({ tasks: [info], baseUrl: sandbox.url, out: path.join(tmp, 'idle'), browser: host, idleTimeoutMs: 200, token: 'secret-token-1' });
    try {
      await expect(connectEnv(small.url)).rejects.toThrow(/401/);
      const c = await connectEnv(small.url, { token: 'secret-token-1' });
      await new Promise((r) => setTimeout(r, 1500));
      await expect(c.state()).rejects.toSatisfy((e: unknown) => e instanceof EnvServerError && e.code === 'SESSION_ERROR' && /idle/.test(e.message));
      expect(await (await fetch(`${small.url}/health`)).json()).toEqual({ status: 'healthy', sessions: 0, browser_contexts: 0, browser_pages: 0 });
      expect((await fetch(`${small.url}/schema`)).status).toBe(401);
      const auth = { authorization: 'Bearer secret-token-1' };
      expect(Object.keys((await (await fetch(`${small.url}/schema`, { headers: auth })).json()) as Obj)).toEqual(['action', 'observation', 'state']);
      expect(await (await fetch(`${small.url}/tasks`, { headers: auth })).json()).toMatchObject({ splits: { train: 1 }, total: 1, tasks: [{ task_id: info.task_id, reward_source: 'verifier' }] });
      const step = (action: unknown) => fetch(`${small.url}/step`, { method: 'POST', headers: auth, body: JSON.stringify({ action }) });
      expect([(await step({ action: { click: { index: 'x' } } })).status, (await step({ action: { back: {} } })).status]).toEqual([422, 409]);
      const oneShot = await fetch(`${small.url}/reset`, { method: 'POST', headers: auth, body: JSON.stringify({ task_id: info.task_id }) });
      expect(await oneShot.json()).toMatchObject({ done: false, reward: null, observation: { task_id: info.task_id, step: 0 } });
      expect(await readdir(path.join(tmp, 'idle'))).not.toContain(info.task_id);
    } finally {
      await small.close();
    }
  });

  it('episodes finished, reset mid-way and dropped mid-step leave nothing open: no session, context or page, no listener on the browser', async () => {
    const browser = (await host.browser()) as unknown as { listenerCount(event: string): number };
    const listeners = browser.listenerCount('disconnected');
    const health = async () => (await (await fetch(`${server.url}/health`)).json()) as Obj;
    const a = await connectEnv(server.url);
    let r = await a.reset({ task_id: info.task_id });
    expect(await health()).toMatchObject({ sessions: 1, browser_contexts: 1, browser_pages: 1 });
    await a.step({ action: { scroll: { direction: 'down' } } });
    r = await a.reset({ task_id: info.task_id }); // the first episode dropped
    for (const step of info.oracle) r = await a.step({ action: resolve(step, r.observation.elements) });
    expect(r).toMatchObject({ done: true, reward: 1 });
    await a.close();
    const b = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`);
    const replies: unknown[] = [];
    b.on('message', (m) => replies.push(JSON.parse(String(m))));
    await new Promise((res) => b.once('open', res));
    b.send(JSON.stringify({ type: 'reset', data: { task_id: info.task_id } }));
    while (replies.length === 0) await new Promise((res) => setTimeout(res, 50));
    b.send(JSON.stringify({ type: 'step', data: { action: { scroll: { direction: 'down' } } } }));
    b.terminate(); // mid-step
    // A session leaves the count at once and closes its context after: wait (at most 10 s) for both.
    for (let i = 0; i < 100 && Object.values(await health()).some((v) => v !== 0 && v !== 'healthy'); i++) await new Promise((res) => setTimeout(res, 100));
    expect(await health()).toEqual({ status: 'healthy', sessions: 0, browser_contexts: 0, browser_pages: 0 });
    expect(browser.listenerCount('disconnected')).toBe(listeners);
  }, 300_000);

  it('a task no verifier grades gets reward null, or with a judge its verdict, the record written as taskgen judge writes it', async () => {
    const bare = { ...info, task_id: 'nv-info', verifier: null };
    const play = async (url: string) => {
      const c = await connectEnv(url);
      let r = await c.reset({ task_id: bare.task_id });
      for (const step of info.oracle) r = await c.step({ action: resolve(step, r.observation.elements) });
      await c.close();
      return r;
    };
    const plain = await serveEnv({ tasks: [bare], baseUrl: sandbox.url, evidence: sandboxEvidence({ url: sandbox.url }), out: path.join(tmp, 'plain'), browser: host });
    const judged = await serveEnv({ tasks: [bare], baseUrl: sandbox.url, evidence: sandboxEvidence({ url: sandbox.url }), out: path.join(tmp, 'judged'), browser: host, judge: sandboxJudge() });
    try {
      expect(await play(plain.url)).toMatchObject({ done: true, reward: null, observation: { metadata: { reward_source: 'none', checks: [] } } });
      expect(await play(judged.url)).toMatchObject({ done: true, reward: 1, observation: { metadata: { reward_source: 'judge' } } });
      expect(await json(path.join(tmp, 'judged_judge', `${bare.task_id}.json`))).toMatchObject({ predicted_label: 1 });
      expect(await json(path.join(tmp, 'judged', bare.task_id, 'episode.json'))).toMatchObject({ env: { reward: null, reward_source: 'judge' } });
    } finally {
      await Promise.all([plain.close(), judged.close()]);
    }
  }, 300_000);

  it('a browser that dies mid-episode ends its session with an error naming it, and the next session gets a new one', async () => {
    const c = await connectEnv(server.url);
    await c.reset({ task_id: info.task_id });
    const launches = host.launches;
    killBrowser();
    const error = await c.step({ action: { scroll: { direction: 'down' } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EnvServerError);
    expect(error).toMatchObject({ code: 'SESSION_ERROR', message: expect.stringMatching(/the browser \(Chromium\) died/) });
    const d = await connectEnv(server.url);
    expect(await d.reset({ task_id: info.task_id })).toMatchObject({ done: false });
    expect(host.launches).toBe(launches + 1);
    await d.close();
  }, 300_000);

  it('a server killed mid-episode and started again leaves no half episode counted as finished', async () => {
    const tasksFile = path.join(tmp, 'tasks.jsonl');
    await writeFile(tasksFile, `${JSON.stringify(action)}\n`);
    const killed = path.join(tmp, 'killed');
    const first = await startCli(['--tasks', tasksFile, '--base-url', sandbox.url, '--evidence', 'sandbox', '--out', killed]);
    const c = await connectEnv(first.url);
    const r = await c.reset({ task_id: action.task_id });
    await c.step({ action: resolve(action.oracle[0]!, r.observation.elements) });
    first.child.kill('SIGKILL');
    await new Promise((res) => first.child.once('exit', res));
    expect(await readdir(killed)).not.toContain(action.task_id);
    const second = await startCli(['--tasks', tasksFile, '--base-url', sandbox.url, '--evidence', 'sandbox', '--out', killed]);
    try {
      const d = await connectEnv(second.url);
      let step = await d.reset({ task_id: action.task_id });
      for (const s of action.oracle) step = await d.step({ action: resolve(s, step.observation.elements) });
      expect(step).toMatchObject({ done: true, reward: 1, observation: { metadata: { episode_dir: path.join(killed, action.task_id) } } });
      await d.close();
      expect(await readdir(path.join(killed, '_aside'))).toHaveLength(1);
      expect((await readFile(path.join(killed, 'results.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(1);
    } finally {
      second.child.kill('SIGTERM');
    }
  }, 300_000);
});

// Kills this process's Chromium (the browser the suite launched) as a crash would: SIGKILL to its main process.
function killBrowser(): void {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,comm='], { encoding: 'utf8' }).trim().split('\n').map((l) => l.trim().split(/\s+/));
  const main = rows.find(([, ppid, comm]) => Number(ppid) === process.pid && /chrom/i.test(comm ?? ''));
  if (!main) throw new Error('no Chromium child of this process');
  process.kill(Number(main[0]), 'SIGKILL');
}
