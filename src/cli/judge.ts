/**
 * `taskgen judge RUN`: every episode of a run judged into `<run>_judge/` (the seed's `cmd_judge`). Prints the
 * seed's lines on stdout; a progress bar (on a terminal), warnings and token use go to stderr.
 * @module
 */
import type { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { judgeRun, formatJudgeStart, formatJudgeSummary, type JudgeEvent, type JudgeRunOptions } from '../judge/run';
import { DEFAULT_GEMINI_MODEL } from '../llm/gemini';
import type { LanguageModel } from '../llm/types';
import { UsageMeter, formatUsage, withUsage } from '../llm/usage';
import type { JudgeSummary } from '../schemas';
import { integer } from './flags';
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
}

/** Adds the flags `judge` and `validate` share. */
export function judgeOptions(command: Command): Command {
  return shardOptions(command)
    .argument('<run>', 'the run dir: one episode dir per task id, and tasks.jsonl')
    .option('--workers <n>', 'episodes judged at once', integer(1), 16)
    .option('--model <name>', 'the judge model', DEFAULT_GEMINI_MODEL)
    .option('--endpoint <url>', 'an OpenAI-compatible server for --model (vLLM...)')
    .option('--api-key-env <name>', 'the environment variable holding the API key')
    .option('--tasks <file>', "a tasks file read after the run's own tasks.jsonl (human tasks, annotations)");
}

/** The judge model the flags name, metered, with its description printed on stderr. */
function judgeModel(flags: JudgeFlags, meter: UsageMeter): LanguageModel {
  const model = resolveModel({ model: flags.model, endpoint: flags.endpoint, apiKeyEnv: flags.apiKeyEnv });
  process.stderr.write(`judge: ${model.description}\n`);
  return withUsage(model, meter, { step: 'judge' });
}

/** What `judge` and `validate` run with: the judge pass's options from the flags, its meter, and the printer's stop. */
export function judgePass(flags: JudgeFlags): { options: JudgeRunOptions; meter: UsageMeter; stop: () => void } {
  const meter = new UsageMeter();
  const llm = judgeModel(flags, meter);
  const sharded = resolveShard(flags);
  const printer = judgePrinter({ ...(sharded ? { from: sharded.from } : {}) });
  const options = { llm, model: flags.model, workers: flags.workers, tasks: flags.tasks, onEvent: printer.onEvent, ...(sharded ? { shard: sharded.shard } : {}) };
  return { options, meter, stop: printer.stop };
}

/** The seed's stdout lines and errors, warnings on stderr, and on a terminal a progress bar of episodes. */
export function judgePrinter(options: PrinterOptions & { from?: string } = {}): { onEvent: (event: JudgeEvent) => void; stop: () => void } {
  let bar: SingleBar | undefined;
  let success = 0;
  let failed = 0;
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
export function exitIfUnjudged(summary: JudgeSummary): void {
  const left = summary.errors + summary.no_verdict;
  if (left === 0) return;
  process.stderr.write(`${left} episodes not judged; rerun to retry them (judged ones are kept)\n`);
  process.exitCode = 1;
}

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
  ).action(async (run: string, flags: JudgeFlags) => {
    const { options, meter, stop } = judgePass(flags);
    const { summary } = await judgeRun(run, options).finally(stop);
    process.stdout.write(`${formatJudgeSummary(summary)}\n`);
    process.stderr.write(`${formatUsage(meter.summary())}\n`);
    exitIfUnjudged(summary);
  });
}
