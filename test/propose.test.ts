import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, LLMError, UnsafeNameError, fakeLLM, memorySource, memoryStore, proposeSite, runPropose, type FakeCall, type FileStore, type ProposeEvent, type SiteContext } from '../src/index';
import { startFakeGemini } from './fakes/index';
import { runCli } from './helpers/cli';

const CTX: SiteContext = { site: 'shop', name: 'Shop', home: '/sites/shop/', paths: ['/sites/shop/', '/sites/shop/a'], text: 'PAGES' };
const ins = (i: number, site = 'shop') => `On ${site}, find item number ${i} and report its price`;
const reply = (items: unknown[]) => JSON.stringify({ tasks: items });

async function run(replies: Parameters<typeof fakeLLM>[0]['replies'], perSite = 3, batch = 3) {
  const llm = fakeLLM({ replies });
  const events: ProposeEvent[] = [];
  const tasks = await proposeSite(CTX, { llm, perSite, batch, onEvent: (e) => events.push(e) });
  return { llm, events, tasks };
}

describe('proposeSite', () => {
  it('writes tasks in the seed format, keys in its order, starting on the home page', async () => {
    const { tasks, llm } = await run([reply([{ instruction: ins(1), kind: 'info' }, { instruction: ins(2), kind: 'other' }, { instruction: ins(3) }])]);
    expect(tasks).toHaveLength(3);
    expect(Object.keys(tasks[0]!)).toEqual(['kind', 'task_id', 'site', 'sites', 'macro', 'macros', 'instruction', 'start_path', 'task_kind', 'verifier']);
    expect(tasks[0]).toMatchObject({ kind: 'proposed', site: 'shop', sites: ['shop'], macro: 'proposed', macros: [], start_path: '/sites/shop/', task_kind: 'info', verifier: null });
    expect(tasks.map((t) => t.task_kind)).toEqual(['info', 'action', 'action']);
    expect(tasks[0]!.task_id).toMatch(/^tg-shop-[0-9a-f]{8}$/);
    expect(llm.calls).toHaveLength(1);
    expect(llm.calls[0]!.options).toEqual({ system: expect.stringContaining('InSTA'), json: true, maxTokens: 8192, temperature: 1 });
  });

  it('skips a batch whose reply is prose, or a failed call, with an event, and goes on', async () => {
    const { tasks, events } = await run([
      'Here are some tasks for this website:\n1. Find the lamp.',
      new LLMError('503 overloaded', { model: 'm', provider: 'fake', isRetryable: true }),
      reply([{ instruction: ins(1) }, { instruction: ins(2) }, { instruction: ins(3) }]),
    ]);
    expect(tasks).toHaveLength(3);
    expect(events.filter((e) => e.type === 'batch-failed')).toEqual([
      { type: 'batch-failed', site: 'shop', batch: 0, reason: 'JSONDecodeError Expecting value: line 1 column 1 (char 0)' },
      { type: 'batch-failed', site: 'shop', batch: 1, reason: 'LLMError 503 overloaded' },
    ]);
  });

  it('fails a batch whose tasks are not a list, where the seed would crash', async () => {
    const { events, tasks } = await run(['{"tasks": "Find the lamp"}', '"just a string"', '{"tasks": {"a": 1}}', '42'], 5);
    expect(tasks).toEqual([]);
    expect(events.filter((e) => e.type === 'batch-failed').map((e) => (e as { reason: string }).reason)).toEqual([
      "TypeError the reply's tasks are not a list (type str): Find the lamp",
      "TypeError the reply's tasks are not a list (type str): just a string",
      "TypeError the reply's tasks are not a list (type dict): {'a': 1}",
      "TypeError the reply's tasks are not a list (type int): 42",
    ]);
  });

  it('skips entries that are not objects or not encodable, keeping the rest of the batch', async () => {
    const { tasks, events } = await run([
      `{"tasks": ["Find the lamp and report it", null, 5, [1], {"instruction": "Lone \\ud800 surrogate in this one"}, {"instruction": "${ins(1)}"}]}`,
    ], 1, 5);
    expect(tasks.map((t) => t.instruction)).toEqual([ins(1)]);
    expect(events.filter((e) => e.type === 'task-skipped').map((e) => (e as { index: number }).index)).toEqual([0, 1, 2, 3, 4]);
  });

  it('drops short and repeated instructions (after normalization) and stops at perSite', async () => {
    const { tasks, llm } = await run([
      reply([{ instruction: '   fourteen chars' }, { instruction: 'Find the RED lamp now' }, { instruction: ' find the red-lamp, now! ' }, { instruction: '14 characters!' }]),
      reply([{ instruction: 'FIND THE RED LAMP NOW' }, { instruction: ins(1) }, { instruction: ins(2) }, { instruction: ins(3) }]),
    ]);
    expect(tasks.map((t) => t.instruction)).toEqual(['Find the RED lamp now', ins(1), ins(2)]);
    expect(llm.calls).toHaveLength(2);
    expect(llm.calls[1]!.prompt).toContain('Do not repeat these earlier tasks: Find the RED lamp now\n');
  });

  it('refuses a batch size that is not a positive integer', async () => {
    await expect(proposeSite(CTX, { llm: fakeLLM({ replies: ['{}'] }), batch: 0 })).rejects.toThrow(RangeError);
  });
});

