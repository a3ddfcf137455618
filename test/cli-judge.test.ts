import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini, type FakeServer } from './fakes/index';
import { runCli } from './helpers/cli';
import { recordText, rowsText, tempDir, writeRun } from './helpers/runs';

// `taskgen judge | validate | rows` in a child process, the judge on the real Gemini SDK against a fake server.

const KEY = 'test-key-not-secret-123';
let server: FakeServer;
let run: string;

const cli = (args: string[]) => runCli(args, { env: { GEMINI_API_KEY: KEY, GEMINI_BASE_URL: server.url } });

beforeAll(async () => {
  server = await startFakeGemini({
    handler: (request) => {
      const text = JSON.stringify(request.body);
      if (text.includes('TASK: unsure')) return '{"parts": []}';
      return text.includes('TASK: good') ? '{"verdict": "SUCCESS"}' : '{"verdict": "NOT SUCCESS"}';
    },
  });
  run = await tempDir('cli-judge-');
  const ids = ['tg-shop-00000001', 'tg-shop-00000002', 'tg-mail-00000001', 'tg-mail-00000002'];
  const instructions = ['good one', 'bad one', 'good two', 'unsure'];
  await writeRun(
    run,
    ids.map((taskId, i) => ({ taskId, gradeInputs: '{"answer": "x"}', shots: ['step_0.png'], final: true, rows: rowsText(i + 2) })),
    ids.map((task_id, i) => ({ task_id, instruction: instructions[i], site: task_id.split('-')[1], task_kind: 'action' })),
  );
  await fs.writeFile(path.join(run, 'results.jsonl'), ids.map((id, i) => `{"task_id": "${id}", "ok": ${i !== 1}}\n`).join(''));
});

afterAll(async () => {
  await server.close();
});

describe('taskgen judge, validate, rows', () => {
  it('judge prints the seed lines and exits 1 while an episode has no verdict', async () => {
    const r = await cli(['judge', run, '--workers', '2']);
    expect(r.stdout).toBe(
      `judging 4 episodes of ${run} with gemini-3.5-flash -> ${run}_judge\n` +
        '{"episodes": 4, "success": 2, "rate": 0.5, "no_verdict": 1, "errors": 0, "judge": "gemini-3.5-flash"}\n',
    );
    expect(r.stderr).toContain('1 episodes not judged; rerun to retry them (judged ones are kept)');
    expect(r.code).toBe(1);
    expect((await fs.readdir(`${run}_judge`)).sort()).toEqual(['_episodes', '_setup', 'tg-mail-00000001.json', 'tg-shop-00000001.json', 'tg-shop-00000002.json']);
    expect(`${r.stdout}${r.stderr}`).not.toContain(KEY);
    expect(server.requests).toHaveLength(6); // 3 + 3 tries for the unsure one
  });

  it('validate prints the seed lines and writes _validate.json', async () => {
    await fs.writeFile(path.join(`${run}_judge`, 'tg-mail-00000002.json'), recordText('tg-mail-00000002', 0));
    const r = await cli(['validate', run]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').slice(1)).toEqual([
      '{"episodes": 4, "success": 2, "rate": 0.5, "no_verdict": 0, "errors": 0, "judge": "gemini-3.5-flash"}',
      '{"episodes": 4, "agreement": 0.75, "verifier_pass": 3, "judge_pass": 2, "precision": 1.0, "recall": 0.667, "tp": 2, "fp": 0, "fn": 1, "tn": 1}',
      '',
    ]);
    expect(r.stderr).toMatch(/site mail +n= {3}2/);
    expect(JSON.parse(await fs.readFile(`${run}_judge/_validate.json`, 'utf8')).by_site.shop.tp).toBe(1);
  });

  it('rows prints the report line', async () => {
    const out = path.join(run, '..', `${path.basename(run)}-rows`);
    const r = await cli(['rows', run, '--out', out, '--tasks', path.join(run, 'tasks.jsonl'), '--budget', '3']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `{"run": ${JSON.stringify(run)}, "candidates": 2, "selected_trajectories": 1, "selected_rows": 4, "budget": 3, "short_by": 0, "sites": 1}\n`,
    );
    expect(await fs.readdir(path.join(out, 'tg-mail-00000001'))).toContain('rows.jsonl');
  });

  it('rows refuses a bad budget', async () => {
    const r = await cli(['rows', run, '--out', `${run}-x`, '--budget', 'lots']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('expected an integer >= 0');
  });

  it('rows --min-precision that nothing reaches names the command that adds votes, and that command adds them', async () => {
    const out = `${run}-target`;
    const rows = () => cli(['rows', run, '--out', out, '--tasks', path.join(run, 'tasks.jsonl'), '--min-precision', '0.9']);
    const r = await rows();
    expect(r.code).toBe(0);
    // 2 of 2 judged successes right on the scored set (the run's results): a lower bound far below 0.9.
    expect(r.stderr).toMatch(/no judge configuration reaches the precision target 0\.9: the best lower 95% bound is 0\.\d+ \(seed 1\/1: 2 of 2 right/);
    const hint = r.stderr.split('\n');
    const at = hint.findIndex((l) => l.startsWith('to add votes: write votes-3.json holding '));
    expect(at).toBeGreaterThanOrEqual(0);
    const spec = JSON.parse(/holding (\{.*?\}), judge/.exec(hint[at]!)![1]!) as { name: string; votes: number };
    expect(spec).toEqual({ name: 'votes-3', base: 'seed', votes: 3, temperature: 0.7 });
    expect(hint[at + 1]).toBe(`  taskgen judge ${run} --variant votes-3.json --model gemini-3.5-flash`);
    // The command as printed, the variant file written where it says (the test's dir, not the repo root).
    const file = path.join(path.dirname(run), 'votes-3.json');
    await fs.writeFile(file, JSON.stringify(spec));
    const args = hint[at + 1]!.trim().split(' ').slice(1).map((a) => (a === 'votes-3.json' ? file : a));
    const judged = await cli(args);
    expect(judged.stderr).not.toMatch(/unknown option|error: /);
    const lab = path.join(`${run}_judge`, 'lab', 'votes-3');
    const record = JSON.parse(await fs.readFile(path.join(lab, 'tg-shop-00000001.json'), 'utf8')) as { votes: string[] };
    expect(record.votes).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS']);
    // Selected again: the votes are measured now; still short of 0.9 on 4 episodes, so 5 votes are named next.
    const again = await rows();
    const labels = JSON.parse(await fs.readFile(`${out}_labels.json`, 'utf8')) as { configs: Array<{ name: string }> };
    expect(labels.configs.map((c) => c.name)).toEqual(expect.arrayContaining(['lab:votes-3 2/3', 'lab:votes-3 3/3']));
    expect(again.stderr).toContain('to add votes: write votes-5.json holding ');
  });
});
