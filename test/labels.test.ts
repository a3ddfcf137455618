/**
 * Labels you can trust, row by row, on runs written by the test (no browser): a judge of 3 votes, each flipped on
 * its own draw with probability 0.1 (as the sandbox's stand-in judge votes above temperature 0), on a human-task
 * run whose verifiers are the truth and on a training run whose truth only the test knows. The precision target
 * keeps rows whose true precision reaches it and lies in the estimate's interval; a target no configuration
 * reaches keeps no judge-only row and says why; a verifier's failure wins over the judge's SUCCESS, listed.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runRows, type LabelsReport } from '../src/index';
import { LabelsReportSchema, ProvenanceSchema } from '../src/formats';
import { rng, rowsText, tempDir, writeRun, type EpisodeFixture } from './helpers/runs';

const VOTES = 3;
const NOISE = 0.1;

interface Made {
  readonly tasks: object[];
  readonly episodes: EpisodeFixture[];
  readonly truth: Map<string, boolean>;
}

// `n` episodes of site `site`, true successes at `rate`, each judged by 3 noisy votes (majority as its label).
function judgedRun(prefix: string, n: number, rate: number, next: () => number, withRows: boolean): Made {
  const truth = new Map<string, boolean>();
  const tasks: object[] = [];
  const episodes: EpisodeFixture[] = [];
  for (let i = 0; i < n; i++) {
    const site = `site-0${i % 3}`;
    const taskId = `${prefix}-${site}-${String(i).padStart(4, '0')}`;
    const ok = next() < rate;
    truth.set(taskId, ok);
    const votes = Array.from({ length: VOTES }, () => ((next() < NOISE ? !ok : ok) ? 'SUCCESS' : 'NOT SUCCESS'));
    const label = votes.filter((v) => v === 'SUCCESS').length * 2 > VOTES ? 1 : 0;
    const record = { task_id: taskId, predicted_label: label, verdict: true, response: '{}', model: 'judge-x', variant: 'votes-3', votes };
    tasks.push({ task_id: taskId, site, instruction: `task ${i}`, start_path: '/', task_kind: 'action', kind: 'proposed' });
    episodes.push({ taskId, record: JSON.stringify(record, null, 1), ...(withRows ? { rows: rowsText(2, taskId) } : {}) });
  }
  return { tasks, episodes, truth };
}

let dir: string;
let train: Made;
const hand = { ok: 'tg-site-00-hand-ok', failed: 'tg-site-00-hand-failed' };

beforeAll(async () => {
  dir = await tempDir('labels-');
  const next = rng(31);
  const human = judgedRun('hu', 320, 0.7, next, false);
  await writeRun(path.join(dir, 'human'), human.episodes, human.tasks.map((t) => ({ ...t, verifier: { answer: { contains: 'x' } } })));
  await fs.writeFile(path.join(dir, 'human', 'results.jsonl'), [...human.truth].map(([id, ok]) => `${JSON.stringify({ task_id: id, ok })}\n`).join(''));
  train = judgedRun('tg', 90, 0.7, next, true);
  // Two tasks with hand-written verifiers, both judged SUCCESS: one the verifier passed, one it failed.
  const sure = (taskId: string) => ({ taskId, rows: rowsText(3, taskId), record: JSON.stringify({ task_id: taskId, predicted_label: 1, verdict: true, response: '{}', model: 'judge-x', variant: 'votes-3', votes: ['SUCCESS', 'SUCCESS', 'SUCCESS'] }) });
  const handTasks = Object.values(hand).map((taskId) => ({ task_id: taskId, site: 'site-00', instruction: taskId, start_path: '/', task_kind: 'info', kind: 'proposed', verifier: { answer: { contains: 'y' } } }));
  const tasks = [...train.tasks, ...handTasks];
  await writeRun(path.join(dir, 'run'), [...train.episodes, sure(hand.ok), sure(hand.failed)], tasks);
  await fs.writeFile(path.join(dir, 'tasks.jsonl'), tasks.map((t) => `${JSON.stringify(t)}\n`).join(''));
  await fs.writeFile(path.join(dir, 'run', 'results.jsonl'), `${JSON.stringify({ task_id: hand.ok, ok: true })}\n${JSON.stringify({ task_id: hand.failed, ok: false })}\n`);
});

async function rows(out: string, minPrecision?: number) {
  const events: string[] = [];
  const result = await runRows({
    run: path.join(dir, 'run'),
    out: path.join(dir, out),
    tasks: path.join(dir, 'tasks.jsonl'),
    ...(minPrecision !== undefined ? { minPrecision } : {}),
    onEvent: (e) => e.type === 'left-out' && events.push(`${e.taskId}: ${e.reason}`),
  });
  const provenance = (await fs.readFile(path.join(dir, `${out}_provenance.jsonl`), 'utf8')).split('\n').filter(Boolean).map((l) => ProvenanceSchema.parse(JSON.parse(l)));
  const labels: LabelsReport = LabelsReportSchema.parse(JSON.parse(await fs.readFile(path.join(dir, `${out}_labels.json`), 'utf8')));
  return { result, provenance, labels, leftOut: events };
}

describe('labels', () => {
  it('names every row\'s label source; a verifier\'s failure wins over the judge\'s SUCCESS and is listed', async () => {
    const { result, provenance, labels } = await rows('rows-all');
    expect(provenance.length).toBe(result.picked.length);
    expect(provenance.every((p) => p.label_source !== null)).toBe(true);
    expect(provenance.find((p) => p.task_id === hand.ok)?.label_source).toBe('verifier');
    expect(result.picked).not.toContain(hand.failed);
    expect(labels.disagreements).toEqual([expect.objectContaining({ task_id: hand.failed, source: 'verifier', verifier: false, judge: true })]);
    expect(labels.left_out.map((l) => l.task_id)).toEqual([hand.failed]);
    // Without a target the judge-only rows are the judge's as it judged (a majority of its 3 votes).
    expect(labels.judge).toBe('votes-3 2/3');
    const bySource = Object.fromEntries(labels.sources.map((s) => [s.source, s.episodes]));
    expect(bySource).toMatchObject({ verifier: 1, judge: provenance.filter((p) => p.label_source === 'judge').length });
  });

  it('--min-precision 0.95: the true precision of the rows kept reaches it and lies in the estimate\'s interval', async () => {
    const { result, provenance, labels, leftOut } = await rows('rows-95', 0.95);
    const chosen = labels.configs.find((c) => c.name === labels.judge);
    expect(chosen?.precision?.interval[0]).toBeGreaterThanOrEqual(0.95);
    // The choice has the most judge-only rows among the configurations that reach the target.
    for (const c of labels.configs) if (c.precision && c.precision.interval[0] >= 0.95) expect(c.rows).toBeLessThanOrEqual(chosen!.rows);
    const judged = provenance.filter((p) => p.label_source === 'judge');
    expect(judged.length).toBeGreaterThan(20);
    // Steps, as the estimate counts them: the judge-only episodes have 2 each, the hand-verified one 3 (always right).
    const steps = (ids: readonly string[]) => ids.reduce((n, id) => n + (id === hand.ok ? 3 : 2), 0);
    const right = (ids: readonly string[]) => steps(ids.filter((id) => id === hand.ok || train.truth.get(id) === true));
    expect(right(result.picked) / steps(result.picked)).toBeGreaterThanOrEqual(0.95);
    // The estimate covers the measured sources' rows: here the judge-only ones (a hand-written verifier is the reference).
    const covered = judged.map((p) => p.task_id);
    expect(labels.estimate).toMatchObject({ rows: steps(covered), of: steps(result.picked) });
    const truePrecision = right(covered) / steps(covered);
    expect(truePrecision).toBeGreaterThanOrEqual(0.95);
    expect(truePrecision).toBeGreaterThanOrEqual(labels.estimate!.interval[0]);
    expect(truePrecision).toBeLessThanOrEqual(labels.estimate!.interval[1]);
    // Judge-only episodes the chosen configuration does not accept are left out, named.
    for (const line of leftOut.filter((l) => !l.startsWith(hand.failed))) expect(line).toMatch(/left out: below the precision target$/);
  });

  it('a target no configuration reaches: no judge-only row, and a message that says why', async () => {
    const { provenance, labels } = await rows('rows-999', 0.999);
    expect(provenance.filter((p) => p.label_source === 'judge')).toEqual([]);
    expect(provenance.map((p) => p.task_id)).toEqual([hand.ok]);
    expect(labels.judge).toBeNull();
    expect(labels.target).toMatch(/no judge configuration reaches the precision target 0\.999: the best lower 95% bound is 0\.\d+ .*no judge-only rows selected/);
  });

  it('refuses a target outside 0 to 1, naming the option', async () => {
    await expect(rows('rows-bad', 1.5)).rejects.toThrow(/minPrecision.*between 0 and 1/);
  });
});
