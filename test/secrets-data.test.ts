/**
 * A key echoed back in a *successful* reply reaches no file the library writes: the proposer (Gemini) echoes its
 * key into tasks, the agent (OpenAI-compatible) types its key and answers with it, the judge (Gemini) echoes it in
 * its reason; every file written by propose, attempt, judge, rows and report is then searched for each key in
 * every encoding (plain, URL-encoded, JSON-escaped, base64 standard and URL-safe at any alignment), and so is
 * every event.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserHost, gemini, memorySource, nodeStore, openaiCompatible, qwenPolicy, runAttempt, runJudge, runPropose, runReport, runRows,
  type BrowserHost, type Task,
} from '../src/index';
import { startFakeGemini, startFakeOpenAI, type FakeServer } from './fakes/index';
import { fixtureTask, startFixtureSite, type FixtureSite } from './agent-fixture';

// Keys that no key-shaped pattern catches: only knowing the key removes them.
const GEMINI_KEY = 'gk-live/Echo+Key=2026:proposer';
const AGENT_KEY = 'vllm token/Agent+42=x';
const KEYS = [GEMINI_KEY, AGENT_KEY];

/** The key in the encodings a proxy or model echoes it in. */
function echoes(key: string): string {
  const b64 = Buffer.from(`id:${key}`).toString('base64');
  const b64url = Buffer.from(`xy${key}`).toString('base64url');
  return `plain ${key} url ${encodeURIComponent(key)} lower ${lowerHex(encodeURIComponent(key))} b64 ${b64} b64url ${b64url}`;
}

const lowerHex = (url: string) => url.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());

/** Where `key` is in `text`, in any encoding; `[]` when nowhere. */
function findKey(text: string, key: string): string[] {
  const found: string[] = [];
  const forms = { plain: key, url: encodeURIComponent(key), json: JSON.stringify(key).slice(1, -1), plus: encodeURIComponent(key).replace(/%20/g, '+') };
  for (const [name, form] of Object.entries(forms)) {
    if (text.includes(form) || text.includes(lowerHex(form))) found.push(name);
  }
  // Every base64 run, decoded from each of the four offsets, in both alphabets.
  for (const run of text.match(/[A-Za-z0-9+/_-]{16,}/g) ?? []) {
    for (let i = 0; i < 4; i++) {
      const body = run.slice(i);
      for (const alphabet of ['base64', 'base64url'] as const) {
        if (Buffer.from(body, alphabet).toString('latin1').includes(key)) found.push(`${alphabet} ${run.slice(0, 24)}...`);
      }
    }
  }
  return found;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile());
}

let site: FixtureSite;
let host: BrowserHost;
let tmp: string;
const servers: FakeServer[] = [];

beforeAll(async () => {
  site = await startFixtureSite();
  host = browserHost();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'secrets-data-'));
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await host?.close();
  await site?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('a key echoed in a successful reply', () => {
  it('reaches no task, episode, row, judge record, rows dir, report or event, in any encoding', async () => {
    const events: unknown[] = [];
    const onEvent = (e: unknown) => events.push(e);
    const run = path.join(tmp, 'run');

    // The proposer echoes its key into a task's instruction.
    const proposer = await startFakeGemini({
      replies: [JSON.stringify({ tasks: [{ instruction: `Search the shop for ${echoes(GEMINI_KEY)}`, kind: 'action' }] })],
    });
    servers.push(proposer);
    const source = memorySource({ sitemaps: { shop: '{"pages": [{"path": "/sites/shop/"}], "controls": []}' }, pages: { '/sites/shop/': '<h1>Shop</h1>' } });
    const tasksFile = path.join(tmp, 'tasks.jsonl');
    const llm = gemini({ apiKey: GEMINI_KEY, baseUrl: proposer.url });
    const proposed = await runPropose({ sites: ['shop'], source, llm, out: tasksFile, perSite: 1, batch: 1, onEvent });
    expect(proposed.tasks).toBe(1);
    const proposedTask = JSON.parse(readFileSync(tasksFile, 'utf8')) as Task;
    expect(proposedTask.instruction).toContain('[REDACTED]');

    // The agent types its key into the search box, then answers with it.
    const agent = await startFakeOpenAI({
      replies: [
        JSON.stringify({ type: { index: 6, text: AGENT_KEY, enter: true } }),
        JSON.stringify({ done: { answer: echoes(AGENT_KEY) } }),
      ],
    });
    servers.push(agent);
    const task = fixtureTask('echo', proposedTask.instruction);
    const attempt = await runAttempt({
      tasks: [task],
      policy: qwenPolicy({ llm: openaiCompatible({ baseURL: agent.url, model: 'Qwen/Qwen3.5-4B', apiKey: AGENT_KEY }) }),
      source: { baseUrl: site.baseUrl },
      out: run,
      browser: host,
      onEvent,
    });
    expect(attempt).toMatchObject({ recorded: 1, outcomes: { done: 1 } });
    // What the agent typed reached the site as [REDACTED], never as the key.
    expect(site.requests.some((r) => decodeURIComponent(r.url.replace(/\+/g, ' ')).includes('[REDACTED]'))).toBe(true);

    // The judge echoes its key in the reason of a SUCCESS verdict.
    const judge = await startFakeGemini({ replies: [JSON.stringify({ verdict: 'SUCCESS', reason: echoes(GEMINI_KEY) })] });
    servers.push(judge);
    const judged = await runJudge({ run, llm: gemini({ apiKey: GEMINI_KEY, baseUrl: judge.url }), onEvent });
    expect(judged.records).toHaveLength(1);
    expect(judged.records[0]).toMatchObject({ predicted_label: 1 });

    const rows = path.join(tmp, 'rows');
    await runRows({ run, out: rows, tasks: [{ task_id: 'echo', site: 'shop' }], onEvent });
    await runReport({ run, rows, onEvent });

    // The guard under the adapters: text written through the store loses a key the process holds.
    await nodeStore().writeAtomic(path.join(tmp, 'note.txt'), `a note with ${echoes(AGENT_KEY)}`);

    const written = filesUnder(tmp);
    expect(written.map((f) => path.relative(tmp, f))).toEqual(expect.arrayContaining([
      'tasks.jsonl', 'run/tasks.jsonl', 'run/echo/episode.json', 'run/echo/grade_inputs.json', 'run/echo/rows/rows.jsonl',
      'run_judge/echo.json', 'rows/echo/rows.jsonl', 'note.txt',
    ]));
    expect(readFileSync(path.join(run, 'echo', 'rows', 'rows.jsonl'), 'utf8')).toContain('[REDACTED]');
    expect(readFileSync(path.join(tmp, 'run_judge', 'echo.json'), 'utf8')).toContain('[REDACTED]');
    const leaks = written.flatMap((file) => {
      const text = readFileSync(file).toString('latin1');
      return KEYS.flatMap((key) => findKey(text, key).map((how) => `${path.relative(tmp, file)}: ${how}`));
    });
    expect(leaks).toEqual([]);
    const eventText = JSON.stringify(events);
    expect(KEYS.flatMap((key) => findKey(eventText, key))).toEqual([]);
    // The check itself finds every encoding the servers echoed.
    for (const key of KEYS) expect(findKey(echoes(key), key).length).toBeGreaterThanOrEqual(4);
  });
});
