import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { InputError, LLMError, SYSTEM_JUDGE, UnsafeNameError, fakeLLM, judgeEpisode, judgePrompt, runJudge, loadInstructions, pickScreenshots, type JudgeEvent } from '../src/index';
import { formatActions, formatChanges, formatLog, lastSeen } from '../src/judge';
import { parseVerdict } from '../src/judge/episode';
import { formatAnswer } from '../src/judge/format';
import { formatJudgeSummary } from '../src/judge/run';
import { chooseScreenshots } from '../src/judge/screenshots';
import { parsePyJson } from '../src/core/py/json';
import { fakePng, recordText, tempDir, writeRun } from './helpers/runs';

const j = (text: string) => parsePyJson(text) as never;

describe('formatLog', () => {
  it('skips static and admin paths, drops empty parameters, keeps 0 and False', () => {
    const log = j(`[
      {"method": "GET", "path": "/static/app.js", "status": 200},
      {"method": "GET", "path": "/_admin/changes", "status": 200},
      {"method": "GET", "path": "/sites/shop/theme.css\\n", "status": 200},
      {"method": "GET", "path": "/sites/shop/search", "query": {"q": "lamp", "page": "", "sort": null, "n": 0, "f": false}, "status": 200},
      {"method": "POST", "path": "/sites/shop/cart", "body": {"csrf_token": "x", "qty": 10.0, "note": ""}, "status": 302}
    ]`);
    expect(formatLog(log)).toBe(
      'GET /sites/shop/search ?{"q": "lamp", "n": 0, "f": false} -> 200\n' +
        'POST /sites/shop/cart body {"qty": 10.0} -> 302',
    );
  });

  it('dumps a string or list body as it is, csrf_token and all', () => {
    const log = j(`[
      {"method": "POST", "path": "/a", "body": "csrf_token=1&q=é", "status": 200},
      {"method": "POST", "path": "/b", "body": ["x", 0], "status": 200},
      {"method": "POST", "path": "/c", "body": 0},
      {"path": "/d", "body": {"csrf_token": "only"}}
    ]`);
    expect(formatLog(log).split('\n')).toEqual([
      'POST /a body "csrf_token=1&q=é" -> 200',
      'POST /b body ["x", 0] -> 200',
      'POST /c -> None',
      'None /d -> None',
    ]);
  });

  it('cuts the query at 200 code points and keeps the last 60 lines', () => {
    const long = '😀'.repeat(300);
    const line = formatLog([{ method: 'GET', path: '/x', query: { q: long } }]);
    expect(line).toBe(`GET /x ?{"q": "${'😀'.repeat(193)} -> None`);
    const many = Array.from({ length: 70 }, (_, i) => ({ method: 'GET', path: `/p${i}`, status: 200 }));
    const lines = formatLog(many).split('\n');
    expect(lines).toHaveLength(60);
    expect(lines[0]).toBe('GET /p10 -> 200');
    expect(formatLog([])).toBe('(none)');
    expect(formatLog(null)).toBe('(none)');
  });

  it('names the field the seed would crash on', () => {
    expect(() => formatLog([{ path: '/a', query: ['q'] }])).toThrow('log.0.query: expected a JSON object, got list');
  });
});

describe('formatChanges', () => {
  it('infers the op, names the item, keeps the first 30', () => {
    const changes = j(`[
      {"table": "orders", "after": {"title": "Lamp", "id": 1}, "changed": {"qty": 2.0, "title": "Lamp"}},
      {"collection": "items", "before": {"name": "Old"}, "after": null},
      {"kind": "carts", "op": "update", "before": {"id": 3}, "after": {"id": 3}, "changed": {"qty": [1, 2]}},
      {"before": {"subject": ""}, "after": {"subject": "Hi 😀"}}
    ]`);
    expect(formatChanges(changes).split('\n')).toEqual([
      'create orders (Lamp): {"qty": 2.0, "title": "Lamp"}',
      'delete items (Old): {}',
      'update carts (3): {"qty": [1, 2]}',
      'update ? (Hi 😀): {}',
    ]);
    const many = Array.from({ length: 35 }, (_, i) => ({ table: `t${i}`, after: { id: i } }));
    const lines = formatChanges(many).split('\n');
    expect(lines).toHaveLength(30);
    expect(lines[29]).toBe('create t29 (29): {}');
    expect(formatChanges([{ table: 't', after: {} }])).toBe('create t (None): {}');
  });
});

