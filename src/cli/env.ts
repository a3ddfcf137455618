/**
 * `taskgen env`: serves tasks, their verifiers and the harness as an OpenEnv environment (docs/env-server.md), each
 * session's episode recorded in `--out`; runs until SIGINT or SIGTERM.
 * @module
 */
import type { Command } from 'commander';
import path from 'node:path';
import v8 from 'node:v8';
import { serveEnv, type EnvEvent } from '../env/server';
import { evidenceKindOf, evidenceOptions, nonSandboxEvidence, type EvidenceKind } from './evidence';
import type { EvidenceProvider } from '../attempt/types';
import { nodeStore } from '../files/node';
import { verifiersFileOf } from '../files/layout';
import { readJsonl } from '../core/io';
import { TaskSchema, type Task } from '../core/schemas';
import { readWrittenVerifiers } from '../verifiers/file';
import { DEFAULT_GEMINI_MODEL } from '../models/gemini';
import type { LanguageModel } from '../models/types';
import { DEFAULT_SITE_PREFIX, integer, sitePrefixOf, sitePrefixPattern } from './flags';
import { resolveModel } from './models';
import { MIX_SETUP_FLAG, MIX_SETUP_HELP } from './pipeline-flags';
import { loadSandbox } from './sandbox';

interface EnvFlags {
  sandbox: boolean;
  tasks?: string;
  baseUrl?: string;
  evidence: EvidenceKind;
  miniwebDb?: string;
  miniwebCodes: 'on' | 'off';
  out: string;
  port: number;
  host: string;
  maxSessions: number;
  maxSteps: number;
  idleTimeout: number;
  stepTimeout: number;
  episodeTimeout: number;
  graceMs: number;
  tokenEnv?: string;
  judgeReward: boolean;
  judgeModel: string;
  judgeEndpoint?: string;
  apiKeyEnv?: string;
  screenshot: boolean;
  sitePrefix: string;
  mixSetup: boolean;
}

/** Registers `taskgen env`. */
export function register(program: Command): void {
  const command = program
    .command('env')
    .description('serve tasks, their verifiers and the browser harness as an OpenEnv environment for RL (every session recorded in --out)')
    .requiredOption('--out <dir>', 'run directory the episodes are recorded in (tries past the first under _tries/<n>/)')
    .option('--sandbox', "serve the sandbox's sites and task banks (splits train and test)", false)
    .option('--tasks <file>', 'tasks JSONL file (verifiers.jsonl beside it rewards tasks without a verifier)')
    .option('--base-url <url>', 'the server of the sites (MiniWeb, or a sandbox); default with --tasks: start the sandbox here');
  evidenceOptions(command, 'sandbox for the sandbox, miniweb with --miniweb-db, else browser')
    .option('--port <n>', 'port (0: a free one)', integer(0), 8000)
    .option('--host <addr>', 'interface to bind', '127.0.0.1')
    .option('--max-sessions <n>', 'sessions at once (one more gets CAPACITY_REACHED)', integer(1), 8)
    .option('--max-steps <n>', 'steps per episode', integer(1), 15)
    .option('--idle-timeout <s>', 'close a session silent for this long', integer(1), 300)
    .option('--step-timeout <s>', 'end a session whose step runs longer', integer(1), 120)
    .option('--episode-timeout <s>', "an episode's time limit, the client's think time included", integer(1), 1800)
    .option('--grace-ms <ms>', 'on SIGTERM or SIGINT: how long a session answering a step may finish it (then it is cut)', integer(0), 10_000)
    .option('--token-env <name>', 'require Authorization: Bearer <token>, the token read from this environment variable')
    .option('--judge-reward', 'reward tasks without a verifier with the judge\'s verdict (records in <out>_judge)', false)
    .option('--judge-model <name>', 'the judge model of --judge-reward', DEFAULT_GEMINI_MODEL)
    .option('--judge-endpoint <url>', 'an OpenAI-compatible server for --judge-model')
    .option('--api-key-env <name>', "the environment variable holding the judge's API key")
    .option('--no-screenshot', 'leave the screenshot out of observations')
    .option('--site-prefix <path>', "a site's path on the server", sitePrefixPattern, DEFAULT_SITE_PREFIX)
    .option(MIX_SETUP_FLAG, MIX_SETUP_HELP, false)
    .action(async (flags: EnvFlags) => {
      await envAction(flags);
    });
}

