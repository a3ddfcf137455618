/**
 * Files as a long run meets them: JSON written by Python (`NaN`, `Infinity`, `2.0`, a UTF-8 BOM) read as Python
 * reads it, a derived file that said otherwise kept aside and named,
 * and every odd file a clear error or a named skip (symbolic links: `reliability-links.test.ts`). Through the
 * public API; fixtures made here.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  InputError, fakeLLM, nodeStore, readJsonl, runAttempt, runJudge, runPropose, runReport, runRows, runValidate, runWriteVerifiers, memorySource, type AttemptEvent, type BrowserHost,
  type JudgeEvent, type ReportEvent, type RowsEvent, type Task,
} from '../src/index';
import { TaskSchema } from '../src/formats';
import { recordText, tempDir, writeRun } from './helpers/runs';
import { BOM, ID, TASK, pythonEpisode } from './helpers/python-episode';

// A policy and a browser that a test only reaching the episodes to redo never gets to use.
const NOT_CALLED = { name: 'none', decide: () => Promise.reject(new Error('the policy is not called in this test')) };
const NO_BROWSER: BrowserHost = {
  browser: () => Promise.reject(new Error('no browser in this test: it only looks at what is redone')),
  launches: 0,
  close: async () => {},
};

describe('JSON written by Python', () => {
  it('keeps a finished, judged episode whose episode.json has NaN, Infinity, 2.0 or a BOM: not quarantined, not run again, not judged again', async () => {
    const run = await tempDir('files-py-');
    const ids = ['tg-shop-00000001', 'tg-shop-00000002', 'tg-shop-00000003'];
    const tasks = ids.map((task_id) => ({ ...TASK, task_id }));
    await writeRun(run, ids.map((taskId) => ({ taskId, gradeInputs: '{"answer": "x"}', record: recordText(taskId, 1) })));
    const written = [pythonEpisode(tasks[0]), BOM + pythonEpisode(tasks[1], 'Infinity'), pythonEpisode(tasks[2], '-1')];
    for (const [i, id] of ids.entries()) await fs.writeFile(path.join(run, id, 'episode.json'), written[i]!);
    const events: AttemptEvent[] = [];
    const result = await runAttempt({ tasks, policy: NOT_CALLED, source: { baseUrl: 'http://127.0.0.1:9' }, out: run, browser: NO_BROWSER, retries: 0, onEvent: (e) => events.push(e) });
    // The Python-written two stay finished (their 2.0 steps read as 2); only the bad one is tried again.
    expect(result.finished).toMatchObject({ episodes: 2, steps: 4, outcomes: { done: 2 } });
    expect(events.filter((e) => e.type === 'episode-start')).toEqual([{ type: 'episode-start', taskId: ids[2] }]);
    for (const i of [0, 1]) expect(await fs.readFile(path.join(run, ids[i]!, 'episode.json'), 'utf8')).toBe(written[i]);
    // A negative duration is still a bad file, named with its field.
    const warnings = events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
    expect(warnings).toEqual([expect.stringContaining(`${run}/${ids[2]}/episode.json: timings.ms: expected a duration in ms`)]);
    expect(await fs.readdir(path.join(run, '_quarantine'))).toEqual([expect.stringMatching(new RegExp(`^${ids[2]}\\.bad\\.`))]);
    // Their records stay theirs: the judge binds them and calls no model.
    const llm = fakeLLM({ replies: () => '{"verdict": "SUCCESS"}' });
    const judged = await runJudge({ run, llm });
    expect(llm.calls).toHaveLength(0);
    expect(judged.records.map((r) => r.task_id)).toEqual(ids.slice(0, 2));
  });

  it('judges grade_inputs.json with a BOM and NaN as Python would: the same prompt, NaN printed as json.dumps does', async () => {
    const run = await tempDir('files-py-');
    const inputs = '{"answer": "x", "changes": [{"table": "t", "changed": {"price": [NaN, Infinity]}, "n": 2.0}]}';
    await writeRun(run, [
      { taskId: 'tg-shop-00000001', gradeInputs: inputs },
      { taskId: 'tg-shop-00000002', gradeInputs: BOM + inputs },
    ], [{ task_id: 'tg-shop-00000001', instruction: 'x' }, { task_id: 'tg-shop-00000002', instruction: 'x' }]);
    const llm = fakeLLM({ replies: () => '{"verdict": "SUCCESS"}' });
    const result = await runJudge({ run, llm, workers: 1 });
    expect(result.records).toHaveLength(2);
    const prompts = llm.calls.map((c) => c.prompt);
    expect(prompts[0]).toBe(prompts[1]);
    expect(prompts[0]).toContain('create t (None): {"price": [NaN, Infinity]}\n');
  });

  it('names an episode without grade_inputs.json instead of skipping it without a word', async () => {
    const run = await tempDir('files-noinputs-');
    await writeRun(run, [{ taskId: 'tg-shop-00000001', gradeInputs: '{"answer": "x"}' }, { taskId: 'tg-shop-00000002', shots: ['step_0.png'], final: true }],
      [{ task_id: 'tg-shop-00000001', instruction: 'x' }, { task_id: 'tg-shop-00000002', instruction: 'x' }]);
    const events: JudgeEvent[] = [];
    const result = await runJudge({ run, llm: fakeLLM({ replies: () => '{"verdict": "SUCCESS"}' }), workers: 1, onEvent: (e) => events.push(e) });
    expect(result.records.map((r) => r?.task_id ?? null).filter(Boolean)).toEqual(['tg-shop-00000001']);
    const warnings = events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
    expect(warnings).toContain(`${run}/tg-shop-00000002/grade_inputs.json: missing: tg-shop-00000002 is not judged (nothing to judge it from)`);
  });

  it('reads judge records and results.jsonl with a BOM and a label written 1.0; a label that is not a number is named (validate scores the rest)', async () => {
    const run = await tempDir('files-py-');
    const ids = ['shop-1', 'shop-2'];
    await writeRun(run, [
      { taskId: ids[0]!, gradeInputs: '{}', record: BOM + recordText(ids[0]!, 1).replace('"predicted_label": 1', '"predicted_label": 1.0') },
      { taskId: ids[1]!, gradeInputs: '{}', record: recordText(ids[1]!, 0) },
    ], [{ task_id: ids[0], instruction: 'a' }, { task_id: ids[1], instruction: 'b' }]);
    await fs.writeFile(path.join(run, 'results.jsonl'), `${BOM}{"task_id": "shop-1", "ok": true}\n{"task_id": "shop-2", "ok": false}\n`);
    const llm = fakeLLM({ replies: () => '{"verdict": "SUCCESS"}' });
    const { report } = await runValidate({ run, llm });
    expect(llm.calls).toHaveLength(0);
    expect(report.overall).toMatchObject({ episodes: 2, tp: 1, tn: 1 });

    // A record the seed or a script wrote (no episode identity), its label a string.
    await fs.rm(`${run}_judge/_episodes`, { recursive: true });
    await fs.writeFile(path.join(`${run}_judge`, 'shop-2.json'), recordText(ids[1]!, 0).replace('"predicted_label": 0', '"predicted_label": "yes"'));
    // validate names it and scores the rest (the seed would count it as NOT SUCCESS)
    const warned: JudgeEvent[] = [];
    const { report: without } = await runValidate({ run, llm, onEvent: (e) => void (e.type === 'warning' && warned.push(e)) });
    expect(llm.calls).toHaveLength(0);
    expect(warned).toContainEqual({ type: 'warning', message: expect.stringMatching(/^[^:]+_judge\/shop-2\.json: predicted_label: "yes" is not a verdict \(0 or 1\): shop-2 is not scored/) });
    expect(without.overall).toMatchObject({ episodes: 1, tp: 1 });
    await expect(runRows({ run, out: `${run}-rows`, tasks: ids.map((task_id) => ({ task_id, site: 'shop' })) })).rejects.toThrow(
      `${run}_judge/shop-2.json: predicted_label: expected the number 0 or 1`,
    );
    // The judge neither counts it nor judges over it (the file is the user's to mend); the report names it.
    const judged = await runJudge({ run, llm });
    expect(llm.calls).toHaveLength(0);
    expect(judged.errors).toEqual([
      { taskId: 'shop-2', error: `InputError: ${run}_judge/shop-2.json: predicted_label: expected the number 0 or 1: the record holds no verdict; mend it, or delete it to have the episode judged again` },
    ]);
    expect(await fs.readFile(path.join(`${run}_judge`, 'shop-2.json'), 'utf8')).toContain('"predicted_label": "yes"');
    const issues: ReportEvent[] = [];
    await runReport({ run, out: `${run}_report`, onEvent: (e) => void (e.type === 'issue' && issues.push(e)) });
    expect(issues).toContainEqual({ type: 'issue', file: `${run}_judge/shop-2.json`, problem: 'predicted_label: expected the number 0 or 1' });
  });
});

describe('derived files', () => {
  it('validate keeps a results.jsonl that says otherwise than the episodes aside, names it, and rewrites it', async () => {
    const run = await tempDir('files-results-');
    const verified = (id: string, ok: boolean) => ({ ...TASK, task_id: id, verifier: { answer: { type: 'exact', value: 'x' } }, ok });
    const ids = ['shop-1', 'shop-2'];
    await writeRun(run, ids.map((taskId) => ({ taskId, gradeInputs: '{}', record: recordText(taskId, 1) })),
      ids.map((id) => verified(id, true)));
    for (const [i, id] of ids.entries()) {
      const { ok, ...task } = verified(id, i === 0);
      await fs.writeFile(path.join(run, id, 'episode.json'), `${JSON.stringify({ task, outcome: 'done', steps: 1, answer: 'x', timings: { started: 'a', ended: 'b', ms: 1 }, model: 'm', error: null, ok })}\n`);
    }
    await fs.mkdir(path.join(run, '_work'));
    const old = '{"task_id": "shop-1", "ok": true}\n{"task_id": "shop-2", "ok": true}\n';
    await fs.writeFile(path.join(run, 'results.jsonl'), old);
    const events: JudgeEvent[] = [];
    const { report } = await runValidate({ run, llm: fakeLLM({ replies: ['{}'] }), onEvent: (e) => events.push(e) });
    expect(report.overall).toMatchObject({ episodes: 2, tp: 1, fp: 1 });
    const aside = (await fs.readdir(path.join(run, '_aside'))).filter((n) => n.startsWith('results.jsonl.replaced.'));
    expect(aside).toHaveLength(1);
    expect(await fs.readFile(path.join(run, '_aside', aside[0]!), 'utf8')).toBe(old);
    expect(events).toContainEqual({
      type: 'warning',
      message: `${run}/results.jsonl: shop-2 has ok true there but ok false in its episode; rewritten from the episodes, the old file kept in ${run}/_aside/${aside[0]}`,
    });
    // Written again from the same episodes: nothing differs, nothing more kept.
    await runValidate({ run, llm: fakeLLM({ replies: ['{}'] }) });
    expect((await fs.readdir(path.join(run, '_aside'))).filter((n) => n.startsWith('results.jsonl.'))).toHaveLength(1);
    // A file that does not parse is kept too, named by its line.
    await fs.writeFile(path.join(run, 'results.jsonl'), 'garbage{\n');
    const again: JudgeEvent[] = [];
    await runValidate({ run, llm: fakeLLM({ replies: ['{}'] }), onEvent: (e) => again.push(e) });
    const kept = (await fs.readdir(path.join(run, '_aside'))).filter((n) => n.startsWith('results.jsonl.') && n !== aside[0]);
    expect(kept).toHaveLength(1);
    expect(await fs.readFile(path.join(run, '_aside', kept[0]!), 'utf8')).toBe('garbage{\n');
    expect(again).toContainEqual({
      type: 'warning',
      message: `${run}/results.jsonl:1: not valid JSON: Expecting value: skipped; rewritten from the episodes, the old file kept in ${run}/_aside/${kept[0]}`,
    });
  });
});

describe('every odd file named', () => {
  it('rows: a judged success without rows/ is named (not a candidate, as in the seed, whose report stays the same)', async () => {
    const run = await tempDir('files-odd-');
    await writeRun(run, [{ taskId: ID, gradeInputs: '{}', record: recordText(ID, 1) }]);
    const events: RowsEvent[] = [];
    const result = await runRows({ run, out: `${run}-rows`, tasks: [{ task_id: ID, site: 'shop' }], onEvent: (e) => events.push(e) });
    expect(result.report).toMatchObject({ candidates: 0, selected_trajectories: 0 });
    expect(events).toContainEqual({
      type: 'warning',
      message: `${run}/${ID}/rows/rows.jsonl: missing: a judged success without rows (the episode was not recorded whole): not a candidate`,
    });
  });

  it('an episode.json that names another task is kept aside, named, and the episode redone', async () => {
    const run = await tempDir('files-odd-');
    await writeRun(run, [{ taskId: ID, gradeInputs: '{}' }]);
    await fs.writeFile(path.join(run, ID, 'episode.json'), pythonEpisode({ ...TASK, task_id: 'tg-shop-99999999' }, '5'));
    const events: AttemptEvent[] = [];
    const result = await runAttempt({ tasks: [TASK], policy: NOT_CALLED, source: { baseUrl: 'http://127.0.0.1:9' }, out: run, browser: NO_BROWSER, retries: 0, onEvent: (e) => events.push(e) });
    expect(result.finished.episodes).toBe(0);
    expect(events.filter((e) => e.type === 'episode-start')).toEqual([{ type: 'episode-start', taskId: ID }]);
    const warnings = events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`^${run}/${ID}/episode.json: task.task_id: names task tg-shop-99999999, not ${ID}; the episode is redone and the old one kept in ${run}/_quarantine/`))]);
    const [kept] = await fs.readdir(path.join(run, '_quarantine'));
    expect(await fs.readFile(path.join(run, '_quarantine', kept!, 'episode.json'), 'utf8')).toContain('tg-shop-99999999');
  });

  it('a --tasks file that gives an attempted task another instruction or start page is refused, naming file, line and field', async () => {
    const run = await tempDir('files-odd-');
    await writeRun(run, [], [TASK]);
    const attempt = (task: Task) => runAttempt({ tasks: [task], policy: NOT_CALLED, source: { baseUrl: 'http://127.0.0.1:9' }, out: run, browser: NO_BROWSER }).catch((e: unknown) => e);
    const error = await attempt({ ...TASK, instruction: 'sell the lamp' });
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(
      `${run}/tasks.jsonl:1: instruction: task ${ID} is "buy a lamp" in the run but "sell the lamp" now: a run's task never changes; use another --out for the new tasks`,
    );
    const moved = await attempt({ ...TASK, start_path: '/sites/shop/sale' });
    expect(moved).toBeInstanceOf(InputError);
    expect((moved as Error).message).toBe(
      `${run}/tasks.jsonl:1: start_path: task ${ID} is "/sites/shop/" in the run but "/sites/shop/sale" now: a run's task never changes; use another --out for the new tasks`,
    );
    expect(await fs.readFile(path.join(run, 'tasks.jsonl'), 'utf8')).toBe(`${JSON.stringify(TASK)}\n`);
  });

  it('an out path that is a directory is a clear error, not a raw EISDIR', async () => {
    const dir = await tempDir('files-odd-');
    const source = memorySource({ sitemaps: { shop: '{"pages": [{"path": "/sites/shop/"}], "controls": []}' }, pages: { '/sites/shop/': '<h1>Shop</h1>' } });
    const llm = fakeLLM({ replies: ['{"tasks": []}'] });
    const error = await runPropose({ sites: ['shop'], source, llm, out: dir, perSite: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(`${dir}: is a directory, not a file: give a file's path`);
    expect(llm.calls).toHaveLength(0);
    // The verifiers file too (`taskgen verifiers --out`), before any model call.
    const run = path.join(dir, 'run');
    await writeRun(run, [{ taskId: ID, gradeInputs: '{"answer": "x"}', record: recordText(ID, 1) }], [TASK]);
    await fs.writeFile(path.join(run, ID, 'episode.json'), pythonEpisode(TASK, '5'));
    const writer = fakeLLM({ replies: ['{}'] });
    const verifiers = await runWriteVerifiers({ run, llm: writer, out: dir }).catch((e: unknown) => e);
    expect(verifiers).toBeInstanceOf(InputError);
    expect((verifiers as Error).message).toBe(`${dir}: is a directory, not a file: give a file's path`);
    expect(writer.calls).toHaveLength(0);
  });

  it('a tasks file that is a directory is named, not a raw EISDIR without its path', async () => {
    const dir = await tempDir('files-odd-');
    const isDir = `${dir}: is a directory, not a file: give a file's path`;
    // As `taskgen attempt --tasks DIR` reads it.
    await expect(readJsonl(nodeStore(), dir, TaskSchema)).rejects.toThrow(isDir);
    const run = path.join(dir, 'run');
    await writeRun(run, [{ taskId: ID, gradeInputs: '{"answer": "x"}', record: recordText(ID, 1) }], [TASK]);
    const writer = fakeLLM({ replies: ['{}'] });
    await expect(runWriteVerifiers({ run, llm: writer, tasks: dir })).rejects.toThrow(isDir);
    expect(writer.calls).toHaveLength(0);
  });
});
