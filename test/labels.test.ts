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
import { memorySource, runPipeline, runRows, type LabelsReport } from '../src/index';
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

  it('the pipeline passes minPrecision to its rows stage and returns the labels outcome', async () => {
    // The fixture's dir is a pipeline work dir (tasks.jsonl, run/, human/): its rows stage alone, no model needed.
    const summary = await runPipeline({ dir, source: memorySource({ sitemaps: {} }), only: ['rows'], minPrecision: 0.999 });
    const labels = summary.stages.rows!.labels;
    expect(labels.min_precision).toBe(0.999);
    expect(labels.judge).toBeNull();
    expect(labels.target).toMatch(/no judge configuration reaches the precision target 0\.999/);
    expect(summary.stages.rows!.picked).toEqual([hand.ok]);
    await expect(runPipeline({ dir, source: memorySource({ sitemaps: {} }), only: ['rows'], minPrecision: 2 })).rejects.toThrow(/minPrecision/);
  });
});

/**
 * Labels per try: each candidate is labelled from its own try's run dir (`<run>/_tries/<n>/`): its verifier results
 * and its judge records, never try 1's for it.
 */
describe('labels of a run with tries', () => {
  let work: string;
  // `verified`: try 1's judged success its verifier failed, try 2's it passed. `votes`: judge-only, try 1 judged NOT
  // SUCCESS by its 3 votes, try 2 SUCCESS by 2 of 3. `single`: try 1 SUCCESS by 3 votes, try 2 (shorter) by a single
  // verdict, which no 3-vote configuration accepts.
  const ids = { verified: 'tg-site-00-verified', votes: 'tg-site-01-votes', single: 'tg-site-02-single' };
  const record = (taskId: string, votes: readonly string[] | null) =>
    JSON.stringify({
      task_id: taskId, verdict: true, response: '{}', model: 'judge-x',
      predicted_label: votes ? (votes.filter((v) => v === 'SUCCESS').length * 2 > votes.length ? 1 : 0) : 1,
      ...(votes ? { variant: 'votes-3', votes } : {}),
    });
  const S = 'SUCCESS';
  const N = 'NOT SUCCESS';

  beforeAll(async () => {
    work = await tempDir('labels-tries-');
    const task = (taskId: string, site: string, verifier: boolean) => ({ task_id: taskId, site, instruction: taskId, start_path: '/', task_kind: 'action', kind: 'proposed', ...(verifier ? { verifier: { answer: { contains: 'y' } } } : {}) });
    const tasks = [task(ids.verified, 'site-00', true), task(ids.votes, 'site-01', false), task(ids.single, 'site-02', false)];
    await fs.mkdir(work, { recursive: true });
    await fs.writeFile(path.join(work, 'tasks.jsonl'), tasks.map((t) => `${JSON.stringify(t)}\n`).join(''));
    const run = path.join(work, 'run');
    await writeRun(run, [
      { taskId: ids.verified, rows: rowsText(2, ids.verified), record: record(ids.verified, [S, S, S]) },
      { taskId: ids.votes, record: record(ids.votes, [N, N, N]) },
      { taskId: ids.single, rows: rowsText(4, ids.single), record: record(ids.single, [S, S, S]) },
    ], tasks);
    await fs.writeFile(path.join(run, 'results.jsonl'), `${JSON.stringify({ task_id: ids.verified, ok: false })}\n`);
    const try2 = path.join(run, '_tries', '2');
    await writeRun(try2, [
      { taskId: ids.verified, rows: rowsText(3, ids.verified), record: record(ids.verified, [S, S, S]) },
      { taskId: ids.votes, rows: rowsText(2, ids.votes), record: record(ids.votes, [S, S, N]) },
      { taskId: ids.single, rows: rowsText(2, ids.single), record: record(ids.single, null) },
    ], tasks);
    await fs.writeFile(path.join(try2, 'results.jsonl'), `${JSON.stringify({ task_id: ids.verified, ok: true })}\n`);
    // The scored set: a human run whose 3 votes were all right, 60 times.
    const human = Array.from({ length: 60 }, (_, i) => `hu-site-00-${String(i).padStart(4, '0')}`);
    await writeRun(path.join(work, 'human'), human.map((taskId) => ({ taskId, record: record(taskId, [S, S, S]) })), human.map((id) => task(id, 'site-00', true)));
    await fs.writeFile(path.join(work, 'human', 'results.jsonl'), human.map((id) => `${JSON.stringify({ task_id: id, ok: true })}\n`).join(''));
  });

  async function triesRows(out: string, pick: 'shortest' | 'first' | 'all', minPrecision?: number) {
    const result = await runRows({ run: path.join(work, 'run'), out: path.join(work, out), tasks: path.join(work, 'tasks.jsonl'), pick, ...(minPrecision !== undefined ? { minPrecision } : {}) });
    const provenance = (await fs.readFile(path.join(work, `${out}_provenance.jsonl`), 'utf8')).split('\n').filter(Boolean).map((l) => ProvenanceSchema.parse(JSON.parse(l)));
    return { result, provenance, labels: result.labels };
  }

  it.each(['shortest', 'first'] as const)('--pick %s takes the try its verifier passed, labelled verifier, over a judged success its verifier failed', async (pick) => {
    const { result, provenance, labels } = await triesRows(`rows-${pick}`, pick);
    expect(result.picked).toContain(ids.verified);
    expect(result.tries.get(ids.verified)).toBe(2);
    expect(provenance.find((p) => p.task_id === ids.verified)).toMatchObject({ label_source: 'verifier', try: 2 });
    expect(labels.left_out.map((l) => l.task_id)).not.toContain(ids.verified);
    expect(labels.disagreements).toEqual([]);
    // Its rows are try 2's: 3 steps.
    expect((await fs.readFile(path.join(work, `rows-${pick}`, ids.verified, 'rows.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(3);
  });

  it('--pick all keeps both tries: try 1 left out by its own verifier, try 2 selected by its own', async () => {
    const { result, labels } = await triesRows('rows-all-tries', 'all');
    expect(result.picked).toContain(`_tries/2/${ids.verified}`);
    expect(result.picked).not.toContain(ids.verified);
    expect(labels.disagreements.map((d) => d.task_id)).toEqual([ids.verified]);
  });

  it('a precision target decides a try-2 judge-only candidate on try 2\'s own judge records', async () => {
    const { result, provenance, labels } = await triesRows('rows-target', 'shortest', 0.9);
    expect(labels.judge).toBe('votes-3 2/3');
    // votes: try 1 said NOT SUCCESS 3 times, try 2 SUCCESS 2 of 3: accepted on try 2's votes.
    expect(result.picked).toContain(ids.votes);
    expect(provenance.find((p) => p.task_id === ids.votes)).toMatchObject({ label_source: 'judge', try: 2 });
    // single: try 1 had 3 SUCCESS votes, but the shorter try 2 picked has a single verdict: not this configuration's.
    expect(labels.left_out).toContainEqual(expect.objectContaining({ task_id: ids.single, reason: 'left out: below the precision target' }));
    // The configuration's count is of the candidates' own tries: votes only.
    expect(labels.configs.find((c) => c.name === 'votes-3 2/3')).toMatchObject({ episodes: 1, rows: 2 });
  });
});
