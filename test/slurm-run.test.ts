/**
 * `taskgen slurm` on a real single-node Slurm started inside the test (test/helpers/slurm.ts): the sandbox
 * pipeline with stand-in models as propose → a 3-task attempt array (each task with its own sandbox server and
 * Chromium) → judge and validate → rows and report, chained with afterok, ends with the same rows report, judge
 * records and verifier results as a one-process `taskgen pipeline` of the same tasks.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellQuote } from '../src/shards/slurm/plan';
import { finish, spawnScript, type Finished } from './helpers/cli';
import { tempDir } from './helpers/runs';
import { slurmUnavailable, startSlurm, type SlurmCluster } from './helpers/slurm';

const exec = promisify(execFile);
const unavailable = slurmUnavailable();
if (unavailable) console.warn(`SKIPPED test/slurm-run.test.ts: ${unavailable}`);

const SHARDS = 3;
// 1 site x 3 proposed tasks (one per array task) and 2 human tasks for validate
const SANDBOX = ['--sandbox', '--sandbox-sites', '1', '--per-site', '3', '--human-per-site', '2', '--concurrency', '1', '--action-timeout', '20'];

let cluster: SlurmCluster | undefined;
let tmp: string;

beforeAll(async () => {
  if (unavailable) return;
  tmp = await tempDir('slurm-run-');
  cluster = await startSlurm(path.join(tmp, 'slurm'));
});
afterAll(async () => {
  await cluster?.stop();
});

const cli = (args: readonly string[], env?: NodeJS.ProcessEnv): Promise<Finished> =>
  finish(spawnScript('src/cli.ts', args, { env: { QWEN_ENDPOINT: undefined, GEMINI_API_KEY: undefined, ...env } }));

// Every job's final state from the controller (kept MinJobAge after the end; no accounting database needed).
async function jobStates(ids: readonly string[]): Promise<string[]> {
  const states: string[] = [];
  for (const id of ids) {
    const { stdout } = await exec('scontrol', ['-o', 'show', 'job', id], { env: cluster!.env });
    for (const line of stdout.trim().split('\n')) states.push(`${/JobId=(\S+)/.exec(line)?.[1]}${/ArrayTaskId=(\S+)/.exec(line) ? `_${/ArrayTaskId=(\S+)/.exec(line)![1]}` : ''} ${/JobState=(\S+)/.exec(line)?.[1]}`);
  }
  return states;
}

async function waitForJobs(ids: readonly string[]): Promise<string[]> {
  for (;;) {
    const states = await jobStates(ids);
    const pending = states.filter((s) => /PENDING|RUNNING|CONFIGURING|COMPLETING/.test(s));
    // a job held forever by a failed dependency would never end: give up on it
    if (pending.length === 0 || states.some((s) => /FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY/.test(s))) return states;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function logsOf(dir: string): Promise<string> {
  const logs = path.join(dir, 'slurm', 'logs');
  if (!existsSync(logs)) return '(no job logs)';
  const parts = await Promise.all((await readdir(logs)).sort().map(async (f) => `== ${f}\n${(await readFile(path.join(logs, f), 'utf8')).slice(-3000)}`));
  return parts.join('\n');
}

// Every text file of the run (episodes, judge records, rows, reports), leaving out the job scripts and logs.
async function recordedFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /\.(json|jsonl|html)$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    // _setup/ names the endpoints a stage was set up with, on purpose (the set-up record); the data never does
    .filter((f) => !path.relative(dir, f).startsWith('slurm') && !f.split(path.sep).includes('_setup'));
}

// What the comparison reads: the rows report apart from its path, every judge record, the verifier results.
async function outputsOf(dir: string) {
  const { run, ...report } = JSON.parse(await readFile(path.join(dir, 'rows', '_report.json'), 'utf8')) as { run: string };
  expect(run).toBe(path.join(dir, 'run'));
  const records = async (judgeDir: string) => {
    const files = (await readdir(path.join(dir, judgeDir))).filter((f) => f.endsWith('.json') && !f.startsWith('_')).sort();
    return Object.fromEntries(await Promise.all(files.map(async (f) => [f, await readFile(path.join(dir, judgeDir, f), 'utf8')] as const)));
  };
  const lines = async (file: string) => (await readFile(path.join(dir, file), 'utf8')).trim().split('\n').sort();
  return {
    report,
    runJudge: await records('run_judge'),
    humanJudge: await records('human_judge'),
    results: await lines('human/results.jsonl'),
    tasks: await lines('tasks.jsonl'),
    rows: (await readdir(path.join(dir, 'rows'))).sort(),
  };
}

describe.skipIf(unavailable !== null)('taskgen slurm on a private single-node Slurm', () => {
  it('runs the sandbox pipeline as a 3-task attempt array and ends as a one-process run does', async () => {
    const sharded = path.join(tmp, 'sharded run'); // a space: the scripts quote it for bash and for sbatch
    const whole = path.join(tmp, 'whole');
    const [submitted, one] = await Promise.all([
      cli(['slurm', '--sandbox', '--shards', String(SHARDS), '--out', sharded, '--', ...SANDBOX.slice(1)], cluster!.env),
      cli(['pipeline', '--out', whole, '--no-progress', ...SANDBOX]),
    ]);
    expect(one.code, one.stderr).toBe(0);
    expect(submitted.code, submitted.stderr).toBe(0);
    const ids = [...submitted.stdout.matchAll(/^ {2}(propose|attempt|judge|rows) +job (\d+)/gm)].map((m) => m[2]!);
    expect(ids, submitted.stdout).toHaveLength(4);
    const status = `taskgen status ${shellQuote(path.join(sharded, 'run'))} --shards ${SHARDS}`;
    expect(submitted.stdout).toContain(status);
    expect(submitted.stdout).toContain("NOTE: --sandbox: the jobs use the sandbox's offline stand-ins");
    expect(submitted.stdout).toContain(`sbatch --array=3,7 ${shellQuote(path.join(sharded, 'slurm', 'attempt.sbatch'))}`);

    const states = await waitForJobs(ids);
    const logs = await logsOf(sharded);
    expect(states.every((s) => s.endsWith(' COMPLETED')), `${states.join('\n')}\n${logs}\n${await cluster!.logs()}`).toBe(true);
    // propose, three array tasks, judge, rows
    expect(states, logs).toHaveLength(6);

    // each array task attempted its own shard: one of the three tasks, with a sandbox server of its own
    const attemptLogs = (await readdir(path.join(sharded, 'slurm', 'logs'))).filter((f) => f.startsWith('attempt-')).sort();
    expect(attemptLogs).toHaveLength(SHARDS);
    const ports = new Set<string>();
    for (const [k, file] of attemptLogs.entries()) {
      const text = await readFile(path.join(sharded, 'slurm', 'logs', file), 'utf8');
      expect(file).toMatch(new RegExp(`^attempt-${ids[1]}_${k}\\.out$`));
      expect(text, text).toMatch(/\(1 run now\)/);
      ports.add(/on the bundled sandbox at (\S+)/.exec(text)?.[1] ?? '?');
    }
    expect(ports.size).toBe(SHARDS);
    // nothing recorded names the server an episode ran on, so where a shard ran cannot change the data
    for (const url of ports) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const recorded = await recordedFiles(sharded);
    expect(recorded.length).toBeGreaterThan(10);
    for (const file of recorded) {
      const text = await readFile(file, 'utf8');
      for (const url of ports) expect(text.includes(url), `${file} names ${url}`).toBe(false);
    }

    // the status command the output names sees every shard done
    const watched = await cli(['status', path.join(sharded, 'run'), '--shards', String(SHARDS)]);
    expect(watched.code, watched.stderr).toBe(0);
    expect(watched.stdout).toContain(`3 of 3 episodes done`);
    expect(watched.stdout).toContain('all done');

    const a = await outputsOf(whole);
    const b = await outputsOf(sharded);
    expect(Object.keys(b.runJudge)).toHaveLength(3);
    expect(Object.keys(b.humanJudge)).toHaveLength(2);
    expect(b).toEqual(a);

    // rerunning an index as the output says (sbatch --array=1 attempt.sbatch) attempts shard 1 of 3 again, not the
    // whole run (that array's SLURM_ARRAY_TASK_COUNT is 1), finds its episode done, and changes nothing
    const script = path.join(sharded, 'slurm', 'attempt.sbatch');
    const rerun = (await exec('sbatch', ['--parsable', '--array=1', script], { env: cluster!.env })).stdout.trim().split(';')[0]!;
    const rerunStates = await waitForJobs([rerun]);
    const rerunLog = await readFile(path.join(sharded, 'slurm', 'logs', `attempt-${rerun}_1.out`), 'utf8');
    expect(rerunStates, rerunLog).toEqual([`${rerun}_1 COMPLETED`]);
    expect(rerunLog).toContain('shard 1/3');
    expect(rerunLog).toMatch(/\(0 run now\)/);
    expect(await outputsOf(sharded)).toEqual(a);
  });
});
