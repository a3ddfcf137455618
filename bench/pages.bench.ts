/**
 * The report pages at full scale: a synthetic run of 7,280 episodes on 52 sites (140 each, two task kinds, 1 to 30
 * steps, a judge record and a verifier result each, token counts in every episode.json, rows selected up to the
 * 27,644-step budget) and a judge lab of 4 variants over it. For the run report's `index.html`, its `rows.html` and
 * `lab.html`: bytes, marks drawn, and the time Chromium takes to load the page (median of 5; the report's until its
 * episode list is drawn), each against the same page without its charts, measured in the same run.
 * `BENCH_EPISODES` scales the run (default 7,280).
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { runReport, type LabReport } from '../src/index';
import { renderLabHtml, wilsonInterval } from '../src/lab';
import { scoreJudge } from '../src/validate';

const EPISODES = Number(process.env.BENCH_EPISODES ?? 7280);
const SITES = 52;
const BUDGET = 27644;
const LOADS = 5;

// A fixed pseudo-random sequence, so every run of the bench draws the same run.
let seed = 20261204;
const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);

interface Episode { id: string; site: string; kind: string; steps: number; ok: boolean; judged: boolean }

async function generate(root: string): Promise<{ run: string; rows: string; episodes: Episode[] }> {
  const run = path.join(root, 'run');
  const judge = `${run}_judge`;
  const rows = path.join(root, 'rows');
  await fs.mkdir(judge, { recursive: true });
  await fs.mkdir(rows, { recursive: true });
  await fs.mkdir(run, { recursive: true });
  const episodes: Episode[] = [];
  for (let e = 0; e < EPISODES; e++) {
    const site = `site-${String(e % SITES).padStart(2, '0')}`;
    const ok = random() < 0.6;
    episodes.push({ id: `tg-${site}-${e.toString(16).padStart(8, '0')}`, site, kind: e % 3 ? 'action' : 'info', steps: 1 + Math.floor(random() * 30), ok, judged: random() < 0.9 ? ok : !ok });
  }
  const task = (ep: Episode) => ({ kind: 'proposed', task_id: ep.id, site: ep.site, instruction: `Find item ${ep.id} and add it to the cart.`, start_path: `/sites/${ep.site}/`, task_kind: ep.kind, verifier: null });
  await fs.writeFile(path.join(run, 'tasks.jsonl'), episodes.map((ep) => `${JSON.stringify(task(ep))}\n`).join(''));
  let steps = 0;
  for (const ep of episodes) {
    const dir = path.join(run, ep.id);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, 'grade_inputs.json'), JSON.stringify({ actions: [{ click: { index: 1 } }], answer: 'ok', log: [], changes: [], seen: [] }));
    await fs.writeFile(path.join(dir, 'episode.json'), JSON.stringify({
      task: task(ep), outcome: 'done', steps: ep.steps, answer: 'ok', model: 'qwen3.5-4b', error: null,
      timings: { started: '2026-12-04T10:00:00Z', ended: '2026-12-04T10:01:00Z', ms: 60000 },
      usage: { inputTokens: 2500 * ep.steps, outputTokens: 60 * ep.steps },
    }));
    await fs.writeFile(path.join(judge, `${ep.id}.json`), JSON.stringify({ task_id: ep.id, predicted_label: ep.judged ? 1 : 0, verdict: true, response: '{}', model: 'gemini-3.5-flash' }));
    if (ep.judged && steps < BUDGET) {
      await fs.mkdir(path.join(rows, ep.id));
      await fs.writeFile(path.join(rows, ep.id, 'rows.jsonl'), '{"messages": [], "images": []}\n'.repeat(ep.steps));
      steps += ep.steps;
    }
  }
  await fs.writeFile(path.join(run, 'results.jsonl'), episodes.map((ep) => `${JSON.stringify({ task_id: ep.id, ok: ep.ok })}\n`).join(''));
  const picked = (await fs.readdir(rows)).length;
  await fs.writeFile(path.join(rows, '_report.json'), JSON.stringify({ run, candidates: episodes.filter((e) => e.judged).length, selected_trajectories: picked, selected_rows: steps, budget: BUDGET, short_by: Math.max(0, BUDGET - steps), sites: SITES }));
  return { run, rows, episodes };
}

// Four variants: the run's verdicts, and three that flip a share of them.
function labOf(episodes: readonly Episode[]): LabReport {
  const score = (items: readonly Episode[], verdict: (e: Episode) => boolean) => {
    const s = scoreJudge(items.map((e) => [e.ok, verdict(e)] as const));
    return { ...s, yield: s.judge_pass / Math.max(1, s.episodes), yield_ci: wilsonInterval(s.judge_pass, s.episodes) };
  };
  const groups = (verdict: (e: Episode) => boolean, key: (e: Episode) => string) => {
    const by = new Map<string, Episode[]>();
    for (const e of episodes) by.set(key(e), [...(by.get(key(e)) ?? []), e]);
    return Object.fromEntries([...by].map(([k, items]) => [k, score(items, verdict)]));
  };
  const variants = [['seed', 0], ['no-evidence', 0.08], ['text-only', 0.15], ['last-3-shots', 0.04]] as const;
  return {
    run: 'runs/human', baseline: 'seed', episodes: episodes.length, comparisons: [], disagreements: [], report_href: '../../run_report/index.html',
    variants: variants.map(([name, flip]) => {
      const verdict = (e: Episode) => (Number.parseInt(e.id.slice(-4), 16) % 100 < flip * 100 ? !e.judged : e.judged);
      return {
        name, description: name, model: 'gemini-3.5-flash', shows: [], screenshots: 10, pick: 'seed', votes: 1, combine: 'majority', judged: episodes.length, missing: 0,
        overall: score(episodes, verdict), by_site: groups(verdict, (e) => e.site), by_kind: groups(verdict, (e) => e.kind),
        usage: { calls: episodes.length, input_tokens: 0, output_tokens: 0, cost: 0, priced: true },
      };
    }),
  };
}

/** Median milliseconds from navigation to `ready` (after `load`). */
async function loadTime(page: Page, file: string, ready: (page: Page) => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    const t0 = performance.now();
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    await ready(page);
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(LOADS / 2)]!;
}

