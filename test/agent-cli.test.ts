import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCatalog } from '../sandbox/index';
import { startFakeOpenAI, type FakeServer } from './fakes/index';
import { runCli, spawnScript, finish } from './helpers/cli';
import { fixtureTask, startFixtureSite, type FixtureSite } from './agent-fixture';

// `taskgen attempt` in a child process with the qwen policy on a fake OpenAI-compatible server: a run killed
// with SIGKILL, or stopped with SIGTERM, mid-run and started again ends exactly as an uninterrupted run.

const WORDS = ['kettle', 'teapot', 'mug', 'blue', 'red', 'green', 'nothing'];
let site: FixtureSite;
let model: FakeServer;
let tmp: string;
let tasksFile: string;

beforeAll(async () => {
  site = await startFixtureSite();
  // The model searches for the task's word, then answers it (wrongly for "red"), each reply a little late.
  model = await startFakeOpenAI({
    handler: (request) => {
      const body = request.body as { messages: Array<{ content: Array<{ text?: string }> }> };
      const text = body.messages[1]!.content[0]!.text!;
      const word = /TASK: Find (\w+)/.exec(text)![1]!;
      const step = Number(/CURRENT PAGE \(step (\d+) of/.exec(text)![1]);
      const reply = step === 1 ? `{"type": {"index": 6, "text": "${word}", "enter": true}}` : `{"done": {"answer": "${word === 'red' ? 'blue' : word}"}}`;
      return { text: reply, delayMs: 150 };
    },
  });
  tmp = await mkdtemp(path.join(os.tmpdir(), 'agent-cli-'));
  tasksFile = path.join(tmp, 'tasks.jsonl');
  const tasks = WORDS.map((w) =>
    fixtureTask(`find-${w}`, `Find ${w} in the shop and name it`, {
      task_kind: 'info',
      verifier: { answer: { type: 'exact', value: w }, requests: [{ method: 'GET', path: '/sites/shop/search', params: { q: w } }] },
    }),
  );
  await writeFile(tasksFile, tasks.map((t) => JSON.stringify(t)).join('\n') + '\n');
});
afterAll(async () => {
  await model.close();
  await site.close();
  await rm(tmp, { recursive: true, force: true });
});

function cli(out: string): ChildProcess {
  const args = ['attempt', '--tasks', tasksFile, '--out', out, '--base-url', site.baseUrl,
    '--endpoint', model.url, '--model', 'Qwen/Qwen3.5-4B', '--concurrency', '2', '--no-progress'];
  return spawnScript('src/cli.ts', args, { detached: true });
}

async function finishedEpisodes(out: string): Promise<number> {
  const dirs = existsSync(out) ? await readdir(out) : [];
  return dirs.filter((d) => existsSync(path.join(out, d, 'episode.json'))).length;
}

async function snapshot(out: string) {
  const files: Record<string, string> = {};
  for (const w of WORDS) {
    const dir = path.join(out, `find-${w}`);
    const rows = (await readFile(path.join(dir, 'rows', 'rows.jsonl'), 'utf8')).trim().split('\n');
    const grade = JSON.parse(await readFile(path.join(dir, 'grade_inputs.json'), 'utf8'));
    const episode = JSON.parse(await readFile(path.join(dir, 'episode.json'), 'utf8'));
    files[w] = JSON.stringify({
      rows: rows.map((r) => JSON.parse(r).messages[2].content),
      images: rows.map((r) => JSON.parse(r).images[0]),
      actions: grade.actions,
      log: grade.log,
      outcome: episode.outcome,
      ok: episode.ok,
    });
  }
  return {
    results: await readFile(path.join(out, 'results.jsonl'), 'utf8'),
    tasks: await readFile(path.join(out, 'tasks.jsonl'), 'utf8'),
    // _aside/ keeps the killed process's partial episode, moved out of the way (DESIGN.md §8)
    dirs: (await readdir(out)).filter((d) => !d.includes('.tmp-') && d !== '_aside').sort(),
    files,
  };
}

describe('taskgen attempt', () => {
  it('a run killed with SIGKILL and started again equals an uninterrupted run', async () => {
    const whole = path.join(tmp, 'whole');
    const first = await finish(cli(whole));
    expect(first.stderr).toContain(`attempting ${WORDS.length} tasks on ${site.baseUrl} with Qwen/Qwen3.5-4B on ${model.url}`);
    expect(first.code).toBe(0);
    const summary = JSON.parse(first.stdout.trim().split('\n').pop()!);
    expect(summary).toMatchObject({ tasks: 7, recorded: 7, failed: 0, done: 7, steps: 14, verified: 7, verified_ok: 6 });

    const killed = path.join(tmp, 'killed');
    const child = cli(killed);
    const exited = finish(child);
    while ((await finishedEpisodes(killed)) < 2 && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(child.exitCode).toBeNull(); // still running: the kill lands mid-run
    process.kill(-child.pid!, 'SIGKILL');
    expect((await exited).code).toBeNull();
    const partial = await finishedEpisodes(killed);
    expect(partial).toBeLessThan(WORDS.length);

    const rerun = await finish(cli(killed));
    expect(rerun.code).toBe(0);
    expect(rerun.stderr).toContain(`${partial} already finished, ${WORDS.length - partial} to run`);

    const a = await snapshot(whole);
    const b = await snapshot(killed);
    expect(b.results).toBe(a.results);
    expect(a.results.trim().split('\n').map((l) => JSON.parse(l))).toEqual(
      WORDS.map((w) => ({ task_id: `find-${w}`, ok: w !== 'red' })),
    );
    expect(b.tasks).toBe(a.tasks);
    expect(b.dirs).toEqual(a.dirs);
    expect(b.files).toEqual(a.files);
    for (const w of WORDS) expect(JSON.parse(b.files[w]!).images).toEqual(['step_0.png', 'step_1.png']);
  });

  it('a run stopped with SIGTERM mid-run records no episode it cut, and started again equals an uninterrupted run', async () => {
    // As Kubernetes or a scheduler stops it: SIGTERM to the process alone, episodes in flight. Playwright's own
    // handler used to close Chromium under them, and they were recorded as errors ("the page was closed").
    const whole = path.join(tmp, 'whole');
    if (!existsSync(path.join(whole, 'results.jsonl'))) expect((await finish(cli(whole))).code).toBe(0); // the first test's, unless run alone
    const stopped = path.join(tmp, 'stopped');
    const child = cli(stopped);
    const exited = finish(child);
    while ((await finishedEpisodes(stopped)) < 2 && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(child.exitCode).toBeNull();
    process.kill(child.pid!, 'SIGTERM');
    const first = await exited;
    expect(first.code).not.toBe(0);
    expect(first.stderr).toContain('interrupted; run the same command again to continue');
    const recorded = (await readdir(stopped)).filter((d) => existsSync(path.join(stopped, d, 'episode.json')));
    expect(recorded.length).toBeLessThan(WORDS.length);
    for (const d of recorded) expect(JSON.parse(await readFile(path.join(stopped, d, 'episode.json'), 'utf8')).outcome).toBe('done');

    const rerun = await finish(cli(stopped));
    expect(rerun.code).toBe(0);
    expect(rerun.stderr).toContain(`${recorded.length} already finished, ${WORDS.length - recorded.length} to run`);
    const [a, b] = [await snapshot(whole), await snapshot(stopped)];
    expect(b.results).toBe(a.results);
    expect(b.dirs).toEqual(a.dirs);
    expect(b.files).toEqual(a.files);
  });

  it('runs the sandbox with its stand-in oracle when no server is given, and says it is a stand-in', async () => {
    const catalog = defaultCatalog();
    const human = catalog.tasks(catalog.sites()[0]!)!.human.slice(0, 2);
    const file = path.join(tmp, 'human.jsonl');
    await writeFile(file, human.map((t) => JSON.stringify(t)).join('\n') + '\n');
    const out = path.join(tmp, 'oracle-run');
    const r = await runCli(['attempt', '--tasks', file, '--out', out, '--policy', 'oracle', '--no-progress']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/started the sandbox \(bundled sites\) at http:\/\/127\.0\.0\.1:\d+/);
    expect(r.stderr).toContain("with the sandbox's stand-in oracle agent (stand-in-oracle: it replays known solutions, it is not a model)");
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ recorded: 2, verified: 2, verified_ok: 2 });
    const episode = JSON.parse(await readFile(path.join(out, human[0]!.task_id, 'episode.json'), 'utf8'));
    expect(episode).toMatchObject({ policy: 'oracle', model: 'stand-in-oracle', ok: true });
    // the sandbox's own record: the session's requests came from the server
    const grade = JSON.parse(await readFile(path.join(out, human[0]!.task_id, 'grade_inputs.json'), 'utf8'));
    expect(grade.log.length).toBeGreaterThan(0);
  });

  it('stops at once, with the cause, when the agent model refuses the key (issue 12)', async () => {
    const refusing = await startFakeOpenAI({ replies: [{ status: 401, message: 'invalid api key' }] });
    try {
      const out = path.join(tmp, 'refused-run');
      const r = await runCli(['attempt', '--tasks', tasksFile, '--out', out, '--base-url', site.baseUrl,
        '--endpoint', refusing.url, '--concurrency', '2', '--no-progress', '--timeout', '30']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('attempt stopped');
      expect(r.stderr).toMatch(/HTTP 401: invalid api key \(check the key \(none was sent: give --api-key-env NAME\)\)/);
      // One call per episode in flight, not one (or five) per task.
      expect(refusing.requests.length).toBeLessThanOrEqual(2);
      expect(await finishedEpisodes(out)).toBe(0);
    } finally {
      await refusing.close();
    }
  });

  it('an agent server answering HTTP 500 on every call: --stop-after-failures 1 stops after the first try, naming the cause; nothing recorded', async () => {
    const failing = await startFakeOpenAI({ replies: [{ status: 500, message: 'model server crashed' }] });
    try {
      const out = path.join(tmp, 'outage-run');
      const r = await runCli(['attempt', '--tasks', tasksFile, '--out', out, '--base-url', site.baseUrl,
        '--endpoint', failing.url, '--concurrency', '1', '--stop-after-failures', '1', '--no-progress', '--timeout', '30']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('attempt stopped: 1 episodes in a row could not run');
      expect(r.stderr).toContain('HTTP 500: model server crashed');
      expect(await finishedEpisodes(out)).toBe(0); // an outage is not an episode
    } finally {
      await failing.close();
    }
  });

  it('names a bad tasks line by file, line and field', async () => {
    const bad = path.join(tmp, 'bad.jsonl');
    await writeFile(bad, `${JSON.stringify(fixtureTask('ok', 'Find kettle'))}\n{"task_id": "x", "site": "shop"}\n`);
    const r = await runCli(['attempt', '--tasks', bad, '--out', path.join(tmp, 'bad-run'), '--base-url', site.baseUrl]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${bad}:2: kind`);
  });
});
