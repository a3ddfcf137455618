/**
 * The sbatch scripts of a Slurm run: the afterok chain (submitted through a stand-in sbatch that records its
 * arguments), the array size, gres, and quoting (each script run by a real bash with a stub taskgen that prints
 * the arguments it got).
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile, chmod } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { slurmPlan, submitSlurm, SlurmSubmitError, type SlurmPlan } from '../src/index';
import { runCli } from './helpers/cli';
import { tempDir } from './helpers/runs';

const exec = promisify(execFile);
let tmp: string;
let stub: string;

beforeAll(async () => {
  tmp = await tempDir('slurm-plan-');
  stub = path.join(tmp, 'stub-taskgen.mjs');
  await writeFile(stub, 'console.log(JSON.stringify(process.argv.slice(2)));\n');
});

const script = (plan: SlurmPlan, stage: string) => plan.scripts.find((s) => s.stage === stage)!;
const sbatchLines = (text: string) => text.split('\n').filter((l) => l.startsWith('#SBATCH '));

// Runs a script's body with bash as Slurm would (the #SBATCH lines are comments to bash), returning the argv taskgen got.
async function argvOf(plan: SlurmPlan, stage: string, env: Record<string, string> = {}): Promise<string[]> {
  const file = path.join(tmp, `${stage}-${Math.random().toString(36).slice(2)}.sbatch`);
  await writeFile(file, script(plan, stage).text);
  const { stdout } = await exec('bash', [file], { env: { ...process.env, ...env } });
  return JSON.parse(stdout) as string[];
}

describe('slurmPlan', () => {
  it('writes four jobs, each after the one before, the attempt job an array of one task per shard', () => {
    const plan = slurmPlan({ dir: 'work', cwd: '/shared/proj', shards: 5 });
    expect(plan.dir).toBe('/shared/proj/work');
    expect(plan.scripts.map((s) => [s.stage, s.after ?? null])).toEqual([
      ['propose', null],
      ['attempt', 'propose'],
      ['judge', 'attempt'],
      ['rows', 'judge'],
    ]);
    expect(sbatchLines(script(plan, 'attempt').text)).toContain('#SBATCH --array=0-4');
    for (const stage of ['propose', 'judge', 'rows']) expect(script(plan, stage).text).not.toContain('--array');
    expect(slurmPlan({ dir: 'w', shards: 1 }).scripts[1]!.text).toContain('#SBATCH --array=0-0');
    expect(sbatchLines(script(slurmPlan({ dir: 'w', shards: 8, array: '3,7' }), 'attempt').text)).toContain('#SBATCH --array=3,7');
  });

  it('asks for GPUs only where the agent runs: the attempt array and the validate job', () => {
    const plan = slurmPlan({ dir: 'w', shards: 2, agent: { kind: 'serve-qwen', gpus: 2 }, partition: 'gpu', account: 'lab', time: '04:00:00', cpusPerTask: 12, extra: ['--qos=high', '#SBATCH --mem=64G'] });
    for (const stage of ['attempt', 'judge']) expect(sbatchLines(script(plan, stage).text)).toContain('#SBATCH --gres=gpu:2');
    for (const stage of ['propose', 'rows']) expect(script(plan, stage).text).not.toContain('--gres');
    for (const s of plan.scripts) {
      expect(sbatchLines(s.text)).toEqual(expect.arrayContaining(['#SBATCH --partition=gpu', '#SBATCH --account=lab', '#SBATCH --time=04:00:00', '#SBATCH --cpus-per-task=12', '#SBATCH --qos=high', '#SBATCH --mem=64G']));
    }
    const shared = slurmPlan({ dir: 'w', shards: 2, agent: { kind: 'endpoint', url: 'http://gpu-node:8000/v1' } });
    expect(shared.scripts.some((s) => s.text.includes('--gres'))).toBe(false);
  });

  it('quotes paths and arguments so bash hands taskgen exactly what was given, with the shard of the array task', async () => {
    const odd = ["it's", 'two words', '$HOME', '`date`', 'a"b', 'line\nbreak', '*', ''];
    const dir = path.join(tmp, "work dir's");
    const plan = slurmPlan({ dir, shards: 3, taskgen: `node ${stub}`, pipelineArgs: ['--sites', odd.join(',')], agent: { kind: 'endpoint', url: 'http://h:8000/v1?a=1&b=2' } });
    const attempt = await argvOf(plan, 'attempt', { SLURM_ARRAY_TASK_ID: '2' });
    expect(attempt).toEqual(['pipeline', '--sites', odd.join(','), '--out', dir, '--no-progress', '--only', 'attempt', '--agent-endpoint', 'http://h:8000/v1?a=1&b=2', '--shard', '2/3']);
    expect(await argvOf(plan, 'judge')).toEqual(['pipeline', '--sites', odd.join(','), '--out', dir, '--no-progress', '--only', 'judge,verifiers,validate,relabel', '--agent-endpoint', 'http://h:8000/v1?a=1&b=2']);
    expect(await argvOf(plan, 'rows')).toEqual(['pipeline', '--sites', odd.join(','), '--out', dir, '--no-progress', '--only', 'rows,report']);
    // outside an array task the attempt script stops before taskgen starts
    await expect(argvOf(plan, 'attempt')).rejects.toThrow(/not an array task/);
    // sbatch reads #SBATCH values itself: a path with a space is double-quoted there
    expect(script(plan, 'attempt').text).toContain(`#SBATCH --output="${path.join(dir, 'slurm', 'logs', 'attempt-%A_%a.out')}"`);
  });

  it('refuses what it cannot write safely or would run wrongly', () => {
    expect(() => slurmPlan({ dir: 'w', shards: 0 })).toThrow(/shards/);
    expect(() => slurmPlan({ dir: 'w', shards: 2, array: '1;rm -rf /' })).toThrow(/--array list/);
    expect(() => slurmPlan({ dir: 'w', shards: 2, pipelineArgs: ['--out', 'x'] })).toThrow(/--out/);
    expect(() => slurmPlan({ dir: 'w', shards: 2, pipelineArgs: ['--shard=1/2'] })).toThrow(/--shard/);
    expect(() => slurmPlan({ dir: 'w', shards: 2, partition: 'a"b' })).toThrow(/partition/);
    expect(() => slurmPlan({ dir: 'w', shards: 2, extra: ['--qos=x\nrm -rf /'] })).toThrow(/line break/);
    expect(() => slurmPlan({ dir: 'w', shards: 2, jobName: '../x' })).toThrow();
    expect(() => slurmPlan({ dir: 'w', shards: 2, agent: { kind: 'serve-qwen', gpus: 0 } })).toThrow(/gpus/);
  });
});

describe('submitSlurm', () => {
  // A stand-in sbatch: records its arguments, answers `--parsable` style ids (101, 102, ...), fails on request.
  async function fakeSbatch(failOn?: string): Promise<{ program: string; calls: () => Promise<string[][]> }> {
    const dir = await tempDir('fake-sbatch-');
    const program = path.join(dir, 'sbatch');
    const log = path.join(dir, 'calls.jsonl');
    await writeFile(
      program,
      [
        `#!${process.execPath}`,
        "const fs = require('node:fs');",
        `const log = ${JSON.stringify(log)};`,
        'const args = process.argv.slice(2);',
        `if (${JSON.stringify(failOn ?? null)} && args.at(-1).endsWith(${JSON.stringify(failOn ?? '')})) { console.error('sbatch: error: Invalid partition name specified'); process.exit(1); }`,
        'fs.appendFileSync(log, JSON.stringify(args) + "\\n");',
        'const n = fs.readFileSync(log, "utf8").trim().split("\\n").length;',
        'console.log(`${100 + n};cluster`);',
      ].join('\n'),
    );
    await chmod(program, 0o755);
    return { program, calls: async () => (await readFile(log, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as string[]) };
  }

  it('submits the four jobs in order, each with --dependency=afterok on the one before, and writes the scripts', async () => {
    const sbatch = await fakeSbatch();
    const plan = slurmPlan({ dir: path.join(tmp, 'chain'), shards: 3 });
    const jobs = await submitSlurm(plan, { sbatch: sbatch.program });
    expect(jobs.map((j) => [j.stage, j.id, j.after ?? null])).toEqual([
      ['propose', '101', null],
      ['attempt', '102', '101'],
      ['judge', '103', '102'],
      ['rows', '104', '103'],
    ]);
    const calls = await sbatch.calls();
    expect(calls).toEqual([
      ['--parsable', script(plan, 'propose').file],
      ['--parsable', '--dependency=afterok:101', script(plan, 'attempt').file],
      ['--parsable', '--dependency=afterok:102', script(plan, 'judge').file],
      ['--parsable', '--dependency=afterok:103', script(plan, 'rows').file],
    ]);
    for (const s of plan.scripts) expect(await readFile(s.file, 'utf8')).toBe(s.text);
  });

  it('goes on from a later job after a given one (a rerun of dead array indexes)', async () => {
    const sbatch = await fakeSbatch();
    const plan = slurmPlan({ dir: path.join(tmp, 'from'), shards: 3 });
    const jobs = await submitSlurm(plan, { sbatch: sbatch.program, from: 'judge', after: '77' });
    expect(jobs.map((j) => [j.stage, j.after])).toEqual([['judge', '77'], ['rows', jobs[0]!.id]]);
    expect((await sbatch.calls())[0]).toEqual(['--parsable', '--dependency=afterok:77', script(plan, 'judge').file]);
  });

  it('says which sbatch failed and which jobs are already queued', async () => {
    const sbatch = await fakeSbatch('judge.sbatch');
    const plan = slurmPlan({ dir: path.join(tmp, 'fail'), shards: 2 });
    const error = await submitSlurm(plan, { sbatch: sbatch.program }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SlurmSubmitError);
    expect((error as Error).message).toMatch(/judge\.sbatch \(judge\) failed: sbatch: error: Invalid partition name.*already queued: propose 101, attempt 102/);
    expect((error as SlurmSubmitError).submitted.map((j) => j.stage)).toEqual(['propose', 'attempt']);
    const none = path.join(tmp, 'no-such-dir', 'sbatch');
    await expect(submitSlurm(plan, { sbatch: none })).rejects.toThrow(`propose.sbatch (propose) failed: no ${none} here: submit from a Slurm login node`);
  });
});

describe('taskgen slurm --dry-run', () => {
  it('writes the scripts with the flags given and submits nothing; refuses two agents', async () => {
    const out = path.join(tmp, 'dry run');
    const r = await runCli(['slurm', '--dry-run', '--shards', '4', '--out', out, '--serve-qwen', '--gpus', '2', '--partition', 'gpu', '--cpus-per-task', '13', '--sbatch-line=--qos=high', '--taskgen', `node ${stub}`, '--', '--sites', 'shop-01', '--budget', '100']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('not submitted (--dry-run)');
    const attempt = await readFile(path.join(out, 'slurm', 'attempt.sbatch'), 'utf8');
    expect(sbatchLines(attempt)).toEqual(expect.arrayContaining(['#SBATCH --array=0-3', '#SBATCH --gres=gpu:2', '#SBATCH --partition=gpu', '#SBATCH --cpus-per-task=13', '#SBATCH --qos=high']));
    const file = path.join(out, 'slurm', 'attempt.sbatch');
    const { stdout } = await exec('bash', [file], { env: { ...process.env, SLURM_ARRAY_TASK_ID: '1' } });
    expect(JSON.parse(stdout)).toEqual(['pipeline', '--sites', 'shop-01', '--budget', '100', '--out', out, '--no-progress', '--only', 'attempt', '--serve-qwen', '--gpus', '2', '--shard', '1/4']);
    const both = await runCli(['slurm', '--dry-run', '--shards', '2', '--out', out, '--serve-qwen', '--agent-endpoint', 'http://h:8000/v1']);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('give --serve-qwen or --agent-endpoint, not both');
  });
});
