/**
 * `taskgen pipeline`: propose → attempt → judge → validate → rows → report on one work dir, resumable, with the
 * user's setup (Gemini proposer and judge, the Qwen VL agent behind vLLM, MiniWeb's sites) or, with `--sandbox`,
 * the bundled sandbox sites and offline stand-in models. Progress bars on stderr, a summary on stdout.
 * @module
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { DEFAULT_QWEN_MODEL, serveQwen, type QwenServer } from '../agent/serve-qwen';
import { browserEvidence } from '../agent/evidence';
import type { EvidenceProvider } from '../agent/types';
import { DEFAULT_GEMINI_MODEL } from '../llm/gemini';
import { createLimiter } from '../llm/limiter';
import { UsageMeter } from '../llm/usage';
import { assertPlainName } from '../names';
import { pipeline } from '../pipeline/run';
import { stagesToRun } from '../pipeline/plan';
import type { PipelineConfig, PipelineStage } from '../pipeline/types';
import { DEFAULT_BUDGET } from '../rows';
import { memorySource } from '../source/memory';
import { miniwebSource } from '../source/miniweb';
import { integer, numberBetween } from './flags';
import { resolveModel } from './models';
import { formatPipelineSummary, pipelinePrinter } from './pipeline-print';
import { loadSandbox, type SandboxSetup } from './sandbox';

/** The work dir by default: the seed's `data/webmix/taskgen`. */
export const DEFAULT_PIPELINE_DIR = 'data/webmix/taskgen';
/** The work dir by default with `--sandbox` (`npm run demo`). */
export const DEFAULT_DEMO_DIR = 'demo';

/** The flags of `taskgen pipeline`. */
export interface PipelineFlags {
  out?: string;
  sandbox: boolean;
  sandboxSites: number;
  sandboxPort: number;
  failureRate: number;
  judgeNoise: number;
  sandboxSeed: number;
  sitemaps?: string;
  split?: string;
  baseUrl?: string;
  humanTasks?: string;
  sites?: string;
  perSite?: number;
  batch: number;
  humanPerSite?: number;
  budget: number;
  model?: string;
  endpoint?: string;
  judgeModel?: string;
  judgeEndpoint?: string;
  apiKeyEnv?: string;
  rpm?: number;
  agentEndpoint?: string;
  agentModel: string;
  agentApiKeyEnv?: string;
  thinking: boolean;
  serveQwen: boolean;
  gpus: number;
  vllm: string;
  evidence: 'auto' | 'browser' | 'sandbox';
  concurrency: number;
  workers: number;
  maxSteps: number;
  episodeTimeout: number;
  actionTimeout?: number;
  skip?: string;
  only?: string;
  progress: boolean;
}

const REAL_COMMAND =
  'GEMINI_API_KEY=... taskgen pipeline --model gemini-3.5-flash --agent-endpoint http://127.0.0.1:8000/v1 ' +
  '--agent-model Qwen/Qwen3.5-4B --sitemaps DIR --split FILE --base-url URL --human-tasks FILE';