// ── runPropose ────────────────────────────────────────────────────────────

const SITES = ['alpha', 'beta', 'gamma'];
const SITEMAPS = Object.fromEntries(SITES.map((s) => [s, `{"pages": [{"path": "/sites/${s}/"}, {"path": "/sites/${s}/x"}], "controls": []}`]));
const source = memorySource({ sitemaps: SITEMAPS, pages: {} });
const siteOf = (call: FakeCall) => /under \/sites\/([^/]+)\//.exec(call.prompt)![1]!;

// Replies depend only on the site and its batch number, so any order of calls gives the same tasks.
function siteModel(options: { delay?: (site: string) => number } = {}) {
  const batches = new Map<string, number>();
  return fakeLLM({
    replies: async (call) => {
      const site = siteOf(call);
      const b = batches.get(site) ?? 0;
      batches.set(site, b + 1);
      await new Promise((resolve) => setTimeout(resolve, options.delay?.(site) ?? 0));
      if (site === 'beta' && b === 0) return 'prose, not JSON';
      return reply([0, 1, 2].map((i) => ({ instruction: ins(b * 3 + i, site), kind: i ? 'action' : 'info' })));
    },
  });
}

async function propose(store: FileStore, llm = siteModel(), events: ProposeEvent[] = [], sites = SITES) {
  const summary = await runPropose({ sites, source, llm, out: '/out/tasks.jsonl', perSite: 5, batch: 3, workers: 3, store, onEvent: (e) => events.push(e) });
  return { summary, events, llm, text: await store.readText('/out/tasks.jsonl') };
}

