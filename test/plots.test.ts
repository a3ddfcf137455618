/**
 * The charts of the three pages in Chromium, on one fixture of 52 sites (as many as a real run has): the run report
 * (outcomes by site and kind, steps per episode, judge against verifier per site, tokens per stage and model, pass@k
 * of 3 tries), the rows page (steps per site against the budget, what was left out and why) and lab.html (forest
 * plot, precision against yield, small multiples). Each page renders with no console error, each chart holds the
 * number of marks the fixture's data calls for, counted here from the fixture itself, and no two labels of a chart
 * overlap nor does anything spill out of its SVG. One browser for the suite. `PLOTS_SHOT=docs/pass-at-k.png` also
 * writes the screenshot of the pass@k chart that docs/reports.md shows.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { passAtK, runReport, type LabReport } from '../src/index';
import { formatLab, renderLabHtml, wilsonInterval } from '../src/lab';
import { scoreJudge } from '../src/validate';
import { tempDir } from './helpers/runs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// 52 sites, as a real run has: a few long names, the rest numbered; each site's 3 tasks in try 1 and 2 tries more
const SITES = ['alpha', 'beta', 'gamma-with-a-rather-long-site-name', 'gamma-with-a-rather-long-site-name-too',
  ...Array.from({ length: 48 }, (_, i) => `${['shop', 'mail', 'wiki', 'forum'][i % 4]}-${String(i + 1).padStart(2, '0')}`)];
const STEPS = [1, 2, 2, 3, 5, 8, 13, 1, 0, 4, 2, 6, 3, 9, 17, 24, 30, 150];
const TRIES = 3;

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

const EPISODES: Fixture[] = Array.from({ length: 3 * SITES.length }, (_, i) => {
  const verdict: Verdict = i % 7 === 0 ? 'fail' : i % 5 === 4 ? 'none' : 'success';
  const steps = i % 13 === 12 ? null : STEPS[i % STEPS.length]!;
  return {
    id: `tg-${SITES[i % SITES.length]}-${(0xa0000000 + i).toString(16)}`,
    site: SITES[i % SITES.length]!,
    kind: i % 2 ? 'info' : 'action',
    steps,
    verdict,
    ok: i % 11 === 10 ? null : i % 3 !== 1,
    judgeUsage: i === 1 || i === 2,
    rows: verdict === 'success' && steps !== null && i % 3 !== 2 ? Math.max(1, steps) : null,
  };
});
/** Whether try `n` (2 or more) of episode `i` succeeds: site by site from always failing to always succeeding. */
const laterTry = (i: number, n: number) => (i * 37 + n * 53) % 100 < (100 * (i % SITES.length)) / (SITES.length - 1);
/** Every episode the run report lists: try 1's, then tries 2..TRIES (3 steps, not judged, their verifier's result). */
const ALL: Fixture[] = [
  ...EPISODES,
  ...Array.from({ length: TRIES - 1 }, (_, k) => EPISODES.map((e, i) => ({ ...e, steps: 3, verdict: 'none' as const, ok: laterTry(i, k + 2), judgeUsage: false, rows: null }))).flat(),
];
const BUDGET = 300;

async function writeFixture(root: string): Promise<{ run: string; rows: string }> {
  const run = path.join(root, 'run');
  const judge = `${run}_judge`;
  const rows = path.join(root, 'rows');
  await mkdir(judge, { recursive: true });
  await mkdir(rows, { recursive: true });
  await mkdir(run, { recursive: true });
  const task = (e: Fixture) => ({ kind: 'proposed', task_id: e.id, site: e.site, instruction: `do task ${e.id}`, start_path: `/sites/${e.site}/`, task_kind: e.kind, verifier: null });
  await writeFile(path.join(run, 'tasks.jsonl'), EPISODES.map((e) => `${JSON.stringify(task(e))}\n`).join(''));
  const episode = (e: Fixture) => ({
    task: task(e), outcome: 'done', steps: e.steps, answer: null, model: 'qwen-test', error: null,
    timings: { started: '2026-10-08T10:00:00Z', ended: '2026-10-08T10:01:00Z', ms: 60000 },
  });
  const results: string[] = [];
  for (const [i, e] of EPISODES.entries()) {
    const dir = path.join(run, e.id);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'grade_inputs.json'), JSON.stringify({ actions: [], answer: null, log: [], changes: [] }));
    if (e.steps !== null) {
      await writeFile(path.join(dir, 'episode.json'), JSON.stringify({ ...episode(e), usage: { inputTokens: 100 * (i + 1), outputTokens: 10 } }));
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
  for (let n = 2; n <= TRIES; n++) {
    const dir = path.join(run, '_tries', String(n));
    for (const e of EPISODES) {
      await mkdir(path.join(dir, e.id), { recursive: true });
      await writeFile(path.join(dir, e.id, 'episode.json'), JSON.stringify({ ...episode(e), steps: 3 }));
    }
    await writeFile(path.join(dir, 'results.jsonl'), EPISODES.map((e, i) => `${JSON.stringify({ task_id: e.id, ok: laterTry(i, n) })}\n`).join(''));
  }
  const selected = EPISODES.filter((e) => e.rows !== null);
  const steps = selected.reduce((n, e) => n + e.rows!, 0);
  await writeFile(path.join(rows, '_report.json'), JSON.stringify({
    run, candidates: EPISODES.filter((e) => e.verdict === 'success').length, selected_trajectories: selected.length, selected_rows: steps,
    budget: BUDGET, short_by: Math.max(0, BUDGET - steps), sites: new Set(selected.map((e) => e.site)).size,
  }));
  return { run, rows };
}

