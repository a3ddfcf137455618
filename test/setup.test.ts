/**
 * The run's set-up, recorded: a rerun or a second writer with another set-up is refused before any paid call,
 * the differences named; mixing on purpose counts per set-up. And check before spending: the pipeline stops
 * before its first model call when Chromium is missing, and `taskgen doctor` names each failing thing with a hint.
 */
import { promises as fs } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeLLM, gemini, memorySource, memoryStore, openaiCompatible, runAttempt, runJudge, runPipeline, runPropose, runRelabel, runReport, runWriteVerifiers, scriptedPolicy, type Task } from '../src/index';
import { SetupMismatchError } from '../src/files/setup';
import { PreflightError } from '../src/preflight';
import { startFakeGemini, startFakeOpenAI, type FakeServer } from './fakes';
import { runCli } from './helpers/cli';
import { recordText, tempDir, writeRun } from './helpers/runs';

const VERDICT = '{"verdict": "SUCCESS"}';

async function oneEpisodeRun(ids = ['t1']): Promise<string> {
  const run = path.join(await tempDir('setup-'), 'run');
  await writeRun(run, ids.map((taskId) => ({ taskId, gradeInputs: '{"answer": "ok"}' })), ids.map((task_id) => ({ task_id, instruction: `do ${task_id}`, site: 'shop' })));
  return run;
}

describe('set-up records: the judge', () => {
  it('refuses a rerun with another model before any call, naming the difference; mixed on purpose, the summary names the records\' models', async () => {
    const run = await oneEpisodeRun();
    const first = await runJudge({ run, llm: fakeLLM({ modelId: 'judge-a', replies: [VERDICT] }) });
    expect(first.summary.judge).toBe('judge-a');
    expect(await fs.readFile(await runReport({ run }), 'utf8')).not.toContain('id="setups"'); // one set-up: no table

    const other = fakeLLM({ modelId: 'judge-b', replies: [VERDICT] });
    const refused = runJudge({ run, llm: other });
    await expect(refused).rejects.toThrow(SetupMismatchError);
    await expect(refused).rejects.toThrow('model: "judge-a" -> "judge-b"');
    expect(other.calls).toHaveLength(0);

    // On purpose: the old record stays the old model's, a new episode is the new model's, and both are named.
    await writeRun(run, [{ taskId: 't2', gradeInputs: '{"answer": "ok"}' }], [{ task_id: 't1', instruction: 'do t1', site: 'shop' }, { task_id: 't2', instruction: 'do t2', site: 'shop' }]);
    const mixed = await runJudge({ run, llm: other, mixSetup: true });
    expect(mixed.records.map((r) => [r.task_id, r.model])).toEqual([['t1', 'judge-a'], ['t2', 'judge-b']]);
    expect(mixed.summary.judge).toBe('judge-a, judge-b');
    expect(mixed.byModel).toEqual([{ model: 'judge-a', episodes: 1, success: 1 }, { model: 'judge-b', episodes: 1, success: 1 }]);
    expect(other.calls).toHaveLength(1);
    // Counted per set-up too: each record credited to the set-up that wrote it (its binding names it).
    expect(mixed.bySetup.map((c) => [c.fields?.model, c.count, c.success])).toEqual([['judge-a', 1, 1], ['judge-b', 1, 1]]);
    expect(new Set(mixed.bySetup.map((c) => c.digest)).size).toBe(2);
    expect(mixed.bySetup.every((c) => /^[0-9a-f]{16}$/.test(c.digest ?? ''))).toBe(true);
    // The report says so too: one line per set-up, with its model and its records.
    const html = await fs.readFile(await runReport({ run }), 'utf8');
    const lines = [...html.matchAll(/<tr data-mark="setup"><td>(\w+)<\/td><td><code>([^<]*)<\/code><\/td><td>(\d+)<\/td>/g)].map((m) => [m[1], m[2], m[3]]);
    expect(lines).toEqual(mixed.bySetup.map((c) => ['judge', `${c.digest} (model ${c.fields!.model}, variant seed)`, '1']));
  });

  it('a record the seed wrote (no binding) is counted apart, never credited to the set-up that found it; the CLI prints each set-up', async () => {
    const run = await oneEpisodeRun(['t1', 't2']);
    await fs.mkdir(`${run}_judge`, { recursive: true });
    await fs.writeFile(path.join(`${run}_judge`, 't1.json'), recordText('t1', 0, 'seed-judge'));
    const judged = await runJudge({ run, llm: fakeLLM({ modelId: 'gemini-judge-a', replies: [VERDICT] }) });
    expect(judged.bySetup.map((c) => [c.digest === null ? null : c.fields?.model, c.count, c.success])).toEqual([['gemini-judge-a', 1, 1], [null, 1, 0]]);
    // Rerun: the seed's record is bound to its episode now, but still names no set-up.
    const again = await runJudge({ run, llm: fakeLLM({ modelId: 'gemini-judge-a', replies: [] }) });
    expect(again.bySetup).toEqual(judged.bySetup);
    // The CLI's summary names each set-up's share, the seed's apart.
    const server = await startFakeGemini({ replies: [VERDICT] });
    const cli = await runCli(['judge', run, '--model', 'gemini-judge-a', '--no-progress'], { env: { GEMINI_API_KEY: 'test-key', GEMINI_BASE_URL: server.url } }).finally(() => server.close());
    expect(cli.code, cli.stderr).toBe(0);
    expect(server.requests.filter((r) => r.path.includes('generateContent'))).toHaveLength(0); // all judged already
    expect(cli.stderr).toMatch(/judge set-up [0-9a-f]{16} \(model gemini-judge-a, variant seed\): 1 records, 1 SUCCESS/);
    expect(cli.stderr).toContain('judge set-up no set-up recorded (written by the seed or an earlier taskgen): 1 records, 0 SUCCESS');
  });

  it('refuses a second judge with another model on the same run while the first is judging; the records stay the first\'s', async () => {
    const run = await oneEpisodeRun(['t1', 't2']);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const judging = new Promise<void>((resolve) => (started = resolve));
    const a = fakeLLM({ modelId: 'judge-a', replies: async () => { started(); await gate; return VERDICT; } });
    const firstRun = runJudge({ run, llm: a, workers: 1 });
    await judging;
    const b = fakeLLM({ modelId: 'judge-b', replies: [VERDICT] });
    await expect(runJudge({ run, llm: b })).rejects.toThrow(/judge: refused .*model: "judge-a" -> "judge-b"/);
    release();
    const first = await firstRun;
    expect(b.calls).toHaveLength(0);
    expect(first.records.map((r) => r.model)).toEqual(['judge-a', 'judge-a']);
    const onDisk = await Promise.all(['t1', 't2'].map(async (id) => JSON.parse(await fs.readFile(path.join(`${run}_judge`, `${id}.json`), 'utf8')).model));
    expect(onDisk).toEqual(['judge-a', 'judge-a']);
  });
});

