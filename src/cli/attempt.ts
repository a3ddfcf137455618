/**
 * `taskgen attempt`: runs a tasks file with the agent in Chromium and records the run directory, with a
 * progress bar and a summary. Resumable: run it again to finish what a killed run left.
 * @module
 */
import type { SingleBar } from 'cli-progress';
import { Option, type Command } from 'commander';
import { runAttempt, type AttemptEvent, type AttemptResult } from '../attempt/run';
import { checkBeforeSpending } from './doctor';
import { MIX_SETUP_FLAG, MIX_SETUP_HELP } from './pipeline-flags';
import { evidenceKindOf, evidenceOptions, nonSandboxEvidence, type EvidenceKind } from './evidence';
import { siteBoundary, startUrlOf } from '../browser/site-boundary';
import { qwenModel, qwenPolicy } from '../agent/qwen-policy';
import { DEFAULT_QWEN_MODEL } from '../agent/serve-qwen';
import type { Policy } from '../agent/types';
import type { LanguageModel } from '../models/types';
import { resolveModel } from './models';
import type { EvidenceProvider } from '../attempt/types';
import { formatFailure, StageGuard } from '../models/failures';
import { nodeStore } from '../files/node';
import type { FileStore } from '../files/types';
import { readTaskSource } from '../miniweb/task-source';
import type { Task } from '../core/schemas';
import { describeShard, type Shard } from '../core/shard';
import { DEFAULT_SITE_PREFIX, integer, numberBetween, sitePrefixOf, sitePrefixPattern, stopAfterFailuresOption, timeoutOption } from './flags';
import { printAbove, progressBar, type PrinterOptions } from './progress';
import { resolveShard, shardOptions, type ShardFlags } from './shard';
import { loadSandbox } from './sandbox';
import { readWrittenVerifiers, type WrittenVerifier } from '../verifiers/file';
import { formatSetupCounts } from '../files/setup-counts';
import { readPassAtK } from '../validate/pass-at-k';
import { formatPassAtK } from './format-pass-at-k';

/** The flags of `taskgen attempt`. */
export interface AttemptFlags extends ShardFlags {
  tasks: string;
  out: string;
  mixSetup: boolean;
  concurrency: number;
  maxSteps: number;
  policy: 'qwen' | 'oracle';
  endpoint: string;
  model: string;
  apiKeyEnv?: string;
  thinking: boolean;
  temperature?: number;
  seed?: number;
  attempts: number;
  baseUrl?: string;
  evidence: EvidenceKind;
  miniwebDb?: string;
  miniwebCodes: 'on' | 'off';
  oracleFailureRate: number;
  episodeTimeout: number;
  sitePrefix: string;
  progress: boolean;
  timeout: number;
  verifiers?: string;
  checkModel?: string;
  stopAfterFailures: number;
}

/** Registers `taskgen attempt`. */
export function register(program: Command): void {
  const command = stopAfterFailuresOption(timeoutOption(program.command('attempt')))
    .description('attempt each task with the agent in Chromium and record the run dir (resumable)')
    .requiredOption('--tasks <path>', "tasks JSONL file, or a directory of MiniWeb's annotated tasks (task.json dirs)")
    .requiredOption('--out <dir>', 'run directory')
    .option('--concurrency <n>', 'episodes in parallel', integer(1), 4)
    .option('--max-steps <n>', 'steps per episode', integer(1), 15)
    .addOption(
      new Option('--policy <name>', "who acts: the Qwen model, or the sandbox's stand-in oracle (no model)")
        .choices(['qwen', 'oracle'])
        .default('qwen'),
    )
    .option('--endpoint <url>', 'the OpenAI-compatible server of the qwen policy (vLLM)', 'http://127.0.0.1:8000/v1')
    .option('--model <name>', 'the served model of the qwen policy', DEFAULT_QWEN_MODEL)
    .option('--api-key-env <name>', 'environment variable with the endpoint key (default: none)')
    .option('--thinking', 'let the model think before acting', false)
    .option('--temperature <t>', 'sampling temperature of the qwen policy (default 0, or 1 with --attempts above 1)', numberBetween(0, 2))
    .option('--seed <n>', "the qwen policy's sampling seed of try 1 (try n: seed + n - 1); default the server's", integer(0))
    .option('--attempts <k>', 'tries per task, each its own episode (try n >= 2 in <out>/_tries/<n>/)', integer(1), 1)
    .option('--oracle-failure-rate <r>', 'share of tasks the stand-in oracle gets wrong on purpose', numberBetween(0, 1), 0)
    .option('--base-url <url>', 'the server of the sites (MiniWeb, or a sandbox); default: start the sandbox here');
  evidenceOptions(command, 'sandbox for the sandbox, miniweb with --miniweb-db, else browser')
    .option('--episode-timeout <s>', 'time limit of one episode in seconds', integer(1), 300)
    .option('--site-prefix <path>', "a site's path on the server; the agent stays under it", sitePrefixPattern, DEFAULT_SITE_PREFIX)
    .option('--verifiers <file>', 'verifiers written for proposed tasks (verifiers.jsonl): their results go to results.jsonl')
    .option('--check-model <name>', "the model deciding MiniWeb verifiers' checks that need an LLM (a gemini-* model, key from GEMINI_API_KEY); default none: such checks are undecided")
    .option('--no-progress', 'no progress bar')
    .option(MIX_SETUP_FLAG, MIX_SETUP_HELP, false);
  shardOptions(command).action(async (flags: AttemptFlags) => {
    await attemptAction(flags);
  });
}