describe('formatActions', () => {
  it('drops done, non-actions and values equal to False (0 and 0.0 too)', () => {
    const actions = j(`[
      {"click": {"index": 0}},
      {"type": {"index": 3, "text": "lamp", "enter": false}},
      {"select": {"index": 0.0, "option": ""}},
      {"scroll": {"direction": "down", "amount": 10.0}},
      "garbage", {}, {"back": null}, {"done": {"answer": "42"}}, {"macro_done": {}}
    ]`);
    expect(formatActions(actions)).toEqual([
      'click {}',
      'type {"index": 3, "text": "lamp"}',
      'select {}',
      'scroll {"direction": "down", "amount": 10.0}',
      'back {}',
    ]);
  });

  it('keeps the last 40, each cut at 160 code points', () => {
    const actions = Array.from({ length: 45 }, (_, i) => ({ type: { index: i + 1, text: 'é'.repeat(200) } }));
    const out = formatActions(actions);
    expect(out).toHaveLength(40);
    expect(out[0]!.startsWith('type {"index": 6,')).toBe(true);
    expect([...out[0]!.slice('type '.length)]).toHaveLength(160);
  });
});

describe('lastSeen and the answer', () => {
  it('keeps a JSON page as JSON text', () => {
    expect(lastSeen(j('["first", {"items": [{"price": 10.0}], "ok": true}]'))).toBe('{"items": [{"price": 10.0}], "ok": true}');
    expect(lastSeen(['a', 'b'])).toBe('b');
    expect(lastSeen([])).toBe('');
    expect(lastSeen(['a', 0])).toBe('');
  });
  it('cuts an answer over 1,500 characters at 1,500 code points', () => {
    const answer = `${'a'.repeat(1499)}😀😀`;
    expect(formatAnswer(answer)).toBe(`${'a'.repeat(1499)}😀`);
    expect(formatAnswer(null)).toBe('(none)');
    expect(formatAnswer('')).toBe('(none)');
    expect(formatAnswer(['x', 2])).toBe("['x', 2]");
    expect(() => formatAnswer(5)).toThrow('answer: expected a string, got int');
  });
});

describe('screenshots', () => {
  it.each([
    [9, [0, 1, 2, 3, 4, 5, 6, 7, 8]],
    [10, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]],
    [11, [0, 1, 3, 4, 5, 6, 7, 8, 9, 10]],
    [30, [0, 1, 22, 23, 24, 25, 26, 27, 28, 29]],
  ])('%i shots: the start, then the end', (n, expected) => {
    expect(chooseScreenshots(Array.from({ length: n }, (_, i) => i))).toEqual(expected);
  });

  it('sorts step numbers numerically and appends final.png', async () => {
    const run = await tempDir();
    await writeRun(run, [{ taskId: 'e', shots: ['step_10.png', 'step_2.png', 'step_1.png', 'step_x.png', 'other.png'], final: true }]);
    const shots = await pickScreenshots(path.join(run, 'e'));
    expect(shots.map((s) => path.relative(run, s))).toEqual([
      'e/screenshots/step_1.png',
      'e/screenshots/step_2.png',
      'e/screenshots/step_10.png',
      'e/final.png',
    ]);
    expect(await pickScreenshots(path.join(run, 'missing'))).toEqual([]);
  });
});

