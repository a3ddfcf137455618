/**
 * The judge lab end to end: `taskgen pipeline --sandbox --judge-lab` (validate and report only: the human tasks
 * attempted in Chromium, then the lab on the stand-in judge) writes lab.json and lab.html for the 4 presets, the
 * variants differ as the stand-in documents, and lab.html opens in Chromium with its rows and links to the run
 * report's episodes. Then `taskgen judge-lab` on the same run with a variant file judged on the real Gemini SDK
 * against a fake server: the variant's records only, resumable, `<run>_judge` untouched.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LabReport } from '../src/index';
import { LabReportSchema } from '../src/formats';
import { startFakeGemini, type FakeServer } from './fakes/index';
import { runCli, type Finished } from './helpers/cli';
import { tempDir } from './helpers/runs';

let out: string;
let demo: Finished;
let report: LabReport;
let gemini: FakeServer;
const human = () => path.join(out, 'human');
const lab = () => path.join(`${human()}_judge`, 'lab');

beforeAll(async () => {
  out = path.join(await tempDir('judge-lab-'), 'demo');
  demo = await runCli([
    'pipeline', '--sandbox', '--judge-lab', '--out', out, '--only', 'validate,report', '--human-per-site', '4', '--concurrency', '2', '--no-progress',
  ], { env: { GEMINI_API_KEY: undefined, GOOGLE_API_KEY: undefined, QWEN_ENDPOINT: undefined } });
  report = LabReportSchema.parse(JSON.parse(await fs.readFile(path.join(lab(), 'lab.json'), 'utf8')));
  gemini = await startFakeGemini({ replies: [{ text: '{"verdict": "SUCCESS"}', usage: { input: 1000, output: 20 } }] });
}, 600_000);
afterAll(() => gemini?.close());

describe('the demo\'s judge lab', () => {
  it('writes lab.json for the 4 presets, labelled as stand-ins', async () => {
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toContain('NOTE: STAND-IN JUDGE');
    expect(report.variants.map((v) => v.name)).toEqual(['seed', 'no-evidence', 'text-only', 'last-3-shots']);
    expect(report.variants.every((v) => v.judged === report.episodes && v.missing === 0)).toBe(true);
    expect(report.comparisons.map((c) => c.variant)).toEqual(['no-evidence', 'text-only', 'last-3-shots']);
    // estimated tokens: the variant without screenshots reads far fewer
    const tokens = Object.fromEntries(report.variants.map((v) => [v.name, v.usage.input_tokens]));
    expect(tokens['text-only']!).toBeLessThan(tokens.seed! / 3);
    expect(await fs.readdir(`${human()}_judge`)).toContain('_validate.json');
  });

  it('differs from the seed only where the stand-in says it errs: hidden evidence passes action tasks', () => {
    const differs = report.disagreements.filter((d) => d.verdicts['no-evidence'] !== d.verdicts.seed);
    for (const d of differs) expect([d.kind, d.verdicts['no-evidence']]).toEqual(['action', 1]);
    for (const d of report.disagreements.filter((x) => x.verdicts['text-only'] !== x.verdicts.seed)) expect([d.kind, d.verdicts['text-only']]).toEqual(['info', 1]);
    expect(report.disagreements.length).toBeGreaterThan(0);
  });

  it('lab.html shows the variants and links each disagreement to the run report, in Chromium', async () => {
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      await page.goto(pathToFileURL(path.join(lab(), 'lab.html')).href);
      expect(await page.locator('#variants tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-variant')))).toEqual(report.variants.map((v) => v.name));
      expect(await page.locator('#comparisons tbody tr').count()).toBe(3);
      const links = page.locator('#disagreements a.episode');
      expect(await links.count()).toBe(report.disagreements.length);
      const first = report.disagreements[0]!.task_id;
      await links.first().click();
      await page.waitForURL(/human_report\/index\.html#/);
      const opened = page.locator(`details.ep[open]`);
      await opened.first().waitFor();
      expect(await opened.evaluateAll((ds) => ds.map((d) => d.getAttribute('data-id')))).toEqual([first]);
    } finally {
      await browser.close();
    }
  });

  it('taskgen judge-lab judges a variant file on a real SDK into its own dir, resumably', async () => {
    const variantFile = path.join(out, 'two-votes.json');
    await fs.writeFile(variantFile, JSON.stringify({ name: 'two-votes', base: 'no-evidence', votes: 2, temperature: 1, model: 'gemini-2.5-flash' }));
    const defaultDir = `${human()}_judge`;
    const before = await fs.readdir(defaultDir);
    const env = { GEMINI_API_KEY: 'test-key-not-secret', GEMINI_BASE_URL: gemini.url };
    // the seed's lab records were made by the stand-in: the same name with another model is refused
    const refused = await runCli(['judge-lab', human(), '--variant', `seed,${variantFile}`], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/judge variant seed \(model gemini-3.5-flash\) differs from the set-up its records/);
    expect(gemini.requests.length).toBe(0);
    const first = await runCli(['judge-lab', human(), '--variant', variantFile, '--baseline', 'two-votes', '--workers', '4'], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(gemini.requests.length).toBe(2 * report.episodes); // 2 votes each
    const again = await runCli(['judge-lab', human(), '--variant', variantFile, '--baseline', 'two-votes'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(gemini.requests.length).toBe(2 * report.episodes);
    const lab2 = LabReportSchema.parse(JSON.parse(await fs.readFile(path.join(lab(), 'lab.json'), 'utf8')));
    const v = lab2.variants.find((x) => x.name === 'two-votes')!;
    expect(v).toMatchObject({ votes: 2, judged: report.episodes, model: 'gemini-2.5-flash', usage: { calls: 2 * report.episodes, input_tokens: 2000 * report.episodes } });
    expect(v.usage.cost).toBeCloseTo((2000 * 0.3 + 40 * 2.5) * report.episodes / 1e6, 10);
    expect(first.stdout).toMatch(/two-votes +n= +\d+ +agreement /);
    // taskgen validate --variant: the lab's records reused, the report beside them
    const validated = await runCli(['validate', human(), '--variant', variantFile], { env });
    expect(validated.code, validated.stderr).toBe(0);
    expect(gemini.requests.length).toBe(2 * report.episodes);
    expect(await fs.readdir(path.join(lab(), 'two-votes'))).toContain('_validate.json');
    expect(await fs.readdir(defaultDir)).toEqual(before);
  });
});
