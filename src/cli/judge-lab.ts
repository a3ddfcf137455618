/**
 * `taskgen judge-lab RUN`: every episode of a run with verifier results judged by several judge variants
 * (records under `<run>_judge/lab/<variant>/`), measured against the verifiers and against a baseline variant.
 * Prints the figures on stdout; progress, warnings and token use on stderr.
 * @module
 */
import type { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { formatFailure } from '../models/failures';
import { PRESET_NAMES, loadVariant, type JudgeVariant } from '../judge/variant';
import { formatLab } from '../lab/format';
import { runJudgeLab, type LabEvent } from '../lab/lab';
import { DEFAULT_GEMINI_MODEL } from '../models/gemini';
import { createLimiter } from '../models/limiter';
import type { LanguageModel } from '../models/types';
import { UsageMeter, formatUsage, withUsage } from '../models/usage';
import { fileUrl } from './format';
import { integer, progressOption, timeoutOption } from './flags';
import { printAbove, progressBar, type PrinterOptions } from './progress';
import type { JudgeFlags } from './judge';
import { resolveModel } from './models';

interface LabFlags extends Pick<JudgeFlags, 'workers' | 'model' | 'endpoint' | 'apiKeyEnv' | 'tasks' | 'timeout'> {
  variant?: string[];
  baseline: string;
  progress: boolean;
}

const collect = (value: string, previous: string[] = []) => [...previous, ...value.split(',').map((s) => s.trim()).filter(Boolean)];

/** On stderr: each variant as it starts, its warnings and errors, and on a terminal a bar of its episodes. */
export function labPrinter(options: PrinterOptions = {}): { onEvent: (event: LabEvent) => void; stop: () => void } {
  let bar: SingleBar | undefined;
  let label = '';
  const say = (line: string) => printAbove(bar, process.stderr, line);
  const onEvent = (event: LabEvent) => {
    if (event.type === 'variant') {
      bar?.stop();
      bar = undefined;
      label = `${options.label ?? 'lab'}: variant ${event.index + 1}/${event.total} ${event.variant.name}`;
      say(`${label} (${event.variant.description})`);
    } else if (event.type === 'judge') {
      const e = event.event;
      if (e.type === 'start' && e.episodes > 0) {
        bar = progressBar(`${label} [{bar}] {value}/{total} episodes | {duration_formatted}`, options.progress);
        bar?.start(e.episodes, 0);
      } else if (e.type === 'episode' || e.type === 'error') bar?.update(e.done);
      if (e.type === 'warning') say(`warning: ${e.message}`);
      else if (e.type === 'error') say(`judge error (${event.variant}) on ${e.taskId}: ${e.error}`);
    }
  };
  return { onEvent, stop: () => bar?.stop() };
}

/** Registers `taskgen judge-lab`. */
export function register(program: Command): void {
  progressOption(timeoutOption(program.command('judge-lab')))
    .description(
      'judge every episode of a run with verifier results with several judge variants (records in <run>_judge/lab/<variant>/, ' +
        'resumable; <run>_judge is not touched) and compare them: agreement, precision, recall with 95% Wilson intervals, ' +
        'yield, calls, tokens and cost, per site and task kind, and against a baseline with an exact McNemar test; ' +
        'writes <run>_judge/lab/lab.json and lab.html',
    )
    .argument('<run>', 'the run dir: episode dirs, tasks.jsonl and results.jsonl (or results_regraded.jsonl) from the verifiers')
    .option('--variant <name|file.json>', `a judge variant, repeatable or comma-separated (default the presets: ${PRESET_NAMES.join(', ')})`, collect)
    .option('--baseline <name>', 'the variant the others are compared with', 'seed')
    .option('--workers <n>', 'episodes judged at once', integer(1), 16)
    .option('--model <name>', 'the judge model of variants that name none', DEFAULT_GEMINI_MODEL)
    .option('--endpoint <url>', 'an OpenAI-compatible server for --model (vLLM...)')
    .option('--api-key-env <name>', 'the environment variable holding the API key')
    .option('--tasks <file>', "a tasks file read after the run's own tasks.jsonl (human tasks, annotations)")
    .action(async (run: string, flags: LabFlags) => {
      const variants = await Promise.all((flags.variant ?? [...PRESET_NAMES]).map((v) => loadVariant(v)));
      const meter = new UsageMeter();
      const limiter = createLimiter({ concurrency: Math.max(16, flags.workers) });
      const models = new Map<string, LanguageModel>();
      const llmFor = (variant: JudgeVariant): LanguageModel => {
        const key = JSON.stringify([variant.model ?? flags.model, variant.endpoint ?? flags.endpoint]);
        let llm = models.get(key);
        if (!llm) {
          const model = resolveModel({ model: variant.model ?? flags.model, endpoint: variant.endpoint ?? flags.endpoint, apiKeyEnv: flags.apiKeyEnv, limiter, timeoutMs: flags.timeout * 1000 });
          process.stderr.write(`judge: ${model.description}\n`);
          llm = withUsage(model, meter, { step: 'judge-lab' });
          models.set(key, llm);
        }
        return llm;
      };
      variants.forEach(llmFor); // a missing key fails before any judging
      const printer = labPrinter({ progress: flags.progress });
      const { report, json, html, judged } = await runJudgeLab({
        run,
        variants,
        baseline: flags.baseline,
        llmFor,
        workers: flags.workers,
        tasks: flags.tasks,
        onEvent: printer.onEvent,
      }).finally(printer.stop);
      process.stdout.write(`${formatLab(report)}\nlab.json: ${json}\nlab.html: ${fileUrl(html)}\n`);
      process.stderr.write(`${formatUsage(meter.summary())}\n`);
      const missing = report.variants.filter((v) => v.missing > 0);
      for (const v of missing) {
        const cause = judged.get(v.name)?.failures[0];
        process.stderr.write(`${v.name}: ${v.missing} episodes not judged${cause ? ` (first cause: ${formatFailure(cause)})` : ''}\n`);
      }
      if (missing.length) {
        process.stderr.write('rerun to judge them (judged ones are kept)\n');
        process.exitCode = 1;
      }
    });
}
