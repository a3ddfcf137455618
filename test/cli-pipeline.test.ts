/**
 * `taskgen pipeline` in child processes: on the sandbox with the stand-in proposer and agent and the judge on the real
 * Gemini SDK against a fake server (slow enough to be killed mid-judge), a run killed with SIGKILL during attempt and
 * again during judge, then started again, ends with the same rows as an uninterrupted run; `taskgen verifiers` and
 * `taskgen relabel` (the relabeler on the fake server too) on a copy of that run without their output write, and a
 * second time write nothing new, and `taskgen rows` and `taskgen export` carry the relabels; stages can be skipped;
 * bad configs fail at once with clear errors.
 */
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEpisodes, loadSteps } from '../src/index';
import { startFakeGemini, type FakeServer } from './fakes/index';
import { finish, runCli, spawnScript, type Finished } from './helpers/cli';

const KEY = 'test-key-not-secret-123';
const PROPOSED = 6; // 2 sites x 3 tasks
let judge: FakeServer;
let tmp: string;

// The relabeler's reply: a task for the last request the session made that the server did not refuse (its claim holds
// from the step that made it; its `only` admits the episode's data changes), and one whose claim does not hold.
function relabelReply(prompt: string): string {
  const requests = /^SERVER REQUESTS OF THE SESSION.*\n([\s\S]*?)\n\nDATA CHANGES/m.exec(prompt)?.[1] ?? '';
  const last = [...requests.matchAll(/^(GET|POST) (\S+).* -> [123]\d\d$/gm)].at(-1);
  const changes = prompt.split('DATA CHANGES OF THE SESSION:\n')[1]?.split('\n\n')[0] ?? '';
  const only = [...new Set([...changes.matchAll(/^(create|update|delete) (\S+) \(/gm)].map((m) => `${m[1]} ${m[2]}`))].map((k) => ({ op: k.split(' ')[0], table: k.split(' ')[1] }));
  const request = { request: { method: last?.[1], path: last?.[2] } };
  const tasks = last
    ? [
        { instruction: `Open the page ${last[2]}`, kind: 'action', claim: only.length ? { all: [request, { only }] } : request },
        { instruction: 'Empty the whole database', kind: 'action', claim: { change: { table: 'no_such_table', op: 'delete' } } },
      ]
    : [];
  return JSON.stringify({ tasks });
}

beforeAll(async () => {
  // Judge: SUCCESS for about 3 tasks in 4, decided by the task's text, so every run judges alike. Relabeler (taskgen relabel --model): relabelReply.
  judge = await startFakeGemini({
    handler: (request) => {
      const body = request.body as { contents?: Array<{ parts?: Array<{ text?: string }> }> };
      const prompt = (body.contents ?? []).flatMap((c) => c.parts ?? []).map((p) => p.text ?? '').join('\n');
      if (prompt.includes('tasks that this episode DID complete')) return { text: relabelReply(prompt) };
      const task = /TASK: ([^\\]*)/.exec(JSON.stringify(request.body))?.[1] ?? '';
      const success = Number.parseInt(createHash('md5').update(task).digest('hex')[0]!, 16) < 12;
      return { text: JSON.stringify({ parts: [], verdict: success ? 'SUCCESS' : 'NOT SUCCESS' }), delayMs: 400 };
    },
  });
  tmp = await mkdtemp(path.join(tmpdir(), 'cli-pipeline-'));
});
afterAll(async () => {
  await judge?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string | undefined> = { GEMINI_API_KEY: KEY, GEMINI_BASE_URL: judge.url }): ChildProcess {
  const clean = { GEMINI_API_KEY: undefined, GOOGLE_API_KEY: undefined, QWEN_ENDPOINT: undefined, ...env };
  // detached: a kill of its process group takes its Chromium and sandbox down with it
  return spawnScript('src/cli.ts', ['pipeline', ...args], { env: clean, detached: true });
}

const sandboxRun = (out: string) => [
  '--sandbox', '--out', out, '--sandbox-sites', '2', '--per-site', '3', '--human-per-site', '1', '--concurrency', '2',
  '--workers', '2', '--judge-model', 'gemini-3.5-flash', '--action-timeout', '20', '--no-progress',
];

// The uninterrupted run, made once for the tests that read it.
let wholeRun: Promise<Finished> | undefined;
const wholeDir = () => path.join(tmp, 'whole');
const runWhole = () => (wholeRun ??= finish(cli(sandboxRun(wholeDir()))));

const count = async (dir: string, test: (name: string) => boolean) => (existsSync(dir) ? (await readdir(dir)).filter(test).length : 0);
const finishedEpisodes = (run: string) => count(run, (d) => existsSync(path.join(run, d, 'episode.json')));
const judgeRecords = (dir: string) => count(dir, (f) => f.endsWith('.json') && !f.startsWith('_'));

// Runs the CLI until `ready` says the kill lands mid-stage, then kills its process group.
async function killWhen(out: string, ready: () => Promise<boolean>): Promise<Finished> {
  const child = cli(sandboxRun(out));
  const done = finish(child);
  while (child.exitCode === null && !(await ready())) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(child.exitCode).toBeNull(); // still running: the kill lands mid-run
  process.kill(-child.pid!, 'SIGKILL');
  const result = await done;
  expect(result.code).toBeNull();
  return result;
}

// The rows: which episodes, each rows.jsonl as text, and _report.json apart from its path.
async function rowsOf(out: string) {
  const rows = path.join(out, 'rows');
  const ids = (await readdir(rows)).filter((d) => d !== '_report.json').sort();
  const texts = Object.fromEntries(await Promise.all(ids.map(async (id) => [id, await readFile(path.join(rows, id, 'rows.jsonl'), 'utf8')] as const)));
  const { run, ...report } = JSON.parse(await readFile(path.join(rows, '_report.json'), 'utf8'));
  expect(run).toBe(`${out}/run`);
  return { ids, texts, report };
}

describe('taskgen pipeline --sandbox', () => {
  it('killed during attempt and again during judge, then started again, ends with the rows of an uninterrupted run', async () => {
    const whole = wholeDir();
    const first = await runWhole();
    expect(first.code, first.stderr).toBe(0);
    // which models, stand-ins labelled at the start and in the summary, the key never shown
    expect(first.stdout).toMatch(/proposer: stand-in-proposer \(sandbox stand-in, not a model/);
    expect(first.stdout).toMatch(/agent: +stand-in-oracle \(sandbox stand-in, not a model/);
    expect(first.stdout).toContain(`judge:    gemini-3.5-flash on the Gemini API at ${judge.url} (key from GEMINI_API_KEY)`);
    expect(first.stdout.split('NOTE: STAND-IN MODELS. The proposer, the agent, the verifier writer and the relabeler of this run are').length).toBe(3);
    expect(first.stdout).toContain('Real models: GEMINI_API_KEY=... taskgen pipeline --model gemini-3.5-flash --agent-endpoint');
    expect(`${first.stdout}${first.stderr}`).not.toContain(KEY);
    expect(first.stdout).toContain(`${whole}/rows/  (${whole}/rows/_report.json)`);
    expect(first.stdout).toMatch(/validate +2 human tasks: 2\/2 episodes/);
    // the summary's relabel line: rows before and after (per 100 episodes) as the rows report has them, and the cost
    const gain = /relabel gain: rows (\d+) \(([\d.]+) per 100 episodes\) before relabel, (\d+) \(([\d.]+) per 100 episodes\) after; (.*)/.exec(first.stdout);
    expect(gain, first.stdout).not.toBeNull();
    const selected = (JSON.parse(await readFile(path.join(whole, 'rows', '_report.json'), 'utf8')) as { selected_rows: number }).selected_rows;
    expect(Number(gain![3])).toBe(selected);
    expect(Number(gain![4])).toBeCloseTo((100 * selected) / PROPOSED, 1);
    expect(Number(gain![2])).toBeCloseTo((100 * Number(gain![1])) / PROPOSED, 1);
    expect(Number(gain![1])).toBeLessThanOrEqual(selected);
    expect(gain![5]).toMatch(/^\$\d+\.\d{5} per accepted relabel \(stand-in-relabeler and \S+ tokens at the default prices\)$|^no relabel accepted/);
    for (const file of ['tasks.jsonl', 'run_judge', 'human/results.jsonl', 'human_judge/_validate.json', 'rows/_report.json', 'run_report/index.html', 'human_report/index.html']) {
      expect(existsSync(path.join(whole, file)), file).toBe(true);
    }

    const killed = path.join(tmp, 'killed');
    const run = path.join(killed, 'run');
    await killWhen(killed, async () => (await finishedEpisodes(run)) >= 2);
    const attempted = await finishedEpisodes(run);
    expect(attempted).toBeLessThan(PROPOSED);
    expect(await judgeRecords(`${run}_judge`)).toBe(0);

    const second = await killWhen(killed, async () => (await judgeRecords(`${run}_judge`)) >= 2);
    expect(second.stderr).toContain(`${attempted} already finished, ${PROPOSED - attempted} to run`);
    const judged = await judgeRecords(`${run}_judge`);
    expect(judged).toBeLessThan(PROPOSED);

    const third = await finish(cli(sandboxRun(killed)));
    expect(third.code, third.stderr).toBe(0);
    expect(third.stdout).toContain(`judge     ${PROPOSED} judged by gemini-3.5-flash (${PROPOSED - judged} now)`);

    const a = await rowsOf(whole);
    const b = await rowsOf(killed);
    expect(a.ids.length).toBeGreaterThan(0);
    expect(b.ids).toEqual(a.ids);
    expect(b.texts).toEqual(a.texts);
    expect(b.report).toEqual(a.report);
  });

  it('taskgen verifiers and taskgen relabel on the run: a second time they write nothing new; the rows and the export carry the relabels', async () => {
    const done = await runWhole();
    expect(done.code, done.stderr).toBe(0);
    // A copy of the work dir without what the verifiers, relabel and rows stages wrote, redone by the commands alone.
    const whole = wholeDir();
    const copy = path.join(tmp, 'by-command');
    await cp(whole, copy, { recursive: true });
    for (const made of ['verifiers.jsonl', 'run_relabel', 'run_relabel_judge', 'rows', 'rows_provenance.jsonl']) await rm(path.join(copy, made), { recursive: true, force: true });
    const run = path.join(copy, 'run');
    const env = { GEMINI_API_KEY: KEY, GEMINI_BASE_URL: judge.url, GOOGLE_API_KEY: undefined };
    // The writer: the stand-in as the pipeline seeds it. The relabeler and its judge: the fake Gemini server, on every episode.
    const verifiers = () => runCli(['verifiers', run, '--tasks', path.join(copy, 'tasks.jsonl'), '--sandbox', '--verifier-error-rate', '0.1', '--sandbox-seed', '17'], { env });
    const relabel = () => runCli(['relabel', run, '--all', '--model', 'gemini-3.5-flash', '--workers', '6'], { env });
    const snapshot = async () => ({ verifiers: await readFile(path.join(copy, 'verifiers.jsonl'), 'utf8'), relabel: await filesOf(`${run}_relabel`), judged: await filesOf(`${run}_relabel_judge`) });

    const [v1, r1] = await Promise.all([verifiers(), relabel()]);
    expect(v1.code, v1.stderr).toBe(0);
    expect(r1.code, r1.stderr).toBe(0);
    expect(v1.stderr).toContain('NOTE: STAND-IN WRITER.');
    const written = JSON.parse(v1.stdout) as { written: number };
    expect(written.written).toBeGreaterThan(0);
    const summary = /^relabel: (\d+) episodes \((\d+) relabeled now, 0 done before\)\n {2}tasks written (\d+): accepted (\d+) .*claim did not hold (\d+) \(never judged\)/m.exec(r1.stdout);
    expect(summary, r1.stdout).not.toBeNull();
    const [episodes, relabeled, tasksWritten, accepted, notHolding] = summary!.slice(1).map(Number) as [number, number, number, number, number];
    expect(relabeled).toBe(episodes);
    expect(accepted).toBeGreaterThan(0);
    expect(notHolding).toBe(tasksWritten / 2); // every episode's second task claims a change that never happened
    const first = await snapshot();
    // The writer wrote what the pipeline's verifiers stage wrote (in the order they finished, from the copy's run).
    const withoutTime = (text: string) => text.trim().split('\n').map((l) => JSON.stringify({ ...JSON.parse(l), written_at: null })).sort();
    expect(withoutTime(first.verifiers.replaceAll(copy, whole))).toEqual(withoutTime(await readFile(path.join(whole, 'verifiers.jsonl'), 'utf8')));

    const [v2, r2] = await Promise.all([verifiers(), relabel()]);
    expect(JSON.parse(v2.stdout)).toMatchObject({ written: 0, kept: written.written });
    expect(r2.stdout).toContain(`relabel: ${episodes} episodes (0 relabeled now, ${relabeled} done before)`);
    expect(await snapshot()).toEqual(first);

    const rows = await runCli(['rows', run, '--out', path.join(copy, 'rows'), '--tasks', path.join(copy, 'tasks.jsonl'), '--no-progress']);
    expect(rows.code, rows.stderr).toBe(0);
    const hf = path.join(tmp, 'by-command-hf');
    const exported = await runCli(['export', copy, '--out', hf, '--no-progress']);
    expect(exported.code, exported.stderr).toBe(0);
    // Config episodes: every relabeled episode, with its parent; config steps: the rows of the accepted ones.
    const cut = (await readdir(`${run}_relabel`, { withFileTypes: true })).filter((d) => d.isDirectory() && !d.name.startsWith('_')).map((d) => d.name);
    const parents: Record<string, string | null> = {};
    for await (const e of loadEpisodes(hf)) if (e.origin === 'relabel') parents[e.task_id] = e.parent_task_id;
    expect(Object.keys(parents).sort()).toEqual(cut.sort());
    for (const id of cut) expect(parents[id], id).toBe(JSON.parse(await readFile(path.join(`${run}_relabel`, id, 'episode.json'), 'utf8')).task.parent_task_id);
    const stepTasks = new Set<string>();
    for await (const step of loadSteps(hf)) if (step.origin === 'relabel') stepTasks.add(step.task_id);
    expect(stepTasks.size).toBe(accepted);
    // Config tasks: the tasks the writer gave a verifier.
    const tasks = path.join(hf, 'data', 'tasks');
    const taskRows = (await Promise.all((await readdir(tasks)).map(async (f) => parquetReadObjects({ file: await asyncBufferFromFile(path.join(tasks, f)) })))).flat();
    expect(taskRows.map((r) => r.task_id).sort()).toEqual(first.verifiers.trim().split('\n').map((l) => JSON.parse(l).task_id).sort());
  });

  it('runs only the stages asked for', async () => {
    const out = path.join(tmp, 'only');
    const r = await finish(cli(['--sandbox', '--out', out, '--sandbox-sites', '2', '--per-site', '2', '--only', 'propose']));
    expect(r.code, r.stderr).toBe(0);
    expect((await readFile(path.join(out, 'tasks.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(4);
    expect(existsSync(path.join(out, 'run'))).toBe(false);
    expect(r.stdout).toMatch(/agent: +\(not used: its stages are skipped\)/);
    expect(r.stdout).toContain('attempt   not run (not in only)');
    const rows = await finish(cli(['--sandbox', '--out', path.join(tmp, 'nothing'), '--skip', 'propose,attempt,judge,verifiers,validate,relabel']));
    expect(rows.code).toBe(1);
    expect(rows.stderr).toContain(`the rows stage needs ${path.join(tmp, 'nothing')}/tasks.jsonl: run the propose stage, or put your tasks there`);
  });
});

// Every file under a dir (its path inside it) with a hash of its bytes, to compare two dirs or one dir at two times.
async function filesOf(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
  return Object.fromEntries(await Promise.all(files.map(async (f) => [f, createHash('sha256').update(await readFile(path.join(dir, f))).digest('hex')] as const)));
}

// A fake `vllm`: records its arguments and the chat requests it gets, serves /health and an OpenAI-compatible chat
// endpoint whose agent answers at once, and exits on SIGTERM.
const FAKE_VLLM = `#!/usr/bin/env node
const fs = require('node:fs');
const http = require('node:http');
const args = process.argv.slice(2);
fs.writeFileSync(process.env.FAKE_RECORD, JSON.stringify({ args, pid: process.pid }));
const port = Number(args[args.indexOf('--port') + 1]);
http.createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    if (req.url === '/health') { res.writeHead(200); return res.end(); }
    if (req.url === '/v1/models') { res.writeHead(200, { 'content-type': 'application/json' }); return res.end(JSON.stringify({ object: 'list', data: [{ id: args[1], object: 'model' }] })); }
    fs.appendFileSync(process.env.FAKE_RECORD + '.requests', body + '\\n');
    const content = '{"done": {"answer": "I am a fake"}}';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: args[1],
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 900, completion_tokens: 12, total_tokens: 912 } }));
  });
}).listen(port, '127.0.0.1', () => console.log('INFO Application startup complete.'));
process.on('SIGTERM', () => process.exit(0));
`;

describe('taskgen pipeline --serve-qwen', () => {
  it('starts vLLM for the agent, acts through it with thinking off, meters it, and stops it at the end', async () => {
    const vllm = path.join(tmp, 'vllm');
    await writeFile(vllm, FAKE_VLLM);
    await chmod(vllm, 0o755);
    const record = path.join(tmp, 'vllm.json');
    const out = path.join(tmp, 'served');
    const args = ['--sandbox', '--out', out, '--sandbox-sites', '1', '--per-site', '1', '--only', 'propose,attempt', '--serve-qwen', '--gpus', '2', '--vllm', vllm];
    const r = await finish(cli(args, { FAKE_RECORD: record }));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/agent: +Qwen\/Qwen3\.5-4B on the OpenAI-compatible server http:\/\/127\.0\.0\.1:\d+\/v1 \(no key\) \(vLLM started here by --serve-qwen, 2 GPU\(s\), stopped at the end\)/);
    expect(r.stdout).toContain("NOTE: STAND-IN MODELS. The proposer of this run is the sandbox's offline stand-in, not a model");
    expect(r.stdout).toMatch(/attempt +Qwen\/Qwen3\.5-4B +1 calls +900 in +12 out +\$0\.0000/);
    const { args: served, pid } = JSON.parse(await readFile(record, 'utf8'));
    expect(served.slice(0, 2)).toEqual(['serve', 'Qwen/Qwen3.5-4B']);
    expect(served).toEqual(expect.arrayContaining(['--data-parallel-size', '2']));
    const [request] = (await readFile(`${record}.requests`, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(request.chat_template_kwargs).toEqual({ enable_thinking: false });
    expect(request.max_tokens).toBe(512);
    expect(JSON.stringify(request.messages)).toContain('data:image/png;base64,');
    expect(() => process.kill(pid, 0)).toThrow(); // stopped
    expect(await readFile(path.join(out, 'vllm.log'), 'utf8')).toContain('Application startup complete.');
    const [episode] = (await readdir(path.join(out, 'run'))).filter((d) => d.startsWith('tg-'));
    expect(JSON.parse(await readFile(path.join(out, 'run', episode!, 'episode.json'), 'utf8'))).toMatchObject({ model: 'Qwen/Qwen3.5-4B', answer: 'I am a fake' });
  });

  it('with --thinking, turns thinking on and gives the agent as many tokens per reply as taskgen attempt does', async () => {
    const vllm = path.join(tmp, 'vllm-thinking');
    await writeFile(vllm, FAKE_VLLM);
    await chmod(vllm, 0o755);
    const record = path.join(tmp, 'vllm-thinking.json');
    const out = path.join(tmp, 'served-thinking');
    const args = ['--sandbox', '--out', out, '--sandbox-sites', '1', '--per-site', '1', '--only', 'propose,attempt', '--serve-qwen', '--thinking', '--vllm', vllm];
    const r = await finish(cli(args, { FAKE_RECORD: record }));
    expect(r.code, r.stderr).toBe(0);
    const [request] = (await readFile(`${record}.requests`, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(request.chat_template_kwargs).toEqual({ enable_thinking: true });
    expect(request.max_tokens).toBe(4096);
  });
});

describe('taskgen pipeline config errors', () => {
  const real = ['--sitemaps', 'sm', '--split', 'split.json', '--base-url', 'http://127.0.0.1:9', '--human-tasks', 'h.jsonl', '--agent-endpoint', 'http://127.0.0.1:9/v1'];

  it('a Gemini model without a key, before anything starts', async () => {
    const out = path.join(tmp, 'no-key');
    const r = await finish(cli([...real, '--out', out], { GEMINI_API_KEY: undefined }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no API key for gemini-3.5-flash: set GEMINI_API_KEY or GOOGLE_API_KEY in the environment');
    expect(existsSync(out)).toBe(false);
  });

  it('missing flags of the real setup, unsafe or unknown sites, unknown stages', async () => {
    const cases: Array<[string[], string]> = [
      [['--out', path.join(tmp, 'x')], 'taskgen pipeline needs --sitemaps DIR (the sitemaps); --base-url URL (the server of the sites); --split FILE or --sites a,b'],
      [['--sandbox', '--sites', 'shop-01,../etc'], 'refusing site "../etc": not a plain name'],
      [['--sandbox', '--sites', 'nosuch-01', '--out', path.join(tmp, 'y')], 'nosuch-01 is not a training site of the sandbox'],
      [['--sandbox', '--skip', 'propose,nope'], 'unknown stage "nope" in skip: the stages are propose, attempt, judge, verifiers, validate, relabel, rows, report'],
      [['--sandbox', '--stop-after-failures', 'x'], `option '--stop-after-failures <n>' argument 'x' is invalid. expected an integer >= 0, got "x"`],
    ];
    const results = await Promise.all(cases.map(([args]) => finish(cli(args))));
    results.forEach((r, i) => {
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(cases[i]![1]);
    });
  });
});
