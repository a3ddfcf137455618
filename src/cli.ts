#!/usr/bin/env node
/** The `taskgen` command line. Each subcommand lives in `src/cli/<name>.ts`. @module */
import { Command } from 'commander';
import { version } from '../package.json';
import { register as registerAttempt } from './cli/attempt';
import { register as registerDoctor } from './cli/doctor';
import { register as registerExport } from './cli/export';
import { register as registerJudge } from './cli/judge';
import { register as registerJudgeLab } from './cli/judge-lab';
import { register as registerPipeline } from './cli/pipeline';
import { register as registerPropose } from './cli/propose';
import { register as registerRelabel } from './cli/relabel';
import { register as registerEnv } from './cli/env';
import { register as registerReport } from './cli/report';
import { register as registerRows } from './cli/rows';
import { register as registerSitemaps } from './cli/sitemaps';
import { register as registerSlurm } from './cli/slurm';
import { register as registerStatus } from './cli/status';
import { register as registerValidate } from './cli/validate';
import { register as registerVerifiers } from './cli/verifiers';

const program = new Command('taskgen')
  .description('Task-centric web-agent data: propose, attempt, judge, validate, relabel, rows, pipeline, report, export, doctor')
  .version(version);

// Subcommands register themselves here, one module each.
const registrations: Array<(program: Command) => void> = [registerPropose, registerAttempt, registerJudge, registerValidate, registerRows, registerPipeline, registerReport, registerStatus, registerSlurm, registerJudgeLab, registerExport, registerDoctor, registerVerifiers, registerRelabel, registerEnv, registerSitemaps];
for (const register of registrations) register(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`taskgen: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