describe('judgePrompt', () => {
  it('fills the seed template with floats as Python prints them', () => {
    const prompt = judgePrompt('Buy the lamp', j('{"actions": [{"type": {"index": 1, "text": "10.0"}}], "answer": "", "log": [{"method": "GET", "path": "/p", "query": {"price": 10.0}, "status": 200}], "seen": ["Total: 10.0"]}'));
    expect(prompt).toContain('TASK: Buy the lamp\n\nAGENT\'S ACTIONS (1):\ntype {"index": 1, "text": "10.0"}\n\nAGENT\'S FINAL ANSWER: (none)\n');
    expect(prompt).toContain('\nGET /p ?{"price": 10.0} -> 200\n\nDATA CHANGES OF THE SESSION:\n(none)\n\nTEXT ON SCREEN AT THE END:\nTotal: 10.0\n\n');
    expect(prompt.endsWith('"verdict": "SUCCESS" | "NOT SUCCESS"}')).toBe(true);
  });
});

describe('parseVerdict', () => {
  it('reads the verdict as the seed does', () => {
    expect(parseVerdict('{"verdict": " success "}')).toBe('SUCCESS');
    expect(parseVerdict('')).toBe('');
    expect(parseVerdict('{"verdict": null}')).toBe('');
    expect(() => parseVerdict('nope')).toThrow('Expecting value');
    expect(() => parseVerdict('[1]')).toThrow("'list' object has no attribute 'get'");
  });
});