/** Registers `taskgen pipeline`. */
export function register(program: Command): void {
  program
    .command('pipeline')
    .description(
      'the whole pipeline on one work dir: propose tasks, attempt them in Chromium, judge the episodes, validate the judge ' +
        'on human tasks, select training rows, write HTML reports; resumable (run it again after a crash). ' +
        '--sandbox runs it offline on the bundled sites with stand-in models',
    )
    .option('--out <dir>', `the work dir (default ${DEFAULT_PIPELINE_DIR}; with --sandbox ${DEFAULT_DEMO_DIR})`)
    .option('--sandbox', 'the bundled sandbox sites and offline stand-in models (a model flag given uses that real model instead)', false)
    .option('--sandbox-sites <n>', '(--sandbox) training sites, spread over the templates', integer(1), 3)
    .option('--sandbox-port <n>', '(--sandbox) the server port (0: a free one)', integer(0), 0)
    .option('--failure-rate <r>', '(--sandbox) share of tasks the stand-in agent gets wrong on purpose', numberBetween(0, 1), 0.3)
    .option('--judge-noise <r>', '(--sandbox) share of verdicts the stand-in judge flips on purpose', numberBetween(0, 1), 0.1)
    .option('--sandbox-seed <n>', '(--sandbox) seeds the stand-ins', integer(0), 17)
    .option('--sitemaps <dir>', "MiniWeb's directory of <site>.json sitemaps")
    .option('--split <file>', "MiniWeb's split file (its train list is the training sites)")
    .option('--base-url <url>', 'the server the sites are under, such as http://127.0.0.1:8000')
    .option('--human-tasks <file>', 'human tasks with verifiers (JSONL); those of the training sites validate the judge')
    .option('--sites <a,b>', 'the training sites (default: the split\'s train list; with --sandbox: --sandbox-sites of them)')
    .option('--per-site <n>', 'tasks proposed per site (default 140; with --sandbox 4)', integer(0))
    .option('--batch <n>', 'tasks asked for per proposer call', integer(1), 20)
    .option('--human-per-site <n>', 'human tasks per site to validate with (default all; with --sandbox 2)', integer(1))
    .option('--budget <n>', 'training steps to select', integer(0), DEFAULT_BUDGET)
    .option('--model <name>', `the proposer, and the judge unless --judge-model (default ${DEFAULT_GEMINI_MODEL})`)
    .option('--endpoint <url>', 'an OpenAI-compatible server for --model')
    .option('--judge-model <name>', 'the judge (default --model)')
    .option('--judge-endpoint <url>', 'an OpenAI-compatible server for --judge-model')
    .option('--api-key-env <name>', 'the environment variable holding the proposer and judge API key')
    .option('--rpm <n>', 'most proposer and judge requests per minute (default: no limit)', integer(1))
    .option('--agent-endpoint <url>', "the agent's OpenAI-compatible server (vLLM), such as http://127.0.0.1:8000/v1 (default env QWEN_ENDPOINT)")
    .option('--agent-model <name>', 'the served agent model', DEFAULT_QWEN_MODEL)
    .option('--agent-api-key-env <name>', "the environment variable with the agent endpoint's key (default: none)")
    .option('--thinking', 'let the agent think before acting', false)
    .option('--serve-qwen', 'start vLLM with the agent model for this run (and stop it at the end)', false)
    .option('--gpus <n>', '(--serve-qwen) GPUs, one model copy each', integer(1), 1)
    .option('--vllm <path>', '(--serve-qwen) the vllm executable', 'vllm')
    .addOption(
      new Option('--evidence <kind>', 'where the request log and data changes come from').choices(['auto', 'browser', 'sandbox']).default('auto', 'sandbox with --sandbox, else browser'),
    )
    .option('--concurrency <n>', 'episodes in parallel', integer(1), 4)
    .option('--workers <n>', 'episodes judged at once', integer(1), 16)
    .option('--max-steps <n>', 'steps per episode', integer(1), 15)
    .option('--episode-timeout <s>', 'time limit of one episode in seconds', integer(1), 300)
    .option('--action-timeout <s>', 'time limit of one element action in seconds (default 10)', integer(1))
    .option('--skip <stages>', 'stages not to run: propose,attempt,judge,validate,rows,report')
    .option('--only <stages>', 'the only stages to run')
    .option('--no-progress', 'no progress bars')
    .action(async (flags: PipelineFlags) => {
      await runPipeline(flags);
    });
}

