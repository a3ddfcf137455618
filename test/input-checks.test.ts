/**
 * Every public entry checks its input (tasks, options) before it writes, launches or calls anything: a plain
 * object from a user's script fails at once with an InputError naming the function and the field.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  InputError, attemptTask, fakeLLM, judgeEpisode, memoryStore, runAttempt, runExport, runJudge, runJudgeLab, runPipeline, runPropose, runReport,
  runRows, runValidate, scriptedPolicy, type Task,
} from '../src/index';
import { tempDir } from './helpers/runs';

const llm = fakeLLM({ replies: ['{}'] });
const policy = scriptedPolicy([]);
const task = { kind: 'proposed', task_id: 't1', site: 'shop', instruction: 'look', start_path: '/sites/shop/' };

async function refusal(call: () => Promise<unknown>): Promise<InputError> {
  const error = await call().then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  return error as InputError;
}

describe('public entries check their input', () => {
  it('runAttempt given a task without kind fails at once naming tasks[0].kind, and writes nothing', async () => {
    const out = path.join(await tempDir('input-'), 'run');
    const { kind: _, ...noKind } = task;
    const error = await refusal(() => runAttempt({ tasks: [noKind as unknown as Task], policy, source: { baseUrl: 'http://127.0.0.1:9' }, out }));
    expect(error.message).toMatch(/^runAttempt: tasks\[0\]\.kind: /);
    expect(error).toMatchObject({ file: 'runAttempt', field: 'tasks[0].kind' });
    expect(existsSync(out)).toBe(false);
  });

  it('a task given without its defaulted fields is written with them, and the run reads it back', async () => {
    const store = memoryStore();
    // an unreachable server: the episode cannot run, but the tasks file is written first
    await runAttempt({ tasks: [task as unknown as Task], policy, source: { baseUrl: 'http://127.0.0.1:9' }, out: 'run', store, retries: 0, browser: { executablePath: '/nonexistent/chromium' } }).catch(() => {});
    const line = JSON.parse((await store.readText('run/tasks.jsonl')).trim()) as Task;
    expect(line).toMatchObject({ ...task, sites: [], macro: 'proposed', macros: [], task_kind: 'action', verifier: null });
  });

  const cases: ReadonlyArray<[string, () => Promise<unknown>, string]> = [
    ['runAttempt', () => runAttempt({ tasks: [task as unknown as Task], policy, source: { baseUrl: 'http://127.0.0.1:9' }, out: 'run', concurrency: 0 }), 'concurrency'],
    ['runAttempt', () => runAttempt({ tasks: [task as unknown as Task], policy: {} as never, source: { baseUrl: 'http://127.0.0.1:9' }, out: 'run' }), 'policy.name'],
    ['attemptTask', () => attemptTask({ task: task as unknown as Task, policy, host: {} as never, evidence: {} as never, baseUrl: 'http://127.0.0.1:9', store: memoryStore(), dir: 'run/t1', maxSteps: 0, timeoutMs: 1000 }), 'maxSteps'],
    ['runPropose', () => runPropose({ sites: ['shop'], source: {} as never, llm: { complete: llm.complete } as never, out: 'tasks.jsonl' }), 'llm.modelId'],
    ['runJudge', () => runJudge({ run: 'run', llm, workers: 0 }), 'workers'],
    ['runValidate', () => runValidate({ run: '', llm }), 'run'],
    ['judgeEpisode', () => judgeEpisode({ episode: 'run/t1', instruction: 'look', judgeDir: 'run_judge', llm, tries: 0 }), 'tries'],
    ['runRows', () => runRows({ run: 'run', out: 'rows', tasks: [{ site: 'shop' }] as never }), 'tasks'],
    ['runPipeline', () => runPipeline({ dir: 'demo', source: {} as never, maxSteps: 1.5 }), 'maxSteps'],
    ['runExport', () => runExport({ run: 'run', out: '' }), 'out'],
    ['runReport', () => runReport({ run: 'run', workers: -1 }), 'workers'],
    ['runJudgeLab', () => runJudgeLab({ run: 'run', tries: 0 }), 'tries'],
  ];
  for (const [entry, call, field] of cases) {
    it(`${entry} names ${field}`, async () => {
      const error = await refusal(call);
      expect(error.file).toBe(entry);
      expect(error.field?.startsWith(field)).toBe(true);
      expect(error.message).toContain(`${entry}: ${field}`);
    });
  }
});
