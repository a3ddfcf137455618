import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { register } from '../src/cli/report';
import { memoryStore } from '../src/index';
import { fakeLLM } from '../src/index';
import { runValidate } from '../src/validate';
import { runReport, type ReportIssue } from '../src/index';
import { readReportEpisode, readRunForReport } from '../src/report';
import { reportScores } from '../src/report/write';
import type { ValidateReport } from '../src/core/schemas';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run'];

const INJECTED = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';

const TASKS = [
  { id: 'tg-shop-aaaaaaaa', site: 'shop', kind: 'action', instruction: 'Add the red kettle to the cart' },
  { id: 'tg-shop-bbbbbbbb', site: 'shop', kind: 'info', instruction: 'What is the price of the blue mug?' },
  { id: 'tg-mail-cccccccc', site: 'mail', kind: 'action', instruction: 'Archive the newsletter from Ana' },
  { id: 'tg-mail-dddddddd', site: 'mail', kind: 'info', instruction: 'Who sent the last message?' },
];

function taskLine(t: (typeof TASKS)[number]): string {
  return JSON.stringify({
    kind: 'proposed', task_id: t.id, site: t.site, sites: [t.site], macro: 'proposed', macros: [],
    instruction: t.instruction, start_path: `/sites/${t.site}/`, task_kind: t.kind, verifier: null,
  });
}

function judgeRecord(id: string, success: boolean, response: string | null) {
  return JSON.stringify({ task_id: id, predicted_label: success ? 1 : 0, verdict: true, response, model: 'gemini-test' }, null, 1);
}

const png = (seed: number) =>
  sharp({ create: { width: 48 + seed * 8, height: 30, channels: 3, background: { r: 30 * seed, g: 120, b: 200 - 20 * seed } } })
    .png()
    .toBuffer();

const score = (tp: number, fp: number, fn: number, tn: number, ci: [number, number]) => ({
  episodes: tp + fp + fn + tn, agreement: (tp + tn) / (tp + fp + fn + tn), verifier_pass: tp + fn, judge_pass: tp + fp,
  precision: tp / Math.max(1, tp + fp), recall: tp / Math.max(1, tp + fn), tp, fp, fn, tn,
  precision_ci: ci, recall_ci: [0.2065, 1] as [number, number], agreement_ci: [0.2077, 0.9385] as [number, number],
});

