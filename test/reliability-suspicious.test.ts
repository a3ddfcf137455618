/**
 * Input that parses but is suspicious is named (file, line, field), and nothing wrong goes into the rows: a task
 * given twice in a tasks file, an episode whose screenshots are all gone, bytes that are not UTF-8 in a tasks file, a
 * UTF-8 BOM at the start of a `rows.jsonl`, a judge `--tasks` file that gives an attempted task another instruction,
 * and a judge record edited after it was written. Through the public API; fixtures made here, no browser.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, fakeLLM, runJudge, runRows, type JudgeEvent, type RowsEvent } from '../src/index';
import { rowsText, tempDir, writeRun } from './helpers/runs';

const ID = 'tg-shop-0000abcd';
const TASK = { task_id: ID, site: 'shop', instruction: 'buy a lamp', start_path: '/sites/shop/', task_kind: 'action' };
const line = (value: object) => `${JSON.stringify(value)}\n`;
const verdict = (v: string) => fakeLLM({ modelId: 'judge-m', replies: () => `{"verdict": "${v}"}` });
const warnings = (events: ReadonlyArray<JudgeEvent | RowsEvent>) => events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));

// One episode of TASK, with screenshots and rows unless told otherwise, judged SUCCESS.
async function judgedRun(o: { shots?: string[]; final?: boolean; rows?: string } = {}): Promise<string> {
  const run = await tempDir('suspicious-');
  await writeRun(run, [{ taskId: ID, gradeInputs: '{"answer": "lamp"}', shots: o.shots ?? ['step_0.png'], final: o.final ?? true, rows: o.rows ?? rowsText(2, ID) }], [TASK]);
  await runJudge({ run, llm: verdict('SUCCESS') });
  return run;
}

describe('suspicious input is named', () => {
  it('a task line given twice in a tasks file: named with both lines, its rows counted once', async () => {
    const run = await judgedRun();
    const tasks = path.join(run, 'twice.jsonl');
    await fs.writeFile(tasks, line(TASK) + line({ ...TASK, task_id: 'tg-shop-other' }) + line(TASK));
    const events: RowsEvent[] = [];
    const { report } = await runRows({ run, out: path.join(run, '..', `${path.basename(run)}-rows`), tasks, onEvent: (e) => events.push(e) });
    expect(warnings(events)).toContain(`${tasks}:3: task_id: ${ID} is given again (first on line 1): counted once`);
    expect(report).toMatchObject({ selected_trajectories: 1, selected_rows: 2 }); // the seed counts 2 and 4
  });

  it('an episode whose screenshots are all gone: judged from its text alone, with a warning naming it', async () => {
    const events: JudgeEvent[] = [];
    const run = await tempDir('suspicious-');
    const other = 'tg-shop-0000beef';
    await writeRun(run, [
      { taskId: ID, gradeInputs: '{"answer": "lamp"}', shots: [], final: false },
      { taskId: other, gradeInputs: '{"answer": "lamp"}', shots: ['step_0.png'], final: true },
    ], [TASK, { ...TASK, task_id: other }]);
    const llm = verdict('SUCCESS');
    await runJudge({ run, llm, onEvent: (e) => events.push(e) });
    expect(warnings(events)).toEqual([`${run}/${ID}/screenshots: no screenshot left (nor final.png): ${ID} was judged from its text alone`]);
    expect(llm.calls.map((c) => c.options.images?.length ?? 0).sort()).toEqual([0, 2]);
  });

  it('an episode whose step screenshots are all gone (final.png left): judged from final.png, the seed prompt, with a warning naming it', async () => {
    const events: JudgeEvent[] = [];
    const run = await tempDir('suspicious-');
    // `seed` has no episode.json (a run of the seed's own harness): how many steps it had is not known.
    const [gone, kept, none, seed] = ['tg-shop-0000a001', 'tg-shop-0000a002', 'tg-shop-0000a003', 'tg-shop-0000a004'];
    await writeRun(run, [
      { taskId: gone, gradeInputs: '{"answer": "lamp"}', shots: [], final: true },
      { taskId: kept, gradeInputs: '{"answer": "lamp"}', shots: ['step_0.png', 'step_1.png'], final: true },
      { taskId: none, gradeInputs: '{"answer": "lamp"}', shots: [], final: true },
      { taskId: seed, gradeInputs: '{"answer": "lamp"}', shots: [], final: true },
    ], [gone, kept, none, seed].map((task_id) => ({ ...TASK, task_id })));
    // `none` ended before its first step: no step screenshot was ever taken, nothing is missing.
    const episodeJson = (steps: number) => JSON.stringify({ task: TASK, outcome: 'timeout', steps, answer: null, timings: {}, model: null, error: null });
    await fs.writeFile(path.join(run, gone, 'episode.json'), episodeJson(2));
    await fs.writeFile(path.join(run, none, 'episode.json'), episodeJson(0));
    const llm = verdict('SUCCESS');
    await runJudge({ run, llm, workers: 1, onEvent: (e) => events.push(e) });
    const named = (id: string, records: string) =>
      `${path.join(run, id, 'screenshots')}: no step screenshot left (step_<n>.png), only final.png${records}: ${id} was judged from its final screenshot alone; ` +
      `restore the step screenshots (or attempt the episode again), then delete ${path.join(`${run}_judge`, `${id}.json`)} and judge again`;
    expect(warnings(events)).toEqual([named(gone, ', though its episode.json records 2 steps'), named(seed, '')]);
    // judged as the seed judges it: the same prompt, final.png its one image
    const [ofGone, ofKept] = llm.calls;
    expect(ofGone!.prompt).toBe(ofKept!.prompt);
    expect(ofGone!.options.images?.map((i) => i.name)).toEqual([`${gone}/final.png`]);
    expect(ofKept!.options.images).toHaveLength(3);
  });

  it('bytes that are not UTF-8 in a tasks file: an error naming file and line, not an instruction with U+FFFD', async () => {
    const run = await judgedRun();
    const tasks = path.join(run, 'latin1.jsonl');
    const bad = Buffer.concat([Buffer.from(line(TASK)), Buffer.from('{"task_id": "tg-shop-x", "site": "shop", "instruction": "caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]);
    await fs.writeFile(tasks, bad);
    const out = path.join(run, '..', `${path.basename(run)}-rows`);
    await expect(runRows({ run, out, tasks })).rejects.toThrow(`${tasks}:2: bytes that are not UTF-8`);
    const llm = verdict('SUCCESS');
    await expect(runJudge({ run, llm, tasks })).rejects.toThrow(InputError);
    expect(llm.calls).toHaveLength(0);
  });

  it('a UTF-8 BOM at the start of a rows.jsonl: named, and not copied into the rows (the episode keeps its file)', async () => {
    const rows = `\uFEFF${rowsText(2, ID)}`;
    const run = await judgedRun({ rows });
    const out = path.join(run, '..', `${path.basename(run)}-rows`);
    const events: RowsEvent[] = [];
    const { report } = await runRows({ run, out, tasks: path.join(run, 'tasks.jsonl'), onEvent: (e) => events.push(e) });
    expect(report).toMatchObject({ selected_trajectories: 1, selected_rows: 2 });
    const copied = await fs.readFile(path.join(out, ID, 'rows.jsonl'));
    expect(copied[0]).toBe(0x7b); // `{`: line 1 is JSON as a trainer reads it
    expect(copied.toString('utf8')).toBe(rows.slice(1));
    expect(await fs.readFile(path.join(run, ID, 'rows', 'rows.jsonl'), 'utf8')).toBe(rows);
    expect(warnings(events)).toContain(`${path.join(run, ID, 'rows', 'rows.jsonl')}:1: a UTF-8 BOM at the start of the file: not copied into the rows (${path.join(out, ID, 'rows.jsonl')})`);
  });

  it('a judge --tasks file that gives an attempted task another instruction: refused, naming file, line and field, before any model call', async () => {
    const run = await tempDir('suspicious-');
    await writeRun(run, [{ taskId: ID, gradeInputs: '{"answer": "lamp"}', shots: ['step_0.png'], final: true }], [TASK]);
    const tasks = path.join(run, 'other.jsonl');
    await fs.writeFile(tasks, line({ ...TASK, instruction: 'sell a lamp' }));
    const llm = verdict('SUCCESS');
    const error = await runJudge({ run, llm, tasks }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe(
      `${tasks}:1: instruction: task ${ID} is "sell a lamp" here but was attempted as "buy a lamp" (${path.join(run, 'tasks.jsonl')}): give the tasks file the run was attempted with`,
    );
    expect(llm.calls).toHaveLength(0);
    // the same instruction is no difference
    await fs.writeFile(tasks, line(TASK));
    await runJudge({ run, llm, tasks });
    expect(llm.calls).toHaveLength(1);
  });

  it('a judge record edited after it was written: judged again, and said so', async () => {
    const run = await judgedRun();
    const record = path.join(`${run}_judge`, `${ID}.json`);
    await fs.writeFile(record, (await fs.readFile(record, 'utf8')).replace('"predicted_label": 1', '"predicted_label": 0'));
    const events: JudgeEvent[] = [];
    const llm = verdict('SUCCESS');
    await runJudge({ run, llm, onEvent: (e) => events.push(e) });
    expect(llm.calls).toHaveLength(1);
    expect(warnings(events)).toEqual([
      `${record}: edited after it was written (its bytes are not those its binding ${path.join(`${run}_judge`, '_episodes', `${ID}.json`)} names; or a judge was killed between the two writes): not trusted, judged again`,
    ]);
    expect(JSON.parse(await fs.readFile(record, 'utf8'))).toMatchObject({ predicted_label: 1 });
  });
});
