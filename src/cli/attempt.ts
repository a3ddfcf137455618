/**
 * `taskgen attempt`: runs a tasks file with the agent in Chromium and records the run directory, with a
 * progress bar and a summary. Resumable: run it again to finish what a killed run left.
 * @module
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { SingleBar } from 'cli-progress';
import { attempt, type AttemptEvent, type AttemptSummary } from '../agent/attempt';
import { browserEvidence } from '../agent/evidence';
import { qwenPolicy } from '../agent/qwen-policy';
import type { EvidenceProvider, Policy } from '../agent/types';
import { nodeStore } from '../fs/node';
import { readJsonl } from '../io';
import { TaskSchema } from '../schemas';

/** The flags of `taskgen attempt`. */
export interface AttemptFlags {
  tasks: string;
  out: string;
  concurrency: number;
  maxSteps: number;
  policy: 'qwen' | 'oracle';
  endpoint: string;
  model: string;
  apiKeyEnv?: string;
  thinking: boolean;
  temperature: number;
  baseUrl?: string;
  evidence: 'browser' | 'sandbox';
  episodeTimeout: number;
  progress: boolean;
}

/** Registers `taskgen attempt`. */
export function register(program: Command): void {
  program
    .command('attempt')
    .description('attempt each task with the agent in Chromium and record the run dir (resumable)')
    .requiredOption('--tasks <file>', 'tasks JSONL file')
    .requiredOption('--out <dir>', 'run directory')
    .option('--concurrency <n>', 'episodes in parallel', positiveInt, 4)
    .option('--max-steps <n>', 'steps per episode', positiveInt, 15)
    .addOption(new Option('--policy <name>', 'who acts').choices(['qwen', 'oracle']).default('qwen'))
    .option('--endpoint <url>', 'the OpenAI-compatible server of the qwen policy (vLLM)', 'http://127.0.0.1:8000/v1')
    .option('--model <name>', 'the served model of the qwen policy', 'Qwen/Qwen3.5-4B')
    .option('--api-key-env <name>', 'environment variable with the endpoint key (default: none)')
    .option('--thinking', 'let the model think before acting', false)
    .option('--temperature <t>', 'sampling temperature', Number, 0)
    .option('--base-url <url>', 'the server of the sites (MiniWeb or the sandbox), e.g. http://127.0.0.1:8000')
    .addOption(
      new Option('--evidence <kind>', 'where the request log and data changes come from')
        .choices(['browser', 'sandbox'])
        .default('browser'),
    )
    .option('--episode-timeout <s>', 'time limit of one episode in seconds', positiveInt, 300)
    .option('--no-progress', 'no progress bar')
    .action(async (flags: AttemptFlags) => {
      await runAttempt(flags);
    });
}

async function runAttempt(flags: AttemptFlags): Promise<void> {
  const store = nodeStore();
  const tasks = await readJsonl(store, flags.tasks, TaskSchema, {
    onIssue: (issue) => process.stderr.write(`warning: ${issue.file}:${issue.line}: ${issue.problem}\n`),
  });
  if (!flags.baseUrl) throw new Error('attempt needs --base-url URL: the server the sites are on');
  const policy = await makePolicy(flags);
  const evidence = await makeEvidence(flags);
  process.stderr.write(`attempting ${tasks.length} tasks on ${flags.baseUrl} with ${describePolicy(policy, flags)} -> ${flags.out}\n`);

  const bar = flags.progress && process.stderr.isTTY ? new SingleBar({ format: 'attempt |{bar}| {value}/{total} episodes | {status}', stream: process.stderr, hideCursor: true }) : null;
  const counts = { done: 0, failed: 0, steps: 0 };
  const status = () => `${counts.done} recorded, ${counts.failed} failed, ${counts.steps} steps`;
  const onEvent = (e: AttemptEvent) => {
    if (e.type === 'run-start') {
      process.stderr.write(`${e.finished} already finished, ${e.todo} to run\n`);
      bar?.start(e.todo, 0, { status: status() });
    } else if (e.type === 'step') counts.steps++;
    else if (e.type === 'episode-end') counts.done++;
    else if (e.type === 'episode-failed') {
      counts.failed++;
      writeLine(bar, `episode ${e.taskId} could not run: ${e.error}`);
    } else if (e.type === 'warning') writeLine(bar, `warning: ${e.message}`);
    else if (e.type === 'browser-launch' && e.launches > 1) writeLine(bar, `the browser died; relaunched (${e.launches} launches)`);
    if (e.type === 'episode-end' || e.type === 'episode-failed') bar?.increment(1, { status: status() });
    else if (e.type === 'step') bar?.update({ status: status() });
  };

  const stop = new AbortController();
  const onSignal = () => stop.abort(new Error('interrupted; run the same command again to continue'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let summary: AttemptSummary;
  try {
    summary = await attempt(tasks, {
      policy,
      evidence,
      source: { baseUrl: flags.baseUrl },
      out: flags.out,
      concurrency: flags.concurrency,
      maxSteps: flags.maxSteps,
      episodeTimeoutMs: flags.episodeTimeout * 1000,
      store,
      onEvent,
      signal: stop.signal,
    });
  } finally {
    bar?.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  process.stdout.write(`${JSON.stringify(summaryLine(summary))}\n`);
  if (summary.failed > 0) {
    throw new Error(`${summary.failed} episodes could not run; run the same command again to retry them (finished ones are kept)`);
  }
}

/** The summary the CLI prints: counts, outcomes, verifier pass rate, tokens, wall time. */
export function summaryLine(s: AttemptSummary): Record<string, unknown> {
  return {
    tasks: s.tasks,
    skipped: s.skipped,
    recorded: s.recorded,
    failed: s.failed,
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

async function makePolicy(flags: AttemptFlags): Promise<Policy> {
  if (flags.policy === 'oracle') {
    throw new Error('--policy oracle needs the sandbox (sandbox/), which does not provide an oracle policy yet');
  }
  const apiKey = flags.apiKeyEnv ? process.env[flags.apiKeyEnv] : undefined;
  if (flags.apiKeyEnv && !apiKey) throw new Error(`environment variable ${flags.apiKeyEnv} is not set`);
  return qwenPolicy({
    baseURL: flags.endpoint,
    model: flags.model,
    thinking: flags.thinking,
    temperature: flags.temperature,
    apiKey: apiKey ?? 'EMPTY', // a local server needs no key; never send the OpenAI key to it
  });
}

async function makeEvidence(flags: AttemptFlags): Promise<EvidenceProvider> {
  if (flags.evidence === 'browser') return browserEvidence();
  const { sandboxEvidence } = await import('../../sandbox/evidence');
  return sandboxEvidence({ url: flags.baseUrl! });
}

function describePolicy(policy: Policy, flags: AttemptFlags): string {
  if (flags.policy === 'qwen') return `${policy.model} on ${flags.endpoint}${flags.thinking ? ' (thinking)' : ''}`;
  return `the ${policy.name} policy`;
}

function writeLine(bar: SingleBar | null, line: string): void {
  if (bar) {
    // cli-progress redraws on the next update; clear the line first so the message stands alone
    process.stderr.write(`\r\x1b[K${line}\n`);
  } else process.stderr.write(`${line}\n`);
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('a positive whole number');
  return n;
}
