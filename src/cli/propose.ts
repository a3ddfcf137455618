/**
 * `taskgen propose`: goal-level tasks for each site into a tasks JSONL, resumable (the seed's `cmd_propose`).
 * Prints the seed's lines on stdout; a progress bar (on a terminal) and the summary go to stderr.
 * @module
 */
import type { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { DEFAULT_GEMINI_MODEL } from '../models/gemini';
import { UsageMeter, formatUsage, withUsage } from '../models/usage';
import { formatFailure } from '../models/failures';
import { runPropose, type ProposeEvent, type ProposeResult } from '../propose';
import path from 'node:path';
import { checkBeforeSpending } from './doctor';
import { MIX_SETUP_FLAG, MIX_SETUP_HELP } from './pipeline-flags';
import { miniwebSource } from '../sites/miniweb';
import { DEFAULT_SITE_PREFIX, integer, sitePrefixOf, sitePrefixPattern, progressOption, timeoutOption } from './flags';
import { resolveModel } from './models';
import { printAbove, progressBar, type PrinterOptions } from './progress';

/** The seed's default output file. */
export const DEFAULT_TASKS_FILE = 'data/webmix/taskgen/tasks.jsonl';

interface ProposeFlags {
  out: string;
  mixSetup: boolean;
  perSite: number;
  batch: number;
  sites?: string;
  workers: number;
  seed: number;
  model: string;
  endpoint?: string;
  apiKeyEnv?: string;
  sitemaps: string;
  split?: string;
  baseUrl: string;
  timeout: number;
  sitePrefix: string;
  progress: boolean;
}

/** Registers `taskgen propose`. */
export function register(program: Command): void {
  progressOption(timeoutOption(program.command('propose')))
    .description("propose goal-level tasks for each site with an LLM into a tasks JSONL (resumable: sites in the file are kept)")
    .option('--out <file>', 'the tasks JSONL', DEFAULT_TASKS_FILE)
    .option('--per-site <n>', 'tasks per site', integer(0), 140)
    .option('--batch <n>', 'tasks asked for per call', integer(1), 20)
    .option('--sites <a,b>', "comma-separated sites (default: the split's train list)")
    .option('--workers <n>', 'sites proposed at once', integer(1), 8)
    .option('--seed <n>', 'seeds the focus-page draws', integer(Number.MIN_SAFE_INTEGER), 20261008)
    .option('--model <name>', 'the proposer model', DEFAULT_GEMINI_MODEL)
    .option('--endpoint <url>', 'an OpenAI-compatible server for --model (vLLM...)')
    .option('--api-key-env <name>', 'the environment variable holding the API key')
    .requiredOption('--sitemaps <dir>', 'the directory of <site>.json sitemaps')
    .option('--split <file>', 'the split file (needed without --sites)')
    .requiredOption('--base-url <url>', 'the server the sites are under, such as http://127.0.0.1:8000')
    .option('--site-prefix <path>', "a site's path on the server; every sitemap page must be under it", sitePrefixPattern, DEFAULT_SITE_PREFIX)
    .option(MIX_SETUP_FLAG, MIX_SETUP_HELP, false)
    .action(async (flags: ProposeFlags) => {
      const source = miniwebSource({ sitemaps: flags.sitemaps, split: flags.split, baseUrl: flags.baseUrl });
      if (!flags.sites && !flags.split) throw new Error('give --sites a,b or --split FILE (its train list)');
      // str.split(",") as the seed: an empty name is refused by the site-name check with a clear message.
      const sites = flags.sites ? flags.sites.split(',') : (await source.split()).train;
      const meter = new UsageMeter();
      const model = resolveModel({
        model: flags.model, endpoint: flags.endpoint, apiKeyEnv: flags.apiKeyEnv, timeoutMs: flags.timeout * 1000,
      });
      process.stderr.write(`proposer: ${model.description}\n`);
      await checkBeforeSpending({ models: [{ role: 'proposer', llm: model }], outDirs: [path.dirname(flags.out)] });
      const started = Date.now();
      const printer = proposePrinter(flags.perSite, { progress: flags.progress });
      const summary = await runPropose({
        sites,
        source,
        llm: withUsage(model, meter, { step: 'propose' }),
        out: flags.out,
        perSite: flags.perSite,
        batch: flags.batch,
        seed: flags.seed,
        workers: flags.workers,
        sitePrefix: sitePrefixOf(flags.sitePrefix),
        onEvent: printer.onEvent,
        ...(flags.mixSetup ? { mixSetup: true } : {}),
      }).finally(printer.stop);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stderr.write(
        `done: ${summary.tasks} tasks (${summary.info} info) for ${summary.sites.length} sites in ${seconds} s, ` +
          `${summary.done.length} sites already in ${flags.out}; ${summary.failedBatches} batches failed, ` +
          `${summary.skippedTasks} reply entries skipped\n${formatUsage(meter.summary())}\n`,
      );
      exitIfShort(summary, flags.perSite);
    });
}

/** Ends the command with exit code 1, and the first causes, when a site got no tasks or fell short on failed batches. */
export function exitIfShort(summary: ProposeResult, perSite: number): void {
  if (summary.shortSites.length === 0) return;
  const sites = summary.shortSites.map((s) => `${s.site} ${s.tasks}/${perSite}`).join(', ');
  const causes = [
    ...summary.callFailures.map(formatFailure),
    ...summary.failures.map((f) => `propose ${f.site} batch ${f.batch}: ${f.reason}`),
    ...summary.shortSites.filter((s) => s.failedBatches === 0).map((s) => `propose ${s.site}: the model's replies held no usable tasks`),
  ].slice(0, 3);
  process.stderr.write(
    `${summary.shortSites.length} sites got fewer tasks than asked (${sites}); first causes:` +
      `${causes.map((c) => `\n  ${c}`).join('')}\n` +
      'sites with 0 tasks were not written: rerun to propose them again\n',
  );
  process.exitCode = 1;
}

/** The seed's stdout lines, warnings on stderr, and on a terminal a progress bar of tasks proposed. */
export function proposePrinter(perSite: number, options: PrinterOptions = {}): { onEvent: (event: ProposeEvent) => void; stop: () => void } {
  let bar: SingleBar | undefined;
  const progress = new Map<string, number>();
  let sitesDone = 0;
  let callsFailed = 0;
  const total = () => [...progress.values()].reduce((a, b) => a + b, 0);
  const say = (stream: NodeJS.WriteStream, line: string) => printAbove(bar, stream, line);
  const onEvent = (event: ProposeEvent) => {
    switch (event.type) {
      case 'torn-line': {
        const dropped = event.dropped ? `, and ${event.dropped.lines} lines of ${event.dropped.site} before it (proposed again)` : '';
        say(process.stderr, `warning: ${event.file}:${event.line}: torn last line dropped${dropped}`);
        break;
      }
      case 'start':
        say(process.stdout, `proposing for ${event.sites.length} sites (${event.done.length} already done), ${event.perSite} each`);
        for (const site of event.sites) progress.set(site, 0);
        bar = event.sites.length > 0
          ? progressBar(`${options.label ?? 'propose'} [{bar}] {value}/{total} tasks | {sites} | {duration_formatted}`, options.progress)
          : undefined;
        bar?.start(event.sites.length * perSite, 0, { sites: `0/${event.sites.length} sites` });
        break;
      case 'batch-done':
        progress.set(event.site, Math.min(event.tasks, perSite));
        bar?.update(total());
        break;
      case 'batch-failed':
        say(process.stdout, `  ${event.site} batch ${event.batch}: ${event.reason}`);
        break;
      case 'call-failed':
        if (++callsFailed <= 3) say(process.stderr, `model call failed: ${formatFailure(event.failure)}`);
        break;
      case 'task-skipped':
        say(process.stderr, `warning: ${event.site} batch ${event.batch}: reply entry ${event.index} skipped: ${event.reason}`);
        break;
      case 'site-done':
        sitesDone++;
        progress.set(event.site, perSite);
        say(process.stdout, `  ${event.site}: ${event.tasks} tasks (${event.info} info)`);
        bar?.update(total(), { sites: `${sitesDone}/${progress.size} sites` });
        break;
      default:
        break;
    }
  };
  return { onEvent, stop: () => bar?.stop() };
}
