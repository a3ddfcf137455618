/**
 * `taskgen verifiers RUN`: a verifier written for each proposed task of a run with a judged success, into
 * `verifiers.jsonl` beside the tasks. Progress on stderr, a summary line on stdout.
 * @module
 */
import type { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { formatFailure } from '../models/failures';
import { DEFAULT_GEMINI_MODEL } from '../models/gemini';
import type { LanguageModel } from '../models/types';
import { UsageMeter, formatUsage, withUsage } from '../models/usage';
import { miniwebSource } from '../sites/miniweb';
import { runWriteVerifiers, type WriteVerifiersEvent, type WriteVerifiersResult } from '../verifiers/run';
import { DEFAULT_MAX_LOOSE_SHARE } from '../verifiers/vet';
import { integer, numberBetween, timeoutOption } from './flags';
import { resolveModel } from './models';
import { printAbove, progressBar, type PrinterOptions } from './progress';
import { loadSandbox } from './sandbox';
import { MIX_SETUP_FLAG, MIX_SETUP_HELP } from './pipeline-flags';

/** The flags of `taskgen verifiers`. */
interface VerifiersFlags {
  mixSetup: boolean;
  tasks?: string;
  out?: string;
  model: string;
  endpoint?: string;
  apiKeyEnv?: string;
  workers: number;
  tries: number;
  maxLooseShare: number;
  timeout: number;
  sitemaps?: string;
  baseUrl?: string;
  sandbox: boolean;
  verifierErrorRate: number;
  sandboxSeed: number;
}

/** Registers `taskgen verifiers`. */
export function register(program: Command): void {
  timeoutOption(program.command('verifiers'))
    .description(
      'write a verifier (a claim over the server evidence) for each proposed task with a judged success into verifiers.jsonl ' +
        'beside the tasks; a claim is kept only if it holds on the episode it was written from (resumable; exits 1 when some ' +
        'tasks failed with errors)',
    )
    .argument('<run>', 'the run dir (its episodes, tasks.jsonl and <run>_judge/)')
    .option('--tasks <file>', "the tasks file (default: the run's tasks.jsonl)")
    .option('--out <file>', 'the verifiers file (default: verifiers.jsonl beside the tasks file)')
    .option('--model <name>', 'the writer (the proposer model)', DEFAULT_GEMINI_MODEL)
    .option('--endpoint <url>', 'an OpenAI-compatible server for --model (vLLM...)')
    .option('--api-key-env <name>', 'the environment variable holding the API key')
    .option('--workers <n>', 'tasks worked on at once', integer(1), 8)
    .option('--tries <n>', 'replies asked for per task until a claim holds, proves something and is not loose', integer(1), 2)
    .option('--max-loose-share <r>', "the largest share of the site's other tasks' episodes a kept verifier may pass", numberBetween(0, 1), DEFAULT_MAX_LOOSE_SHARE)
    .option('--sitemaps <dir>', 'the sitemaps, to show the writer each site (with --base-url)')
    .option('--base-url <url>', 'the server of the sites (with --sitemaps)')
    .option('--sandbox', "the sandbox's stand-in writer (not a model: converts the bank's hand-written verifiers)", false)
    .option('--verifier-error-rate <r>', '(--sandbox) share of tasks the stand-in writer gets wrong on purpose', numberBetween(0, 1), 0)
    .option('--sandbox-seed <n>', '(--sandbox) seeds the stand-in', integer(0), 17)
    .option(MIX_SETUP_FLAG, MIX_SETUP_HELP, false)
    .action(async (run: string, flags: VerifiersFlags) => {
      const meter = new UsageMeter();
      const llm = await writerOf(flags);
      const source = flags.sitemaps && flags.baseUrl ? miniwebSource({ sitemaps: flags.sitemaps, baseUrl: flags.baseUrl }) : undefined;
      const printer = verifiersPrinter();
      const result = await runWriteVerifiers({
        run,
        llm: withUsage(llm, meter, { step: 'verifiers' }),
        model: llm.modelId,
        ...(flags.tasks ? { tasks: flags.tasks } : {}),
        ...(flags.out ? { out: flags.out } : {}),
        ...(source ? { source } : {}),
        workers: flags.workers,
        ...(flags.mixSetup ? { mixSetup: true } : {}),
        tries: flags.tries,
        maxLooseShare: flags.maxLooseShare,
        onEvent: printer.onEvent,
      }).finally(printer.stop);
      process.stdout.write(`${JSON.stringify(summaryLine(result))}\n`);
      printRejected(result);
      process.stderr.write(`${formatUsage(meter.summary())}\n`);
      if (result.errors.length) {
        const causes = [...result.failures.map(formatFailure), ...result.errors.map((e) => `${e.taskId}: ${e.error}`)].slice(0, 3);
        process.stderr.write(`${result.errors.length} tasks got no verifier for errors; rerun to retry them (written ones are kept); first causes:${causes.map((c) => `\n  ${c}`).join('')}\n`);
        process.exitCode = 1;
      }
    });
}

async function writerOf(flags: VerifiersFlags): Promise<LanguageModel> {
  if (flags.sandbox) {
    const { sandboxVerifierWriter } = await loadSandbox();
    const rate = Math.round(flags.verifierErrorRate * 100);
    process.stderr.write(
      `NOTE: STAND-IN WRITER. writer: stand-in-verifier-writer (sandbox stand-in, not a model: converts the bank's hand-written ` +
        `verifiers into claims, wrong on ${rate}% of tasks on purpose)\n`,
    );
    return sandboxVerifierWriter({ errorRate: flags.verifierErrorRate, seed: flags.sandboxSeed });
  }
  const model = resolveModel({ model: flags.model, endpoint: flags.endpoint, apiKeyEnv: flags.apiKeyEnv, timeoutMs: flags.timeout * 1000 });
  process.stderr.write(`writer: ${model.description}\n`);
  return model;
}

/** The summary line: counts and the file. */
export function summaryLine(r: WriteVerifiersResult): Record<string, unknown> {
  return {
    tasks: r.tasks,
    judged_successes: r.successes,
    kept: r.kept,
    written: r.written,
    unparsed: r.unparsed.count,
    not_holding: r.notHolding.count,
    vacuous: r.vacuous.count,
    loose: r.loose.count,
    looseness: r.looseness,
    errors: r.errors.length,
    missing: r.missing,
    file: r.file,
  };
}

function printRejected(r: WriteVerifiersResult): void {
  for (const e of r.unparsed.examples.slice(0, 3)) process.stderr.write(`reply not a claim (${e.taskId}): ${e.problem}: ${JSON.stringify(e.excerpt)}\n`);
  for (const e of r.notHolding.examples.slice(0, 3)) process.stderr.write(`claim did not hold on its episode (${e.taskId}): ${e.problem}: ${e.excerpt}\n`);
  for (const e of r.vacuous.examples.slice(0, 3)) process.stderr.write(`claim proves nothing (${e.taskId}): ${e.problem}: ${e.excerpt}\n`);
  for (const e of r.loose.examples.slice(0, 3)) process.stderr.write(`claim too loose (${e.taskId}): ${e.problem}: ${e.excerpt}\n`);
}

function verifiersPrinter(options: PrinterOptions = {}): { onEvent: (event: WriteVerifiersEvent) => void; stop: () => void } {
  let bar: SingleBar | undefined;
  let written = 0;
  let callsFailed = 0;
  const onEvent = (event: WriteVerifiersEvent) => {
    switch (event.type) {
      case 'start':
        printAbove(bar, process.stderr, `${event.successes} of ${event.tasks} proposed tasks have a judged success; ${event.kept} already in ${event.file}, ${event.todo} to write`);
        bar = event.todo > 0 ? progressBar('verifiers [{bar}] {value}/{total} tasks | {written} written | {duration_formatted}', options.progress) : undefined;
        bar?.start(event.todo, 0, { written });
        break;
      case 'task':
        if (event.outcome === 'written') written++;
        if (event.outcome === 'error') printAbove(bar, process.stderr, `error on ${event.taskId}: ${event.detail}`);
        bar?.update(event.done, { written });
        break;
      case 'warning':
        printAbove(bar, process.stderr, `warning: ${event.message}`);
        break;
      case 'call-failed':
        if (++callsFailed <= 3) printAbove(bar, process.stderr, `model call failed: ${formatFailure(event.failure)}`);
        break;
      case 'stopped':
        bar?.stop();
        break;
    }
  };
  return { onEvent, stop: () => bar?.stop() };
}
