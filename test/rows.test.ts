import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, memoryStore, selectRows, runRows, type RowsEvent } from '../src/index';
import { interleaveBySite, siteOfTaskId } from '../src/rows';
import { recordText, rowsText, tempDir, writeRun } from './helpers/runs';

const task = (site: string, n: number) => ({ task_id: `tg-${site}-${String(n).padStart(8, '0')}`, site });

describe('interleaveBySite and siteOfTaskId', () => {
  it('takes sites in code-point order, round robin, each in file order', () => {
    const tasks = [task('b', 1), task('a', 1), task('b', 2), task('é', 1), task('Z', 1), task('b', 3), task('a', 2)];
    expect(interleaveBySite(tasks).map((t) => t.task_id)).toEqual(
      ['tg-Z-00000001', 'tg-a-00000001', 'tg-b-00000001', 'tg-é-00000001', 'tg-a-00000002', 'tg-b-00000002', 'tg-b-00000003'],
    );
  });
  it("reads the site as t.split('-', 1)[1].rsplit('-', 1)[0]", () => {
    expect(siteOfTaskId('tg-shop-01-1a2b3c4d')).toBe('shop-01');
    expect(siteOfTaskId('a-b')).toBe('b');
    expect(siteOfTaskId('a-')).toBe('');
    expect(siteOfTaskId('plain')).toBeUndefined();
  });
});

describe('selectRows', () => {
  const tasks = [task('a', 1), task('a', 2), task('a', 3), task('b', 1), task('b', 2), task('c', 1)];
  // order: a1 b1 c1 a2 b2 a3
  const candidates = new Map([
    [tasks[0]!.task_id, 5],
    [tasks[3]!.task_id, 0],
    [tasks[5]!.task_id, 4],
    [tasks[1]!.task_id, 6],
    [tasks[2]!.task_id, 2],
  ]);

  it('takes whole episodes, so the budget is reached mid-episode and overshot', () => {
    const { picked, report } = selectRows({ run: 'runs//r1/', tasks, candidates, budget: 10 });
    expect(picked).toEqual([tasks[0]!.task_id, tasks[5]!.task_id, tasks[1]!.task_id]);
    expect(report).toEqual({
      run: 'runs/r1', candidates: 5, selected_trajectories: 3, selected_rows: 15, budget: 10, short_by: 0, sites: 2,
    });
  });

  it('counts candidates after the budget and those with no rows', () => {
    expect(selectRows({ run: 'r', tasks, candidates, budget: 5 }).report).toMatchObject({ candidates: 5, selected_rows: 5, selected_trajectories: 1 });
    expect(selectRows({ run: 'r', tasks, candidates, budget: 0 }).report).toMatchObject({ candidates: 5, selected_rows: 0, short_by: 0 });
    expect(selectRows({ run: 'r', tasks, candidates }).report).toMatchObject({ selected_rows: 17, budget: 27644, short_by: 27627, sites: 2 });
  });

  it('counts a task listed twice twice, as the seed does', () => {
    const twice = [task('a', 1), task('a', 1)];
    const { picked, report } = selectRows({ run: 'r', tasks: twice, candidates: new Map([[twice[0]!.task_id, 3]]) });
    expect(picked).toEqual([twice[0]!.task_id, twice[0]!.task_id]);
    expect(report).toMatchObject({ candidates: 2, selected_rows: 6, sites: 1 });
  });
});