async function runPipeline(flags: PipelineFlags): Promise<void> {
  const list = (text: string | undefined) => (text === undefined ? undefined : text.split(',').map((s) => s.trim()));
  const sites = list(flags.sites);
  for (const site of sites ?? []) assertPlainName(site, 'site');
  const skip = list(flags.skip) as PipelineStage[] | undefined;
  const only = list(flags.only) as PipelineStage[] | undefined;
  const { stages } = stagesToRun({ skip, only });
  const runs = (...names: PipelineStage[]) => names.some((s) => stages.includes(s));
  const out = flags.out ?? (flags.sandbox ? DEFAULT_DEMO_DIR : DEFAULT_PIPELINE_DIR);
  const models = resolveRealModels(flags, runs);
  if (!flags.sandbox) checkRealSetup(flags, runs);

  const cleanup: Array<() => Promise<void>> = [];
  const stop = new AbortController();
  let interrupted = 0;
  const onSignal = () => {
    if (interrupted++) process.exit(130);
    process.stderr.write('\nstopping (no new episode or stage starts; Ctrl-C again to quit at once); run the same command again to go on\n');
    stop.abort(new Error('interrupted; run the same command again to go on'));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const sandbox = flags.sandbox ? await (await loadSandbox()).sandboxSetup(sandboxOptions(flags, sites)) : undefined;
    if (sandbox) cleanup.push(() => sandbox.close());
    const agent = await agentModel(flags, runs('attempt', 'validate') && !(sandbox && !models.agentGiven), out, cleanup);
    const lines: string[] = [`taskgen pipeline -> ${out}/`];
    const evidence = await evidenceFor(flags, sandbox);
    const config = buildConfig(flags, { out, sites, sandbox, models, agent: agent?.llm, evidence, skip, only, stop: stop.signal });
    lines.push(...describeSetup(flags, sandbox, models, agent?.description, runs));
    process.stdout.write(`${lines.join('\n')}\n`);

    const printer = pipelinePrinter({ perSite: config.perSite, progress: flags.progress });
    const summary = await pipeline({ ...config, onEvent: printer.onEvent }).finally(printer.stop);
    process.stdout.write(`${formatPipelineSummary(summary)}\n`);
    const standIns = standInRoles(models, runs);
    if (sandbox && standIns.length) process.stdout.write(`${standInNotice(sandbox, standIns)}\n`);
    if (!summary.complete) process.exitCode = 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    for (const close of cleanup.reverse()) await close().catch(() => {});
  }
}

interface RealModels {
  proposer?: ReturnType<typeof resolveModel>;
  judge?: ReturnType<typeof resolveModel>;
  /** Whether the flags name a real agent (an endpoint or --serve-qwen). */
  agentGiven: boolean;
}

// The real proposer and judge the flags ask for (with --sandbox only those named by a flag), resolved before
// anything starts, so a missing key fails at once.
function resolveRealModels(flags: PipelineFlags, runs: (...s: PipelineStage[]) => boolean): RealModels {
  const limiter = createLimiter({ concurrency: Math.max(16, flags.workers), ...(flags.rpm ? { requestsPerMinute: flags.rpm } : {}) });
  const proposerNamed = !flags.sandbox || flags.model !== undefined || flags.endpoint !== undefined;
  const judgeNamed = !flags.sandbox || flags.judgeModel !== undefined || flags.judgeEndpoint !== undefined || flags.model !== undefined;
  const proposer =
    runs('propose') && proposerNamed
      ? resolveModel({ model: flags.model ?? DEFAULT_GEMINI_MODEL, endpoint: flags.endpoint, apiKeyEnv: flags.apiKeyEnv, limiter })
      : undefined;
  const judge =
    runs('judge', 'validate') && judgeNamed
      ? resolveModel({
          model: flags.judgeModel ?? flags.model ?? DEFAULT_GEMINI_MODEL,
          endpoint: flags.judgeEndpoint ?? (flags.judgeModel === undefined ? flags.endpoint : undefined),
          apiKeyEnv: flags.apiKeyEnv,
          limiter,
        })
      : undefined;
  const agentGiven = flags.serveQwen || Boolean(flags.agentEndpoint ?? (flags.sandbox ? undefined : process.env.QWEN_ENDPOINT));
  if (agentGiven && flags.agentApiKeyEnv && !process.env[flags.agentApiKeyEnv]) {
    throw new Error(`no API key for the agent: set ${flags.agentApiKeyEnv} in the environment (--agent-api-key-env)`);
  }
  return { proposer, judge, agentGiven };
}

