/**
 * Symbolic links never followed out of the run: rows, the judge and the report name an episode's or a run's file
 * that is a link, and never read, copy or show what it points to. Through the public API; fixtures made here.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeLLM, runJudge, runReport, runRows, type ReportEvent, type RowsEvent } from '../src/index';
import { ID, TASK, pythonEpisode } from './helpers/python-episode';
import { recordText, rowsText, tempDir, writeRun } from './helpers/runs';

describe('symbolic links', () => {
  it('never copies a screenshot that links out of the run into the rows: the episode is skipped, named', async () => {
    const run = await tempDir('files-link-');
    const ids = ['tg-a-00000001', 'tg-b-00000001'];
    await writeRun(run, ids.map((taskId) => ({ taskId, rows: rowsText(2, taskId), record: recordText(taskId, 1) })));
    const outside = path.join(await tempDir('files-outside-'), 'secret.png');
    await fs.writeFile(outside, 'private bytes from outside the run');
    const shot = path.join(run, ids[0]!, 'rows', 'step_1.png');
    await fs.rm(shot);
    await fs.symlink(outside, shot);
    const out = `${run}-rows`;
    const events: RowsEvent[] = [];
    const result = await runRows({ run, out, tasks: ids.map((task_id) => ({ task_id, site: task_id.split('-')[1]! })), onEvent: (e) => events.push(e) });
    const reason = `${shot}: a symbolic link, never followed (it may point out of the run): replace it with the file`;
    expect(result.skipped).toEqual([{ taskId: ids[0], reason }]);
    expect(events).toContainEqual({ type: 'skipped', taskId: ids[0], reason });
    expect((await fs.readdir(out)).sort()).toEqual(['_report.json', ids[1]]);
    // Nothing under the rows dir is a link or holds the outside file's bytes.
    for (const name of await fs.readdir(out, { recursive: true })) {
      const file = path.join(out, name);
      expect((await fs.lstat(file)).isSymbolicLink()).toBe(false);
      if ((await fs.stat(file)).isFile()) expect(await fs.readFile(file, 'utf8')).not.toContain('private bytes');
    }
  });

  it('rows leaves out an episode whose dir, rows dir or episode.json is a link (skipped, named) and one whose judge record is (a warning); nothing of them read or copied', async () => {
    const run = await tempDir('files-link-');
    const ids = ['tg-a-00000001', 'tg-a-00000002', 'tg-a-00000003', 'tg-a-00000004', 'tg-a-00000005'];
    await writeRun(run, ids.map((taskId) => ({ taskId, gradeInputs: '{"answer": "x"}', rows: rowsText(2, taskId), record: recordText(taskId, 1) })));
    // Outside the run: a whole episode and a judge record, each of a secret task.
    const outside = await tempDir('files-outside-');
    const secret = 'private bytes from outside the run';
    await writeRun(outside, [{ taskId: 'x', gradeInputs: '{"answer": "x"}', rows: rowsText(3, secret), record: recordText(secret, 1) }]);
    await fs.writeFile(path.join(outside, 'x', 'episode.json'), pythonEpisode({ ...TASK, instruction: secret }));
    const linked: Array<[string, string]> = [
      [path.join(run, ids[0]!), path.join(outside, 'x')],
      [path.join(run, ids[1]!, 'rows'), path.join(outside, 'x', 'rows')],
      [path.join(run, ids[2]!, 'episode.json'), path.join(outside, 'x', 'episode.json')],
      [path.join(`${run}_judge`, `${ids[3]}.json`), path.join(`${outside}_judge`, 'x.json')],
    ];
    for (const [file, target] of linked) {
      await fs.rm(file, { recursive: true, force: true });
      await fs.symlink(target, file);
    }
    const out = `${run}-rows`;
    const events: RowsEvent[] = [];
    const result = await runRows({ run, out, tasks: ids.map((task_id) => ({ task_id, site: 'a' })), onEvent: (e) => events.push(e) });
    const problem = 'a symbolic link, never followed (it may point out of the run): replace it with the file';
    expect(result.skipped).toEqual(linked.slice(0, 3).map(([file], i) => ({ taskId: ids[i], reason: `${file}: ${problem}` })));
    expect(events).toContainEqual({ type: 'warning', message: `${linked[3]![0]}: ${problem}: not a candidate` });
    expect(result.picked).toEqual([ids[4]]);
    // Neither the rows dir nor the provenance beside it holds anything from outside.
    const written = [`${out}_provenance.jsonl`, ...(await fs.readdir(out, { recursive: true })).map((n) => path.join(out, n))];
    for (const file of written) if ((await fs.lstat(file)).isFile()) expect(await fs.readFile(file, 'utf8')).not.toContain('private bytes');
  });

  it('the judge refuses a screenshot, final.png or grade_inputs.json that links out of the run: an error naming it, never read', async () => {
    const run = await tempDir('files-link-');
    const ids = ['tg-a-00000001', 'tg-a-00000002', 'tg-a-00000003', 'tg-a-00000004'];
    await writeRun(run, ids.map((taskId) => ({ taskId, gradeInputs: '{"answer": "x"}', shots: ['step_0.png'], final: true })),
      ids.map((task_id) => ({ task_id, instruction: 'x' })));
    const outside = path.join(await tempDir('files-outside-'), 'secret');
    await fs.writeFile(outside, '{"answer": "private bytes from outside the run"}');
    const linked = [path.join(run, ids[0]!, 'screenshots', 'step_0.png'), path.join(run, ids[1]!, 'final.png'), path.join(run, ids[2]!, 'grade_inputs.json')];
    for (const file of linked) {
      await fs.rm(file);
      await fs.symlink(outside, file);
    }
    const llm = fakeLLM({ replies: () => '{"verdict": "SUCCESS"}' });
    const result = await runJudge({ run, llm, workers: 1 });
    const problem = 'a symbolic link, never followed (it may point out of the run): replace it with the file';
    expect(result.errors).toEqual(linked.map((file, i) => ({ taskId: ids[i], error: `InputError: ${file}: episode ${ids[i]}: ${problem}` })));
    expect(result.records.map((r) => r.task_id)).toEqual([ids[3]]);
    expect(llm.calls).toHaveLength(1);
    const sent = llm.calls.flatMap((c) => [c.prompt, ...(c.options?.images ?? []).map((image) => Buffer.from(image.data).toString())]);
    for (const text of sent) expect(text).not.toContain('private bytes');
  });

  it('the report names a screenshot, final.png, grade_inputs.json or episode.json that is a link in an issue, and never reads or shows it', async () => {
    const run = await tempDir('files-link-');
    await writeRun(run, [{ taskId: ID, gradeInputs: '{"answer": "x"}', shots: ['step_0.png', 'step_1.png'], final: true }], [TASK]);
    await fs.writeFile(path.join(run, ID, 'episode.json'), pythonEpisode());
    const outside = path.join(await tempDir('files-outside-'), 'secret');
    await fs.writeFile(outside, '{"answer": "private bytes from outside the run"}');
    const linked = ['screenshots/step_1.png', 'final.png', 'grade_inputs.json', 'episode.json'].map((name) => path.join(run, ID, name));
    for (const file of linked) {
      await fs.rm(file);
      await fs.symlink(outside, file);
    }
    const events: ReportEvent[] = [];
    const out = `${run}_report`;
    await runReport({ run, out, onEvent: (e) => events.push(e) });
    const problem = 'a symbolic link, never followed (it may point out of the run): replace it with the file';
    expect(events.filter((e) => e.type === 'issue')).toEqual(expect.arrayContaining(linked.map((file) => ({ type: 'issue', file, problem }))));
    const page = await fs.readFile(path.join(out, 'index.html'), 'utf8');
    const episode = await fs.readFile(path.join(out, 'episodes', `${ID}.js`), 'utf8');
    expect(page + episode).not.toContain('private bytes');
    // The page links to the screenshot that is a file, never to a link.
    const hrefs = [...episode.matchAll(/"href":"([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual([`${ID}/screenshots/step_0.png`]);
  });

  it('the report names a run file that is a link (tasks.jsonl, results.jsonl, a judge record, _validate.json, an episode dir, a screenshots dir) in an issue, and never reads it', async () => {
    const run = await tempDir('files-link-');
    const [a, b, c] = ['tg-a-00000001', 'tg-b-00000001', 'tg-c-00000001'];
    await writeRun(run, [
      { taskId: a, gradeInputs: '{"answer": "x"}', shots: ['step_0.png'], record: recordText(a, 1) },
      { taskId: b, gradeInputs: '{"answer": "x"}' },
      { taskId: c, record: recordText(c, 0) },
    ], [{ ...TASK, task_id: a }]);
    await fs.writeFile(path.join(run, 'results.jsonl'), `{"task_id": "${a}", "ok": true}\n`);
    const secret = 'private bytes from outside the run';
    const outside = await tempDir('files-outside-');
    const put = async (name: string, text: string) => {
      await fs.mkdir(path.dirname(path.join(outside, name)), { recursive: true });
      await fs.writeFile(path.join(outside, name), text);
      return path.join(outside, name);
    };
    const judgeDir = `${run}_judge`;
    const links: Array<[string, string]> = [
      [path.join(run, 'tasks.jsonl'), await put('tasks.jsonl', `${JSON.stringify({ ...TASK, task_id: a, instruction: secret })}\n`)],
      [path.join(run, 'results.jsonl'), await put('results.jsonl', `{"task_id": "${secret}", "ok": true}\n`)],
      [path.join(judgeDir, `${b}.json`), await put('record.json', recordText(b, 1).replace('"response": "', `"response": "${secret} `))],
      [path.join(judgeDir, '_validate.json'), await put('_validate.json', `{"${secret}": 1}`)],
      [path.join(run, c), path.dirname(await put('episode/grade_inputs.json', `{"answer": "${secret}"}`))],
      [path.join(run, a, 'screenshots'), path.dirname(await put('shots/step_5.png', secret))],
    ];
    for (const [file, target] of links) {
      await fs.rm(file, { recursive: true, force: true });
      await fs.symlink(target, file);
    }
    const events: ReportEvent[] = [];
    const out = `${run}_report`;
    await runReport({ run, out, onEvent: (e) => events.push(e) });
    const problem = 'a symbolic link, never followed (it may point out of the run): replace it with the file';
    const issues = events.filter((e) => e.type === 'issue');
    expect(issues).toEqual(expect.arrayContaining(links.map(([file]) => ({ type: 'issue', file, problem }))));
    const written = await Promise.all((await fs.readdir(out, { recursive: true })).filter((n) => n.endsWith('.js') || n.endsWith('.html')).map((n) => fs.readFile(path.join(out, n), 'utf8')));
    for (const text of [...written, JSON.stringify(issues)]) expect(text).not.toContain('private bytes');
    // Nothing is linked through the screenshots dir that is a link.
    expect(await fs.readFile(path.join(out, 'episodes', `${a}.js`), 'utf8')).not.toContain('screenshots/');
  });

  it("the report names a rows dir's _report.json, an episode's rows dir or its rows.jsonl that is a link, and counts none of them", async () => {
    const run = await tempDir('files-link-');
    const ids = ['tg-a-00000001', 'tg-b-00000001', 'tg-c-00000001'];
    await writeRun(run, ids.map((taskId) => ({ taskId, gradeInputs: '{"answer": "x"}', rows: rowsText(2, taskId), record: recordText(taskId, 1) })));
    const rows = `${run}-rows`;
    await runRows({ run, out: rows, tasks: ids.map((task_id) => ({ task_id, site: task_id.split('-')[1]! })) });
    const outside = await tempDir('files-outside-');
    await fs.writeFile(path.join(outside, '_report.json'), '{"private bytes from outside the run": 1, "skipped": 7}');
    await fs.writeFile(path.join(outside, 'rows.jsonl'), rowsText(5));
    const linked: Array<[string, string]> = [
      [path.join(rows, '_report.json'), path.join(outside, '_report.json')],
      [path.join(rows, ids[0]!, 'rows.jsonl'), path.join(outside, 'rows.jsonl')],
      [path.join(rows, ids[1]!), outside],
    ];
    for (const [file, target] of linked) {
      await fs.rm(file, { recursive: true, force: true });
      await fs.symlink(target, file);
    }
    const events: ReportEvent[] = [];
    await runReport({ run, rows, out: `${run}_report`, onEvent: (e) => events.push(e) });
    const problem = 'a symbolic link, never followed (it may point out of the run): replace it with the file';
    expect(events.filter((e) => e.type === 'issue')).toEqual([
      { type: 'issue', file: linked[0]![0], problem },
      { type: 'issue', file: linked[2]![0], problem: `${problem}: not counted as selected` },
      { type: 'issue', file: linked[1]![0], problem: `${problem}: not counted as selected` },
    ]);
    const page = await fs.readFile(path.join(`${run}_report`, 'rows.html'), 'utf8');
    expect(page).not.toContain('private bytes');
    expect(page).not.toMatch(/skipped[^<]*7/);
  });
});
