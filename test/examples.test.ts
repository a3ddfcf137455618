/**
 * The notebook-style scripts of examples/ run offline (the sandbox and its stand-ins, no model keys in the
 * environment) as a user runs them from a clone: `npx tsx examples/<name>.ts`, each in its own process. `npm test`'s
 * tsc type-checks them (tsconfig includes examples/).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finish, spawnScript, type Finished } from './helpers/cli';

let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'examples-'));
});
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

// Offline: none of the variables that switch an example to real models or MiniWeb.
const OFFLINE = ['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'QWEN_ENDPOINT', 'MINIWEB_SITEMAPS', 'MINIWEB_BASE_URL', 'MINIWEB_SPLIT', 'MINIWEB_HUMAN_TASKS', 'SITES'];

function example(name: string, args: string[] = [], env: Record<string, string> = {}): Promise<Finished> {
  const offline = Object.fromEntries(OFFLINE.map((key) => [key, undefined]));
  return finish(spawnScript(path.join('examples', name), args, { env: { ...offline, ...env } }));
}

describe('examples', () => {
  it('judge-one-episode judges the recorded episode with the stand-in judge, saying so', async () => {
    const r = await example('judge-one-episode.ts');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('TASK: Archive the email "Ember status update (week 35)".');
    expect(r.stdout).toContain('screenshots: hu-mail-01-archive-35/screenshots/step_0.png');
    expect(r.stdout).toContain("judge: stand-in-judge (the sandbox's STAND-IN judge, not a model");
    expect(r.stdout).toContain('"predicted_label": 1');
  });

  it('propose-one-site shows the context and the prompt, and proposes 8 tasks', async () => {
    const r = await example('propose-one-site.ts', ['mail-03']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("proposer and judge: the sandbox's STAND-INS");
    expect(r.stdout).toContain('WEBSITE: ');
    expect(r.stdout).toContain('(all pages under /sites/mail-03/)');
    expect(r.stdout.match(/^tg-mail-03-[0-9a-f]{8} {2}\[(info|action)\] {2}\S/gm)).toHaveLength(8);
  });

  it('pipeline runs the whole pipeline small, then select-rows chooses rows from its run', async () => {
    const dir = path.join(tmp, 'pipeline');
    const r = await example('pipeline.ts', [dir], { SITES: 'shop-01', PER_SITE: '2', HUMAN_PER_SITE: '1' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("agent: the sandbox's STAND-IN oracle");
    expect(r.stdout).toMatch(/^episodes 2, judged SUCCESS \d/m);
    expect(r.stdout).toMatch(/^rows: \d+ trajectories, \d+ of 27644 steps$/m);
    expect(r.stdout).toContain(`report: file://${dir}/run_report/index.html`);
    for (const file of ['tasks.jsonl', 'run_judge', 'human_judge/_validate.json', 'rows/_report.json', 'human_report/index.html']) {
      expect(existsSync(path.join(dir, file)), file).toBe(true);
    }

    const rows = await example('select-rows.ts', [dir]);
    expect(rows.code, rows.stderr).toBe(0);
    expect(rows.stdout).not.toContain('sites: the bundled sandbox'); // the judged run was there: nothing run again
    const successes = Number(/^(\d+) judged successes of 2 tasks$/m.exec(rows.stdout)?.[1]);
    expect(rows.stdout).toContain(`budget 27644: ${successes} episodes`);
    const report = JSON.parse(await readFile(path.join(dir, 'rows_10', '_report.json'), 'utf8'));
    expect(report).toMatchObject({ candidates: successes, budget: 10 });
  });

  it('validate-run records a human-task run, then scores the judge against the verifiers', async () => {
    const run = path.join(tmp, 'validate', 'human');
    const r = await example('validate-run.ts', [run], { SITES: 'mail-02' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('attempted 2 human tasks: the verifier passed');
    expect(r.stdout).toMatch(/^judge stand-in-judge on 2 episodes: agreement /m);
    expect(existsSync(path.join(`${run}_judge`, '_validate.json'))).toBe(true);
    expect(existsSync(path.join(`${run}_report`, 'index.html'))).toBe(true);

    // the judge lab on that run: no episode attempted again, 5 variants compared
    const lab = await example('judge-lab.ts', [run], { SITES: 'mail-02' });
    expect(lab.code, lab.stderr).toBe(0);
    expect(lab.stdout).toMatch(/^judge lab on .*: 2 episodes with verifier results$/m);
    expect(lab.stdout).toMatch(/^ {2}seed-3-votes +n= +2 .* 6 calls /m);
    expect(existsSync(path.join(`${run}_judge`, 'lab', 'lab.html'))).toBe(true);
  });
});
