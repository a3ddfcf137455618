import { promises as fs } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  StageStoppedError, gemini, runJudge, memorySource, memoryStore, runPipeline, runPropose, type JudgeEvent, type ProposeEvent,
} from '../src/index';
import { startFakeGemini, type FakeReply, type FakeServer } from './fakes/index';
import { runCli } from './helpers/cli';
import { recordText, tempDir, writeRun } from './helpers/runs';

// Issue 12, bullet 4: failures with causes. Each case is a model or a site that fails as a user's would, through
// the CLI against a fake Gemini server on 127.0.0.1. Every case must end with a non-zero exit code and its cause
// (status, message, model, a hint) on stderr, leave every file that was there byte for byte, and never print
// the key. The tally at the end is the "Failures with causes" figures of docs/reliability.md.

const KEY = 'test-key-faults-5f3a9c';
const GOOD_TASKS = JSON.stringify({ tasks: [{ instruction: 'Find the price of the blue lamp and report it', kind: 'info' }] });
const SITEMAP = '{"name": "Shop", "pages": [{"path": "/sites/shop/", "title": "Home"}, {"path": "/sites/shop/lamps"}], "controls": []}';
const DONE_LINE = '{"kind": "proposed", "task_id": "tg-done-00000000", "site": "done", "instruction": "Already proposed"}\n';

interface FaultCase {
  readonly name: string;
  readonly stage: 'propose' | 'judge';
  /** What the model server answers to every request. */
  readonly reply: FakeReply;
  /** Patterns stderr must show: the cause. */
  readonly cause: readonly RegExp[];
  readonly args?: readonly string[];
  /** Propose from a site server that is not there. */
  readonly unreachable?: boolean;
  /**
   * The most model requests the stage may make: a fatal error stops it at once, so only the calls already in
   * flight (one per worker: `judge --workers 2`) are made, not 3 tries per episode.
   */
  readonly maxRequests?: number;
}

