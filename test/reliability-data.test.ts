/**
 * Issue 12, the data half: every verdict belongs to the episode it judged (episode identity), a finished episode
 * gone bad is kept aside rather than deleted, rows that cannot lie, and validate that trusts nothing. Through the
 * public API and the CLI; fixtures made here.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  InputError,
  episodeIdOf,
  fakeLLM,
  runJudge,
  judgedEpisodeIdOf,
  nodeStore,
  runValidate,
  runRows,
  type JudgeEvent,
  type RowsEvent,
} from '../src/index';
import { bindJudgeRecord, judgeRecordState } from '../src/files/episode-id';
import { scanRun } from '../src/attempt/run-dir';
import { runCli } from './helpers/cli';
import { recordText, rowsText, tempDir, writeRun } from './helpers/runs';

const store = nodeStore();
const ID = 'tg-shop-00000001';
const TASK = {
  kind: 'proposed', task_id: ID, site: 'shop', sites: ['shop'], macro: 'proposed', macros: [],
  instruction: 'buy a lamp', start_path: '/sites/shop/', task_kind: 'action', verifier: null,
};

// An episode as attempt records it; `started` tells recordings apart, as the real timings do.
function episodeJson(started: string): string {
  return `${JSON.stringify({ task: TASK, outcome: 'done', steps: 2, answer: null, timings: { started, ended: started, ms: 5 }, model: 'm', error: null }, null, 1)}\n`;
}

async function oneEpisodeRun(): Promise<string> {
  const run = await tempDir('rel-data-');
  await writeRun(run, [{ taskId: ID, gradeInputs: '{"answer": "lamp"}', shots: ['step_0.png'], final: true, rows: rowsText(2, ID) }], [TASK]);
  await fs.writeFile(path.join(run, ID, 'episode.json'), episodeJson('2026-01-01T00:00:00Z'));
  return run;
}

const verdict = (v: string) => fakeLLM({ modelId: 'judge-m', replies: () => `{"verdict": "${v}"}` });

describe('episode identity', () => {
  it('pairs a verdict only with the episode it judged: a re-recorded episode is left out of rows and judged again', async () => {
    const run = await oneEpisodeRun();
    const episode = path.join(run, ID);
    const judgeDir = `${run}_judge`;
    await runJudge({ run, llm: verdict('SUCCESS') });
    const first = await episodeIdOf(store, episode);
    expect(first).toMatch(/^[0-9a-f]{16}$/);
    expect(await judgedEpisodeIdOf(store, judgeDir, ID)).toBe(first);
    const record = await fs.readFile(path.join(judgeDir, `${ID}.json`), 'utf8');
    expect(record).toBe(recordText(ID, 1, 'judge-m')); // the seed's record, byte for byte

    // The episode is recorded again: the old verdict is not its verdict.
    await fs.writeFile(path.join(episode, 'episode.json'), episodeJson('2026-02-02T00:00:00Z'));
    const second = await episodeIdOf(store, episode);
    expect(second).not.toBe(first);
    expect(await judgeRecordState(store, judgeDir, ID, second)).toBe('stale');
    const events: RowsEvent[] = [];
    const rows = await runRows({ run, out: `${run}-rows`, tasks: path.join(run, 'tasks.jsonl'), onEvent: (e) => events.push(e) });
    expect(rows.picked).toEqual([]);
    expect(rows.skipped).toEqual([{ taskId: ID, reason: expect.stringContaining('judged another recording of the episode') }]);
    expect(events).toContainEqual({ type: 'skipped', taskId: ID, reason: rows.skipped[0]!.reason });

    const llm = verdict('NOT SUCCESS');
    const judged: JudgeEvent[] = [];
    const again = await runJudge({ run, llm, onEvent: (e) => judged.push(e) });
    expect(llm.calls).toHaveLength(1);
    expect(again.records[0]!.predicted_label).toBe(0);
    expect(judged).toContainEqual({ type: 'warning', message: expect.stringContaining(`${ID}: its judge record was made from an earlier recording`) });
    expect(await judgedEpisodeIdOf(store, judgeDir, ID)).toBe(second);
    // A third pass finds the record current: no model call.
    const idle = verdict('SUCCESS');
    await runJudge({ run, llm: idle });
    expect(idle.calls).toHaveLength(0);
  });

  it('validate does not score a verdict left from an earlier recording of the episode', async () => {
    const run = await oneEpisodeRun();
    await fs.writeFile(path.join(run, 'results.jsonl'), `{"task_id": "${ID}", "ok": true}\n`);
    expect((await runValidate({ run, llm: verdict('SUCCESS') })).pairs).toEqual([{ taskId: ID, verifier: true, judge: true }]);
    await fs.writeFile(path.join(run, ID, 'episode.json'), episodeJson('2026-02-02T00:00:00Z'));
    const unsure = fakeLLM({ modelId: 'judge-m', replies: () => '{"parts": []}' }); // the same judge, so the same set-up
    const again = await runValidate({ run, llm: unsure });
    expect(unsure.calls).toHaveLength(3); // judged again, no verdict in 3 tries
    expect(again.pairs).toEqual([]);
  });

  it('reads a binding written for another record (a crash between the two writes) as stale, never current', async () => {
    const run = await oneEpisodeRun();
    await runJudge({ run, llm: verdict('SUCCESS') });
    const id = await episodeIdOf(store, path.join(run, ID));
    await bindJudgeRecord(store, `${run}_judge`, ID, id!, recordText(ID, 0, 'judge-m'));
    expect(await judgeRecordState(store, `${run}_judge`, ID, id)).toBe('stale');
    expect(await judgedEpisodeIdOf(store, `${run}_judge`, ID)).toBeNull();
  });

  it('keeps a record with no identity (the seed wrote it) as the seed would, and binds it to the episode there', async () => {
    const run = await oneEpisodeRun();
    await writeRun(run, [{ taskId: ID, record: recordText(ID, 1) }]);
    const { picked } = await runRows({ run, out: `${run}-rows`, tasks: path.join(run, 'tasks.jsonl') });
    expect(picked).toEqual([ID]);
    const llm = verdict('NOT SUCCESS');
    const events: JudgeEvent[] = [];
    await runJudge({ run, llm, onEvent: (e) => events.push(e) });
    expect(llm.calls).toHaveLength(0);
    expect(events).toContainEqual({ type: 'warning', message: expect.stringContaining('1 judge records had no episode identity') });
    expect(await judgedEpisodeIdOf(store, `${run}_judge`, ID)).toBe(await episodeIdOf(store, path.join(run, ID)));
    expect(await fs.readFile(path.join(`${run}_judge`, `${ID}.json`), 'utf8')).toBe(recordText(ID, 1));
  });

  it('never deletes a finished episode whose episode.json no longer parses: named, kept aside, its verdict made stale', async () => {
    const run = await oneEpisodeRun();
    await writeRun(run, [{ taskId: ID, record: recordText(ID, 1) }]); // a verdict with no identity
    const broken = '{"task": {"task_id": "tg-shop-00000001"}, "outcome": "done"}\n';
    await fs.writeFile(path.join(run, ID, 'episode.json'), broken);
    const warnings: string[] = [];
    const finished = await scanRun(store, run, [ID], { onWarning: (m) => warnings.push(m) });
    expect(finished.size).toBe(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(path.join(run, ID, 'episode.json'));
    const aside = (await fs.readdir(path.join(run, '_quarantine')));
    expect(aside).toEqual([expect.stringMatching(new RegExp(`^${ID}\\.bad\\.\\d{8}T\\d{9}Z\\.\\d+-[0-9a-f]{4}$`))]);
    expect(warnings[0]).toContain(path.join(run, '_quarantine', aside[0]!));
    const kept = path.join(run, '_quarantine', aside[0]!);
    expect(await fs.readFile(path.join(kept, 'episode.json'), 'utf8')).toBe(broken);
    expect((await fs.readdir(path.join(kept, 'rows'))).sort()).toEqual(['episode.json', 'rows.jsonl', 'step_0.png', 'step_1.png']);
    await expect(fs.stat(path.join(run, ID))).rejects.toThrow();

    // Redone: the old verdict does not pass for the new episode's.
    await writeRun(run, [{ taskId: ID, gradeInputs: '{"answer": "lamp"}', rows: rowsText(2, ID) }]);
    await fs.writeFile(path.join(run, ID, 'episode.json'), episodeJson('2026-03-03T00:00:00Z'));
    expect(await judgeRecordState(store, `${run}_judge`, ID, await episodeIdOf(store, path.join(run, ID)))).toBe('stale');
    const { picked } = await runRows({ run, out: `${run}-rows`, tasks: path.join(run, 'tasks.jsonl') });
    expect(picked).toEqual([]);
  });
});

describe('rows that cannot lie', () => {
  it('parses every rows file before copying: a cut line or a missing image leaves the episode out, named and counted', async () => {
    const run = await tempDir('rel-rows-');
    const ids = ['tg-a-00000001', 'tg-b-00000001', 'tg-c-00000001'];
    await writeRun(run, ids.map((taskId) => ({ taskId, rows: rowsText(3, taskId), record: recordText(taskId, 1) })));
    const cut = rowsText(3, ids[0]).slice(0, -40); // killed mid-write
    await fs.writeFile(path.join(run, ids[0]!, 'rows', 'rows.jsonl'), cut);
    await fs.rm(path.join(run, ids[1]!, 'rows', 'step_2.png'));
    const tasks = path.join(run, 'tasks.jsonl');
    await fs.writeFile(tasks, ids.map((task_id) => `${JSON.stringify({ task_id, site: task_id.split('-')[1] })}\n`).join(''));
    const out = `${run}-rows`;
    const r = await runCli(['rows', run, '--out', out, '--tasks', tasks]);
    expect(r.stderr).toContain(`${path.join(run, ids[0]!, 'rows', 'rows.jsonl')}:3: torn last line`);
    expect(r.stderr).toContain(`${path.join(run, ids[1]!, 'rows', 'rows.jsonl')}:3: images.0: not a file of the rows dir`);
    expect(r.code).toBe(1);
    expect((await fs.readdir(out)).sort()).toEqual(['_report.json', ids[2]]);
    const report = JSON.parse(await fs.readFile(path.join(out, '_report.json'), 'utf8')) as Record<string, number>;
    expect(report).toMatchObject({ candidates: 1, selected_trajectories: 1, selected_rows: 3, skipped: 2 });
    expect(JSON.parse(r.stdout)).toEqual(report);
  });

  it('refuses an --out that holds an earlier, larger selection, naming its dirs, and changes nothing', async () => {
    const run = await tempDir('rel-rows-');
    const ids = ['tg-a-00000001', 'tg-b-00000001', 'tg-c-00000001'];
    await writeRun(run, ids.map((taskId) => ({ taskId, rows: rowsText(3, taskId), record: recordText(taskId, 1) })));
    const tasks = ids.map((task_id) => ({ task_id, site: task_id.split('-')[1]! }));
    const out = `${run}-rows`;
    await runRows({ run, out, tasks, budget: 9 });
    const before = await fs.readFile(path.join(out, '_report.json'), 'utf8');
    const error = await runRows({ run, out, tasks, budget: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(
      `${out}: holds episode dirs that are not this selection (tg-b-00000001, tg-c-00000001): remove them or choose an empty --out, so the rows dir holds exactly what _report.json counts`,
    );
    expect(await fs.readFile(path.join(out, '_report.json'), 'utf8')).toBe(before);
    expect((await fs.readdir(out)).length).toBe(4);
  });

  it('fails on a missing run dir, tasks file or judge dir; judge on a missing run creates no <run>_judge', async () => {
    const missing = path.join(await tempDir('rel-missing-'), 'no-such-run');
    const [rows, judge] = await Promise.all([
      runCli(['rows', missing, '--out', `${missing}-rows`, '--tasks', `${missing}.jsonl`]),
      runCli(['judge', missing], { env: { GEMINI_API_KEY: 'k' } }),
    ]);
    expect(rows.code).not.toBe(0);
    expect(rows.stderr).toContain(`${missing}: no such run dir`);
    expect(judge.code).not.toBe(0);
    expect(judge.stderr).toContain(`${missing}: no such run dir`);
    await expect(fs.stat(`${missing}_judge`)).rejects.toThrow();
    await expect(fs.stat(`${missing}-rows`)).rejects.toThrow();

    const run = await tempDir('rel-rows-');
    await writeRun(run, [{ taskId: ID, rows: rowsText(1, ID) }]);
    const tasks = [{ task_id: ID, site: 'shop' }];
    await expect(runRows({ run, out: `${run}-rows`, tasks: `${run}/none.jsonl` })).rejects.toThrow(`${run}/none.jsonl: no such tasks file`);
    await expect(runRows({ run, out: `${run}-rows`, tasks })).rejects.toThrow(`${run}_judge: no such judge dir`);
  });
});

describe('validate trusts nothing', () => {
  async function scored(results: string): Promise<unknown> {
    const run = await tempDir('rel-validate-');
    await writeRun(run, [{ taskId: 'shop-1', record: recordText('shop-1', 1) }, { taskId: 'shop-2', record: recordText('shop-2', 0) }], [
      { task_id: 'shop-1', instruction: 'a' },
      { task_id: 'shop-2', instruction: 'b' },
    ]);
    await fs.writeFile(path.join(run, 'results.jsonl'), results);
    const llm = verdict('SUCCESS');
    const outcome = await runValidate({ run, llm }).catch((e: unknown) => e);
    expect(llm.calls).toHaveLength(0);
    return outcome instanceof Error ? outcome.message.replace(`${run}/`, '') : outcome;
  }

  it('refuses an ok that is not a boolean, two different results for a task, and a file with no result', async () => {
    expect(await scored('{"task_id": "shop-1", "ok": true}\n{"task_id": "shop-2", "ok": "no"}\n')).toBe('results.jsonl:2: ok: expected boolean');
    expect(await scored('{"task_id": "shop-1", "ok": 1}\n')).toBe('results.jsonl:1: ok: expected boolean');
    expect(await scored('{"task_id": "shop-1", "ok": true}\n\n{"task_id": "shop-1", "ok": false}\n')).toBe(
      'results.jsonl:3: ok: shop-1 has ok false here but true on line 1',
    );
    expect(await scored('')).toBe('results.jsonl: no result line: nothing to score the judge against');
    expect(await scored('{"task_id": "sho')).toBe('results.jsonl: no result line: nothing to score the judge against');
    expect(await scored('garbage\n{"task_id": "shop-1", "ok": true}\n')).toMatch(/^results.jsonl:1: .*not valid JSON/);
  });

  it('scores a task listed twice with the same result once', async () => {
    const result = (await scored('{"task_id": "shop-1", "ok": true}\n{"task_id": "shop-2", "ok": false}\n{"task_id": "shop-1", "ok": true}\n')) as {
      report: { overall: Record<string, number> };
    };
    expect(result.report.overall).toMatchObject({ episodes: 2, tp: 1, tn: 1 });
  });
});

describe('validate says what it cannot score', () => {
  // A human run of three episodes, judged by the seed (records without identity); `results` when given.
  async function humanRun(o: { records: Record<string, string>; results?: string }): Promise<string> {
    const run = await tempDir('rel-validate-');
    const ids = ['shop-1', 'shop-2', 'shop-3'];
    await writeRun(run, ids.map((taskId) => ({ taskId, gradeInputs: '{"answer": "x"}', shots: ['step_0.png'], final: true, record: o.records[taskId] })),
      ids.map((task_id) => ({ task_id, instruction: `do ${task_id}`, site: 'shop', task_kind: 'action' })));
    if (o.results !== undefined) await fs.writeFile(path.join(run, 'results.jsonl'), o.results);
    return run;
  }

  it('fails on a run without results.jsonl (nor the episodes to derive it), naming the file, writing no figures', async () => {
    const run = await humanRun({ records: { 'shop-1': recordText('shop-1', 1) } });
    const llm = verdict('SUCCESS');
    const error = await runValidate({ run, llm }).catch((e: unknown) => e);
    const missing =
      `${run}/results.jsonl: missing (nor results_regraded.jsonl), and none could be derived from the run's episodes (no verifier result recorded in them): ` +
      'nothing to score the judge against; attempt the human tasks with their verifiers (taskgen attempt), or put the run\'s ' +
      'results.jsonl ({"task_id": ..., "ok": true|false} per line) there';
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(missing);
    expect(llm.calls).toHaveLength(0);
    await expect(fs.stat(`${run}_judge/_validate.json`)).rejects.toThrow();
    const cli = await runCli(['validate', run], { env: { GEMINI_API_KEY: 'k', GEMINI_BASE_URL: 'http://127.0.0.1:9' } });
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toContain(missing);
    expect(cli.stdout).toBe('');
    await expect(fs.stat(`${run}_judge/_validate.json`)).rejects.toThrow();
  });

  it('names a judge record whose label is NaN (as Python writes it) and scores the others without it', async () => {
    const nan = recordText('shop-2', 0).replace('"predicted_label": 0', '"predicted_label": NaN');
    const run = await humanRun({
      records: { 'shop-1': recordText('shop-1', 1), 'shop-2': nan, 'shop-3': recordText('shop-3', 0) },
      results: '{"task_id": "shop-1", "ok": true}\n{"task_id": "shop-2", "ok": true}\n{"task_id": "shop-3", "ok": false}\n',
    });
    const events: JudgeEvent[] = [];
    const llm = verdict('SUCCESS');
    const { report, judged } = await runValidate({ run, llm, onEvent: (e) => events.push(e) });
    const record = `${run}_judge/shop-2.json`;
    expect(events).toContainEqual({
      type: 'warning',
      message:
        `${record}: predicted_label: NaN is not a verdict (0 or 1): shop-2 is not scored (the seed would count it as NOT SUCCESS); ` +
        'write 0 or 1 there, or delete the record and run validate again to have the episode judged again',
    });
    // The figures of the two others, as if shop-2 had no record.
    expect(report.overall).toMatchObject({ episodes: 2, tp: 1, fp: 0, fn: 0, tn: 1, verifier_pass: 1, judge_pass: 1 });
    expect(report.by_site.shop).toMatchObject({ episodes: 2 });
    expect(judged.errors.map((e) => e.taskId)).toEqual(['shop-2']); // the judge pass names it too, and left it as it is
    expect(llm.calls).toHaveLength(0);
    expect(await fs.readFile(record, 'utf8')).toBe(nan);
  });
});