async function attemptAction(flags: AttemptFlags): Promise<void> {
  const store = nodeStore();
  const sharded = resolveShard(flags);
  if (sharded) process.stderr.write(`shard ${sharded.shard.index}/${sharded.shard.count} from ${sharded.from}\n`);
  const tasks = await readTaskSource(store, flags.tasks, {
    onIssue: (issue) => process.stderr.write(`warning: ${issue.file}:${issue.line}: ${issue.problem}\n`),
  });
  // The sandbox is loaded only where it is used: its sites, its stand-in agent or its evidence.
  const kind = evidenceKind(flags);
  const sandbox =
    !flags.baseUrl || flags.policy === 'oracle' || kind === 'sandbox'
      ? await (await loadSandbox()).sandboxSetup({ url: flags.baseUrl, sites: [], tasks, failureRate: flags.oracleFailureRate })
      : null;
  try {
    const baseUrl = flags.baseUrl ?? sandbox!.url;
    if (!flags.baseUrl) process.stderr.write(`started the sandbox (bundled sites) at ${baseUrl}\n`);
    // A bad key or an unknown model on the agent's server stops the run at once instead of failing every episode.
    const guard = new StageGuard('attempt', {
      onFailure: (failure) => {
        if (guard.failed <= 3) process.stderr.write(`model call failed: ${formatFailure(failure)}\n`);
      },
    });
    const policy = guardPolicy(flags.policy === 'oracle' ? sandbox!.policy : qwenAgent(flags), guard);
    const checkJudge = flags.checkModel ? resolveModel({ model: flags.checkModel, timeoutMs: flags.timeout * 1000 }) : undefined;
    const evidence = kind === 'sandbox' ? sandbox!.evidence : nonSandboxEvidence(kind, flags, baseUrl);
    // Tasks that start outside their site are bad input: refused before the checks of what the run needs.
    const prefixOf = sitePrefixOf(flags.sitePrefix);
    for (const task of tasks) startUrlOf(task, baseUrl, siteBoundary(baseUrl, prefixOf(task.site)));
    await checkBeforeSpending({
      browser: {},
      models: [
        ...(flags.policy === 'oracle' ? [] : [{ role: 'agent', llm: qwenModel({ baseURL: flags.endpoint, model: flags.model, apiKey: 'EMPTY', ...agentKey(flags) }) }]),
        ...(checkJudge ? [{ role: 'check', llm: checkJudge }] : []),
      ],
      sites: { baseUrl, sites: tasks.map((t) => t.site), sitePrefix: sitePrefixOf(flags.sitePrefix) },
      evidence: { provider: evidence, baseUrl, sites: [...new Set(tasks.map((t) => t.site))] },
      outDirs: [flags.out],
    });
    process.stderr.write(`attempting ${tasks.length} tasks on ${baseUrl} with ${describePolicy(policy, flags)} -> ${flags.out}\n`);
    const verifiers = flags.verifiers ? await readVerifiersFlag(store, flags.verifiers) : [];
    if (checkJudge) process.stderr.write(`MiniWeb checks decided by ${checkJudge.description}\n`);
    const summary = await runWithProgress(flags, tasks, { policy, evidence, baseUrl, store, guard, shard: sharded?.shard, verifiers, checkJudge });
    process.stdout.write(`${JSON.stringify(summaryLine(summary))}\n`);
    if (flags.attempts > 1) for (const line of formatPassAtK(await readPassAtK({ run: flags.out, store }))) process.stderr.write(`${line}\n`);
    for (const line of formatSetupCounts('attempt', summary.finished.bySetup, { noun: 'episodes', success: 'verified' })) process.stderr.write(`${line}\n`);
    if (summary.failed > 0) {
      const causes = summary.failures.slice(0, 3).map((f) => `\n  ${formatFailure(f)}`).join('');
      throw new Error(`${summary.failed} episodes could not run; run the same command again to retry them (finished ones are kept)${causes}`);
    }
  } finally {
    await sandbox?.close();
  }
}