const fast500: FakeReply = { status: 500, message: 'internal error', retryAfter: 0 };
const cases: readonly FaultCase[] = [
  { name: 'propose: 401 bad key', stage: 'propose', reply: { status: 401, message: 'API key not valid' }, cause: [/HTTP 401: API key not valid/, /check GEMINI_API_KEY/, /propose stopped/], maxRequests: 1 },
  { name: 'propose: 403 forbidden', stage: 'propose', reply: { status: 403, message: 'permission denied' }, cause: [/HTTP 403/, /check GEMINI_API_KEY/], maxRequests: 1 },
  { name: 'propose: 404 unknown model', stage: 'propose', reply: { status: 404, message: 'models/gemini-9 is not found' }, cause: [/HTTP 404/, /check the model name "gemini-3.5-flash"/], maxRequests: 1 },
  { name: 'propose: 400 bad request', stage: 'propose', reply: { status: 400, message: 'Invalid JSON payload' }, cause: [/HTTP 400: Invalid JSON payload/], maxRequests: 1 },
  { name: 'propose: 500 on every call', stage: 'propose', reply: fast500, cause: [/HTTP 500: internal error/, /gave up after 5 attempts/] },
  { name: 'propose: an HTML page with 200', stage: 'propose', reply: { raw: '<html><body>Sign in to continue</body></html>' }, cause: [/malformed reply/, /text\/html/] },
  { name: 'propose: prose instead of JSON', stage: 'propose', reply: 'Sure! Here are some great tasks for this shop.', cause: [/JSONDecodeError/] },
  { name: 'propose: an empty reply', stage: 'propose', reply: '', cause: [/shop 0\/3/, /gemini model gemini-3.5-flash: the reply was empty \(STOP\)/] },
  { name: 'propose: a reply blocked for safety', stage: 'propose', reply: { text: '', finishReason: 'SAFETY' }, cause: [/shop 0\/3/, /the reply was blocked by the provider's filter \(SAFETY\)/] },
  { name: 'propose: a model that hangs', stage: 'propose', reply: { hang: true }, args: ['--timeout', '0.3'], cause: [/timed out after 0.3 s/, /--timeout/] },
  { name: 'propose: unreachable --base-url', stage: 'propose', reply: GOOD_TASKS, unreachable: true, cause: [/could not fetch/, /--base-url/], maxRequests: 0 },
  { name: 'judge: 401 bad key', stage: 'judge', reply: { status: 401, message: 'API key not valid' }, cause: [/HTTP 401: API key not valid/, /check GEMINI_API_KEY/, /judge stopped/], maxRequests: 2 },
  { name: 'judge: 404 unknown model', stage: 'judge', reply: { status: 404, message: 'model not found' }, cause: [/HTTP 404/, /check the model name/], maxRequests: 2 },
  { name: 'judge: 400 bad request', stage: 'judge', reply: { status: 400, message: 'image too large' }, cause: [/HTTP 400: image too large/], maxRequests: 2 },
  { name: 'judge: 500 on every call', stage: 'judge', reply: fast500, cause: [/HTTP 500: internal error/, /model calls all failed|model calls failed/] },
  { name: 'judge: an HTML page with 200', stage: 'judge', reply: { raw: '<html>proxy error</html>' }, cause: [/malformed reply/] },
  { name: 'judge: prose instead of a verdict', stage: 'judge', reply: 'Sure! The agent did a great job.', cause: [/episodes got no verdict/, /: the reply did not parse as a verdict \(SUCCESS or NOT SUCCESS\): "Sure! The agent did a great job\."\n$/] },
  { name: 'judge: a reply blocked for safety', stage: 'judge', reply: { text: '', finishReason: 'SAFETY' }, cause: [/the reply was blocked by the provider's filter \(SAFETY\)/] },
  { name: 'judge: a model that hangs', stage: 'judge', reply: { hang: true }, args: ['--timeout', '0.3'], cause: [/timed out after 0.3 s/] },
];

let pages: Server;
let pagesUrl: string;
let closedUrl: string;
const tally = { tried: 0, clear: 0, lost: 0 };

beforeAll(async () => {
  pages = createServer((_req, res) => res.end('<h1>Lamps</h1><p>Blue lamp 12 EUR</p>'));
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pagesUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((resolve) => closed.close(resolve));
});

afterAll(async () => {
  await new Promise((resolve) => pages.close(resolve));
  // The figures of docs/reliability.md come from this line.
  process.stderr.write(`fault cases: ${tally.tried} tried, ${tally.clear} with a clear error, ${tally.lost} lost data\n`);
});

/** Every file under `dir` with its bytes, to compare before and after a failing run. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, file)] = await fs.readFile(file, 'base64');
  }
  return out;
}

/** The judge records in a judge dir (its `<task_id>.json` files), sorted. */
async function records(judgeDir: string): Promise<string[]> {
  return (await fs.readdir(judgeDir)).filter((name) => name.endsWith('.json')).sort();
}

async function setUp(c: FaultCase, dir: string): Promise<string[]> {
  if (c.stage === 'propose') {
    await fs.mkdir(path.join(dir, 'sitemaps'));
    await fs.writeFile(path.join(dir, 'sitemaps', 'shop.json'), SITEMAP);
    await fs.writeFile(path.join(dir, 'tasks.jsonl'), DONE_LINE);
    return ['propose', '--out', path.join(dir, 'tasks.jsonl'), '--sites', 'done,shop', '--per-site', '3', '--batch', '3',
      '--sitemaps', path.join(dir, 'sitemaps'), '--base-url', c.unreachable ? closedUrl : pagesUrl];
  }
  const run = path.join(dir, 'run');
  const ids = ['tg-shop-00000001', 'tg-shop-00000002', 'tg-shop-00000003'];
  await writeRun(
    run,
    ids.map((taskId, i) => ({ taskId, gradeInputs: '{"answer": "12 EUR"}', shots: ['step_0.png'], final: true, record: i === 0 ? recordText(taskId, 1) : undefined })),
    ids.map((task_id) => ({ task_id, instruction: 'Find the price of the blue lamp', site: 'shop', task_kind: 'info' })),
  );
  return ['judge', run, '--workers', '2'];
}

describe.concurrent('a stage whose model or site fails exits non-zero with the cause and loses nothing', () => {
  it.each(cases)('$name', async (c) => {
    const server: FakeServer = await startFakeGemini({ replies: [c.reply] });
    try {
      const dir = await tempDir('faults-');
      const args = [...(await setUp(c, dir)), ...(c.args ?? [])];
      const before = await snapshot(dir);
      const r = await runCli(args, { env: { GEMINI_API_KEY: KEY, GEMINI_BASE_URL: server.url } });
      tally.tried++;
      const after = await snapshot(dir);
      // Nothing that was there changed or went missing (new files, such as the judge dir, may appear).
      const lost = Object.keys(before).filter((file) => after[file] !== before[file]);
      if (lost.length) tally.lost++;
      expect(lost).toEqual([]);
      expect(`${r.stdout}${r.stderr}`).not.toContain(KEY);
      expect(r.code, r.stderr).not.toBe(0);
      for (const pattern of c.cause) expect(r.stderr).toMatch(pattern);
      if (c.maxRequests !== undefined) expect(server.requests.length).toBeLessThanOrEqual(c.maxRequests);
      if (c.stage === 'judge') {
        // No verdict came, so no record was written: a rerun judges those episodes again.
        expect(await records(path.join(dir, 'run_judge'))).toEqual(['tg-shop-00000001.json']);
      }
      tally.clear++;
    } finally {
      await server.close();
    }
  });
});

describe('ordinary per-episode errors stay as the seed has them', () => {
  it('judge: one episode gets 500s, the rest are judged; exit 1 names the cause, and a rerun judges just that one', async () => {
    let failing = true;
    const server = await startFakeGemini({
      handler: (request) =>
        failing && JSON.stringify(request.body).includes('TASK: flaky') ? fast500 : '{"verdict": "SUCCESS"}',
    });
    try {
      const run = path.join(await tempDir('faults-'), 'run');
      const ids = ['tg-shop-00000001', 'tg-shop-00000002'];
      await writeRun(
        run,
        ids.map((taskId) => ({ taskId, gradeInputs: '{"answer": "x"}', shots: ['step_0.png'] })),
        ids.map((task_id, i) => ({ task_id, instruction: i ? 'flaky' : 'fine', site: 'shop' })),
      );
      const env = { GEMINI_API_KEY: KEY, GEMINI_BASE_URL: server.url };
      const first = await runCli(['judge', run, '--workers', '1'], { env });
      expect(first.code).toBe(1);
      expect(first.stdout.split('\n')[1]).toBe('{"episodes": 2, "success": 1, "rate": 0.5, "no_verdict": 1, "errors": 0, "judge": "gemini-3.5-flash"}');
      expect(first.stderr).toMatch(/1 episodes not judged; rerun to retry them \(judged ones are kept\); 3 model calls failed, first: \n {2}judge tg-shop-00000002: gemini model gemini-3\.5-flash: HTTP 500: internal error/);
      expect(await records(`${run}_judge`)).toEqual(['tg-shop-00000001.json']);
      failing = false;
      const again = await runCli(['judge', run], { env });
      expect(again.code).toBe(0);
      expect(await records(`${run}_judge`)).toEqual(ids.map((id) => `${id}.json`));
    } finally {
      await server.close();
    }
  });
});

describe('the library reports the same through its events and summaries', () => {
  it('runJudge, runPropose and pipeline: call-failed with status, model and hint, then stopped, on a bad key', async () => {
    const server = await startFakeGemini({ replies: [{ status: 401, message: 'API key not valid' }] });
    try {
      const llm = gemini({ apiKey: KEY, baseUrl: server.url });
      const run = path.join(await tempDir('faults-'), 'run');
      await writeRun(run, [{ taskId: 'tg-shop-00000001', gradeInputs: '{"answer": "x"}' }], [{ task_id: 'tg-shop-00000001', instruction: 'x', site: 'shop' }]);
      const judged: JudgeEvent[] = [];
      const judging = await runJudge({ run, llm, onEvent: (e) => judged.push(e) }).catch((e: unknown) => e);
      expect(judging).toBeInstanceOf(StageStoppedError);
      const failed = judged.find((e) => e.type === 'call-failed');
      expect(failed).toMatchObject({
        failure: { stage: 'judge', item: 'tg-shop-00000001', status: 401, model: 'gemini-3.5-flash', hint: 'check the apiKey option', fatal: true },
      });
      expect(judged.at(-1)?.type).toBe('stopped');

      const proposed: ProposeEvent[] = [];
      const source = memorySource({ sitemaps: { shop: SITEMAP }, pages: { '/sites/shop/': '<h1>Shop</h1>', '/sites/shop/lamps': 'Lamps' } });
      const proposing = await runPropose({ sites: ['shop'], source, llm, out: '/tasks.jsonl', store: memoryStore(), perSite: 3, onEvent: (e) => proposed.push(e) }).catch((e: unknown) => e);
      expect(proposing).toBeInstanceOf(StageStoppedError);
      expect((proposing as StageStoppedError).failures[0]).toMatchObject({ stage: 'propose', item: 'shop', status: 401 });
      expect(proposed.filter((e) => e.type === 'batch-failed')).toEqual([]); // stopped, not marked failed batch by batch
      expect(proposed.at(-1)?.type).toBe('stopped');

      // The pipeline stops with the same error, and with the causes when no site got a task.
      const dir = path.join(await tempDir('faults-'), 'work');
      const config = { dir, source: { ...source, baseUrl: 'http://127.0.0.1:9' }, sites: ['shop'], only: ['propose' as const], perSite: 3 };
      await expect(runPipeline({ ...config, proposer: llm })).rejects.toThrow(StageStoppedError);
      const prose = await startFakeGemini({ replies: ['I cannot help with that.'] });
      try {
        const proseRun = runPipeline({ ...config, proposer: gemini({ apiKey: KEY, baseUrl: prose.url }) });
        await expect(proseRun).rejects.toThrow(/propose stopped: no site got a task \(shop\).*\n {2}propose shop: batch 0: JSONDecodeError/s);
      } finally {
        await prose.close();
      }
    } finally {
      await server.close();
    }
  });
});

describe('the pipeline names why its judge gave no verdict', () => {
  it('a judge answering prose: under NOT COMPLETE, each episode without a verdict with a short excerpt of the reply, keys removed; exit 1', async () => {
    const shaped = 'AIzaSyA0123456789abcdefghijklmnopqrstu';
    const server = await startFakeGemini({ replies: [`Sure! The agent did a great job (key ${shaped}).${' Truly.'.repeat(40)}`] });
    try {
      const dir = await tempDir('faults-pipeline-');
      const ids = ['tg-shop-00000001', 'tg-shop-00000002'];
      await writeRun(path.join(dir, 'run'), ids.map((taskId) => ({ taskId, gradeInputs: '{"answer": "12 EUR"}', shots: ['step_0.png'] })),
        ids.map((task_id) => ({ task_id, instruction: 'Find the price of the blue lamp', site: 'shop', task_kind: 'info' })));
      const r = await runCli(['pipeline', '--sandbox', '--only', 'judge', '--out', dir, '--judge-model', 'gemini-3.5-flash', '--no-progress'],
        { env: { GEMINI_API_KEY: KEY, GEMINI_BASE_URL: server.url } });
      expect(r.code, r.stderr).toBe(1);
      const notComplete = r.stdout.slice(r.stdout.indexOf('NOT COMPLETE:'));
      const lines = notComplete.split('\n').filter((line) => line.startsWith('  judge: no verdict for '));
      expect(lines.map((line) => line.split(':')[1])).toEqual(ids.map((id) => ` no verdict for ${id}`));
      for (const line of lines) {
        const excerpt = /: the reply did not parse as a verdict \(SUCCESS or NOT SUCCESS\): "(.*)"$/.exec(line)?.[1];
        expect(excerpt).toMatch(/^Sure! The agent did a great job \(key \[REDACTED\]\)\. Truly\./);
        expect([...excerpt!].length).toBeLessThanOrEqual(200);
      }
      expect(`${r.stdout}${r.stderr}`).not.toContain(shaped);
      expect(`${r.stdout}${r.stderr}`).not.toContain(KEY);
    } finally {
      await server.close();
    }
  });
});