describe('set-up records: verifiers and relabel', () => {
  it('a verifiers rerun with another writer, or a relabel rerun with another relabeler or judge, is refused before any call', async () => {
    const run = await oneEpisodeRun();
    await runJudge({ run, llm: fakeLLM({ modelId: 'judge-a', replies: [VERDICT] }) });
    const writer = (modelId: string) => fakeLLM({ modelId, replies: [] });
    await runWriteVerifiers({ run, llm: writer('writer-a') });
    const otherWriter = writer('writer-b');
    await expect(runWriteVerifiers({ run, llm: otherWriter })).rejects.toThrow('verifiers: refused');
    await expect(runWriteVerifiers({ run, llm: otherWriter })).rejects.toThrow('model: "writer-a" -> "writer-b"');
    expect(otherWriter.calls).toHaveLength(0);

    await runRelabel({ run, llm: writer('relabeler-a'), judge: writer('judge-a') });
    const otherJudge = writer('judge-b');
    await expect(runRelabel({ run, llm: writer('relabeler-a'), judge: otherJudge })).rejects.toThrow('judge_model: "judge-a" -> "judge-b"');
    await expect(runRelabel({ run, llm: writer('relabeler-a'), judge: otherJudge, k: 5 })).rejects.toThrow('k: 3 -> 5');
    expect(otherJudge.calls).toHaveLength(0);
    await expect(runRelabel({ run, llm: writer('relabeler-a'), judge: otherJudge, mixSetup: true })).resolves.toMatchObject({ summary: { proposed: 0 } });
  });
});

