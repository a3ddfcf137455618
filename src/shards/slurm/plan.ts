/**
 * The sbatch scripts of a whole pipeline run on Slurm: propose (one job) → attempt (a job array, one shard per
 * array task) → judge, verifiers, validate and relabel → rows and report, each a `taskgen pipeline --only ...` on
 * the same work dir (a shared filesystem), chained by the scheduler's own `--dependency=afterok`. Pure: it builds the texts; see
 * `writeSlurmScripts` and `submitSlurm` for the files and the submission.
 * @module
 */
import path from 'node:path';
import { assertPlainName } from '../../core/names';

/** The four jobs of a run, in the order they depend on each other. */
export const SLURM_STAGES = ['propose', 'attempt', 'judge', 'rows'] as const;

/** One job of a Slurm run. */
export type SlurmStage = (typeof SLURM_STAGES)[number];

/** Which pipeline stages each job runs (`taskgen pipeline --only ...`). */
export const SLURM_STAGE_ONLY: { readonly [S in SlurmStage]: string } = {
  propose: 'propose',
  attempt: 'attempt',
  judge: 'judge,verifiers,validate,relabel',
  rows: 'rows,report',
};

/**
 * Where the agent runs: vLLM started by each job on its own GPUs (`serve-qwen`), one shared OpenAI-compatible
 * server (`endpoint`), or whatever the pipeline arguments say (`none`: the sandbox's stand-in agent, or an agent
 * flag given in `pipelineArgs`).
 */
export type SlurmAgent =
  | { readonly kind: 'serve-qwen'; readonly gpus: number }
  | { readonly kind: 'endpoint'; readonly url: string }
  | { readonly kind: 'none' };

/** Options of {@link slurmPlan}. */
export interface SlurmPlanOptions {
  /** The pipeline's work dir, on a filesystem every node sees. Made absolute against `cwd`. */
  readonly dir: string;
  /** Attempt array tasks: the proposed tasks are split `[k::shards]` between them. */
  readonly shards: number;
  /** Flags given to every `taskgen pipeline` (sites, models, sizes, `--sandbox`...), each one argument. Default none. */
  readonly pipelineArgs?: readonly string[];
  /** The agent of the attempt array and of validate's human-task episodes. Default `none`. */
  readonly agent?: SlurmAgent;
  /** The shell command that runs taskgen on the nodes, inserted as it is. Default `taskgen`. */
  readonly taskgen?: string;
  /** Where the jobs start (`cd`), and what relative paths are relative to. Default `process.cwd()`. */
  readonly cwd?: string;
  /** Where the scripts and `logs/` go. Default `<dir>/slurm`. */
  readonly scriptsDir?: string;
  /** `#SBATCH --partition`. */
  readonly partition?: string;
  /** `#SBATCH --account`. */
  readonly account?: string;
  /** `#SBATCH --time` of every job, such as `04:00:00`. */
  readonly time?: string;
  /** `#SBATCH --cpus-per-task` of every job (browsers are CPU-bound: about 6 cores per GPU, docs/past-one-machine.md). */
  readonly cpusPerTask?: number;
  /** Extra `#SBATCH` lines for every job, with or without the `#SBATCH ` prefix (such as `--qos=high`). */
  readonly extra?: readonly string[];
  /** Prefix of the job names (`<name>-propose` ...). Default `taskgen`. */
  readonly jobName?: string;
  /** Array tasks of the attempt job to submit, such as `3,7` to rerun those that died. Default all: `0-<shards-1>`. */
  readonly array?: string;
}

/** One job's script. */
export interface SlurmScript {
  /** The job's stage: `propose`, `attempt`, `judge` or `rows`. */
  readonly stage: SlurmStage;
  /** The script's path. */
  readonly file: string;
  /** The script's text. */
  readonly text: string;
  /** The job it waits for (`--dependency=afterok`), if any. */
  readonly after?: SlurmStage;
}

/** The scripts of a run, in submission order. */
export interface SlurmPlan {
  /** The work dir (absolute). */
  readonly dir: string;
  /** Where the scripts are. */
  readonly scriptsDir: string;
  /** Array tasks of the attempt job; the proposed tasks are split `[k::shards]` between them. */
  readonly shards: number;
  /** One script per stage, in submission order. */
  readonly scripts: readonly SlurmScript[];
}

/**
 * One argument for a POSIX shell: as it is when it has only safe characters, else single-quoted (a `'` inside
 * becomes `'\''`), so paths and flags with spaces, quotes, `$` or newlines reach the program unchanged.
 */
