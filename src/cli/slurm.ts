/**
 * `taskgen slurm`: the whole pipeline as Slurm jobs on a shared work dir: propose → an attempt array of
 * `--shards` tasks → judge, verifiers, validate and relabel → rows and report, chained with `--dependency=afterok`. Writes the
 * sbatch scripts, and submits them unless `--dry-run`. Flags after `--` go to every `taskgen pipeline` job.
 * @module
 */
import path from 'node:path';
import { Option, type Command } from 'commander';
import { slurmPlan, shellQuote, SLURM_STAGES, type SlurmAgent, type SlurmPlan, type SlurmStage } from '../shards/slurm/plan';
import { submitSlurm, writeSlurmScripts, type SlurmJob } from '../shards/slurm/submit';
import { integer } from './flags';
import { DEFAULT_PIPELINE_DIR } from './pipeline';

/** The flags of `taskgen slurm`. */
export interface SlurmFlags {
  out: string;
  shards: number;
  serveQwen: boolean;
  gpus: number;
  agentEndpoint?: string;
  partition?: string;
  account?: string;
  time?: string;
  cpusPerTask?: number;
  sbatchLine: string[];
  jobName: string;
  taskgen?: string;
  scripts?: string;
  from: SlurmStage;
  array?: string;
  after?: string;
  dryRun: boolean;
  sandbox: boolean;
}

/** Registers `taskgen slurm`. */
export function register(program: Command): void {
  program
    .command('slurm')
    .description(
      'run the pipeline on Slurm: writes the sbatch scripts (propose, an attempt array of --shards tasks each with its own ' +
        'vLLM or a shared endpoint, judge+validate, rows+report) into <out>/slurm and submits them chained with ' +
        '--dependency=afterok. Flags after -- go to every `taskgen pipeline` job, e.g. taskgen slurm --shards 8 --serve-qwen ' +
        '--out /shared/run -- --sitemaps DIR --split FILE --base-url URL',
    )
    .argument('[pipeline...]', 'flags for `taskgen pipeline` (after --)')
    .option('--out <dir>', 'the work dir, on a filesystem every node sees', DEFAULT_PIPELINE_DIR)
    .requiredOption('--shards <n>', 'attempt array tasks (each attempts tasks[k::n])', integer(1))
    .option('--serve-qwen', 'each attempt task (and the validate job) starts vLLM on its own GPUs (--gres=gpu:G)', false)
    .option('--gpus <n>', '(--serve-qwen) GPUs per job', integer(1), 1)
    .option('--agent-endpoint <url>', 'one shared OpenAI-compatible agent server for every job instead')
    .option('--partition <name>', '#SBATCH --partition')
    .option('--account <name>', '#SBATCH --account')
    .option('--time <limit>', '#SBATCH --time of each job, such as 04:00:00')
    .option('--cpus-per-task <n>', '#SBATCH --cpus-per-task (browsers want about 6 cores per GPU: docs/past-one-machine.md)', integer(1))
    .option('--sbatch-line <line>', 'an extra #SBATCH line for every job, such as --qos=high (repeatable)', (v: string, all: string[]) => [...all, v], [] as string[])
    .option('--job-name <name>', 'prefix of the job names', 'taskgen')
    .option('--taskgen <command>', 'the shell command that runs taskgen on the nodes (default: this very taskgen)')
    .option('--scripts <dir>', 'where the scripts and logs go (default <out>/slurm)')
    .addOption(new Option('--from <job>', 'the first job to submit (the earlier ones are done)').choices([...SLURM_STAGES]).default('propose'))
    .option('--array <list>', 'attempt array indexes to submit, such as 3,7 (default all)')
    .option('--after <jobid>', 'a job the first submitted one waits for (afterok)')
    .option('--dry-run', 'write the scripts, do not submit', false)
    .option('--sandbox', 'offline: every job runs `taskgen pipeline --sandbox` (the bundled sites, stand-in models; each job starts its own sandbox server)', false)
    .showHelpAfterError('(flags of taskgen pipeline go after --: taskgen slurm --shards N --out DIR -- --sites a,b ...)')
    .action(async (pipelineArgs: string[], flags: SlurmFlags) => {
      await runSlurm(flags, pipelineArgs);
    });
}