describe('set-up records: propose and attempt', () => {
  const SITEMAPS = { alpha: '{"pages": [{"path": "/sites/alpha/"}, {"path": "/sites/alpha/x"}], "controls": []}' };
  const source = memorySource({ sitemaps: SITEMAPS, pages: {} });
  const tasksReply = JSON.stringify({ tasks: [0, 1, 2].map((i) => ({ instruction: `On alpha, find item number ${i} and report its price`, kind: 'info' })) });

  it('a propose rerun with another per-site is refused, naming per_site, and calls nothing', async () => {
    const store = memoryStore();
    const options = { sites: ['alpha'], source, out: '/w/tasks.jsonl', batch: 3, store };
    await runPropose({ ...options, llm: fakeLLM({ replies: [tasksReply] }), perSite: 3 });
    const again = fakeLLM({ replies: [tasksReply] });
    await expect(runPropose({ ...options, llm: again, perSite: 6 })).rejects.toThrow('per_site: 3 -> 6');
    expect(again.calls).toHaveLength(0);
    // The same set-up goes on as before (the site is done).
    await expect(runPropose({ ...options, llm: again, perSite: 3 })).resolves.toMatchObject({ done: ['alpha'], tasks: 0 });
  });

  it('an attempt rerun with another agent model or max steps is refused, naming both', async () => {
    const out = path.join(await tempDir('setup-attempt-'), 'run');
    const tasks: Task[] = [];
    const policy = (model: string) => ({ ...scriptedPolicy([]), name: 'qwen', model });
    await runAttempt({ tasks, policy: policy('Qwen/Qwen3.5-4B'), source: { baseUrl: 'http://127.0.0.1:9/' }, out });
    const refused = runAttempt({ tasks, policy: policy('Qwen/Qwen3.5-9B'), source: { baseUrl: 'http://127.0.0.1:9/' }, out, maxSteps: 30 });
    await expect(refused).rejects.toThrow('max_steps: 15 -> 30; model: "Qwen/Qwen3.5-4B" -> "Qwen/Qwen3.5-9B"');
    // Another port for the same set-up (a sandbox started again) is not another set-up.
    await expect(runAttempt({ tasks, policy: policy('Qwen/Qwen3.5-4B'), source: { baseUrl: 'http://127.0.0.1:10/' }, out })).resolves.toMatchObject({ tasks: 0 });
  });

  it('a run of mixed set-ups counts its finished episodes per set-up; episodes that name none (the seed\'s) apart', async () => {
    const out = path.join(await tempDir('setup-attempt-mix-'), 'run');
    const policy = (model: string) => ({ ...scriptedPolicy([]), name: 'qwen', model });
    const source = { baseUrl: 'http://127.0.0.1:9/' };
    await runAttempt({ tasks: [], policy: policy('Qwen/Qwen3.5-4B'), source, out });
    const [record] = await fs.readdir(path.join(out, '_setup'));
    const digest = record!.replace(/\.json$/, '');
    const tasks: Task[] = ['t1', 't2', 't3'].map((task_id) => ({ kind: 'proposed', task_id, site: 'alpha', instruction: `do ${task_id}`, start_path: '/sites/alpha/', task_kind: 'action', verifier: null }) as Task);
    const episode = (task: Task, setup?: string) => ({ task, outcome: 'done', steps: 2, answer: null, timings: { started: '', ended: '', ms: 1 }, model: 'm', error: null, ...(setup ? { setup } : {}) });
    await fs.writeFile(path.join(out, 'tasks.jsonl'), tasks.map((t) => `${JSON.stringify(t)}\n`).join(''));
    for (const [task, setup] of [[tasks[0]!, digest], [tasks[1]!, digest], [tasks[2]!, undefined]] as const) {
      await fs.mkdir(path.join(out, task.task_id), { recursive: true });
      await fs.writeFile(path.join(out, task.task_id, 'grade_inputs.json'), '{"answer": null}');
      await fs.writeFile(path.join(out, task.task_id, 'episode.json'), JSON.stringify(episode(task, setup)));
    }
    // Another agent model on purpose: nothing left to run, and the figures say whose episodes they are.
    const mixed = await runAttempt({ tasks, policy: policy('Qwen/Qwen3.5-9B'), source, out, mixSetup: true });
    expect(mixed.recorded).toBe(0);
    expect(mixed.finished.bySetup.map((c) => [c.digest, c.fields?.model ?? null, c.count])).toEqual([[digest, 'Qwen/Qwen3.5-4B', 2], [null, null, 1]]);
  });
});