/**
 * What is wrong with the layout of every chart on the page, from the boxes Chromium laid out: two text labels of one
 * chart that overlap (by more than a pixel: a glyph box holds some leading), or a label or shape that spills outside
 * its SVG. Empty when every chart reads.
 */
function layoutProblems(page: Page): Promise<string[]> {
  return page.locator('svg.chart').evaluateAll((charts) => {
    const problems: string[] = [];
    charts.forEach((chart, n) => {
      const where = `${chart.closest('figure')?.id ?? 'page'} svg ${n} (${chart.getAttribute('aria-label')})`;
      const box = chart.getBoundingClientRect();
      for (const el of chart.querySelectorAll('text, rect, circle, line, path, polygon')) {
        const r = el.getBoundingClientRect();
        if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) {
          problems.push(`${where}: <${el.tagName}> ${JSON.stringify(el.textContent)} spills out of its SVG`);
        }
      }
      const texts = [...chart.querySelectorAll('text')].map((t) => ({ label: t.textContent, r: t.getBoundingClientRect() }));
      texts.forEach((a, i) => {
        for (const b of texts.slice(i + 1)) {
          const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
          const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
          if (w > 1 && h > 1) problems.push(`${where}: ${JSON.stringify(a.label)} overlaps ${JSON.stringify(b.label)}`);
        }
      });
    });
    return problems;
  });
}

/** A site's pass@1..pass@K (K: its most counted tries of a task) from the fixture: each try's success by its verifier result, else its judge's verdict. */
function passAtKOfSite(site: string): number[] {
  const tasks = EPISODES.flatMap((e, i) => {
    if (e.site !== site) return [];
    const first = e.steps === null ? [] : e.ok !== null ? [e.ok] : e.verdict !== 'none' ? [e.verdict === 'success'] : [];
    const tries = [...first, ...Array.from({ length: TRIES - 1 }, (_, n) => laterTry(i, n + 2))];
    return [{ n: tries.length, c: tries.filter(Boolean).length }];
  });
  const ks = Array.from({ length: Math.max(...tasks.map((t) => t.n)) }, (_, i) => i + 1);
  return ks.map((k) => {
    const counted = tasks.filter((t) => t.n >= k);
    return counted.reduce((sum, t) => sum + passAtK(t.n, t.c, k), 0) / counted.length;
  });
}