describe('runPropose', () => {
  it('writes sites in input order whatever order they finish in, and sums up', async () => {
    const slowFirst = siteModel({ delay: (s) => (s === 'alpha' ? 30 : 0) });
    const { summary, text, events } = await propose(memoryStore(), slowFirst);
    const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l) as { site: string; task_kind: string });
    expect([...new Set(lines.map((l) => l.site))]).toEqual(SITES);
    expect(lines).toHaveLength(15);
    expect(summary).toEqual({
      done: [],
      sites: SITES.map((site) => ({ site, tasks: 5, info: 2 })),
      tasks: 15,
      info: 6,
      failedBatches: 1,
      skippedTasks: 0,
      // The failed batch was a reply that is not JSON, not a failed call; the site still got its 5 tasks.
      failures: [{ site: 'beta', batch: 0, reason: 'JSONDecodeError Expecting value: line 1 column 1 (char 0)' }],
      callErrors: 0,
      callFailures: [],
      shortSites: [],
    });
    expect(events.filter((e) => e.type === 'site-done').map((e) => (e as { site: string }).site)).toEqual(SITES);
    expect(events.find((e) => e.type === 'start')).toEqual({ type: 'start', sites: SITES, done: [], perSite: 5 });
  });

  const uninterrupted = async () => (await propose(memoryStore())).text;

  it('resumes a file torn mid-site as if never interrupted', async () => {
    const full = await uninterrupted();
    const lines = full.split('\n');
    // alpha whole, two of beta's lines, and beta's third cut mid-line (as the seed's append leaves it).
    const partial = `${lines.slice(0, 7).join('\n')}\n${lines[7]!.slice(0, 50)}`;
    const store = memoryStore({ '/out/tasks.jsonl': partial });
    const { text, events, llm } = await propose(store);
    expect(text).toBe(full);
    expect(events.filter((e) => e.type === 'torn-line' || e.type === 'resumed')).toEqual([
      { type: 'torn-line', file: '/out/tasks.jsonl', line: 8, dropped: { site: 'beta', lines: 2 } },
      { type: 'resumed', file: '/out/tasks.jsonl', sites: ['alpha'] },
    ]);
    expect(new Set(llm.calls.map(siteOf))).toEqual(new Set(['beta', 'gamma']));
  });

  it('keeps the site before a torn line that starts another site', async () => {
    const full = await uninterrupted();
    const lines = full.split('\n');
    const partial = `${lines.slice(0, 10).join('\n')}\n${lines[10]!.slice(0, 80)}`; // alpha, beta whole; gamma torn
    expect(lines[10]!.slice(0, 80)).toContain('"site": "gamma"');
    const { text, events, llm } = await propose(memoryStore({ '/out/tasks.jsonl': partial }));
    expect(text).toBe(full);
    expect(events.find((e) => e.type === 'torn-line')).toMatchObject({ dropped: null });
    expect(new Set(llm.calls.map(siteOf))).toEqual(new Set(['gamma']));
  });

  it('a run killed between sites leaves whole sites only and resumes to the same file', async () => {
    const full = await uninterrupted();
    const store = memoryStore();
    let writes = 0;
    const dying: FileStore = {
      ...store,
      async writeAtomic(p, data) {
        if (++writes === 2) throw new Error('killed');
        return store.writeAtomic(p, data);
      },
    };
    await expect(propose(dying)).rejects.toThrow('killed');
    expect(await store.readText('/out/tasks.jsonl')).toBe(full.split('\n').slice(0, 5).join('\n') + '\n');
    expect((await propose(store)).text).toBe(full);
  });

  it('fails on a bad line that is not the last, naming the file and line', async () => {
    const store = memoryStore({ '/out/tasks.jsonl': '{"site": "alpha"}\n{"site": \n{"site": "beta"}\n' });
    await expect(propose(store)).rejects.toThrow(InputError);
    await expect(propose(store)).rejects.toThrow(/^\/out\/tasks\.jsonl:2: /);
    const noSite = memoryStore({ '/out/tasks.jsonl': '{"task_id": "x"}\n' });
    await expect(propose(noSite)).rejects.toMatchObject({ line: 1, field: 'site' });
  });

  it('refuses unsafe site names before reading or writing anything', async () => {
    const touched: string[] = [];
    const store = memoryStore();
    const spy: FileStore = { ...store, readText: async (p) => (touched.push(p), store.readText(p)), writeAtomic: async (p) => void touched.push(p) };
    for (const bad of ['../x', 'a/b', '..']) {
      await expect(propose(spy, siteModel(), [], ['alpha', bad])).rejects.toThrow(UnsafeNameError);
    }
    expect(touched).toEqual([]);
  });

  it('fails on a sitemap without pages before any model call', async () => {
    const llm = siteModel();
    const bad = memorySource({ sitemaps: { ...SITEMAPS, beta: '{"controls": []}' } });
    const run = runPropose({ sites: SITES, source: bad, llm, out: '/o.jsonl', store: memoryStore() });
    await expect(run).rejects.toMatchObject({ file: '<memory>/beta.json', field: 'pages' });
    expect(llm.calls).toHaveLength(0);
  });

  it('proposes a listed site once and keeps sites already done', async () => {
    const store = memoryStore();
    await propose(store, siteModel(), [], ['beta']);
    const { summary, llm } = await propose(store, siteModel(), [], ['alpha', 'beta', 'alpha']);
    expect(summary.done).toEqual(['beta']);
    expect(summary.sites.map((s) => s.site)).toEqual(['alpha']);
    expect(new Set(llm.calls.map(siteOf))).toEqual(new Set(['alpha']));
  });
});

