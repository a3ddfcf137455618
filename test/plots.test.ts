/**
 * The charts of the three pages in Chromium: the run report (outcomes by site and kind, steps per episode, judge
 * against verifier per site, tokens per stage and model), the rows page (steps per site against the budget, what was
 * left out and why) and lab.html (forest plot, precision against yield, small multiples). Each page renders with no
 * console error, and each chart holds the number of marks the fixture's data calls for, counted here from the
 * fixture itself. One browser for the suite.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReport, type LabReport } from '../src/index';
import { formatLab, renderLabHtml, wilsonInterval } from '../src/lab';
import { scoreJudge } from '../src/validate';
import { tempDir } from './helpers/runs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SITES = ['alpha', 'beta', 'gamma-with-a-rather-long-site-name'];
const STEPS = [1, 2, 2, 3, 5, 8, 13, 1, 0, 4, 2, 6, 3, 9];

type Verdict = 'success' | 'fail' | 'none';
interface Fixture {
  readonly id: string;
  readonly site: string;
  readonly kind: string;
  /** Steps in episode.json; null: the episode has no episode.json. */
  readonly steps: number | null;
  readonly verdict: Verdict;
  /** The verifier's result; null: none. */
  readonly ok: boolean | null;
  /** The judge record carries usage (a lab-style record). */
  readonly judgeUsage: boolean;
  /** Rows in the rows dir; null: not selected. */
  readonly rows: number | null;
}

const EPISODES: Fixture[] = STEPS.map((steps, i) => {
  const verdict: Verdict = i % 4 === 0 ? 'fail' : i % 5 === 4 ? 'none' : 'success';
  return {
    id: `tg-${SITES[i % 3]}-${(0xa0000000 + i).toString(16)}`,
    site: SITES[i % 3]!,
    kind: i % 2 ? 'info' : 'action',
    steps: i < 12 ? steps : null,
    verdict,
    ok: i < 10 ? i % 3 !== 1 : null,
    judgeUsage: i === 1 || i === 2,
    rows: verdict === 'success' && i < 8 ? Math.max(1, steps) : null,
  };
});
const BUDGET = 20;

async function writeFixture(root: string): Promise<{ run: string; rows: string }> {
  const run = path.join(root, 'run');
  const judge = `${run}_judge`;
  const rows = path.join(root, 'rows');
  await mkdir(judge, { recursive: true });
  await mkdir(rows, { recursive: true });
  await mkdir(run, { recursive: true });
  const task = (e: Fixture) => ({ kind: 'proposed', task_id: e.id, site: e.site, instruction: `do task ${e.id}`, start_path: `/sites/${e.site}/`, task_kind: e.kind, verifier: null });
  await writeFile(path.join(run, 'tasks.jsonl'), EPISODES.map((e) => `${JSON.stringify(task(e))}\n`).join(''));
  const results: string[] = [];
  for (const [i, e] of EPISODES.entries()) {
    const dir = path.join(run, e.id);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'grade_inputs.json'), JSON.stringify({ actions: [], answer: null, log: [], changes: [] }));
    if (e.steps !== null) {
      await writeFile(path.join(dir, 'episode.json'), JSON.stringify({
        task: task(e), outcome: 'done', steps: e.steps, answer: null, model: 'qwen-test', error: null,
        timings: { started: '2026-10-08T10:00:00Z', ended: '2026-10-08T10:01:00Z', ms: 60000 },
        usage: { inputTokens: 100 * (i + 1), outputTokens: 10 },
      }));
    }
    if (e.verdict !== 'none') {
      const usage = e.judgeUsage ? { provider: 'gemini', usage: { calls: 1, input_tokens: 500, output_tokens: 20 } } : {};
      await writeFile(path.join(judge, `${e.id}.json`), JSON.stringify({
        task_id: e.id, predicted_label: e.verdict === 'success' ? 1 : 0, verdict: true, response: '{"verdict": "x"}',
        model: e.judgeUsage ? 'gemini-2.5-flash' : 'judge-test', ...usage,
      }));
    }
    if (e.ok !== null) results.push(JSON.stringify({ task_id: e.id, ok: e.ok }));
    if (e.rows !== null) {
      await mkdir(path.join(rows, e.id), { recursive: true });
      await writeFile(path.join(rows, e.id, 'rows.jsonl'), Array.from({ length: e.rows }, (_, k) => `{"messages": [{"role": "user", "content": "${k}"}], "images": []}\n`).join(''));
    }
  }
  await writeFile(path.join(run, 'results.jsonl'), `${results.join('\n')}\n`);
  const selected = EPISODES.filter((e) => e.rows !== null);
  const steps = selected.reduce((n, e) => n + e.rows!, 0);
  await writeFile(path.join(rows, '_report.json'), JSON.stringify({
    run, candidates: EPISODES.filter((e) => e.verdict === 'success').length, selected_trajectories: selected.length, selected_rows: steps,
    budget: BUDGET, short_by: Math.max(0, BUDGET - steps), sites: new Set(selected.map((e) => e.site)).size,
  }));
  return { run, rows };
}