async function envAction(flags: EnvFlags): Promise<void> {
  if (flags.sandbox === Boolean(flags.tasks)) throw new Error('give either --sandbox or --tasks <file>');
  // A server that runs for days keeps its memory flat: V8 grows the heap to 1.3x what its last full pass left live,
  // where by its own heuristic it may let each step's screenshot reply from Chromium (a large object) fill it to
  // 2-2.6x first, or not (docs/env-server.md: the soak bench with and without; `--optimize-for-size` flattens it too,
  // for about four times the added CPU). The CLI owns its process; a program that embeds serveEnv passes the flag to
  // node itself.
  v8.setFlagsFromString('--heap-growing-percent=30');
  const token = flags.tokenEnv ? process.env[flags.tokenEnv] : undefined;
  if (flags.tokenEnv && !token) throw new Error(`--token-env ${flags.tokenEnv}: the variable is not set`);
  const store = nodeStore();
  const warn = (m: string) => process.stderr.write(`warning: ${m}\n`);
  const sandboxNeeded = flags.sandbox || !flags.baseUrl || flags.evidence === 'sandbox';
  const sandbox = sandboxNeeded ? await (await loadSandbox()).sandboxSetup({ url: flags.baseUrl, sites: [] }) : null;
  try {
    const baseUrl = flags.baseUrl ?? sandbox!.url;
    if (!flags.baseUrl) process.stderr.write(`started the sandbox (bundled sites) at ${baseUrl}\n`);
    const { tasks, splitOf } = flags.sandbox ? await sandboxTasks() : { tasks: await readTasks(flags.tasks!, warn), splitOf: undefined };
    const verifiers = flags.tasks ? [...(await readWrittenVerifiers(store, verifiersFileOf(flags.tasks))).byTask.values()] : [];
    const kind = evidenceKindOf(flags, sandbox !== null);
    const evidence: EvidenceProvider = kind === 'sandbox' ? sandbox!.evidence : nonSandboxEvidence(kind, flags, baseUrl);
    const server = await serveEnv({
      tasks,
      ...(splitOf ? { splitOf } : {}),
      verifiers,
      baseUrl,
      evidence,
      sitePrefix: sitePrefixOf(flags.sitePrefix),
      out: flags.out,
      port: flags.port,
      host: flags.host,
      maxSessions: flags.maxSessions,
      maxSteps: flags.maxSteps,
      idleTimeoutMs: flags.idleTimeout * 1000,
      stepTimeoutMs: flags.stepTimeout * 1000,
      episodeTimeoutMs: flags.episodeTimeout * 1000,
      screenshot: flags.screenshot,
      mixSetup: flags.mixSetup,
      ...(token ? { token } : {}),
      ...(flags.judgeReward ? { judge: judgeModel(flags) } : {}),
      store,
      onEvent: printEvent,
    });
    process.stderr.write(`serving ${tasks.length} tasks at ${server.url} (OpenEnv: ws ${server.url.replace(/^http/, 'ws')}/ws; ${flags.maxSessions} sessions; episodes -> ${flags.out})\n`);
    const signal = await untilSignal();
    // Bounded: the grace, then at most about 11 s of closing; past that the process exits anyway.
    setTimeout(() => {
      process.stderr.write('stopping: still not stopped past the grace period; exiting\n');
      process.exit(1);
    }, flags.graceMs + HARD_STOP_MARGIN_MS).unref();
    await server.close({ graceMs: flags.graceMs, reason: signal });
  } finally {
    await sandbox?.close();
  }
}

// What closing may take past the grace period (cut episodes and the browser get 5 s each) before the process exits.
const HARD_STOP_MARGIN_MS = 15_000;

// The first SIGINT or SIGTERM; a second exits at once (130).
function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let got = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      if (got++) process.exit(130);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

async function readTasks(file: string, warn: (m: string) => void): Promise<Task[]> {
  return readJsonl(nodeStore(), file, TaskSchema, { onIssue: (i) => warn(`${i.file}:${i.line}: ${i.problem}`) });
}

// The sandbox's human tasks and task banks of every site, split by site (train and test).
async function sandboxTasks(): Promise<{ tasks: Task[]; splitOf: (task: Task) => string }> {
  const catalog = (await loadSandbox()).defaultCatalog();
  const { train, test } = catalog.split();
  const testSites = new Set(test);
  const tasks = [...train, ...test].flatMap((site) => {
    const t = catalog.tasks(site);
    return t ? [...t.human, ...t.bank] : [];
  });
  return { tasks, splitOf: (task) => (testSites.has(task.site) ? 'test' : 'train') };
}

// The judge of --judge-reward, its description printed (the key never is).
function judgeModel(flags: EnvFlags): LanguageModel {
  const model = resolveModel({ model: flags.judgeModel, endpoint: flags.judgeEndpoint, apiKeyEnv: flags.apiKeyEnv });
  process.stderr.write(`judge of tasks without a verifier: ${model.description}\n`);
  return model;
}

function printEvent(event: EnvEvent): void {
  const line = (s: string) => process.stderr.write(`${s}\n`);
  if (event.type === 'episode-end') line(`episode ${event.taskId}: reward ${event.reward ?? 'none'} -> ${event.dir ? path.relative('.', event.dir) : '?'}`);
  else if (event.type === 'refused') line(`refused a session: ${event.reason}`);
  else if (event.type === 'browser-launch' && event.launches > 1) line(`relaunched Chromium (launch ${event.launches})`);
  else if (event.type === 'warning') line(`warning: ${event.message}`);
  else if (event.type === 'shutdown') line(`stopping: no new sessions; ${event.sessions} open (a session answering a step gets ${event.graceMs} ms to finish it; episodes still in progress are dropped, nothing half-recorded)`);
  else if (event.type === 'stopped') line(`stopped: ${event.sessions} sessions closed${event.cut ? `, ${event.cut} cut at the end of the grace period` : ''}`);
}