// ── the CLI, end to end: the real Gemini adapter against the fake Gemini server, pages over HTTP ──────────────

describe('taskgen propose', () => {
  const taskReply = reply([
    { instruction: 'Find the price of the red lamp and report it', kind: 'info' },
    { instruction: 'Add the blue lamp to the cart twice', kind: 'action' },
    { instruction: 'Sort the lamps by price, lowest first', kind: 'action' },
    { instruction: 'Search for desk lamps under 20 euros', kind: 'action' },
  ]);

  const cli = (args: string[], env: Record<string, string>) => runCli(['propose', ...args], { env });

  it("prints the seed's lines, writes the file, and resumes", async () => {
    const gemini = await startFakeGemini({ replies: [taskReply] });
    const pages = createServer((_req, res) => res.end('<h1>Welcome</h1>'));
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    try {
      const dir = mkdtempSync(path.join(tmpdir(), 'taskgen-cli-'));
      mkdirSync(path.join(dir, 'sitemaps'));
      for (const s of ['alpha', 'beta']) writeFileSync(path.join(dir, 'sitemaps', `${s}.json`), SITEMAPS[s]!);
      writeFileSync(path.join(dir, 'split.json'), '{"train": ["alpha", "beta"], "test": ["gamma"]}');
      const out = path.join(dir, 'out', 'tasks.jsonl');
      const args = ['--out', out, '--per-site', '3', '--batch', '3', '--sitemaps', path.join(dir, 'sitemaps'),
        '--split', path.join(dir, 'split.json'), '--base-url', `http://127.0.0.1:${(pages.address() as AddressInfo).port}`];
      const env = { GEMINI_API_KEY: 'test-key-not-secret', GEMINI_BASE_URL: gemini.url };

      const first = await cli(args, env);
      expect(first.stderr).toContain('proposer: gemini-3.5-flash on the Gemini API at');
      expect(first.code).toBe(0);
      expect(first.stdout).toBe('proposing for 2 sites (0 already done), 3 each\n  alpha: 3 tasks (1 info)\n  beta: 3 tasks (1 info)\n');
      expect(first.stderr).toMatch(/done: 6 tasks \(2 info\) for 2 sites in [\d.]+ s, 0 sites already in .*; 0 batches failed/);
      expect(first.stderr).toContain('tokens: 20 in, 10 out (2 calls)');
      const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
      expect(lines.map((l) => (JSON.parse(l) as { site: string }).site)).toEqual(['alpha', 'alpha', 'alpha', 'beta', 'beta', 'beta']);
      expect(gemini.requests.map((r) => r.path)).toEqual(Array(2).fill('/v1beta/models/gemini-3.5-flash:generateContent'));

      const again = await cli(args, env);
      expect(again.stdout).toBe('proposing for 0 sites (2 already done), 3 each\n');
      expect(gemini.requests).toHaveLength(2);

      const bad = await cli([...args, '--sites', 'alpha,../x'], env);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('refusing site "../x"');
      const noKey = await cli(args, { GEMINI_API_KEY: '', GOOGLE_API_KEY: '' });
      expect(noKey.stderr).toContain('set GEMINI_API_KEY or GOOGLE_API_KEY');
    } finally {
      await gemini.close();
      await new Promise<void>((resolve) => pages.close(() => resolve()));
    }
  });
});
