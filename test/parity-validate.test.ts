/**
 * validate against the seed's `cmd_validate` (through seed_bridge) for several confusion matrices: the judge's
 * first line and summary and the figures line, as printed, byte for byte.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeLLM, runValidate, type JudgeEvent } from '../src/index';
import { formatJudgeStart, formatJudgeSummary } from '../src/judge/run';
import { formatScore } from '../src/validate';
import { runPython } from './helpers/python';
import { recordText, tempDir, writeRun, type EpisodeFixture } from './helpers/runs';

const MODEL = 'gemini-3.5-flash';
// `ok` is a boolean: other values (the seed's truthiness, where `"no"` passes) are refused (test/validate.test.ts).
const TRUE_OK = ['true', 'true ', ' true'];
const FALSE_OK = ['false', 'false ', ' false'];

// [tp, fp, fn, tn]
const MATRICES: Array<[number, number, number, number]> = [
  [1, 15, 0, 0],
  [0, 0, 0, 0],
  [5, 0, 0, 5],
  [3, 1, 2, 7],
  [2, 1, 0, 0],
  [0, 3, 0, 0],
  [7, 2, 3, 1],
  [1, 0, 2, 0],
  [13, 4, 6, 29],
];

async function makeRun([tp, fp, fn, tn]: [number, number, number, number], regraded: boolean): Promise<string> {
  const run = await tempDir('parity-validate-');
  const cells: Array<[boolean, 0 | 1]> = [
    ...Array<[boolean, 0 | 1]>(tp).fill([true, 1]),
    ...Array<[boolean, 0 | 1]>(fp).fill([false, 1]),
    ...Array<[boolean, 0 | 1]>(fn).fill([true, 0]),
    ...Array<[boolean, 0 | 1]>(tn).fill([false, 0]),
  ];
  const episodes: EpisodeFixture[] = cells.map(([, label], i) => ({ taskId: `shop-${i}`, record: recordText(`shop-${i}`, label, MODEL) }));
  // Episodes the judge sees without a verdict, and a result whose episode has no record.
  episodes.push({ taskId: 'mail-nv1', gradeInputs: '{"answer": "x"}' }, { taskId: 'mail-nv2', gradeInputs: '{}' });
  const tasks = [...episodes.map((e) => ({ task_id: e.taskId, instruction: `do ${e.taskId}` })), { task_id: 'gone', instruction: 'x' }];
  await writeRun(run, episodes, tasks);
  // Lines in a shuffled order, a task listed twice with the same result (a conflicting one is refused).
  const lines = cells.map(([ok], i) => `{"task_id": "shop-${i}", "ok": ${(ok ? TRUE_OK : FALSE_OK)[i % 3]}}`);
  lines.reverse();
  if (cells.length > 2) lines.splice(1, 0, `{"task_id": "shop-0", "ok": ${cells[0]![0] ? 'true' : 'false'}}`);
  lines.push('{"task_id": "mail-nv1", "ok": true}', '{"task_id": "gone", "ok": true}');
  const text = `${lines.join('\n')}\n\n`;
  await fs.writeFile(path.join(run, regraded ? 'results_regraded.jsonl' : 'results.jsonl'), text);
  if (regraded) await fs.writeFile(path.join(run, 'results.jsonl'), '{"task_id": "shop-0", "ok": true}\n');
  return run;
}

describe('validate parity with the seed', () => {
  it.each(MATRICES.map((m, i) => [m.join('/'), m, i % 2 === 1] as const))('matrix %s', async (_name, matrix, regraded) => {
    const run = await makeRun(matrix, regraded);
    const printed = runPython<string>(
      `
import argparse, contextlib, io
import seed_bridge as b
b.script(['{"parts": []}'])
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    b.seed.cmd_validate(argparse.Namespace(run=INPUT["run"], model=${JSON.stringify(MODEL)}, workers=4))
emit(buf.getvalue())
`,
      { run },
    );
    const llm = fakeLLM({ modelId: MODEL, replies: ['{"parts": []}'] });
    const events: JudgeEvent[] = [];
    const { report, judged } = await runValidate({ run, llm, workers: 4, onEvent: (e) => events.push(e) });
    const start = events.find((e): e is Extract<JudgeEvent, { type: 'start' }> => e.type === 'start')!;
    const ours = [formatJudgeStart(start), formatJudgeSummary(judged.summary), formatScore(report.overall)].join('\n');
    expect(`${ours}\n`).toBe(printed);
    expect(judged.summary.no_verdict).toBe(2);
    expect([report.overall.tp, report.overall.fp, report.overall.fn, report.overall.tn]).toEqual(matrix);
  });
});
