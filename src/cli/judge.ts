/**
 * `taskgen judge RUN`: every episode of a run judged into `<run>_judge/` (the seed's `cmd_judge`). Prints the
 * seed's lines on stdout; a progress bar (on a terminal), warnings and token use go to stderr.
 * @module
 */
import { nodeStore } from '../files/node';
import { runTries } from '../files/tries';
import type { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { checkBeforeSpending } from './doctor';
import { judgeDirOf } from '../files/layout';
import { formatSetupCounts } from '../files/setup-counts';
import { MIX_SETUP_FLAG, MIX_SETUP_HELP } from './pipeline-flags';
import { formatFailure } from '../models/failures';
import { runJudge, formatJudgeStart, formatJudgeSummary, type JudgeEvent, type JudgeOptions, type JudgeResult } from '../judge/run';
import { PRESET_NAMES, loadVariant, type JudgeVariant } from '../judge/variant';
import { DEFAULT_GEMINI_MODEL } from '../models/gemini';
import type { LanguageModel } from '../models/types';
import { UsageMeter, formatUsage, withUsage } from '../models/usage';
import type { JudgeSummary } from '../core/schemas';
import { integer, progressOption, timeoutOption } from './flags';
import { resolveModel } from './models';
import { printAbove, progressBar, type PrinterOptions } from './progress';
import { resolveShard, shardLine, shardOptions, type ShardFlags } from './shard';

/** The flags `judge` and `validate` share. */
export interface JudgeFlags extends ShardFlags {
  workers: number;
  model: string;
  endpoint?: string;
  apiKeyEnv?: string;
  tasks?: string;
  timeout: number;
  variant?: string;
  progress: boolean;
  mixSetup: boolean;
}

/** Adds the flags `judge` and `validate` share. */
export function judgeOptions(command: Command): Command {
  return progressOption(shardOptions(timeoutOption(command)))
    .argument('<run>', 'the run dir: one episode dir per task id, and tasks.jsonl')
    .option('--workers <n>', 'episodes judged at once', integer(1), 16)
    .option('--model <name>', 'the judge model', DEFAULT_GEMINI_MODEL)
    .option('--endpoint <url>', 'an OpenAI-compatible server for --model (vLLM...)')
    .option('--api-key-env <name>', 'the environment variable holding the API key')
    .option('--tasks <file>', "a tasks file read after the run's own tasks.jsonl (human tasks, annotations)")
    .option(
      '--variant <name|file.json>',
      `a judge variant: a preset (${PRESET_NAMES.join(', ')}) or a variant file; other than seed, records go to <run>_judge/lab/<name>/`,
    )
    .option(MIX_SETUP_FLAG, MIX_SETUP_HELP, false);
}

/** The judge model the flags (or the variant, when it names one) name, metered, with its description printed on stderr. */
function judgeModel(flags: JudgeFlags, meter: UsageMeter, variant?: JudgeVariant): LanguageModel {
  const model = resolveModel({
    model: variant?.model ?? flags.model,
    endpoint: variant?.endpoint ?? flags.endpoint,
    apiKeyEnv: flags.apiKeyEnv,
    timeoutMs: flags.timeout * 1000,
  });
  process.stderr.write(`judge: ${model.description}${variant ? `, variant ${variant.name}` : ''}\n`);
  return withUsage(model, meter, { step: 'judge' });
}

/** What `judge` and `validate` run with: the judge pass's options from the flags, its meter, and the printer's stop. */
export async function judgePass(flags: JudgeFlags): Promise<{ options: Omit<JudgeOptions, 'run'>; meter: UsageMeter; stop: () => void }> {
  const variant = flags.variant === undefined ? undefined : await loadVariant(flags.variant);
  const meter = new UsageMeter();
  const llm = judgeModel(flags, meter, variant);
  const sharded = resolveShard(flags);
  const printer = judgePrinter({ progress: flags.progress, ...(sharded ? { from: sharded.from } : {}) });
  const options = {
    llm,
    model: variant?.model ?? flags.model,
    workers: flags.workers,
    tasks: flags.tasks,
    variant,
    onEvent: printer.onEvent,
    ...(sharded ? { shard: sharded.shard } : {}),
    ...(flags.mixSetup ? { mixSetup: true } : {}),
  };
  return { options, meter, stop: printer.stop };
}

/** The seed's stdout lines and errors, warnings on stderr, and on a terminal a progress bar of episodes. */
export function judgePrinter(options: PrinterOptions & { from?: string } = {}): { onEvent: (event: JudgeEvent) => void; stop: () => void } {
  let bar: SingleBar | undefined;
  let success = 0;
  let failed = 0;
  let callsFailed = 0;
  const say = (stream: NodeJS.WriteStream, line: string) => printAbove(bar, stream, line);
  const onEvent = (event: JudgeEvent) => {
    switch (event.type) {
      case 'start':
        if (event.shard) {
          const line = shardLine({ shard: event.shard, from: options.from ?? '' }, event.shard.total, 'episodes');
          say(process.stderr, options.from ? line : line.replace(/, from $/, ''));
        }
        say(process.stdout, formatJudgeStart(event));
        bar = event.episodes > 0
          ? progressBar(`${options.label ?? 'judge'} [{bar}] {value}/{total} episodes | {success} success | {failed} errors | {duration_formatted}`, options.progress)
          : undefined;
        bar?.start(event.episodes, 0, { success, failed });
        break;
      case 'episode':
        success += event.record?.predicted_label ?? 0;
        bar?.update(event.done, { success, failed });
        break;
      case 'error':
        failed++;
        say(process.stdout, `judge error on ${event.taskId}: ${event.error}`);
        bar?.update(event.done, { success, failed });
        break;
      case 'warning':
        say(process.stderr, `warning: ${event.message}`);
        break;
      case 'call-failed':
        // The first causes as they happen; the rest are counted in the summary.
        if (++callsFailed <= SHOWN_FAILURES) say(process.stderr, `model call failed: ${formatFailure(event.failure)}`);
        break;
      case 'done':
        bar?.stop();
        bar = undefined;
        break;
    }
  };
  return { onEvent, stop: () => bar?.stop() };
}

/**
 * Ends the command as the seed does when episodes are left unjudged: errors, and no-verdict ones too, since
 * their records are not written either.
 */
export function exitIfUnjudged(summary: JudgeSummary, failures?: Partial<Pick<JudgeResult, 'callErrors' | 'failures' | 'noVerdict'>>): void {
  const left = summary.errors + summary.no_verdict;
  if (left === 0) return;
  const calls = failures?.callErrors
    ? `; ${failures.callErrors} model calls failed, first: ${(failures.failures ?? []).slice(0, SHOWN_FAILURES).map((f) => `\n  ${formatFailure(f)}`).join('')}`
    : '';
  const unparsed = failures?.noVerdict?.length
    ? `\n${failures.noVerdict.length} episodes got no verdict, first: ${failures.noVerdict.slice(0, SHOWN_FAILURES).map((n) => `\n  ${n.taskId}: ${n.why}`).join('')}`
    : '';
  process.stderr.write(`${left} episodes not judged; rerun to retry them (judged ones are kept)${calls}${unparsed}\n`);
  process.exitCode = 1;
}

/** Failed model calls printed as they happen (and again in the end summary). */
const SHOWN_FAILURES = 3;

/** Registers `taskgen judge`. */
export function register(program: Command): void {
  judgeOptions(
    program
      .command('judge')
      .description(
        'judge every episode of a run from its screenshots and server evidence into <run>_judge/<task_id>.json; ' +
          'exits 1 when some episodes were not judged (errors, or no verdict after 3 tries: nothing is written ' +
          'for them, so a rerun judges just those)',
      ),
  )
    .option('--tries', 'judge every try of the run too (<run>/_tries/<n>/, each into its own judge dir <run>/_tries/<n>_judge/)', false)
    .action(async (run: string, flags: JudgeFlags & { tries: boolean }) => {
      const { options, meter, stop } = await judgePass(flags);
      const dirs = flags.tries ? (await runTries(nodeStore(), run)).map((t) => t.dir) : [run];
      await checkBeforeSpending({ models: [{ role: 'judge', llm: options.llm }], outDirs: dirs.map(judgeDirOf) });
      const results: JudgeResult[] = [];
      try {
        for (const dir of dirs) {
          const result = await runJudge({ run: dir, ...options });
          results.push(result);
          process.stdout.write(`${dir === run ? '' : `${dir}: `}${formatJudgeSummary(result.summary)}\n`);
          for (const line of formatSetupCounts('judge', result.bySetup, { noun: 'records', success: 'SUCCESS' })) process.stderr.write(`${line}\n`);
        }
      } finally {
        stop();
      }
      // The usage, then what was left unjudged: the causes are the last lines a user reads.
      process.stderr.write(`${formatUsage(meter.summary())}\n`);
      for (const result of results) exitIfUnjudged(result.summary, result);
    });
}