describe('check before spending', () => {
  let geminiServer: FakeServer;
  let agentServer: FakeServer;
  let closedPort: number;
  beforeAll(async () => {
    geminiServer = await startFakeGemini({ replies: ['{"tasks": []}'] });
    agentServer = await startFakeOpenAI({ models: ['some-other-model'], replies: ['{"action": "done"}'] });
    closedPort = await freePort();
  });
  afterAll(async () => {
    await geminiServer.close();
    await agentServer.close();
  });

  it('the pipeline without Chromium stops before any model call, saying what to do', async () => {
    const dir = await tempDir('setup-pipe-');
    const saved = process.env.CHROMIUM_PATH;
    process.env.CHROMIUM_PATH = path.join(dir, 'no-chromium');
    try {
      const llm = gemini({ apiKey: 'test-key', baseUrl: geminiServer.origin });
      const run = runPipeline({
        dir,
        source: { ...memorySource({ sitemaps: SITEMAPS_ONE, pages: {} }), baseUrl: agentServer.origin },
        sites: ['alpha'],
        proposer: llm,
        judge: llm,
        agent: openaiCompatible({ baseURL: agentServer.url, model: 'some-other-model' }),
        only: ['propose', 'attempt', 'judge'],
      });
      const error = await run.then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(PreflightError);
      const browser = (error as PreflightError).failed.find((c) => c.name === 'browser');
      expect(browser?.detail).toContain('no-chromium');
      expect(browser?.hint).toMatch(/CHROMIUM_PATH/);
      expect(geminiServer.requests).toHaveLength(0);
      expect(agentServer.requests.filter((r) => r.method === 'POST')).toHaveLength(0); // its GET is the site check
    } finally {
      if (saved === undefined) delete process.env.CHROMIUM_PATH;
      else process.env.CHROMIUM_PATH = saved;
    }
  });

  it('taskgen doctor lists each failing thing with a hint and exits 1', async () => {
    const dir = await tempDir('setup-doctor-');
    const notADir = path.join(dir, 'file');
    await fs.writeFile(notADir, 'x');
    const done = await runCli(
      ['doctor', '--out', path.join(notADir, 'work'), '--sitemaps', dir, '--base-url', `http://127.0.0.1:${closedPort}`, '--sites', 'alpha',
        '--agent-endpoint', agentServer.url, '--agent-model', 'Qwen/Qwen3.5-4B', '--skip', 'validate', '--timeout', '5'],
      { env: { CHROMIUM_PATH: path.join(dir, 'no-chromium'), GEMINI_API_KEY: undefined, GOOGLE_API_KEY: undefined } },
    );
    expect(done.code).toBe(1);
    const fails = done.stdout.split('\n').filter((l) => l.startsWith('FAIL '));
    const hintOf = (name: string) => {
      const lines = done.stdout.split('\n');
      const i = lines.findIndex((l) => l.startsWith(`FAIL ${name}`));
      return i < 0 ? undefined : lines[i + 1];
    };
    expect(fails.map((l) => l.slice(5).split(':')[0])).toEqual(['keys', `out dir ${path.join(notADir, 'work')}`, 'agent model', 'site alpha', 'browser']);
    expect(hintOf('keys')).toMatch(/-> export the key/);
    expect(hintOf('out dir')).toMatch(/-> choose another out dir/);
    expect(done.stdout).toContain('does not serve it');
    expect(hintOf('agent model')).toMatch(/-> name one of the models it serves \(some-other-model\)/);
    expect(hintOf('site alpha')).toMatch(/-> start the sites' server/);
    expect(hintOf('browser')).toMatch(/-> install Chromium .*CHROMIUM_PATH/);
    expect(agentServer.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });
});

const SITEMAPS_ONE = { alpha: '{"pages": [{"path": "/sites/alpha/"}], "controls": []}' };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
