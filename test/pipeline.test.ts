/**
 * The whole pipeline through the library on the sandbox, in real Chromium, with the stand-in models: every output
 * of the layout, figures that agree with the files, a rerun that redoes nothing, skipped stages, metered models,
 * and a config that cannot run failing before anything starts.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  oraclePolicy, sandboxEvidence, sandboxJudge, sandboxProposer, sandboxRelabeler, sandboxVerifierWriter, sandboxSource, startSandbox, type SandboxServer, type SandboxTask,
} from '../sandbox/index';
import { InputError, PipelineConfigError, UnsafeNameError, browserHost, fakeLLM, memorySource, runPipeline, type BrowserHost, type PipelineOptions, type PipelineEvent, type PipelineResult } from '../src/index';
import { PIPELINE_STAGES } from '../src/pipeline';
import { interleaveBySite } from '../src/rows';

let sandbox: SandboxServer;
let host: BrowserHost;
let tmp: string;
let config: PipelineOptions;
let human: SandboxTask[];
let first: PipelineResult;
const events: PipelineEvent[] = [];

const SITES = ['shop-01', 'mail-02'];
const lines = async (file: string) => (await readFile(file, 'utf8')).split('\n').filter((l) => l.trim());
const json = async (file: string) => JSON.parse(await readFile(file, 'utf8'));

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  host = browserHost();
  tmp = await mkdtemp(path.join(tmpdir(), 'pipeline-'));
  // an information task and an action task of each site
  human = SITES.flatMap((site) => {
    const all = sandbox.catalog.tasks(site)!.human;
    return [all.find((t) => t.task_kind === 'info')!, all.find((t) => t.task_kind === 'action')!];
  });
  config = {
    dir: path.join(tmp, 'work'),
    source: sandboxSource({ url: sandbox.url }),
    evidence: sandboxEvidence({ url: sandbox.url }),
    sites: SITES,
    proposer: sandboxProposer(),
    judge: ({ run }) => sandboxJudge({ runDir: run, noise: 0.2, seed: 17 }),
    verifierWriter: sandboxVerifierWriter({ errorRate: 0.1, seed: 17 }),
    relabeler: sandboxRelabeler({ errorRate: 0.1, seed: 17 }),
    relabelJudge: sandboxJudge({ noise: 0.2, seed: 17 }),
    policy: oraclePolicy({ tasks: human, failureRate: 0.3, seed: 17 }),
    humanTasks: human,
    perSite: 3,
    concurrency: 2,
    actionTimeoutMs: 20_000, // a loaded machine must not turn a slow click into a failed episode
    browser: host,
  };
  first = await runPipeline({ ...config, onEvent: (e) => events.push(e) });
});
afterAll(async () => {
  await host?.close();
  await sandbox?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('pipeline on the sandbox', () => {
  it('runs every stage in order and leaves every output of the layout', async () => {
    expect(events.filter((e) => e.type === 'stage-start').map((e) => (e as { stage: string }).stage)).toEqual([...PIPELINE_STAGES]);
    expect(first.complete, JSON.stringify(first.incomplete)).toBe(true);
    const l = first.layout;
    expect(l).toMatchObject({ tasks: `${config.dir}/tasks.jsonl`, runJudge: `${config.dir}/run_judge`, validate: `${config.dir}/human_judge/_validate.json` });
    for (const file of [l.tasks, l.run, l.runJudge, `${l.human}/results.jsonl`, l.validate, l.rowsReport, l.runReport, l.humanReport]) {
      expect(existsSync(file), file).toBe(true);
    }
    expect(first.stages.report).toMatchObject({ run: l.runReport, human: l.humanReport });
    expect(await readFile(l.humanReport, 'utf8')).toContain('_validate.json');
  });

  it('gives figures that agree with the files', async () => {
    const { propose, attempt, judge, validate, rows } = first.stages;
    const l = first.layout;
    const tasks = (await lines(l.tasks)).map((t) => JSON.parse(t) as { task_id: string; site: string });
    expect(propose).toMatchObject({ sites: 2, resumedSites: 0, proposed: 6, tasks: 6, emptySites: [] });
    expect(attempt).toMatchObject({ tasks: 6, episodes: 6, ran: 6, failed: 0, verified: null });
    expect(attempt!.steps).toBe(attempt!.ranSteps);

    // judged successes: the records say so
    const records = await Promise.all(tasks.map((t) => json(path.join(l.runJudge, `${t.task_id}.json`))));
    const successes = records.filter((r) => r.predicted_label === 1).map((r) => r.task_id as string);
    expect(judge).toMatchObject({ episodes: 6, judged: 6, success: successes.length, noVerdict: 0, errors: 0, model: 'stand-in-judge' });
    expect(successes.length).toBeGreaterThan(0);
    expect(successes.length).toBeLessThan(6); // the stand-ins fail and flip some on purpose

    // rows: the judged successes in the seed's order (all of them: far within the budget), copied as they are, and
    // the accepted relabels (the stand-in agent's failures do other tasks of the site) after them in the round robin
    const relabeled = existsSync(`${l.run}_relabel/tasks.jsonl`) ? (await lines(`${l.run}_relabel/tasks.jsonl`)).map((t) => (JSON.parse(t) as { task_id: string }).task_id) : [];
    const expected = interleaveBySite(tasks).map((t) => t.task_id).filter((id) => successes.includes(id));
    expect(rows!.picked.filter((id) => !relabeled.includes(id))).toEqual(expected);
    expect(rows!.relabeled.picked).toBe(relabeled.length);
    expect((await readdir(l.rows)).sort()).toEqual([...rows!.picked, '_report.json'].sort());
    let steps = 0;
    for (const id of expected) {
      const text = await readFile(path.join(l.rows, id, 'rows.jsonl'), 'utf8');
      expect(text).toBe(await readFile(path.join(l.run, id, 'rows', 'rows.jsonl'), 'utf8'));
      steps += text.split('\n').filter((x) => x.trim()).length;
    }
    const all = steps + rows!.relabeled.rows;
    expect(rows!.report).toEqual({ run: l.run, candidates: successes.length + relabeled.length, selected_trajectories: rows!.picked.length, selected_rows: all, budget: 27644, short_by: 27644 - all, sites: 2 });
    expect(await json(l.rowsReport)).toEqual(rows!.report);

    // validate: one episode per human task, scored against results.jsonl
    const results = (await lines(`${l.human}/results.jsonl`)).map((r) => JSON.parse(r));
    expect(results.map((r) => r.task_id)).toEqual(human.map((t) => t.task_id));
    expect(validate).toMatchObject({ humanTasks: 4, attempt: { tasks: 4, episodes: 4, failed: 0 }, judge: { episodes: 4 } });
    expect(validate!.attempt.verified).toMatchObject({ total: 4, passed: results.filter((r) => r.ok).length });
    expect(validate!.score!.episodes).toBe(4);
    expect(validate!.score!.verifier_pass).toBe(results.filter((r) => r.ok).length);
    expect((await json(l.validate)).overall).toMatchObject({ episodes: 4, tp: validate!.score!.tp, fp: validate!.score!.fp });
    expect(Object.keys(validate!.byKind!).sort()).toEqual(['action', 'info']);

    // every model call counted under its stage
    expect(first.usage.steps.propose!.calls).toBeGreaterThanOrEqual(2);
    expect(first.usage.steps.judge!.calls).toBe(6);
    expect(first.usage.steps['validate:judge']!.calls).toBe(4);
    expect(judge!.usage.calls).toBe(6);
    expect(first.usage.total).toMatchObject({ cost: 0, priced: true });
  });

  it('the rows page counts the relabeled episodes: its charts add up to its totals and to _report.json', async () => {
    const l = first.layout;
    const report = first.stages.rows!.report;
    const relabels = (await lines(`${l.run}_relabel/tasks.jsonl`)).length;
    expect(first.stages.rows!.relabeled.picked).toBeGreaterThan(0); // the stand-in agent's failures gave relabels
    const html = await readFile(path.join(path.dirname(l.runReport), 'rows.html'), 'utf8');
    // each bar's hover: `<site>: <series> <n> <unit> (<share>)`
    const bars = (figure: string) => {
      const part = html.slice(html.indexOf(`id="${figure}"`), html.indexOf('</figure>', html.indexOf(`id="${figure}"`)));
      return [...part.matchAll(/<title>[^<:]+: ([^<]+?) ([\d,]+) (?:steps|episodes)(?: \([\d.]+%\))?<\/title>/g)].map((m) => ({ series: m[1]!, n: Number(m[2]!.replace(/,/g, '')) }));
    };
    const sum = (xs: Array<{ n: number }>) => xs.reduce((a, x) => a + x.n, 0);
    // steps: the total bar and the bars per site both hold every selected row, the relabeled ones in their own series
    expect(sum(bars('fig-rows-budget'))).toBe(report.selected_rows);
    expect(sum(bars('fig-rows-sites'))).toBe(report.selected_rows);
    expect(sum(bars('fig-rows-sites').filter((b) => b.series === 'relabeled steps'))).toBe(first.stages.rows!.relabeled.rows);
    expect(html).toContain(`${report.selected_rows} steps of ${report.selected_trajectories} episodes selected`);
    // episodes: selected and relabeled-selected add up to the selected trajectories, and every fate to the run's
    // episodes and the accepted relabels; the table's totals are the chart's
    const fates = bars('fig-left-out');
    expect(sum(fates.filter((b) => b.series === 'selected' || b.series === 'relabeled, selected'))).toBe(report.selected_trajectories);
    expect(sum(fates.filter((b) => b.series === 'relabeled, selected'))).toBe(first.stages.rows!.relabeled.picked);
    expect(sum(fates)).toBe(first.stages.attempt!.episodes + relabels);
    const table = Object.fromEntries([...html.matchAll(/<tr data-fate="[^"]+"><th scope="row">([^<]+)<\/th><td class="num">([\d,]+)<\/td>/g)].map((m) => [m[1]!, Number(m[2]!.replace(/,/g, ''))]));
    for (const [series, n] of Object.entries(table)) expect(sum(fates.filter((b) => b.series === series)), series).toBe(n);
    expect(table['relabeled, selected']).toBe(first.stages.rows!.relabeled.picked);
  });

  it('started again with the same config, redoes nothing and ends the same', async () => {
    const again = await runPipeline(config);
    expect(again.stages.propose).toMatchObject({ proposed: 0, resumedSites: 2, tasks: 6 });
    expect(again.stages.attempt).toMatchObject({ ran: 0, episodes: 6, steps: first.stages.attempt!.steps });
    expect(again.stages.judge).toMatchObject({ judged: 0, episodes: 6, success: first.stages.judge!.success });
    expect(again.stages.validate).toMatchObject({ attempt: { ran: 0 }, judge: { judged: 0 }, score: first.stages.validate!.score });
    expect(again.stages.relabel!.summary).toMatchObject({ relabeled: 0, accepted: first.stages.relabel!.summary.accepted });
    expect(again.stages.rows).toMatchObject({ picked: first.stages.rows!.picked, report: first.stages.rows!.report, pruned: 0 });
    expect(again.usage.steps.judge).toBeUndefined(); // no model call at all
  });

  it('runs only the stages asked for, needing only their adapters; the rows dir then holds just the new selection', async () => {
    const { dir, source } = config;
    const summary = await runPipeline({ dir, source, only: ['rows'], budget: 4 });
    expect(summary.skipped.map((s) => s.stage)).toEqual(['propose', 'attempt', 'judge', 'verifiers', 'validate', 'relabel', 'report']);
    const picked = summary.stages.rows!.picked;
    expect(picked).toEqual(first.stages.rows!.picked.slice(0, picked.length));
    expect(summary.stages.rows!.report.selected_rows).toBeGreaterThanOrEqual(4);
    expect(summary.stages.rows!.pruned).toBe(first.stages.rows!.picked.length - picked.length);
    expect((await readdir(summary.layout.rows)).sort()).toEqual([...picked, '_report.json'].sort());
  });

  it('meters the agent and the judge given as models, under their stages', async () => {
    const dir = path.join(tmp, 'metered');
    const tasks = (await lines(first.layout.tasks)).slice(0, 2);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'tasks.jsonl'), `${tasks.join('\n')}\n`);
    const usage = { inputTokens: 1000, outputTokens: 10 };
    const agent = fakeLLM({ modelId: 'Qwen/Qwen3.5-4B', replies: [{ text: '{"done": {"answer": "42"}}', usage }] });
    const judge = fakeLLM({ modelId: 'judge-model', replies: [{ text: '{"verdict": "NOT SUCCESS"}', usage }] });
    const summary = await runPipeline({ ...config, dir, agent, policy: undefined, judge, only: ['attempt', 'judge'] });
    expect(agent.calls).toHaveLength(2);
    expect(agent.calls[0]!.prompt).toContain('TASK: ');
    expect(summary.stages.attempt).toMatchObject({ episodes: 2, steps: 2, usage: { calls: 2, inputTokens: 2000, outputTokens: 20 } });
    expect(summary.stages.judge).toMatchObject({ episodes: 2, success: 0, usage: { calls: 2, inputTokens: 2000 } });
    expect(summary.usage.lines.map((u) => [u.step, u.provider, u.model])).toEqual([['attempt', 'fake', 'Qwen/Qwen3.5-4B'], ['judge', 'fake', 'judge-model']]);
  });
});

describe('pipeline config', () => {
  const base = (dir: string): PipelineOptions => ({
    dir,
    source: { ...memorySource({ sitemaps: { a: '{"pages": [{"path": "/a/"}], "controls": []}' } }), baseUrl: 'http://127.0.0.1:9' },
    proposer: fakeLLM({ replies: ['{"tasks": []}'] }),
    judge: fakeLLM({ replies: ['{"verdict": "SUCCESS"}'] }),
    policy: oraclePolicy(),
    humanTasks: [],
  });

  it('refuses what cannot run before anything starts, saying what is missing', async () => {
    const dir = path.join(tmp, 'bad');
    await expect(runPipeline({ ...base(dir), sites: ['a', '../etc'] })).rejects.toThrow(UnsafeNameError);
    await expect(runPipeline({ ...base(dir), proposer: undefined })).rejects.toThrow(/the propose stage needs a proposer model \(option proposer\)/);
    await expect(runPipeline({ ...base(dir), judge: undefined, only: ['judge'] })).rejects.toThrow(PipelineConfigError);
    await expect(runPipeline({ ...base(dir), policy: undefined, skip: ['propose'] })).rejects.toThrow(/attempt stage needs an agent/);
    await expect(runPipeline({ ...base(dir), skip: ['bogus' as never] })).rejects.toThrow(/unknown stage "bogus" in skip: the stages are propose, attempt/);
    await expect(runPipeline({ ...base(dir), humanTasks: undefined })).rejects.toThrow(/validate stage needs human tasks/);
    await expect(runPipeline(base(dir))).rejects.toThrow(/no human task of the 1 training sites/);
    const file = path.join(tmp, 'human.jsonl');
    await writeFile(file, '{"kind": "human", "task_id": "t1", "site": "a", "instruction": "x", "start_path": "/a/"}\n{"task_id": "t2"}\n');
    await expect(runPipeline({ ...base(dir), humanTasks: file })).rejects.toThrow(InputError);
    await expect(runPipeline({ ...base(dir), humanTasks: file })).rejects.toThrow(`${file}:2: kind`);
    expect(existsSync(dir)).toBe(false);
  });

  it('says which file a skipped stage should have left', async () => {
    const dir = path.join(tmp, 'empty');
    await expect(runPipeline({ ...base(dir), only: ['attempt'] })).rejects.toThrow(`the attempt stage needs ${dir}/tasks.jsonl: run the propose stage, or put your tasks there`);
  });
});
