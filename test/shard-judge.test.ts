import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeLLM, runJudge, runValidate, type JudgeEvent } from '../src/index';
import { stagesToRun } from '../src/pipeline/plan';
import { PIPELINE_STAGES } from '../src/pipeline/types';
import { tempDir, writeRun } from './helpers/runs';

// The judge and validate passes split over shards (DESIGN.md §8): each shard judges the episodes of its tasks
// (positions [K::N] of tasks.jsonl), and the pass without a shard scores the whole run.

describe('sharded judge and validate', () => {
  it('judges each shard its own episodes; the shards together equal one pass, and the unsharded validate scores', async () => {
    const run = await tempDir();
    const ids = ['t-e', 't-a', 't-d', 't-b', 't-c']; // tasks.jsonl order, not name order
    await writeRun(run, ids.map((taskId) => ({ taskId, gradeInputs: '{"answer": "ok"}' })), ids.map((task_id) => ({ task_id, instruction: `do ${task_id}`, site: 's' })));
    await fs.writeFile(path.join(run, 'results.jsonl'), ids.map((task_id, i) => `${JSON.stringify({ task_id, ok: i % 2 === 0 })}\n`).join(''));
    const llm = fakeLLM({ replies: (call) => (/do t-[ab]/.test(call.prompt) ? '{"verdict": "NOT SUCCESS"}' : '{"verdict": "SUCCESS"}') });

    const events: JudgeEvent[] = [];
    const first = await runValidate({ run, llm, shard: { index: 0, count: 2 }, onEvent: (e) => events.push(e) });
    expect(first.report).toBeNull();
    expect(events[0]).toMatchObject({ type: 'start', episodes: 3, shard: { index: 0, count: 2, total: 5 } });
    expect(first.judged.records.map((r) => r.task_id)).toEqual(['t-c', 't-d', 't-e']);
    expect(await fs.readdir(`${run}_judge`)).not.toContain('_validate.json');

    const second = await runJudge({ run, llm, shard: { index: 1, count: 2 } });
    expect(second.records.map((r) => r.task_id)).toEqual(['t-a', 't-b']);

    // The pass without a shard finds everything judged and scores the whole run.
    const whole = await runValidate({ run, llm });
    expect(whole.judged.records).toHaveLength(5);
    expect(llm.calls).toHaveLength(5);
    expect(whole.report.overall).toMatchObject({ episodes: 5, tp: 3, fp: 0, fn: 0, tn: 2 });
    // Shard 0 of 1 is the whole run (how a job inside an array asks for the unsharded pass).
    expect((await runValidate({ run, llm, shard: { index: 0, count: 1 } })).report).toEqual(whole.report);
  });

  it('leaves the whole-run stages of the pipeline to the pass without a shard', () => {
    const { stages, skipped } = stagesToRun({ shard: { index: 1, count: 4 } });
    expect(stages).toEqual(['attempt', 'judge', 'validate', 'relabel']);
    expect(skipped.map((s) => s.stage)).toEqual(['propose', 'verifiers', 'rows', 'report']);
    expect(skipped[0]!.reason).toContain('shard 1/4');
    expect(stagesToRun({ shard: { index: 0, count: 1 } }).stages).toHaveLength(PIPELINE_STAGES.length);
  });
});