/** A small run of 4 episodes on 2 sites, written to `root/run` (and `root/run_judge`, `root/rows`). */
async function makeRun(root: string, options: { validate: boolean }): Promise<string> {
  const run = path.join(root, 'run');
  const judge = `${run}_judge`;
  await mkdir(judge, { recursive: true });
  await mkdir(run, { recursive: true });
  await writeFile(path.join(run, 'tasks.jsonl'), TASKS.map(taskLine).join('\n') + '\n');
  const [a, b, c, d] = TASKS.map((t) => path.join(run, t.id)) as [string, string, string, string];

  // a: judged SUCCESS, verifier pass; screenshots out of lexical order; an injected script in its answer and body
  await mkdir(path.join(a, 'screenshots'), { recursive: true });
  for (const [n, seed] of [[10, 1], [2, 2], [0, 3]] as const) await writeFile(path.join(a, 'screenshots', `step_${n}.png`), await png(seed));
  await writeFile(path.join(a, 'final.png'), await png(4));
  await writeFile(path.join(a, 'grade_inputs.json'), JSON.stringify({
    actions: [{ click: { index: 4 } }, { type: { index: 2, text: 'kettle', enter: true } }, { done: { answer: INJECTED } }],
    answer: INJECTED,
    log: [
      { method: 'GET', path: '/sites/shop/search', query: { q: 'kettle' }, body: null, status: 200 },
      { method: 'POST', path: '/sites/shop/cart', query: {}, body: { item: 'kettle', note: INJECTED }, status: 302 },
      { method: 'GET', path: '/static/app.css', query: {}, body: null, status: 200 },
    ],
    changes: [{ table: 'cart_items', op: 'update', before: { id: 7, qty: 1 }, after: { id: 7, name: 'Red kettle', qty: 2 }, changed: { qty: [1, 2] } }],
    seen: ['Cart: Red kettle x2'],
  }));
  await writeFile(path.join(a, 'episode.json'), JSON.stringify({
    task: JSON.parse(taskLine(TASKS[0]!)), outcome: 'done', steps: 3, answer: INJECTED,
    timings: { started: '2026-10-08T10:00:00Z', ended: '2026-10-08T10:01:00Z', ms: 60000 }, model: 'qwen-test', error: null,
  }));
  await writeFile(`${judge}/tg-shop-aaaaaaaa.json`, judgeRecord('tg-shop-aaaaaaaa', true, JSON.stringify({
    parts: [{ part: 'find the red kettle', done: true, evidence: 'GET /sites/shop/search q=kettle' },
      { part: 'add it to the cart', done: true, evidence: 'update cart_items qty 1 -> 2' }],
    verdict: 'SUCCESS',
  })));

  // b: judged SUCCESS but the verifier fails it (the one disagreement); its reply sits in a code fence
  await mkdir(path.join(b, 'screenshots'), { recursive: true });
  await writeFile(path.join(b, 'screenshots', 'step_0.png'), await png(5));
  await writeFile(path.join(b, 'grade_inputs.json'), JSON.stringify({ actions: [{ done: { answer: '$12' } }], answer: '$12', log: [], changes: [] }));
  await writeFile(`${judge}/tg-shop-bbbbbbbb.json`, judgeRecord('tg-shop-bbbbbbbb', true,
    'Here is my judgement:\n```json\n{"parts": [{"part": "report the price", "done": true, "evidence": "answer says $12"}], "verdict": "SUCCESS"}\n```'));

  // c: judged NOT SUCCESS, verifier fails it too
  await mkdir(path.join(c, 'screenshots'), { recursive: true });
  await writeFile(path.join(c, 'screenshots', 'step_0.png'), await png(6));
  await writeFile(path.join(c, 'grade_inputs.json'), JSON.stringify({ actions: [{ scroll: { direction: 'down' } }], answer: null, log: [], changes: [] }));
  await writeFile(`${judge}/tg-mail-cccccccc.json`, judgeRecord('tg-mail-cccccccc', false,
    JSON.stringify({ parts: [{ part: 'archive the newsletter', done: false, evidence: 'no data change' }], verdict: 'NOT SUCCESS' })));

  // d: not judged, no screenshots, grade inputs as the user's Python harness writes them (NaN, other keys)
  await mkdir(d, { recursive: true });
  await writeFile(path.join(d, 'grade_inputs.json'), '{"actions": [{"done": {}}], "answer": "Ana", "log": [{"method": "GET", "path": "/sites/mail/", "status": 200, "ms": NaN}], "changes": null, "seen": [{"page": 1}]}');

  // verifier results: a torn last line (a crash mid-write)
  await writeFile(path.join(run, 'results.jsonl'),
    '{"task_id": "tg-shop-aaaaaaaa", "ok": true}\n{"task_id": "tg-shop-bbbbbbbb", "ok": false}\n{"task_id": "tg-mail-cccccccc", "ok": false}\n{"task_id": "tg-mail-dd');

  if (options.validate) {
    const report: ValidateReport = {
      run, judge: 'gemini-test',
      overall: score(1, 1, 0, 1, [0.0945, 0.9055]),
      by_site: { mail: score(0, 0, 0, 1, [0, 0]), shop: score(1, 1, 0, 0, [0.0945, 0.9055]) },
      by_kind: { action: score(1, 0, 0, 1, [0.2065, 1]), info: score(0, 1, 0, 0, [0, 0.79345]) },
    };
    await writeFile(`${judge}/_validate.json`, JSON.stringify(report));
  }
  await mkdir(path.join(root, 'rows'), { recursive: true });
  await writeFile(path.join(root, 'rows', '_report.json'), JSON.stringify({
    run, candidates: 2, selected_trajectories: 2, selected_rows: 4, budget: 27644, short_by: 27640, sites: 1,
  }));
  return run;
}