/** How many distinct non-empty groups `key` makes. */
const distinct = <T>(items: readonly T[], key: (item: T) => string) => new Set(items.map(key)).size;

/** A lab report of three variants over the fixture's verified episodes (the seed's verdicts, and two others). */
function labReport(): LabReport {
  const verified = EPISODES.filter((e) => e.ok !== null);
  const verdictsOf = (name: string) => verified.map((e, i) => (name === 'seed' ? e.verdict === 'success' : name === 'lenient' ? true : i % 2 === 0));
  const score = (pairs: Array<readonly [boolean, boolean]>) => {
    const s = scoreJudge(pairs);
    return { ...s, yield: s.judge_pass / Math.max(1, s.episodes), yield_ci: wilsonInterval(s.judge_pass, s.episodes) };
  };
  const variants = ['seed', 'lenient', 'alternate'].map((name) => {
    const verdicts = verdictsOf(name);
    const pairs = verified.map((e, i) => ({ e, pair: [e.ok!, verdicts[i]!] as const }));
    const group = (key: (e: Fixture) => string) => {
      const out: Record<string, ReturnType<typeof score>> = {};
      for (const k of new Set(verified.map(key))) out[k] = score(pairs.filter((p) => key(p.e) === k).map((p) => p.pair));
      return out;
    };
    return {
      name, description: `${name} judge`, model: 'judge-test', shows: ['log'], screenshots: 1, pick: 'last', votes: 1, combine: 'majority',
      judged: verified.length, missing: 0, overall: score(pairs.map((p) => p.pair)), by_site: group((e) => e.site), by_kind: group((e) => e.kind),
      usage: { calls: verified.length, input_tokens: 1000, output_tokens: 50, cost: 0, priced: true },
    };
  });
  const comparison = (variant: string, agreement: number) => ({
    variant, baseline: 'seed', episodes: verified.length, both_right: 5, baseline_only: 2, variant_only: 2, both_wrong: 1,
    agreement_diff: agreement, p: 1, precision_diff: -0.02, yield_diff: 0.0000001,
  });
  return {
    run: 'runs/human', baseline: 'seed', episodes: verified.length, variants,
    comparisons: [comparison('lenient', 0.05), comparison('alternate', 0)], disagreements: [], report_href: '../../run_report/index.html',
  };
}