/** A figure's screenshot in a page 800 pixels wide, palette-quantised to stay small (docs/ keeps it). */
async function shoot(page: Page, selector: string, file: string): Promise<void> {
  await page.setViewportSize({ width: 800, height: 900 });
  await sharp(await page.locator(selector).screenshot()).png({ palette: true, colours: 64, compressionLevel: 9 }).toFile(file);
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

  it('the run report: one bar per site and verdict, a bin per step count, a 2x2 per site, tokens per stage and model, pass@k of 52 sites', async () => {
    const { page, errors } = await open(index);
    const verdictKey = (e: Fixture) => e.verdict;
    expect(await marks(page, 'fig-outcomes-site', 'bar')).toBe(distinct(ALL, (e) => `${e.site}/${verdictKey(e)}`));
    expect(await marks(page, 'fig-outcomes-kind', 'bar')).toBe(distinct(ALL, (e) => `${e.kind}/${verdictKey(e)}`));
    const counted = ALL.filter((e) => e.steps !== null);
    // a bin per step count up to 40 counts; the fixture's 150 steps make bins of 4, labelled 148–151
    const binWidth = Math.ceil((Math.max(...counted.map((e) => e.steps!)) + 1) / 40);
    expect(binWidth).toBe(4);
    expect(await marks(page, 'fig-steps', 'bin')).toBe(distinct(counted, (e) => String(Math.floor(e.steps! / binWidth))));
    const paired = ALL.filter((e) => e.ok !== null && e.verdict !== 'none');
    expect(await marks(page, 'fig-judge-verifier', 'cell')).toBe(4 * distinct(paired, (e) => e.site));
    // the agent's model (input and output) and the one judge model whose records carry tokens
    expect(await marks(page, 'fig-usage', 'bar')).toBe(2 * (distinct(EPISODES.filter((e) => e.steps !== null), () => 'qwen-test') + distinct(EPISODES.filter((e) => e.judgeUsage), () => 'gemini')));

    // the numbers are one hover away: the title of alpha's SUCCESS bar
    const alpha = ALL.filter((e) => e.site === 'alpha');
    const successes = alpha.filter((e) => e.verdict === 'success').length;
    const title = await page.locator('#fig-outcomes-site [data-mark="bar"][data-series="judged SUCCESS"] title').first().textContent();
    expect(title).toBe(`alpha: judged SUCCESS ${successes} episodes (${((100 * successes) / alpha.length).toFixed(1)}%)`);
    const judgeTokens = EPISODES.filter((e) => e.judgeUsage).length * 500;
    expect(await page.locator('#fig-usage [data-mark="bar"] title').allTextContents()).toContain(`judge · gemini-2.5-flash: input tokens ${judgeTokens.toLocaleString('en-US')} tokens (${((100 * judgeTokens) / (judgeTokens + 40)).toFixed(1)}%)`);
    expect(await page.locator('#fig-usage').textContent()).toContain('price unknown'); // qwen-test has no price
    expect(await page.locator('a#rows-page').getAttribute('href')).toBe('rows.html');

    // pass@k: a faint line per site with its values on hover, the sites' spread as two bands, a point per k of all
    // tasks and of the best and worst site by pass@1, those three named at their ends
    const sites = new Map(SITES.map((site) => [site, passAtKOfSite(site)]));
    const ranked = [...sites].sort(([a, x], [b, y]) => y[0]! - x[0]! || y.at(-1)! - x.at(-1)! || (a < b ? -1 : 1)).map(([site]) => site);
    const [best, worst] = [ranked[0]!, ranked.at(-1)!];
    expect(sites.get(best)![0]).toBeGreaterThan(sites.get(worst)![0]!);
    expect(await marks(page, 'fig-pass-at-k', 'group')).toBe(SITES.length);
    expect(await marks(page, 'fig-pass-at-k', 'band')).toBe(2);
    expect(await marks(page, 'fig-pass-at-k', 'point')).toBe(TRIES + sites.get(best)!.length + sites.get(worst)!.length);
    for (const site of [best, worst]) expect(await page.locator(`#fig-pass-at-k [data-mark="point"][data-series="${site}"]`).count()).toBe(sites.get(site)!.length);
    const f3 = (v: number) => v.toFixed(3);
    const tasksOf = (site: string) => new Set(EPISODES.filter((e) => e.site === site).map((e) => e.id)).size;
    expect(await page.locator('#fig-pass-at-k [data-mark="group"][data-series="alpha"] title').textContent())
      .toBe(`alpha (${tasksOf('alpha')} tasks): ${sites.get('alpha')!.map((v, k) => `pass@${k + 1} ${f3(v)}`).join(', ')}`);
    const clip = (label: string) => (label.length <= 16 ? label : `${label.slice(0, 15)}…`);
    expect((await page.locator('#fig-pass-at-k svg text').allTextContents()).filter((t) => !/^[\d.]+$|^k \(tries\)$|^pass@k$/.test(t)).sort())
      .toEqual(['all tasks', clip(best), clip(worst)].sort());
    expect(await page.locator('#fig-pass-at-k ul.legend').textContent()).toContain(`best site (highest pass@1): ${best}`);

    expect(await layoutProblems(page)).toEqual([]);
    if (process.env.PLOTS_SHOT) await shoot(page, '#fig-pass-at-k', process.env.PLOTS_SHOT);
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
    expect(await layoutProblems(page)).toEqual([]);
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
    expect(await layoutProblems(page)).toEqual([]);
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
