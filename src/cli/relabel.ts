/**
 * `taskgen relabel RUN`: a judged run's failed episodes relabeled with the tasks they did complete, each claim
 * checked on the evidence and each cut episode judged, into `<run>_relabel/`. The summary (stdout) gives what
 * became of every task written, the tokens, and the cost per accepted relabel; progress goes to stderr.
 * @module
 */
import type { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { formatFailure } from '../models/failures';
import { DEFAULT_GEMINI_MODEL } from '../models/gemini';
import type { LanguageModel } from '../models/types';
import { runRelabel, type RelabelEvent, type RelabelSummary } from '../relabel/run';
import { miniwebSource } from '../sites/miniweb';
import { integer, numberBetween, timeoutOption } from './flags';
import { resolveModel } from './models';
import { printAbove, progressBar } from './progress';
import { loadSandbox } from './sandbox';
import { resolveShard, shardOptions, type ShardFlags } from './shard';
import { MIX_SETUP_FLAG, MIX_SETUP_HELP } from './pipeline-flags';

interface RelabelFlags extends ShardFlags {
  mixSetup: boolean;
  k: number;
  all?: boolean;
  out?: string;
  workers: number;
  model?: string;
  endpoint?: string;
  judgeModel?: string;
  judgeEndpoint?: string;
  apiKeyEnv?: string;
  sitemaps?: string;
  baseUrl?: string;
  sandbox?: boolean;
  relabelErrorRate: number;
  judgeNoise: number;
  seed?: number;
  timeout: number;
}

/** The summary's lines: counts, what became of the tasks written, tokens and cost per accepted relabel. */
export function formatRelabelSummary(s: RelabelSummary): string {
  const st = s.statuses;
  const usd = (x: number | null) => (x === null ? 'unknown (a model without a price)' : `$${x.toFixed(x < 0.01 ? 6 : 4)}`);
  return [
    `relabel: ${s.episodes} episodes (${s.relabeled} relabeled now, ${s.resumed} done before${s.unjudged ? `, ${s.unjudged} not judged yet: judge them first` : ''}${s.errors ? `, ${s.errors} errors` : ''})`,
    `  tasks written ${s.proposed}: accepted ${s.accepted} (${s.acceptedRows} rows), judged not successful ${st['judged-failure']}, ` +
      `claim did not hold ${st['claim-failed']} (never judged), vacuous claims ${st.vacuous} (hold on an episode that did nothing or at its start; never judged), not a claim ${st['bad-claim']}, info without answer ${st['no-answer']}, rows not renderable ${st.unrenderable}`,
    `  tokens: relabeler ${s.tokens.proposer.model} ${s.tokens.proposer.calls} calls ${s.tokens.proposer.inputTokens} in / ${s.tokens.proposer.outputTokens} out; ` +
      `judge ${s.tokens.judge.model} ${s.tokens.judge.calls} calls ${s.tokens.judge.inputTokens} in / ${s.tokens.judge.outputTokens} out`,
    `  cost ${usd(s.cost)}, per accepted relabel ${s.accepted ? usd(s.costPerAccepted) : '- (none accepted)'}`,
  ].join('\n');
}

/** Progress of a relabel pass on stderr: a bar of episodes, errors and the first failed calls. */
export function relabelPrinter(): { onEvent: (e: RelabelEvent) => void; stop: () => void } {
  let bar: SingleBar | undefined;
  let accepted = 0;
  let shown = 0;
  const onEvent = (e: RelabelEvent) => {
    switch (e.type) {
      case 'start':
        printAbove(bar, process.stderr, `relabeling ${e.episodes} episodes of ${e.run} (${e.resumed} done before) -> ${e.out}`);
        bar = e.episodes - e.resumed > 0 ? progressBar('relabel [{bar}] {value}/{total} episodes | {accepted} accepted | {duration_formatted}') : undefined;
        bar?.start(e.episodes - e.resumed, 0, { accepted });
        break;
      case 'episode':
        accepted += e.accepted;
        bar?.update(e.done, { accepted });
        break;
      case 'error':
        printAbove(bar, process.stderr, `relabel error on ${e.taskId}: ${e.error}`);
        bar?.update(e.done, { accepted });
        break;
      case 'call-failed':
        if (++shown <= 3) printAbove(bar, process.stderr, `model call failed: ${formatFailure(e.failure)}`);
        break;
      case 'stopped':
      case 'done':
        bar?.stop();
        bar = undefined;
        break;
    }
  };
  return { onEvent, stop: () => bar?.stop() };
}

/** Registers `taskgen relabel`. */
export function register(program: Command): void {
  shardOptions(timeoutOption(program.command('relabel')))
    .description(
      'relabel the failed episodes of a judged run: up to K tasks each episode did complete, each with a claim checked ' +
        'on the server evidence, the episode cut where the claim holds and judged again, into <run>_relabel/ ' +
        '(rows picks them up); resumable; exits 1 when episodes are left to a rerun',
    )
    .argument('<run>', 'the run dir, judged (<run>_judge/)')
    .option('--k <n>', 'the most tasks written per episode', integer(1), 3)
    .option('--all', 'relabel every judged episode, successes too')
    .option('--out <dir>', 'where the relabeled episodes go (default <run>_relabel)')
    .option('--workers <n>', 'episodes relabeled at once', integer(1), 8)
    .option('--model <name>', `the relabeler (the proposer model; default ${DEFAULT_GEMINI_MODEL})`)
    .option('--endpoint <url>', 'an OpenAI-compatible server for --model')
    .option('--judge-model <name>', `the judge of the cut episodes (default ${DEFAULT_GEMINI_MODEL})`)
    .option('--judge-endpoint <url>', 'an OpenAI-compatible server for --judge-model')
    .option('--api-key-env <name>', 'the environment variable holding the API key')
    .option('--sitemaps <dir>', "MiniWeb's <site>.json sitemaps, for the site context in the prompt (with --base-url)")
    .option('--base-url <url>', 'the server of the sites, for the site context')
    .option('--sandbox', "the sandbox's stand-ins (not models) as relabeler and judge, for a sandbox run")
    .option('--relabel-error-rate <r>', '(--sandbox) share of tasks the stand-in relabeler writes wrong on purpose', numberBetween(0, 1), 0.1)
    .option('--judge-noise <r>', '(--sandbox) share of verdicts the stand-in judge flips on purpose', numberBetween(0, 1), 0.1)
    .option('--seed <n>', '(--sandbox) seeds the stand-ins', integer(0))
    .option(MIX_SETUP_FLAG, MIX_SETUP_HELP, false)
    .action(async (run: string, flags: RelabelFlags) => {
      const sandbox = flags.sandbox ? await (await loadSandbox()).sandboxSetup({ sites: [], relabelErrorRate: flags.relabelErrorRate, judgeNoise: flags.judgeNoise, ...(flags.seed === undefined ? {} : { seed: flags.seed }) }) : null;
      try {
        const real = (model: string | undefined, endpoint: string | undefined, who: string): LanguageModel => {
          const m = resolveModel({ model: model ?? DEFAULT_GEMINI_MODEL, endpoint, apiKeyEnv: flags.apiKeyEnv, timeoutMs: flags.timeout * 1000 });
          process.stderr.write(`${who}: ${m.description}\n`);
          return m;
        };
        const llm = sandbox && flags.model === undefined ? sandbox.relabeler : real(flags.model, flags.endpoint, 'relabeler');
        const judge = sandbox && flags.judgeModel === undefined ? sandbox.relabelJudge : real(flags.judgeModel ?? flags.model, flags.judgeEndpoint ?? flags.endpoint, 'judge');
        if (sandbox) process.stderr.write(`relabeler: ${llm === sandbox.relabeler ? sandbox.describe.relabeler : llm.modelId}\njudge: ${judge === sandbox.relabelJudge ? sandbox.describe.judge : judge.modelId}\n`);
        const sharded = resolveShard(flags);
        const print = relabelPrinter();
        const result = await runRelabel({
          run,
          llm,
          judge,
          k: flags.k,
          all: flags.all,
          workers: flags.workers,
          ...(flags.mixSetup ? { mixSetup: true } : {}),
          ...(flags.out ? { out: flags.out } : {}),
          ...(sandbox ? { source: sandbox.source } : flags.sitemaps ? { source: miniwebSource({ sitemaps: flags.sitemaps, baseUrl: flags.baseUrl ?? 'http://127.0.0.1:8000' }) } : {}),
          ...(sharded ? { shard: sharded.shard } : {}),
          onEvent: print.onEvent,
        }).finally(print.stop);
        process.stdout.write(`${formatRelabelSummary(result.summary)}\n`);
        if (result.errors.length > 0) {
          process.stderr.write(`${result.errors.length} episodes not relabeled; rerun to retry them (done ones are kept). First: ${result.errors.slice(0, 3).map((e) => `\n  ${e.taskId}: ${e.error}`).join('')}\n`);
          process.exitCode = 1;
        }
      } finally {
        await sandbox?.close();
      }
    });
}