describe('charts in Chromium', () => {
  let browser: Browser;
  let root: string;
  let run: string;
  let rowsDir: string;
  let index: string;

  /** Opens a page, returning it and the console errors and page errors it logged. */
  async function open(file: string): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const errors: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(file).href);
    await page.waitForLoadState('load');
    return { page, errors };
  }
  const marks = (page: Page, figure: string, kind: string) => page.locator(`#${figure} [data-mark="${kind}"]`).count();

  beforeAll(async () => {
    root = await tempDir('plots-');
    ({ run, rows: rowsDir } = await writeFixture(root));
    index = await runReport({ run, rows: rowsDir });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the run report: one bar per site and verdict, a bin per step count, a 2x2 per site, tokens per stage and model', async () => {
    const { page, errors } = await open(index);
    const verdictKey = (e: Fixture) => e.verdict;
    expect(await marks(page, 'fig-outcomes-site', 'bar')).toBe(distinct(EPISODES, (e) => `${e.site}/${verdictKey(e)}`));
    expect(await marks(page, 'fig-outcomes-kind', 'bar')).toBe(distinct(EPISODES, (e) => `${e.kind}/${verdictKey(e)}`));
    const counted = EPISODES.filter((e) => e.steps !== null);
    expect(await marks(page, 'fig-steps', 'bin')).toBe(distinct(counted, (e) => String(e.steps)));
    const paired = EPISODES.filter((e) => e.ok !== null && e.verdict !== 'none');
    expect(await marks(page, 'fig-judge-verifier', 'cell')).toBe(4 * distinct(paired, (e) => e.site));
    // the agent's model (input and output) and the one judge model whose records carry tokens
    expect(await marks(page, 'fig-usage', 'bar')).toBe(2 * (distinct(counted, () => 'qwen-test') + distinct(EPISODES.filter((e) => e.judgeUsage), () => 'gemini')));

    // the numbers are one hover away: the title of alpha's SUCCESS bar
    const alpha = EPISODES.filter((e) => e.site === 'alpha');
    const successes = alpha.filter((e) => e.verdict === 'success').length;
    const title = await page.locator('#fig-outcomes-site [data-mark="bar"][data-series="judged SUCCESS"] title').first().textContent();
    expect(title).toBe(`alpha: judged SUCCESS ${successes} episodes (${((100 * successes) / alpha.length).toFixed(1)}%)`);
    const judgeTokens = EPISODES.filter((e) => e.judgeUsage).length * 500;
    expect(await page.locator('#fig-usage [data-mark="bar"] title').allTextContents()).toContain(`judge · gemini-2.5-flash: input tokens ${judgeTokens.toLocaleString('en-US')} tokens (${((100 * judgeTokens) / (judgeTokens + 40)).toFixed(1)}%)`);
    expect(await page.locator('#fig-usage').textContent()).toContain('price unknown'); // qwen-test has no price
    expect(await page.locator('a#rows-page').getAttribute('href')).toBe('rows.html');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the rows page: steps per site against the budget, every episode\'s fate per site', async () => {
    const { page, errors } = await open(path.join(path.dirname(index), 'rows.html'));
    const selected = EPISODES.filter((e) => e.rows !== null);
    expect(await marks(page, 'fig-rows-budget', 'bar')).toBe(1);
    expect(await marks(page, 'fig-rows-budget', 'reference')).toBe(1);
    expect(await page.locator('#fig-rows-budget [data-mark="reference"] title').textContent()).toBe(`budget: ${BUDGET} steps`);
    expect(await marks(page, 'fig-rows-sites', 'bar')).toBe(distinct(selected, (e) => e.site));
    const fate = (e: Fixture) => (e.rows !== null ? 'selected' : e.verdict === 'success' ? 'success-not-selected' : e.verdict === 'fail' ? 'judged-fail' : 'not-judged');
    expect(await marks(page, 'fig-left-out', 'bar')).toBe(distinct(EPISODES, (e) => `${e.site}/${fate(e)}`));
    const totals = Object.fromEntries(await page.locator('#fates tbody tr').evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-fate'), Number(r.querySelector('td')!.textContent)])));
    expect(totals).toEqual({
      selected: selected.length,
      relabeled: 0, // the fixture has no relabel dir
      'relabel-not-selected': 0,
      'success-not-selected': EPISODES.filter((e) => fate(e) === 'success-not-selected').length,
      'judged-fail': EPISODES.filter((e) => e.verdict === 'fail').length,
      'not-judged': EPISODES.filter((e) => e.verdict === 'none').length,
    });
    const alphaSteps = selected.filter((e) => e.site === 'alpha').reduce((n, e) => n + e.rows!, 0);
    expect(await page.locator('#fig-rows-sites [data-mark="bar"] title').first().textContent()).toBe(`alpha: selected steps ${alphaSteps} steps (100.0%)`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('lab.html: an estimate per variant and measure, a point per variant, a panel per site and kind', async () => {
    const report = labReport();
    const file = path.join(root, 'lab.html');
    await writeFile(file, renderLabHtml(report));
    const { page, errors } = await open(file);
    const withCi = (picks: Array<readonly [number, number] | null>) => picks.filter((ci) => ci !== null).length;
    const v = report.variants;
    expect(await marks(page, 'fig-forest', 'estimate')).toBe(withCi(v.flatMap((x) => [x.overall.agreement_ci, x.overall.precision_ci, x.overall.recall_ci])));
    expect(await marks(page, 'fig-forest', 'reference')).toBe(withCi([v[0]!.overall.agreement_ci, v[0]!.overall.precision_ci, v[0]!.overall.recall_ci]));
    expect(await marks(page, 'fig-precision-yield', 'point')).toBe(v.length);
    for (const [figure, pick] of [['fig-sites', (x: (typeof v)[number]) => x.by_site], ['fig-kinds', (x: (typeof v)[number]) => x.by_kind]] as const) {
      const groups = Object.keys(pick(v[0]!));
      expect(await page.locator(`#${figure} svg.chart`).count()).toBe(groups.length);
      expect(await marks(page, figure, 'estimate')).toBe(withCi(v.flatMap((x) => Object.values(pick(x)).flatMap((s) => [s.agreement_ci, s.precision_ci]))));
    }
    const seed = v[0]!.overall;
    expect(await page.locator('#fig-forest [data-mark="estimate"] title').first().textContent()).toBe(
      `seed agreement: ${seed.agreement.toFixed(3)} [${seed.agreement_ci![0].toFixed(3)}, ${seed.agreement_ci![1].toFixed(3)}], n=${seed.episodes}`,
    );
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe("the lab's terminal output", () => {
  it('signs every difference: +0.050, -0.020, and ±0.000 for none', () => {
    const text = formatLab(labReport());
    expect(text).toMatch(/lenient .* agreement \+0\.050 .* precision -0\.020 +yield ±0\.000/);
    expect(text).toMatch(/alternate .* agreement ±0\.000 /);
  });
});
