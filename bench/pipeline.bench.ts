/**
 * The whole pipeline offline: the sandbox, the stand-in proposer, agent and judge, real Chromium; by default one site
 * of each template, 16 proposed and 3 human tasks per site (about 10 minutes on 2 cores). Prints per stage its wall
 * time and throughput (episodes/min, steps/min), and as a baseline measured in the same run the attempt step called
 * directly on a sample of the same tasks, so the pipeline's attempt stage reads as a ratio of it.
 * Sizes: BENCH_SITES, BENCH_PER_SITE, BENCH_HUMAN, BENCH_CONCURRENCY, BENCH_BASELINE (tasks).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import {
  oraclePolicy, sandboxEvidence, sandboxJudge, sandboxProposer, sandboxSource, startSandbox, type SandboxTask,
} from '../sandbox/index';
import { runAttempt, browserHost, runPipeline, type PipelineResult, type Task } from '../src/index';

const SITES = Number(process.env.BENCH_SITES ?? 8);
const PER_SITE = Number(process.env.BENCH_PER_SITE ?? 16);
const HUMAN = Number(process.env.BENCH_HUMAN ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const BASELINE = Number(process.env.BENCH_BASELINE ?? 16);

const sandbox = await startSandbox({ port: 0 });
const host = browserHost();
const tmp = await mkdtemp(path.join(tmpdir(), 'pipeline-bench-'));
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
process.stdout.write(`load average ${load()} on ${availableParallelism()} cores; ${SITES} sites x ${PER_SITE} proposed + ${HUMAN} human tasks, concurrency ${CONCURRENCY}\n`);
try {
  const train = sandbox.catalog.split().train;
  const templates = sandbox.catalog.templateList().map((t) => t.id);
  const sites = Array.from({ length: SITES }, (_, i) => train.filter((s) => s.startsWith(`${templates[i % templates.length]}-`))[Math.floor(i / templates.length)]!);
  const human = sites.flatMap((site) => (sandbox.catalog.tasks(site)?.human ?? []).slice(0, HUMAN)) as SandboxTask[];
  const policy = oraclePolicy({ tasks: human, failureRate: 0.3, seed: 17 });
  const evidence = sandboxEvidence({ url: sandbox.url });
  const common = { source: sandboxSource({ url: sandbox.url }), evidence, browser: host, concurrency: CONCURRENCY, actionTimeoutMs: 20_000 };

  // Baseline: the attempt step alone on the first tasks of the bank, the same policy, browser and concurrency.
  const sample: Task[] = sites.flatMap((site) => sandbox.catalog.tasks(site)!.bank.slice(0, Math.ceil(BASELINE / sites.length))).slice(0, BASELINE);
  const base = await runAttempt({ tasks: sample, ...common, policy, out: path.join(tmp, 'baseline') });
  const basePerMin = base.recorded / (base.ms / 60_000);
  process.stdout.write(`baseline: attempt() alone, ${base.recorded} episodes, ${base.steps} steps in ${(base.ms / 1000).toFixed(1)} s: ` +
    `${basePerMin.toFixed(1)} episodes/min, ${(base.steps / (base.ms / 60_000)).toFixed(1)} steps/min\n`);

  const summary: PipelineResult = await runPipeline({
    ...common,
    dir: path.join(tmp, 'work'),
    sites,
    proposer: sandboxProposer(),
    judge: ({ run }) => sandboxJudge({ runDir: run, noise: 0.1, seed: 17 }),
    policy,
    humanTasks: human,
    perSite: PER_SITE,
  });
  const { propose, attempt: att, judge, validate, rows, report } = summary.stages;
  const perMin = (n: number, ms: number) => (n / (ms / 60_000)).toFixed(1);
  const line = (stage: string, ms: number, what: string) => process.stdout.write(`${stage.padEnd(18)} ${(ms / 1000).toFixed(1).padStart(7)} s  ${what}\n`);
  line('propose', propose!.ms, `${propose!.tasks} tasks, ${perMin(propose!.tasks, propose!.ms)} tasks/min (stand-in proposer: the site contexts' crawl)`);
  line('attempt', att!.ms, `${att!.ran} episodes, ${att!.ranSteps} steps: ${perMin(att!.ran, att!.ms)} episodes/min, ${perMin(att!.ranSteps, att!.ms)} steps/min ` +
    `(${(att!.ran / (att!.ms / 60_000) / basePerMin).toFixed(2)}x the baseline's episodes/min)`);
  line('judge', judge!.ms, `${judge!.judged} episodes: ${perMin(judge!.judged, judge!.ms)} episodes/min (stand-in judge: reading the evidence and screenshots)`);
  line('validate: attempt', validate!.attempt.ms, `${validate!.attempt.ran} episodes, ${validate!.attempt.ranSteps} steps: ${perMin(validate!.attempt.ran, validate!.attempt.ms)} episodes/min, ${perMin(validate!.attempt.ranSteps, validate!.attempt.ms)} steps/min`);
  line('validate: judge', validate!.judge.ms, `${validate!.judge.judged} episodes: ${perMin(validate!.judge.judged, validate!.judge.ms)} episodes/min`);
  line('rows', rows!.ms, `${rows!.report.selected_trajectories} trajectories, ${rows!.report.selected_rows} steps copied: ${perMin(rows!.report.selected_rows, rows!.ms)} steps/min`);
  const episodes = (await readFile(path.join(summary.layout.run, 'tasks.jsonl'), 'utf8')).split('\n').filter(Boolean).length + human.length;
  line('report', report!.ms, `${episodes} episodes in 2 reports: ${perMin(episodes, report!.ms)} episodes/min`);
  const stages = Object.values(summary.stages).reduce((ms, s) => ms + s.ms, 0);
  line('total', summary.ms, `(stages ${(stages / 1000).toFixed(1)} s; the rest is planning and closing the browser) load average ${load()}`);
} finally {
  await host.close();
  await sandbox.close();
  await rm(tmp, { recursive: true, force: true });
}
