/**
 * `taskgen pipeline` in child processes: on the sandbox with the stand-in proposer and agent and the judge on the real
 * Gemini SDK against a fake server (slow enough to be killed mid-judge), a run killed with SIGKILL during attempt and
 * again during judge, then started again, ends with the same rows as an uninterrupted run; stages can be skipped;
 * bad configs fail at once with clear errors.
 */
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini, type FakeServer } from './fakes/index';
import { finish, spawnScript, type Finished } from './helpers/cli';

const KEY = 'test-key-not-secret-123';
const PROPOSED = 6; // 2 sites x 3 tasks
let judge: FakeServer;
let tmp: string;

beforeAll(async () => {
  // SUCCESS for about 3 tasks in 4, decided by the task's text, so every run judges alike
  judge = await startFakeGemini({
    handler: (request) => {
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
    const whole = path.join(tmp, 'whole');
    const first = await finish(cli(sandboxRun(whole)));
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
    ];
    const results = await Promise.all(cases.map(([args]) => finish(cli(args))));
    results.forEach((r, i) => {
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(cases[i]![1]);
    });
  });
});
