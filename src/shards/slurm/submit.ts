/**
 * Writes a {@link SlurmPlan}'s scripts and submits them with `sbatch --parsable`, each job after the one before
 * (`--dependency=afterok:<id>`; afterok on an array waits for every array task).
 * @module
 */
import { execFile } from 'node:child_process';
import { nodeStore } from '../../files/node';
import type { FileStore } from '../../files/types';
import { SLURM_STAGES, type SlurmPlan, type SlurmStage } from './plan';

/** Writes every script of the plan (atomically; the logs dir too, since Slurm does not make it). */
export async function writeSlurmScripts(plan: SlurmPlan, options: { store?: FileStore } = {}): Promise<void> {
  const store = options.store ?? nodeStore();
  await store.mkdir(`${plan.scriptsDir}/logs`);
  for (const script of plan.scripts) await store.writeAtomic(script.file, script.text);
}

/** Options of {@link submitSlurm}. */
export interface SubmitSlurmOptions {
  /** The sbatch program. Default `sbatch`. */
  readonly sbatch?: string;
  /** The environment sbatch runs with (and the jobs inherit). Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** The first job to submit: `attempt` to go on after a propose job that is done, for instance. Default `propose`. */
  readonly from?: SlurmStage;
  /** A job the first submitted one waits for (afterok), such as a rerun of dead array indexes. */
  readonly after?: string;
  /** Time limit of one sbatch call in ms. Default 60 s. */
  readonly timeoutMs?: number;
  /** Where the scripts are written. Default the local disk. */
  readonly store?: FileStore;
}

/** A submitted job. */
export interface SlurmJob {
  /** The stage the job runs. */
  readonly stage: SlurmStage;
  /** Slurm's job id (of the whole array for `attempt`). */
  readonly id: string;
  /** The script submitted. */
  readonly file: string;
  /** The job id it waits for, if any. */
  readonly after?: string;
}

/** An sbatch call that failed, with the jobs submitted before it (still queued: `scancel` them or let them run). */
export class SlurmSubmitError extends Error {
  /** Always `SlurmSubmitError`. */
  override readonly name = 'SlurmSubmitError';
  constructor(
    message: string,
    /** The jobs submitted before the failed call (still queued). */
    readonly submitted: readonly SlurmJob[],
  ) {
    super(message);
  }
}

/**
 * Writes the scripts and submits the jobs from `from` on, in order, each after the one before; returns them.
 * An sbatch that fails throws a {@link SlurmSubmitError} with its message and the jobs already queued.
 */
export async function submitSlurm(plan: SlurmPlan, options: SubmitSlurmOptions = {}): Promise<SlurmJob[]> {
  await writeSlurmScripts(plan, { store: options.store });
  const first = SLURM_STAGES.indexOf(options.from ?? 'propose');
  if (first < 0) throw new Error(`from must be one of ${SLURM_STAGES.join(', ')}, not ${String(options.from)}`);
  if (options.after !== undefined && !/^\d+$/.test(options.after)) throw new Error(`after must be a Slurm job id (digits), not ${JSON.stringify(options.after)}`);
  const jobs: SlurmJob[] = [];
  let after = options.after;
  for (const script of plan.scripts.filter((s) => SLURM_STAGES.indexOf(s.stage) >= first)) {
    const args = ['--parsable', ...(after ? [`--dependency=afterok:${after}`] : []), script.file];
    let out: string;
    try {
      out = await sbatch(options.sbatch ?? 'sbatch', args, options.env ?? process.env, options.timeoutMs ?? 60_000);
    } catch (error) {
      const queued = jobs.length ? `; already queued: ${jobs.map((j) => `${j.stage} ${j.id}`).join(', ')}` : '';
      throw new SlurmSubmitError(`sbatch ${script.file} (${script.stage}) failed: ${error instanceof Error ? error.message : String(error)}${queued}`, jobs);
    }
    // --parsable prints "<id>" or "<id>;<cluster>"
    const id = out.trim().split(';')[0]!;
    if (!/^\d+$/.test(id)) throw new SlurmSubmitError(`sbatch ${script.file} printed ${JSON.stringify(out.trim())}, not a job id`, jobs);
    jobs.push({ stage: script.stage, id, file: script.file, ...(after ? { after } : {}) });
    after = id;
  }
  return jobs;
}

function sbatch(program: string, args: readonly string[], env: NodeJS.ProcessEnv, timeout: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(program, args, { env, timeout }, (error, stdout, stderr) => {
      if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT') reject(new Error(`no ${program} here: submit from a Slurm login node, or only write the scripts (dry run)`));
      else if (error) reject(new Error(`${String(stderr).trim() || error.message}`));
      else resolve(String(stdout));
    });
  });
}