describe('report in a real browser', () => {
  let root: string;
  let run: string;
  let index: string;
  let browser: Browser;
  let page: Page;
  const requests: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'taskgen-report-'));
    run = await makeRun(root, { validate: true });
    index = await runReport({ run, rows: path.join(root, 'rows') });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(pathToFileURL(index).href);
  });

  afterAll(async () => {
    await browser?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  const listedIds = () => page.$$eval('#list details.ep', (els) => els.map((e) => e.getAttribute('data-id')));
  const countText = () => page.textContent('#count');

  it('is written beside the run and lists every episode in task order', async () => {
    expect(index).toBe(path.join(`${run}_report`, 'index.html'));
    expect(await listedIds()).toEqual(TASKS.map((t) => t.id));
    expect(await countText()).toBe('Showing 4 of 4 matching episodes (4 in the run)');
    expect(await page.textContent('#stat-episodes')).toBe('4');
    expect(await page.textContent('#stat-judged')).toBe('3');
    expect(await page.textContent('#stat-successes')).toBe('2');
    expect(await page.textContent('#stat-passes')).toBe('1');
    expect(await page.textContent('#stat-disagreements')).toBe('1');
    expect(await page.textContent('#stat-trajectories')).toBe('2');
  });

  it('shows an episode: screenshots loaded in step order, actions, evidence, judge parts, verdicts', async () => {
    const ep = page.locator('details.ep[data-id="tg-shop-aaaaaaaa"]');
    await ep.locator('summary').click();
    await ep.locator('.ep-body h3').first().waitFor();
    expect(await ep.getAttribute('data-state')).toBe('loaded');
    expect(await ep.locator('figcaption').allTextContents()).toEqual(['step 0', 'step 2', 'step 10', 'final']);
    const imgs = ep.locator('img');
    for (let i = 0; i < (await imgs.count()); i++) await imgs.nth(i).scrollIntoViewIfNeeded();
    await page.waitForFunction(`[...document.querySelectorAll('details[data-id="tg-shop-aaaaaaaa"] img')].every((img) => img.complete)`);
    type Img = { naturalWidth: number; loading: string };
    const widths = await imgs.evaluateAll((els) => els.map((e) => (e as unknown as Img).naturalWidth));
    expect(widths).toEqual([72, 64, 56, 80]); // each PNG's own width: step_0 is seed 3, step_2 seed 2...
    expect(await imgs.evaluateAll((els) => els.map((e) => (e as unknown as Img).loading))).toEqual(['lazy', 'lazy', 'lazy', 'lazy']);
    const text = await ep.innerText();
    expect(text).toContain('type {"index": 2, "text": "kettle", "enter": true}');
    expect(text).toContain('POST /sites/shop/cart');
    expect(text).toContain('qty: 1 → 2');
    expect(text).toContain('find the red kettle');
    expect(text).toContain('update cart_items qty 1 -> 2');
    expect(text).toContain('verifier: pass');
    expect(text).toContain('qwen-test');
  });

  it('shows injected markup as text and never runs it', async () => {
    const ep = page.locator('details.ep[data-id="tg-shop-aaaaaaaa"]');
    const answer = await ep.locator('h3:text-is("Answer") + pre').textContent();
    expect(answer).toBe(INJECTED);
    expect(await ep.locator('table').nth(1).innerText()).toContain('"note": "<script>window.__pwned = 1</script>');
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(await page.locator('#list script, #list img[src="x"]').count()).toBe(0);
  });

  it('reads a judge reply from a code fence and shows the disagreement', async () => {
    const ep = page.locator('details.ep[data-id="tg-shop-bbbbbbbb"]');
    await ep.locator('summary').click();
    await ep.locator('.ep-body h3').first().waitFor();
    const text = await ep.innerText();
    expect(text).toContain('report the price');
    expect(text).toContain('verifier: fail');
    expect(await ep.locator('summary .disagree').count()).toBe(1);
  });

  it('filters by site, verdict and disagreement, and the counts follow', async () => {
    await page.selectOption('select[name=site]', 'mail');
    expect(await listedIds()).toEqual(['tg-mail-cccccccc', 'tg-mail-dddddddd']);
    expect(await countText()).toBe('Showing 2 of 2 matching episodes (4 in the run)');
    expect(await page.textContent('#tally')).toContain('not judged 1');

    await page.selectOption('select[name=verdict]', 'none');
    expect(await listedIds()).toEqual(['tg-mail-dddddddd']);
    await page.selectOption('select[name=site]', '');
    expect(await listedIds()).toEqual(['tg-mail-dddddddd']);

    await page.selectOption('select[name=verdict]', 'success');
    expect(await listedIds()).toEqual(['tg-shop-aaaaaaaa', 'tg-shop-bbbbbbbb']);
    await page.check('input[name=disagree]');
    expect(await listedIds()).toEqual(['tg-shop-bbbbbbbb']);
    await page.selectOption('select[name=verdict]', '');
    expect(await listedIds()).toEqual(['tg-shop-bbbbbbbb']);
    expect(await countText()).toBe('Showing 1 of 1 matching episodes (4 in the run)');

    await page.uncheck('input[name=disagree]');
    await page.fill('input[name=q]', 'newsletter');
    expect(await listedIds()).toEqual(['tg-mail-cccccccc']);
    await page.fill('input[name=q]', '');
    expect(await listedIds()).toHaveLength(4);
  });

  it('shows a partial episode: not judged, no screenshots, the harness values', async () => {
    const ep = page.locator('details.ep[data-id="tg-mail-dddddddd"]');
    await ep.locator('summary').click();
    await ep.locator('.ep-body h3').first().waitFor();
    const text = await ep.innerText();
    expect(text).toContain('no screenshots');
    expect(text).toContain('no judge record');
    expect(text).toContain('GET /sites/mail/');
  });

  it('shows the confusion matrix and rates with their intervals, overall and per group', async () => {
    expect(await page.textContent('#cm-tp')).toMatch(/^1/);
    expect(await page.textContent('#cm-fp')).toMatch(/^1/);
    expect(await page.textContent('#cm-fn')).toMatch(/^0/);
    expect(await page.textContent('#cm-tn')).toMatch(/^1/);
    expect(await page.textContent('#rate-precision')).toBe('0.500 [0.095, 0.905]');
    expect(await page.textContent('#rate-agreement')).toBe('0.667 [0.208, 0.939]');
    const bySite = await page.$$eval('#by-site tbody tr', (rows) => rows.map((r) => (r as unknown as { innerText: string }).innerText.split('\t')));
    expect(bySite.map((r) => r[0])).toEqual(['mail', 'shop']);
    expect(await page.textContent('#by-kind')).toContain('0.000 [0.000, 0.793]');
  });

  it('lists the torn results line as a problem', async () => {
    expect(await page.textContent('#issues')).toMatch(/results\.jsonl:4: torn last line/);
  });

  it('makes no request outside the report and the run, logs no error, and looks like something', async () => {
    expect(requests.length).toBeGreaterThan(5);
    expect(requests.filter((u) => !u.startsWith('file://'))).toEqual([]);
    expect(problems).toEqual([]);
    const shot = await page.screenshot({ fullPage: true });
    const stats = await sharp(shot).stats();
    expect(stats.channels.slice(0, 3).every((c) => c.stdev > 10)).toBe(true);
    expect(stats.isOpaque).toBe(true);
  });
});