describe('runRows', () => {
  async function fixture() {
    const run = await tempDir();
    const tasks = [task('shop', 1), task('shop', 2), task('mail', 1), task('mail', 2), task('bank', 1)];
    await writeRun(run, [
      { taskId: tasks[0]!.task_id, rows: rowsText(4), record: recordText(tasks[0]!.task_id, 1) },
      { taskId: tasks[1]!.task_id, rows: rowsText(3), record: recordText(tasks[1]!.task_id, 0) },
      { taskId: tasks[2]!.task_id, rows: `${rowsText(2)}\n \n`, record: recordText(tasks[2]!.task_id, 1) },
      { taskId: tasks[3]!.task_id, rows: rowsText(5), record: recordText(tasks[3]!.task_id, 1) },
      { taskId: tasks[4]!.task_id, record: recordText(tasks[4]!.task_id, 1) }, // no rows dir
    ]);
    const tasksFile = path.join(run, '..', `${path.basename(run)}.tasks.jsonl`);
    await fs.writeFile(tasksFile, tasks.map((t) => `${JSON.stringify(t)}\n`).join(''));
    return { run, tasks, tasksFile, out: `${run}-rows` };
  }

  it('copies the picked rows dirs with hard links and writes the report as the seed does', async () => {
    const { run, tasks, tasksFile, out } = await fixture();
    const events: RowsEvent[] = [];
    const { picked, report } = await runRows({ run, out, tasks: tasksFile, budget: 6, onEvent: (e) => events.push(e) });
    // order: mail1 shop1 mail2 shop2 (bank has no rows): mail1 (2) + shop1 (4) reach 6.
    expect(picked).toEqual([tasks[2]!.task_id, tasks[0]!.task_id]);
    expect(report).toMatchObject({ candidates: 3, selected_rows: 6, short_by: 0, sites: 2 });
    expect((await fs.readdir(out)).sort()).toEqual(['_report.json', tasks[0]!.task_id, tasks[2]!.task_id].sort());
    const src = await fs.stat(path.join(run, tasks[0]!.task_id, 'rows', 'rows.jsonl'));
    const dst = await fs.stat(path.join(out, tasks[0]!.task_id, 'rows.jsonl'));
    expect(dst.ino).toBe(src.ino);
    expect((await fs.readdir(path.join(out, tasks[0]!.task_id))).sort()).toEqual(['episode.json', 'rows.jsonl', 'step_0.png', 'step_1.png', 'step_2.png', 'step_3.png']);
    expect(await fs.readFile(path.join(out, '_report.json'), 'utf8')).toBe(
      `{\n "run": ${JSON.stringify(run)},\n "candidates": 3,\n "selected_trajectories": 2,\n "selected_rows": 6,\n "budget": 6,\n "short_by": 0,\n "sites": 2\n}`,
    );
    expect(events.filter((e) => e.type === 'copied')).toHaveLength(2);
  });

  it('refuses an out dir holding dirs outside the selection, naming them; removes them only when told to', async () => {
    const { run, tasksFile, out } = await fixture();
    await fs.mkdir(path.join(out, 'earlier'), { recursive: true });
    await fs.writeFile(path.join(out, 'earlier', 'rows.jsonl'), 'kept\n');
    await expect(runRows({ run, out, tasks: tasksFile })).rejects.toThrow(/holds episode dirs that are not this selection \(earlier\)/);
    expect(await fs.readFile(path.join(out, 'earlier', 'rows.jsonl'), 'utf8')).toBe('kept\n');
    expect((await fs.readdir(out)).length).toBe(1);
    const events: RowsEvent[] = [];
    const { removed } = await runRows({ run, out, tasks: tasksFile, stale: 'remove', onEvent: (e) => events.push(e) });
    expect(removed).toEqual([path.join(out, 'earlier')]);
    expect(events).toContainEqual({ type: 'removed', dir: path.join(out, 'earlier') });
    expect((await fs.readdir(out)).length).toBe(4);
  });

  it('refuses a task id with / or .. before writing anything, naming the file and line', async () => {
    const { run, tasksFile, out } = await fixture();
    for (const bad of ['../etc', 'a/b', '..']) {
      await fs.appendFile(tasksFile, `${JSON.stringify({ task_id: bad, site: 'shop' })}\n`);
      const error = await runRows({ run, out, tasks: tasksFile }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).message).toMatch(new RegExp(`${tasksFile}:6: task_id: not a plain name`));
      await expect(fs.stat(out)).rejects.toThrow();
      await fs.writeFile(tasksFile, (await fs.readFile(tasksFile, 'utf8')).split('\n').slice(0, 5).join('\n') + '\n');
    }
    await expect(runRows({ run, out, tasks: [{ task_id: '../x', site: 's' }] })).rejects.toThrow('not a plain name');
  });

  it('works on an in-memory store', async () => {
    const store = memoryStore({
      'r/tg-s-1/rows/rows.jsonl': rowsText(2),
      'r/tg-s-1/rows/step_0.png': 'png',
      'r/tg-s-1/rows/step_1.png': 'png',
      'r_judge/tg-s-1.json': recordText('tg-s-1', 1),
    });
    const { report } = await runRows({ run: 'r', out: 'o', tasks: [{ task_id: 'tg-s-1', site: 's' }], store });
    expect(report.selected_rows).toBe(2);
    expect(new TextDecoder().decode(store.files.get('o/tg-s-1/step_0.png'))).toBe('png');
    expect(store.files.has('o/_report.json')).toBe(true);
  });
});