export function shellQuote(arg: string): string {
  if (arg !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

// sbatch reads `#SBATCH` values itself (no shell): plain values as they are, others in double quotes.
function sbatchValue(value: string, what: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(value)) return value;
  if (/["\\\n\r]/.test(value) || value === '') throw new Error(`${what} ${JSON.stringify(value)} cannot go on an #SBATCH line (a quote, backslash, newline or nothing)`);
  return `"${value}"`;
}

/** The scripts of a whole run (see the module's description). Throws on a bad option, naming it. */
export function slurmPlan(options: SlurmPlanOptions): SlurmPlan {
  const cwd = options.cwd ?? process.cwd();
  const dir = path.resolve(cwd, options.dir);
  const scriptsDir = path.resolve(cwd, options.scriptsDir ?? path.join(dir, 'slurm'));
  const { shards } = options;
  if (!Number.isInteger(shards) || shards < 1) throw new Error(`shards must be a whole number >= 1, not ${shards}`);
  const agent = options.agent ?? { kind: 'none' };
  if (agent.kind === 'serve-qwen' && (!Number.isInteger(agent.gpus) || agent.gpus < 1)) throw new Error(`gpus must be a whole number >= 1, not ${agent.gpus}`);
  if (options.cpusPerTask !== undefined && (!Number.isInteger(options.cpusPerTask) || options.cpusPerTask < 1)) {
    throw new Error(`cpusPerTask must be a whole number >= 1, not ${options.cpusPerTask}`);
  }
  const jobName = options.jobName ?? 'taskgen';
  assertPlainName(jobName, 'job name');
  const array = options.array ?? `0-${shards - 1}`;
  if (!/^\d+(-\d+)?(,\d+(-\d+)?)*(%\d+)?$/.test(array)) throw new Error(`array ${JSON.stringify(array)} is not an sbatch --array list such as 0-7 or 3,7`);
  for (const flag of options.pipelineArgs ?? []) {
    if (['--out', '--only', '--shard', '--serve-qwen', '--agent-endpoint'].includes(flag.split('=')[0]!)) {
      throw new Error(`pipelineArgs must not hold ${flag}: the plan sets it per job (dir, stages, shard, agent)`);
    }
  }
  const agentArgs = agent.kind === 'serve-qwen' ? ['--serve-qwen', '--gpus', String(agent.gpus)] : agent.kind === 'endpoint' ? ['--agent-endpoint', agent.url] : [];
  const common = ['pipeline', ...(options.pipelineArgs ?? []), '--out', dir, '--no-progress'];

  const script = (stage: SlurmStage, after?: SlurmStage): SlurmScript => {
    const isArray = stage === 'attempt';
    const needsAgent = stage === 'attempt' || stage === 'judge';
    const lines = ['#!/bin/bash', `#SBATCH --job-name=${jobName}-${stage}`, `#SBATCH --output=${sbatchValue(path.join(scriptsDir, 'logs', `${stage}-${isArray ? '%A_%a' : '%j'}.out`), 'the log path')}`];
    if (isArray) lines.push(`#SBATCH --array=${array}`);
    if (options.partition) lines.push(`#SBATCH --partition=${sbatchValue(options.partition, 'partition')}`);
    if (options.account) lines.push(`#SBATCH --account=${sbatchValue(options.account, 'account')}`);
    if (options.time) lines.push(`#SBATCH --time=${sbatchValue(options.time, 'time')}`);
    if (options.cpusPerTask) lines.push(`#SBATCH --cpus-per-task=${options.cpusPerTask}`);
    if (needsAgent && agent.kind === 'serve-qwen') lines.push(`#SBATCH --gres=gpu:${agent.gpus}`);
    for (const extra of options.extra ?? []) {
      if (/[\n\r]/.test(extra)) throw new Error(`extra #SBATCH line ${JSON.stringify(extra)} has a line break`);
      lines.push(extra.startsWith('#SBATCH') ? extra : `#SBATCH ${extra}`);
    }
    // The shard is written out, not read from SLURM_ARRAY_TASK_COUNT/MIN: a rerun of some indexes
    // (sbatch --array=3,7) has another count and minimum, but each index must keep its own tasks.
    const shard = isArray ? ` --shard "\${SLURM_ARRAY_TASK_ID:?not an array task}/${shards}"` : '';
    const args = [...common, '--only', SLURM_STAGE_ONLY[stage], ...(needsAgent ? agentArgs : [])];
    lines.push(
      '',
      `# taskgen on Slurm, job ${SLURM_STAGES.indexOf(stage) + 1} of 4: ${describe(stage, shards)}`,
      'set -euo pipefail',
      `cd ${shellQuote(cwd)}`,
      `exec ${options.taskgen ?? 'taskgen'} ${args.map(shellQuote).join(' ')}${shard}`,
      '',
    );
    return { stage, file: path.join(scriptsDir, `${stage}.sbatch`), text: lines.join('\n'), ...(after ? { after } : {}) };
  };
  const scripts = SLURM_STAGES.map((stage, i) => script(stage, i ? SLURM_STAGES[i - 1] : undefined));
  return { dir, scriptsDir, shards, scripts };
}

function describe(stage: SlurmStage, shards: number): string {
  switch (stage) {
    case 'propose':
      return 'propose the tasks of every training site';
    case 'attempt':
      return `attempt the tasks, shard $SLURM_ARRAY_TASK_ID of ${shards} (tasks[k::${shards}]); rerun dead indexes with sbatch --array=3,7 this file`;
    case 'judge':
      return 'judge every episode, then validate the judge on the human tasks';
    case 'rows':
      return 'select the training rows and write the reports';
  }
}