describe('judgeEpisode', () => {
  let run: string;
  let judgeDir: string;
  const gradeInputs = '{"actions": [{"click": {"index": 2}}], "answer": "42", "log": [], "changes": [], "seen": ["done"]}';
  beforeEach(async () => {
    run = await tempDir();
    judgeDir = `${run}_judge`;
    await writeRun(run, [{ taskId: 'tg-shop-1', gradeInputs, shots: ['step_0.png', 'step_1.png'], final: true }]);
  });

  it('calls the model as the seed does and writes the record byte for byte', async () => {
    const llm = fakeLLM({ replies: ['{"verdict": "SUCCESS", "note": "é"}'], modelId: 'gemini-3.5-flash' });
    const rec = await judgeEpisode({ episode: path.join(run, 'tg-shop-1'), instruction: 'Find 42', judgeDir, llm });
    expect(rec).toEqual({ task_id: 'tg-shop-1', predicted_label: 1, verdict: true, response: '{"verdict": "SUCCESS", "note": "é"}', model: 'gemini-3.5-flash' });
    const call = llm.calls[0]!;
    expect(call.options).toMatchObject({ system: SYSTEM_JUDGE, json: true, temperature: 0, maxTokens: 8192 });
    expect(call.options.images?.map((i) => [i.name, i.mediaType])).toEqual([
      ['tg-shop-1/screenshots/step_0.png', 'image/png'],
      ['tg-shop-1/screenshots/step_1.png', 'image/png'],
      ['tg-shop-1/final.png', 'image/png'],
    ]);
    expect(Buffer.from(call.options.images![2]!.data)).toEqual(Buffer.from(fakePng('tg-shop-1/final')));
    expect(await fs.readFile(path.join(judgeDir, 'tg-shop-1.json'), 'utf8')).toBe(
      '{\n "task_id": "tg-shop-1",\n "predicted_label": 1,\n "verdict": true,\n "response": "{\\"verdict\\": \\"SUCCESS\\", \\"note\\": \\"é\\"}",\n "model": "gemini-3.5-flash"\n}',
    );
  });

  it('returns a cached record without calling the model', async () => {
    await fs.mkdir(judgeDir, { recursive: true });
    await fs.writeFile(path.join(judgeDir, 'tg-shop-1.json'), recordText('tg-shop-1', 0));
    const llm = fakeLLM({ replies: ['{"verdict": "SUCCESS"}'] });
    const rec = await judgeEpisode({ episode: path.join(run, 'tg-shop-1'), instruction: 'x', judgeDir, llm });
    expect(rec?.predicted_label).toBe(0);
    expect(llm.calls).toHaveLength(0);
  });

  it('tries 3 times for a verdict and writes nothing without one', async () => {
    const llm = fakeLLM({ replies: ['{"parts": []}'] });
    const rec = await judgeEpisode({ episode: path.join(run, 'tg-shop-1'), instruction: 'x', judgeDir, llm });
    expect(llm.calls).toHaveLength(3);
    expect(rec).toMatchObject({ predicted_label: 0, verdict: false, response: '{"parts": []}' });
    expect(await fs.readdir(judgeDir).catch(() => [])).toEqual([]);
  });

  it('records a reply that is not JSON as the seed does, then takes a later verdict', async () => {
    const noJson = fakeLLM({ replies: ['I think it worked'] });
    const rec = await judgeEpisode({ episode: path.join(run, 'tg-shop-1'), instruction: 'x', judgeDir, llm: noJson });
    expect(rec?.response).toBe('(judge error JSONDecodeError: Expecting value: line 1 column 1 (char 0))');
    const later = fakeLLM({ replies: ['not json', new LLMError('overloaded', { model: 'm', provider: 'fake', isRetryable: true }), '{"verdict": "NOT SUCCESS"}'] });
    const rec2 = await judgeEpisode({ episode: path.join(run, 'tg-shop-1'), instruction: 'x', judgeDir, llm: later });
    expect(later.calls).toHaveLength(3);
    expect(rec2).toMatchObject({ predicted_label: 0, verdict: true });
  });

  it('gives null without grade inputs and refuses an episode named ..', async () => {
    const llm = fakeLLM({ replies: ['{"verdict": "SUCCESS"}'] });
    await fs.mkdir(path.join(run, 'empty'));
    expect(await judgeEpisode({ episode: path.join(run, 'empty'), instruction: 'x', judgeDir, llm })).toBeNull();
    await expect(judgeEpisode({ episode: `${run}/tg-shop-1/..`, instruction: 'x', judgeDir, llm })).rejects.toThrow(UnsafeNameError);
    expect(llm.calls).toHaveLength(0);
  });

  it('names the file and field of bad evidence', async () => {
    await fs.writeFile(path.join(run, 'tg-shop-1', 'grade_inputs.json'), '{"changes": [{"after": "a string"}]}');
    const llm = fakeLLM({ replies: ['{}'] });
    const error = await judgeEpisode({ episode: path.join(run, 'tg-shop-1'), instruction: 'x', judgeDir, llm }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe(`${run}/tg-shop-1/grade_inputs.json: changes.0.after: expected a JSON object, got str`);
  });
});

describe('runJudge', () => {
  it('judges the known episodes, reports one failing episode and goes on', async () => {
    const run = await tempDir();
    const gi = '{"answer": "ok"}';
    const ids = ['tg-a-1', 'tg-a-2', 'tg-b-1', 'tg-b-2', 'tg-b-3'];
    await writeRun(
      run,
      [
        ...ids.map((taskId) => ({ taskId, gradeInputs: gi })),
        { taskId: 'not-a-task', gradeInputs: gi },
        { taskId: 'tg-c-1' }, // no grade inputs
      ],
      [...ids, 'tg-c-1'].map((task_id) => ({ task_id, instruction: `do ${task_id}`, site: task_id.split('-')[1] })),
    );
    const llm = fakeLLM({
      modelId: 'gemini-3.5-flash',
      replies: (call) => {
        if (call.prompt.includes('do tg-a-2')) return new LLMError('quota', { model: 'm', provider: 'fake', isRetryable: false });
        if (call.prompt.includes('do tg-b-3')) return '{"parts": []}';
        return call.prompt.includes('do tg-b') ? '{"verdict": "NOT SUCCESS"}' : '{"verdict": "SUCCESS"}';
      },
    });
    const events: JudgeEvent[] = [];
    const first = await runJudge({ run, llm, workers: 3, onEvent: (e) => events.push(e) });
    expect(events[0]).toEqual({ type: 'start', run, judgeDir: `${run}_judge`, model: 'gemini-3.5-flash', episodes: 6 });
    // A recorded episode whose task no tasks file lists is named, not passed over in silence (the seed's way).
    expect(events.filter((e) => e.type === 'warning' && e.message.startsWith(`${run}: `))).toEqual([
      { type: 'warning', message: `${run}: 1 recorded episode whose task no tasks file lists (${run}/tasks.jsonl): not-a-task; not judged: give a tasks file that lists them (--tasks)` },
    ]);
    // tg-a-2 fails all 3 tries with an LLM error: no verdict, like tg-b-3.
    expect(first.summary).toEqual({ episodes: 5, success: 1, rate: 0.2, no_verdict: 2, errors: 0, judge: 'gemini-3.5-flash' });
    expect(formatJudgeSummary(first.summary)).toBe('{"episodes": 5, "success": 1, "rate": 0.2, "no_verdict": 2, "errors": 0, "judge": "gemini-3.5-flash"}');
    expect(first.records.map((r) => r.task_id)).toEqual(['tg-a-1', 'tg-a-2', 'tg-b-1', 'tg-b-2', 'tg-b-3']);
    expect((await fs.readdir(`${run}_judge`)).sort()).toEqual(['_episodes', '_setup', 'tg-a-1.json', 'tg-b-1.json', 'tg-b-2.json']);

    // An episode whose evidence breaks is an error; the rest are judged, and written records are kept.
    await fs.writeFile(path.join(run, 'tg-a-2', 'grade_inputs.json'), '{"log": [1]}');
    const before = await fs.readFile(path.join(`${run}_judge`, 'tg-a-1.json'), 'utf8');
    const again: JudgeEvent[] = [];
    const second = await runJudge({ run, llm, onEvent: (e) => again.push(e) });
    expect(second.summary).toMatchObject({ episodes: 4, success: 1, errors: 1, no_verdict: 1 });
    expect(again.find((e) => e.type === 'error')).toMatchObject({ taskId: 'tg-a-2', error: expect.stringContaining('log.0') });
    expect(again.filter((e) => e.type === 'episode' && e.outcome === 'cached')).toHaveLength(3);
    expect(await fs.readFile(path.join(`${run}_judge`, 'tg-a-1.json'), 'utf8')).toBe(before);
    expect(formatJudgeSummary({ ...second.summary, rate: 1 })).toContain('"rate": 1.0');
  });
});

describe('loadInstructions', () => {
  it("reads the run's tasks, then the given file, and falls back to human tasks", async () => {
    const run = await tempDir();
    await writeRun(run, [{ taskId: 'h-1' }], [{ task_id: 'p-1', instruction: 'proposed' }]);
    const other = path.join(run, '..', `${path.basename(run)}-tasks.jsonl`);
    await fs.writeFile(other, '{"task_id": "p-1", "instruction": "newer"}\n{"task_id": "p-2", "instruction": "two"}\n{"task_id": "torn"');
    const human = [{ task_id: 'h-1', instruction: 'human', site: 'shop', task_kind: 'info' }];
    const warnings: JudgeEvent[] = [];
    const map = await loadInstructions(run, { tasks: other, humanTasks: human, onEvent: (e) => warnings.push(e) });
    // p-1 has no episode dir here, so the human tasks are added.
    expect([...map].map(([id, t]) => [id, t.instruction])).toEqual([['p-1', 'newer'], ['p-2', 'two'], ['h-1', 'human']]);
    expect(warnings).toHaveLength(1);
    await fs.mkdir(path.join(run, 'p-1'));
    expect([...(await loadInstructions(run, { humanTasks: human })).keys()]).toEqual(['p-1']);
    await expect(loadInstructions(run, { tasks: path.join(run, 'nope.jsonl') })).rejects.toThrow('nope.jsonl: no such tasks file');
  });
});