// Without --sandbox: the sites, the server and the agent must be named by flags.
function checkRealSetup(flags: PipelineFlags, runs: (...s: PipelineStage[]) => boolean): void {
  const missing: string[] = [];
  if (runs('propose', 'attempt', 'validate')) {
    if (!flags.sitemaps) missing.push('--sitemaps DIR (the sitemaps)');
    if (!flags.baseUrl) missing.push('--base-url URL (the server of the sites)');
    if (!flags.sites && !flags.split && runs('propose', 'validate')) missing.push('--split FILE or --sites a,b (the training sites)');
  }
  if (runs('validate') && !flags.humanTasks) missing.push('--human-tasks FILE (human tasks with verifiers), or --skip validate');
  if (runs('attempt', 'validate') && !flags.serveQwen && !flags.agentEndpoint && !process.env.QWEN_ENDPOINT) {
    missing.push('--agent-endpoint URL (or env QWEN_ENDPOINT) or --serve-qwen (the agent)');
  }
  if (missing.length) {
    throw new Error(`taskgen pipeline needs ${missing.join('; ')}. To try it offline: taskgen pipeline --sandbox`);
  }
}

function sandboxOptions(flags: PipelineFlags, sites: string[] | undefined) {
  return {
    ...(sites ? { sites } : {}),
    siteCount: flags.sandboxSites,
    humanPerSite: flags.humanPerSite ?? 2,
    port: flags.sandboxPort,
    failureRate: flags.failureRate,
    judgeNoise: flags.judgeNoise,
    seed: flags.sandboxSeed,
  };
}

// The real agent's model: on the endpoint given, or on a vLLM server started here (stopped by `cleanup`).
async function agentModel(flags: PipelineFlags, wanted: boolean, out: string, cleanup: Array<() => Promise<void>>) {
  if (!wanted) return undefined;
  const extraBody = { chat_template_kwargs: { enable_thinking: flags.thinking } };
  let endpoint = flags.agentEndpoint ?? (flags.sandbox ? undefined : process.env.QWEN_ENDPOINT);
  let served: QwenServer | undefined;
  if (flags.serveQwen) {
    await mkdir(out, { recursive: true });
    const logFile = path.join(out, 'vllm.log');
    const log = createWriteStream(logFile, { flags: 'a' });
    process.stdout.write(`starting vLLM for ${flags.agentModel} on ${flags.gpus} GPU(s) (log: ${logFile}) ...\n`);
    served = await serveQwen({ model: flags.agentModel, gpus: flags.gpus, vllmPath: flags.vllm, port: 0, onLog: (l) => log.write(`${l}\n`) }).catch((e: unknown) => {
      log.end();
      throw e;
    });
    cleanup.push(async () => {
      await served!.stop();
      log.end();
    });
    endpoint = served.baseURL;
  }
  const llm = resolveModel({ model: served?.model ?? flags.agentModel, endpoint, apiKeyEnv: flags.agentApiKeyEnv, extraBody });
  const how = served ? ` (vLLM started here by --serve-qwen, ${flags.gpus} GPU(s), stopped at the end)` : '';
  return { llm, description: `${llm.description}${flags.thinking ? ', thinking' : ''}${how}` };
}

function buildConfig(
  flags: PipelineFlags,
  setup: {
    out: string;
    sites?: string[];
    sandbox?: SandboxSetup;
    models: RealModels;
    agent?: PipelineConfig['agent'];
    evidence: EvidenceProvider;
    skip: PipelineStage[] | undefined;
    only: PipelineStage[] | undefined;
    stop: AbortSignal;
  },
): PipelineConfig & { readonly perSite: number } {
  const { sandbox, models } = setup;
  const source = sandbox?.source
    ?? (flags.sitemaps && flags.baseUrl ? miniwebSource({ sitemaps: flags.sitemaps, split: flags.split, baseUrl: flags.baseUrl }) : memorySource({ sitemaps: {} }));
  return {
    dir: setup.out,
    source,
    sites: setup.sites ?? sandbox?.sites,
    proposer: models.proposer ?? sandbox?.proposer,
    judge: models.judge ?? sandbox?.judge,
    ...(setup.agent ? { agent: setup.agent, agentThinking: flags.thinking } : sandbox ? { policy: sandbox.policy } : {}),
    evidence: setup.evidence,
    humanTasks: flags.humanTasks ?? sandbox?.humanTasks,
    ...(flags.humanPerSite !== undefined && !sandbox ? { humanPerSite: flags.humanPerSite } : {}),
    perSite: flags.perSite ?? (sandbox ? 4 : 140),
    batch: flags.batch,
    budget: flags.budget,
    concurrency: flags.concurrency,
    judgeWorkers: flags.workers,
    maxSteps: flags.maxSteps,
    episodeTimeoutMs: flags.episodeTimeout * 1000,
    ...(flags.actionTimeout ? { actionTimeoutMs: flags.actionTimeout * 1000 } : {}),
    skip: setup.skip,
    only: setup.only,
    meter: new UsageMeter(),
    signal: setup.stop,
  };
}

