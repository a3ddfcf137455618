import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnsafeNameError, fakeLLM, scoreJudge, runValidate, type JudgePair } from '../src/index';
import { ValidateReportSchema } from '../src/formats';
import { formatScore, wilsonInterval } from '../src/validate';
import { recordText, tempDir, writeRun } from './helpers/runs';

const pairs = (tp: number, fp: number, fn: number, tn: number): JudgePair[] => [
  ...Array<JudgePair>(tp).fill([true, true]),
  ...Array<JudgePair>(fp).fill([false, true]),
  ...Array<JudgePair>(fn).fill([true, false]),
  ...Array<JudgePair>(tn).fill([false, false]),
];

describe('scoreJudge', () => {
  it("gives the seed's figures in the seed's order, rounded half-even on the binary value", () => {
    const score = scoreJudge(pairs(1, 15, 0, 0));
    expect(score.precision).toBe(0.062); // round(0.0625, 3)
    expect(Object.keys(score)).toEqual([
      'episodes', 'agreement', 'verifier_pass', 'judge_pass', 'precision', 'recall', 'tp', 'fp', 'fn', 'tn',
      'precision_ci', 'recall_ci', 'agreement_ci',
    ]);
    expect(formatScore(score)).toBe(
      '{"episodes": 16, "agreement": 0.062, "verifier_pass": 1, "judge_pass": 16, "precision": 0.062, "recall": 1.0, "tp": 1, "fp": 15, "fn": 0, "tn": 0}',
    );
  });

  it('prints 0.0 for an empty run and counts each cell', () => {
    const empty = scoreJudge([]);
    expect(formatScore(empty)).toBe(
      '{"episodes": 0, "agreement": 0.0, "verifier_pass": 0, "judge_pass": 0, "precision": 0.0, "recall": 0.0, "tp": 0, "fp": 0, "fn": 0, "tn": 0}',
    );
    expect(empty.precision_ci).toBeNull();
    expect(scoreJudge(pairs(3, 1, 2, 7))).toMatchObject({ agreement: 0.769, precision: 0.75, recall: 0.6, verifier_pass: 5, judge_pass: 4 });
  });

  it('gives 95% Wilson score intervals', () => {
    // Known values: 15/16 -> [0.717, 0.989]; 0/10 -> [0, 0.278]; 5/10 -> [0.237, 0.763].
    expect(wilsonInterval(15, 16)).toEqual([0.717, 0.989]);
    expect(wilsonInterval(0, 10)).toEqual([0, 0.278]);
    expect(wilsonInterval(5, 10)).toEqual([0.237, 0.763]);
    expect(wilsonInterval(0, 0)).toBeNull();
    const s = scoreJudge(pairs(15, 1, 0, 4));
    expect(s.precision_ci).toEqual(wilsonInterval(15, 16));
    expect(s.recall_ci).toEqual(wilsonInterval(15, 15));
    expect(s.agreement_ci).toEqual(wilsonInterval(19, 20));
  });
});

describe('validate', () => {
  const tasks = [
    { task_id: 'shop-1', instruction: 'a', site: 'shop', task_kind: 'info' },
    { task_id: 'shop-2', instruction: 'b', site: 'shop', task_kind: 'action' },
    { task_id: 'mail-1', instruction: 'c', site: 'mail', task_kind: 'action' },
    { task_id: 'mail-2', instruction: 'd', site: 'mail', task_kind: 'action' },
  ];

  it('scores the judge against results_regraded.jsonl, a task listed twice with one result counted once', async () => {
    const run = await tempDir();
    await writeRun(
      run,
      [
        { taskId: 'shop-1', record: recordText('shop-1', 1) },
        { taskId: 'shop-2', record: recordText('shop-2', 1) },
        { taskId: 'mail-1', gradeInputs: '{"answer": "x"}' },
        { taskId: 'mail-2', gradeInputs: '{}' },
      ],
      tasks,
    );
    // results.jsonl is ignored when results_regraded.jsonl exists.
    await fs.writeFile(path.join(run, 'results.jsonl'), '{"task_id": "shop-1", "ok": false}\n');
    await fs.writeFile(
      path.join(run, 'results_regraded.jsonl'),
      '{"task_id": "shop-2", "ok": true}\n{"task_id": "shop-1", "ok": true}\n{"task_id": "mail-1", "ok": true}\n' +
        '{"task_id": "shop-1", "ok": true}\n{"task_id": "mail-2", "ok": false}\n{"task_id": "gone", "ok": true}\n',
    );
    const llm = fakeLLM({ modelId: 'gemini-3.5-flash', replies: (call) => (call.prompt.includes('TASK: c') ? '{"verdict": "SUCCESS"}' : '{"verdict": "NOT SUCCESS"}') });
    const { report, pairs: scored } = await runValidate({ run, llm });
    expect(llm.calls).toHaveLength(2);
    expect(scored).toEqual([
      { taskId: 'shop-2', verifier: true, judge: true },
      { taskId: 'shop-1', verifier: true, judge: true },
      { taskId: 'mail-1', verifier: true, judge: true },
      { taskId: 'mail-2', verifier: false, judge: false },
    ]);
    expect(report.overall).toMatchObject({ episodes: 4, tp: 3, tn: 1, agreement: 1 });
    expect(Object.keys(report.by_site)).toEqual(['mail', 'shop']);
    expect(report.by_site.mail).toMatchObject({ tp: 1, tn: 1 });
    expect(report.by_kind.info).toMatchObject({ episodes: 1, tp: 1 });
    const written = await fs.readFile(`${run}_judge/_validate.json`, 'utf8');
    expect(ValidateReportSchema.parse(JSON.parse(written))).toEqual(report);
    expect(written).toContain('"agreement": 1.0');
  });

  it('refuses a task id that is not a plain name before judging anything', async () => {
    const run = await tempDir();
    await writeRun(run, [{ taskId: 'shop-1', gradeInputs: '{}' }], tasks);
    await fs.writeFile(path.join(run, 'results.jsonl'), '{"task_id": "../shop-1", "ok": true}\n');
    const llm = fakeLLM({ replies: ['{"verdict": "SUCCESS"}'] });
    await expect(runValidate({ run, llm })).rejects.toThrow(UnsafeNameError);
    expect(llm.calls).toHaveLength(0);
  });
});