const withoutPlots = (html: string) => html.replace(/<section id="plots">[\s\S]*?<\/section>/, '').replace(/<figure class="plot"[\s\S]*?<\/figure>/g, '');
const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'taskgen-bench-pages-'));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  let t0 = performance.now();
  const { run, rows, episodes } = await generate(root);
  process.stdout.write(`synthetic run: ${EPISODES.toLocaleString('en-US')} episodes on ${SITES} sites, rows up to ${BUDGET.toLocaleString('en-US')} steps (${((performance.now() - t0) / 1000).toFixed(1)} s to write)\n`);
  t0 = performance.now();
  const index = await runReport({ run, rows });
  process.stdout.write(`runReport: ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  const lab = path.join(path.dirname(index), 'lab.html');
  await fs.writeFile(lab, renderLabHtml(labOf(episodes)));

  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const listDrawn = (p: Page) => p.waitForFunction("!document.getElementById('count').textContent.startsWith('Loading')");
  const pages = [
    { name: 'run report (index.html)', file: index, ready: listDrawn },
    { name: 'rows page (rows.html)', file: path.join(path.dirname(index), 'rows.html'), ready: async () => {} },
    { name: 'judge lab (lab.html)', file: lab, ready: async () => {} },
  ];
  for (const p of pages) {
    const html = await fs.readFile(p.file, 'utf8');
    const bare = p.file.replace(/\.html$/, '.noplots.html');
    await fs.writeFile(bare, withoutPlots(html));
    const barSize = Buffer.byteLength(withoutPlots(html));
    const size = Buffer.byteLength(html);
    const withMs = await loadTime(page, p.file, p.ready);
    const marks = await page.locator('[data-mark]').count();
    const figures = await page.locator('figure.plot').count();
    const bareMs = await loadTime(page, bare, p.ready);
    process.stdout.write(
      `${p.name}: ${kb(size)} with ${figures} charts (${marks.toLocaleString('en-US')} marks), ${kb(barSize)} without: ${(size / barSize).toFixed(2)}x; ` +
        `loads in ${withMs.toFixed(0)} ms, ${bareMs.toFixed(0)} ms without: ${(withMs / bareMs).toFixed(2)}x\n`,
    );
  }
  if (errors.length) {
    process.stdout.write(`console errors: ${errors.slice(0, 3).join(' | ')}\n`);
    process.exitCode = 1;
  }
} finally {
  await browser.close();
  await fs.rm(root, { recursive: true, force: true });
}