// The written verifiers of --verifiers: a missing file is an error; bad lines are named and skipped.
async function readVerifiersFlag(store: FileStore, file: string): Promise<WrittenVerifier[]> {
  if (!(await store.exists(file))) throw new Error(`--verifiers ${file}: no such file`);
  const read = await readWrittenVerifiers(store, file);
  for (const i of read.issues) process.stderr.write(`warning: ${i.file}:${i.line}: ${i.problem}\n`);
  process.stderr.write(`${read.byTask.size} written verifiers from ${file}\n`);
  return [...read.byTask.values()];
}

async function runWithProgress(
  flags: AttemptFlags,
  tasks: readonly Task[],
  run: {
    policy: Policy; evidence: EvidenceProvider; baseUrl: string; store: FileStore; guard: StageGuard; shard: Shard | undefined;
    verifiers: readonly WrittenVerifier[]; checkJudge: LanguageModel | undefined;
  },
): Promise<AttemptResult> {
  const printer = attemptPrinter({ progress: flags.progress });
  const stop = new AbortController();
  run.guard.onStop = (error) => stop.abort(error);
  const onSignal = () => stop.abort(new Error('interrupted; run the same command again to continue'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await runAttempt({
      tasks,
      policy: run.policy,
      evidence: run.evidence,
      source: { baseUrl: run.baseUrl },
      sitePrefix: sitePrefixOf(flags.sitePrefix),
      out: flags.out,
      concurrency: flags.concurrency,
      maxSteps: flags.maxSteps,
      episodeTimeoutMs: flags.episodeTimeout * 1000,
      stopAfterFailures: flags.stopAfterFailures,
      store: run.store,
      onEvent: printer.onEvent,
      signal: stop.signal,
      ...(run.shard ? { shard: run.shard } : {}),
      ...(flags.mixSetup ? { mixSetup: true } : {}),
      ...(run.verifiers.length ? { verifiers: run.verifiers } : {}),
      ...(run.checkJudge ? { checkJudge: run.checkJudge } : {}),
      ...(flags.attempts > 1 ? { attempts: flags.attempts } : {}),
    });
  } finally {
    printer.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** Progress of an attempt run on stderr: the resume line, a bar of episodes (on a terminal), failures and warnings. */
export function attemptPrinter(options: PrinterOptions = {}): { onEvent: (event: AttemptEvent) => void; stop: () => void } {
  let bar: SingleBar | undefined;
  const counts = { done: 0, failed: 0, steps: 0 };
  const status = () => `${counts.done} recorded, ${counts.failed} failed, ${counts.steps} steps`;
  const say = (line: string) => printAbove(bar, process.stderr, line);
  const onEvent = (e: AttemptEvent) => {
    if (e.type === 'run-start') {
      if (e.shard) say(describeShard(e.shard, e.shard.total));
      say(`${e.finished} already finished, ${e.todo} to run`);
      bar = e.todo > 0 ? progressBar(`${options.label ?? 'attempt'} |{bar}| {value}/{total} episodes | {status}`, options.progress) : undefined;
      bar?.start(e.todo, 0, { status: status() });
    } else if (e.type === 'step') counts.steps++;
    else if (e.type === 'episode-end') counts.done++;
    else if (e.type === 'episode-failed') {
      counts.failed++;
      say(`episode ${e.taskId} could not run: ${e.error}`);
    } else if (e.type === 'warning') say(`warning: ${e.message}`);
    else if (e.type === 'episode-elsewhere') say(elsewhereLine(e));
    else if (e.type === 'browser-launch' && e.launches > 1) say(`the browser died; relaunched (${e.launches} launches)`);
    if (e.type === 'episode-end' || e.type === 'episode-failed' || (e.type === 'episode-elsewhere' && e.reason !== 'claimed')) bar?.increment(1, { status: status() });
    else if (e.type === 'step') bar?.update({ status: status() });
  };
  return {
    onEvent,
    stop: () => {
      bar?.stop();
      bar = undefined;
    },
  };
}

function elsewhereLine(e: Extract<AttemptEvent, { type: 'episode-elsewhere' }>): string {
  switch (e.reason) {
    case 'claimed':
      return `episode ${e.taskId} is being run by ${e.holder}; waiting for it (taken over if that process dies)`;
    case 'finished':
      return `episode ${e.taskId} was finished by another process`;
    case 'taken-over':
      return `episode ${e.taskId} was taken over by another process: ${e.holder}`;
    default:
      return `episode ${e.taskId} was published first by another process; this copy was moved to _aside/`;
  }
}

/** The summary the CLI prints: counts, outcomes, verifier pass rate, tokens, wall time. */
export function summaryLine(s: AttemptResult): Record<string, unknown> {
  return {
    tasks: s.tasks,
    ...(s.attempts > 1 ? { attempts: s.attempts } : {}),
    skipped: s.skipped,
    recorded: s.recorded,
    failed: s.failed,
    ...(s.elsewhere ? { elsewhere: s.elsewhere } : {}),
    ...s.outcomes,
    steps: s.steps,
    steps_per_episode: s.recorded ? Math.round((s.steps / s.recorded) * 100) / 100 : 0,
    verified: s.verified.total,
    verified_ok: s.verified.passed,
    verified_rate: s.verified.total ? Math.round((s.verified.passed / s.verified.total) * 10_000) / 10_000 : null,
    input_tokens: s.usage.inputTokens,
    output_tokens: s.usage.outputTokens,
    seconds: Math.round(s.ms / 100) / 10,
  };
}

function qwenAgent(flags: AttemptFlags): Policy {
  const apiKey = flags.apiKeyEnv ? process.env[flags.apiKeyEnv] : undefined;
  if (flags.apiKeyEnv && !apiKey) throw new Error(`environment variable ${flags.apiKeyEnv} is not set`);
  return qwenPolicy({
    timeoutMs: flags.timeout * 1000,
    keySource: flags.apiKeyEnv ?? 'the key (none was sent: give --api-key-env NAME)',
    baseURL: flags.endpoint,
    model: flags.model,
    thinking: flags.thinking,
    // Several tries of a greedy agent would be one episode k times: they sample unless told otherwise.
    ...((flags.temperature ?? (flags.attempts > 1 ? 1 : undefined)) !== undefined ? { temperature: flags.temperature ?? 1 } : {}),
    ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
    apiKey: apiKey ?? 'EMPTY', // a local server needs no key; never send the OpenAI key to it
  });
}

// The sandbox's own record where the sites are the sandbox's, else MiniWeb's or what the browser saw.
function evidenceKind(flags: AttemptFlags): 'browser' | 'sandbox' | 'miniweb' {
  return evidenceKindOf(flags, !flags.baseUrl || flags.policy === 'oracle');
}

function describePolicy(policy: Policy, flags: AttemptFlags): string {
  if (flags.policy === 'qwen') return `${policy.model} on ${flags.endpoint}${flags.thinking ? ' (thinking)' : ''}`;
  const rate = flags.oracleFailureRate ? `, failing ${flags.oracleFailureRate * 100}% of tasks on purpose` : '';
  return `the sandbox's stand-in oracle agent (${policy.model}: it replays known solutions, it is not a model${rate})`;
}

/** The policy with each step's model call watched by `guard`. */
function guardPolicy(policy: Policy, guard: StageGuard): Policy {
  return {
    ...policy,
    ...(policy.forTry ? { forTry: (n: number) => guardPolicy(policy.forTry!(n), guard) } : {}),
    decide: (input) => guard.run(() => policy.decide(input), input.task.task_id),
  };
}

// The agent endpoint's key for the model-list check, as the policy sends it.
function agentKey(flags: AttemptFlags): { apiKey?: string } {
  const apiKey = flags.apiKeyEnv ? process.env[flags.apiKeyEnv] : undefined;
  return apiKey ? { apiKey } : {};
}