describe('report data', () => {
  it('reads a partial run: a missing judge record, a torn results line, a bad judge file', async () => {
    const task = (id: string, site: string) => JSON.stringify({ kind: 'proposed', task_id: id, site, instruction: `do ${id}`, start_path: '/' });
    const store = memoryStore({
      'r/tasks.jsonl': `${task('t2', 'b')}\n${task('t1', 'a')}\n${task('t9', 'a')}\n`,
      'r/t1/grade_inputs.json': '{"answer": "x", "log": [{"method": "GET", "path": "/a", "status": 200}]}',
      'r/t1/screenshots/step_10.png': 'x',
      'r/t1/screenshots/step_9.png': 'x',
      'r/t1/screenshots/notes.txt': 'x',
      'r/t2/episode.json': '{"outcome": "error", "steps": 2, "error": "Timeout"}',
      'r/t3/grade_inputs.json': '{"actions": 5}',
      'r/notes/readme.txt': 'not an episode',
      'r/results.jsonl': '{"task_id": "t1", "ok": 1}\n{"task_id": "t2", "ok": 0}\n{"task_id": "t1", "ok": 0}\n{"task_id": "t3", "o',
      'r_judge/t1.json': JSON.stringify({ task_id: 't1', predicted_label: 1, verdict: true, response: '(judge error Timeout: late)', model: 'm' }),
      'r_judge/t2.json': '{"task_id": "t2", "predicted_label": 1',
    });
    const issues: ReportIssue[] = [];
    const data = await readRunForReport({ run: 'r/', store, onIssue: (i) => issues.push(i) });
    expect(data.ids).toEqual(['t2', 't1', 't3']);
    expect(data.notAttempted).toBe(1);
    expect(data.results).toEqual(new Map([['t1', false], ['t2', false]]));
    expect([...data.judge.keys()]).toEqual(['t1']);
    expect(issues.map((i) => `${i.file}:${i.line ?? ''}`).sort()).toEqual(['r/results.jsonl:4', 'r_judge/t2.json:1']);
    expect(issues.find((i) => i.file === 'r/results.jsonl')?.problem).toContain('torn last line');

    const t1 = await readReportEpisode(data, 't1', { store });
    expect(t1.detail.shots.map((s) => s.href)).toEqual(['t1/screenshots/step_9.png', 't1/screenshots/step_10.png']);
    expect(t1.summary).toMatchObject({ site: 'a', verdict: 'success', verifier: false, disagree: true, outcome: null });
    expect(t1.detail.judge).toMatchObject({ verdict: 'success', parts: [], note: 'the reply is not JSON', raw: '(judge error Timeout: late)' });
    expect(t1.detail.log[0]).toMatchObject({ method: 'GET', path: '/a', status: '200', static: false });

    const t2 = await readReportEpisode(data, 't2', { store });
    expect(t2.summary).toMatchObject({ verdict: 'none', verifier: false, disagree: false, outcome: 'error', steps: 2, shots: 0 });
    expect(t2.detail.notes).toEqual(['no grade_inputs.json', 'no screenshots', 'not judged']);
    expect(t2.detail.episode?.error).toBe('Timeout');

    const bad: ReportIssue[] = [];
    const t3 = await readReportEpisode(data, 't3', { store, onIssue: (i) => bad.push(i) });
    expect(t3.summary).toMatchObject({ site: '?', kind: '?', verifier: null, verdict: 'none' });
    expect(bad).toEqual([expect.objectContaining({ file: 'r/t3/grade_inputs.json', problem: expect.stringContaining('actions') })]);
  });

  it('takes the verifier results from results_regraded.jsonl when there is one', async () => {
    const store = memoryStore({
      'r/results.jsonl': '{"task_id": "t1", "ok": true}\n{"task_id": "t2", "ok": true}\n',
      'r/results_regraded.jsonl': '{"task_id": "t1", "ok": false}\n',
    });
    const data = await readRunForReport({ run: 'r', store });
    expect(data.resultsFile).toBe('r/results_regraded.jsonl');
    expect(data.results).toEqual(new Map([['t1', false]]));
    expect(data.ids).toEqual(['t1']);
  });

  it('reads the _validate.json that validate writes, whose whole figures are Python floats (1.0)', async () => {
    const task = (id: string) => JSON.stringify({ kind: 'human', task_id: id, site: 'a', instruction: `do ${id}`, start_path: '/' });
    const store = memoryStore({
      'r/tasks.jsonl': `${task('t1')}\n${task('t2')}\n`,
      'r/t1/grade_inputs.json': '{"answer": "x"}',
      'r/t2/grade_inputs.json': '{"answer": "y"}',
      'r/results.jsonl': '{"task_id": "t1", "ok": true}\n{"task_id": "t2", "ok": true}\n',
    });
    await runValidate({ run: 'r', llm: fakeLLM({ replies: ['{"verdict": "SUCCESS"}'] }), store });
    expect(await store.readText('r_judge/_validate.json')).toContain('"precision": 1.0');
    const issues: ReportIssue[] = [];
    const data = await readRunForReport({ run: 'r', store, onIssue: (i) => issues.push(i) });
    expect(issues).toEqual([]);
    expect(data.validate?.overall).toMatchObject({ episodes: 2, precision: 1, recall: 1, agreement: 1, tp: 2 });
  });

  it('computes the figures with Wilson intervals when there is no _validate.json', async () => {
    const pair = (id: string, site: string, verifier: boolean, verdict: 'success' | 'fail') =>
      ({ id, key: id, try: 1, site, kind: 'info', instruction: '', verdict, verifier, verifierSource: 'verifier' as const, disagree: false, outcome: null, steps: null, shots: 0 });
    const summaries = [
      ...Array.from({ length: 8 }, (_, i) => pair(`p${i}`, 'a', true, 'success')),
      ...Array.from({ length: 2 }, (_, i) => pair(`f${i}`, 'b', false, 'success')),
      pair('n', 'b', true, 'fail'),
    ];
    const data = await readRunForReport({ run: 'r', store: memoryStore({ 'r/results.jsonl': '' }) });
    const { scores, note } = reportScores(data, summaries);
    expect(note).toBeNull();
    expect(scores!.overall).toMatchObject({ episodes: 11, tp: 8, fp: 2, fn: 1, tn: 0, precision: 0.8 });
    // 8 of 10: the textbook Wilson interval (0.4902, 0.9433), to 3 decimals as validate writes it
    expect(scores!.overall.precision_ci).toEqual([0.49, 0.943]);
    expect(Object.keys(scores!.bySite)).toEqual(['a', 'b']);
    expect(scores!.bySite.b).toMatchObject({ tp: 0, fp: 2, fn: 1, precision: 0, precision_ci: [0, 0.658] });
    expect(reportScores(data, []).note).toMatch(/no episode has both/);
  });
});

describe('taskgen report', () => {
  it('writes the report where --out says and prints where it is', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'taskgen-report-cli-'));
    try {
      const run = await makeRun(root, { validate: false });
      const out = path.join(root, 'reports', 'first');
      const program = new Command().exitOverride();
      register(program);
      const printed: string[] = [];
      const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((s) => (printed.push(String(s)), true));
      const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((s) => (printed.push(String(s)), true));
      try {
        await program.parseAsync(['node', 'taskgen', 'report', run, '--out', out]);
      } finally {
        stdout.mockRestore();
        stderr.mockRestore();
      }
      const file = path.join(out, 'index.html');
      // The run has a torn line: the report is written, and the command says it did not fully succeed.
      expect(process.exitCode).toBe(1);
      process.exitCode = undefined;
      expect(printed.join('')).toContain(`report: ${file}\n`);
      expect(printed.join('')).toMatch(/warning: .*results\.jsonl:4: torn last line/);
      const html = await readFile(file, 'utf8');
      expect(html).toContain('(no _validate.json; computed here)');
      expect(html).toContain('"runHref":"../../run"');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