// The sandbox's own record for its sites (or a server speaking its /_admin/ API), else what the browser saw.
async function evidenceFor(flags: PipelineFlags, sandbox: SandboxSetup | undefined): Promise<EvidenceProvider> {
  const kind = flags.evidence === 'auto' ? (sandbox ? 'sandbox' : 'browser') : flags.evidence;
  if (kind === 'browser') return browserEvidence();
  if (sandbox) return sandbox.evidence;
  if (!flags.baseUrl) throw new Error('--evidence sandbox needs --base-url URL (a server with the sandbox\'s /_admin/ API)');
  return (await loadSandbox()).sandboxEvidence({ url: flags.baseUrl });
}

// The roles a stand-in plays in this run: those whose stages run and no real model was named for.
function standInRoles(models: RealModels, runs: (...s: PipelineStage[]) => boolean): string[] {
  const roles: Array<[string, boolean]> = [
    ['proposer', runs('propose') && !models.proposer],
    ['agent', runs('attempt', 'validate') && !models.agentGiven],
    ['judge', runs('judge', 'validate') && !models.judge],
  ];
  return roles.filter(([, standIn]) => standIn).map(([role]) => role);
}

// Which sites, server and models this run uses, in words.
function describeSetup(flags: PipelineFlags, sandbox: SandboxSetup | undefined, models: RealModels, agent: string | undefined, runs: (...s: PipelineStage[]) => boolean): string[] {
  const lines: string[] = [];
  if (sandbox) {
    lines.push(`  sites:    ${sandbox.sites.length} sandbox training sites (${sandbox.sites.join(', ')}), templates ${sandbox.templates.join(', ')}, on the bundled sandbox at ${sandbox.url}`);
  } else {
    const which = flags.sites ? flags.sites : `the train list of ${flags.split ?? '(no split)'}`;
    lines.push(`  sites:    ${which} on ${flags.baseUrl ?? '(no --base-url)'} (sitemaps ${flags.sitemaps ?? '-'})`);
  }
  const role = (name: string, used: boolean, real: string | undefined, standIn: string | undefined) =>
    lines.push(`  ${`${name}:`.padEnd(9)} ${used ? (real ?? standIn ?? '-') : '(not used: its stages are skipped)'}`);
  role('proposer', runs('propose'), models.proposer?.description, sandbox?.describe.proposer);
  role('agent', runs('attempt', 'validate'), agent, sandbox?.describe.agent);
  role('judge', runs('judge', 'validate'), models.judge?.description, sandbox?.describe.judge);
  const standIns = standInRoles(models, runs);
  if (sandbox && standIns.length) lines.push(standInNotice(sandbox, standIns));
  return lines;
}

function standInNotice(sandbox: SandboxSetup, roles: readonly string[]): string {
  const named = roles.map((r) => `the ${r}`).join(roles.length > 2 ? ', ' : ' and ').replace(/, (the \w+)$/, ' and $1');
  const many = roles.length > 1;
  return [
    `NOTE: STAND-IN MODELS. ${named[0]!.toUpperCase()}${named.slice(1)} of this run ${many ? 'are' : 'is'} the sandbox's offline stand-in${many ? 's' : ''}, not ${many ? 'models' : 'a model'}:`,
    '  the figures show the pipeline working end to end, not what real models would do.',
    `  Real models: ${REAL_COMMAND}`,
    '  (--serve-qwen --gpus N instead of --agent-endpoint starts vLLM here; model flags with --sandbox use real models on these sandbox sites.)',
    `  The sandbox's sites: ${sandbox.url} while this runs, or npm run sandbox.`,
  ].join('\n');
}