async function runSlurm(flags: SlurmFlags, pipelineArgs: string[]): Promise<void> {
  if (flags.serveQwen && flags.agentEndpoint) throw new Error('give --serve-qwen or --agent-endpoint, not both');
  const agent: SlurmAgent = flags.serveQwen ? { kind: 'serve-qwen', gpus: flags.gpus } : flags.agentEndpoint ? { kind: 'endpoint', url: flags.agentEndpoint } : { kind: 'none' };
  if (flags.sandbox && !pipelineArgs.includes('--sandbox')) pipelineArgs = ['--sandbox', ...pipelineArgs];
  const plan = slurmPlan({
    dir: flags.out,
    shards: flags.shards,
    pipelineArgs,
    agent,
    taskgen: flags.taskgen ?? thisTaskgen(),
    ...(flags.scripts ? { scriptsDir: flags.scripts } : {}),
    ...(flags.partition ? { partition: flags.partition } : {}),
    ...(flags.account ? { account: flags.account } : {}),
    ...(flags.time ? { time: flags.time } : {}),
    ...(flags.cpusPerTask ? { cpusPerTask: flags.cpusPerTask } : {}),
    extra: flags.sbatchLine,
    jobName: flags.jobName,
    ...(flags.array ? { array: flags.array } : {}),
  });
  if (flags.dryRun) {
    await writeSlurmScripts(plan);
    process.stdout.write(`${describePlan(plan, flags)}\nnot submitted (--dry-run); submit each with sbatch --parsable --dependency=afterok:<id of the one before> FILE, or run this again without --dry-run\n`);
    return;
  }
  const jobs = await submitSlurm(plan, { from: flags.from, ...(flags.after ? { after: flags.after } : {}) });
  process.stdout.write(`${describePlan(plan, flags)}\n${describeJobs(plan, jobs)}\n`);
  if (pipelineArgs.includes('--sandbox')) {
    process.stdout.write('NOTE: --sandbox: the jobs use the sandbox\'s offline stand-ins where no model flag is given, not models (each job log says which)\n');
  }
}

// The command that started this process, so the jobs run the same taskgen (from a shared filesystem).
function thisTaskgen(): string {
  return [process.execPath, ...process.execArgv, process.argv[1] ?? 'taskgen'].map(shellQuote).join(' ');
}

function describePlan(plan: SlurmPlan, flags: SlurmFlags): string {
  const lines = [`taskgen slurm -> ${plan.dir}/ (${plan.shards} attempt shards)`];
  for (const s of plan.scripts) {
    const skipped = SLURM_STAGES.indexOf(s.stage) < SLURM_STAGES.indexOf(flags.from) ? ' (not submitted: --from)' : '';
    lines.push(`  ${s.stage.padEnd(8)} ${s.file}${skipped}`);
  }
  lines.push(`  logs     ${path.join(plan.scriptsDir, 'logs')}/`);
  return lines.join('\n');
}

function describeJobs(plan: SlurmPlan, jobs: readonly SlurmJob[]): string {
  const attempt = plan.scripts.find((s) => s.stage === 'attempt')!;
  const arrayJob = jobs.find((j) => j.stage === 'attempt');
  const lines = ['submitted:'];
  for (const j of jobs) lines.push(`  ${j.stage.padEnd(8)} job ${j.id}${j.after ? ` (after ${j.after})` : ''}`);
  lines.push(
    'watch:',
    `  squeue -u "$USER"${arrayJob ? `   (the attempt array is ${arrayJob.id}_0 .. ${arrayJob.id}_${plan.shards - 1})` : ''}`,
    `  taskgen status ${shellQuote(path.join(plan.dir, 'run'))} --shards ${plan.shards}   (done / running / to do per shard, and the shards to rerun)`,
    'an attempt task died? rerun its indexes, then the rest after them:',
    `  taskgen slurm --from attempt --array 3,7 ... (the same flags), or by hand: sbatch --array=3,7 ${shellQuote(attempt.file)}`,
    '  (the judge job waits for the whole array with afterok: when an index failed, Slurm holds it as DependencyNeverSatisfied;',
    '   scancel it and submit the rest with taskgen slurm --from judge --after <rerun job id> ...)',
  );
  return lines.join('\n');
}
