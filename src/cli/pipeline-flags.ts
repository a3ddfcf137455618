/** The flags of `taskgen pipeline`: their declaration, types and defaults. @module */
import { Option, type Command } from 'commander';
import { DEFAULT_QWEN_MODEL } from '../agent/serve-qwen';
import { DEFAULT_GEMINI_MODEL } from '../models/gemini';
import { DEFAULT_BUDGET } from '../rows';
import type { Shard } from '../core/shard';
import { integer, numberBetween, stopAfterFailuresOption, timeoutOption } from './flags';
import { shardOptions } from './shard';
import { evidenceOptions, type EvidenceKind } from './evidence';

/** The work dir by default: the seed's `data/webmix/taskgen`. */
export const DEFAULT_PIPELINE_DIR = 'data/webmix/taskgen';
/** The work dir by default with `--sandbox` (`npm run demo`). */
export const DEFAULT_DEMO_DIR = 'demo';

/** The flags of `taskgen pipeline`. */
export interface PipelineFlags {
  out?: string;
  timeout: number;
  sandbox: boolean;
  sandboxSites: number;
  sandboxPort: number;
  failureRate: number;
  judgeNoise: number;
  verifierErrorRate: number;
  relabelErrorRate: number;
  relabelK: number;
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
  attempts: number;
  pick: 'shortest' | 'first' | 'all';
  minPrecision?: number;
  agentTemperature?: number;
  agentSeed?: number;
  serveQwen: boolean;
  gpus: number;
  vllm: string;
  evidence: EvidenceKind;
  miniwebDb?: string;
  miniwebCodes: 'on' | 'off';
  concurrency: number;
  workers: number;
  maxSteps: number;
  episodeTimeout: number;
  actionTimeout?: number;
  stopAfterFailures: number;
  skip?: string;
  only?: string;
  progress: boolean;
  shard?: Shard;
  shards?: number;
  judgeLab: boolean;
  mixSetup: boolean;
}

/** Declares `taskgen pipeline` and its flags on `program`; the caller adds the action. */
export function pipelineCommand(program: Command, name = 'pipeline'): Command {
  const command = stopAfterFailuresOption(timeoutOption(program.command(name)))
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
    .option('--verifier-error-rate <r>', '(--sandbox) share of tasks the stand-in verifier writer gets wrong on purpose', numberBetween(0, 1), 0.1)
    .option('--relabel-error-rate <r>', '(--sandbox) share of tasks the stand-in relabeler writes wrong on purpose', numberBetween(0, 1), 0.1)
    .option('--relabel-k <n>', 'the most tasks written per relabeled episode (skip the relabel stage with --skip relabel)', integer(1), 3)
    .option('--sandbox-seed <n>', '(--sandbox) seeds the stand-ins', integer(0), 17)
    .option('--sitemaps <dir>', "MiniWeb's directory of <site>.json sitemaps")
    .option('--split <file>', "MiniWeb's split file (its train list is the training sites)")
    .option('--base-url <url>', 'the server the sites are under, such as http://127.0.0.1:8000')
    .option('--human-tasks <path>', "human tasks with verifiers (JSONL, or a directory of MiniWeb's annotated tasks); those of the training sites validate the judge")
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
    .option('--attempts <k>', 'tries per task, each its own episode (try n >= 2 in <dir>/run/_tries/<n>/); the summary and report show pass@k', integer(1), 1)
    .addOption(new Option('--pick <which>', "which successful tries of a task become rows").choices(['shortest', 'first', 'all']).default('shortest'))
    .option(
      '--min-precision <p>',
      'a precision target for judge-only rows, as taskgen rows --min-precision: the judge configuration with the most rows whose lower 95% bound ' +
        'on precision on the scored sets (the run, the human run) is at least p; judge-only episodes it does not accept are left out',
      numberBetween(0, 1),
    )
    .option('--agent-temperature <t>', "the agent's sampling temperature (default 0, or 1 with --attempts above 1)", numberBetween(0, 2))
    .option('--agent-seed <n>', "the agent's sampling seed of try 1 (try n: seed + n - 1)", integer(0))
    .option('--serve-qwen', 'start vLLM with the agent model for this run (and stop it at the end)', false)
    .option('--gpus <n>', '(--serve-qwen) GPUs, one model copy each', integer(1), 1)
    .option('--vllm <path>', '(--serve-qwen) the vllm executable', 'vllm');
  evidenceOptions(command, 'sandbox with --sandbox, miniweb with --miniweb-db, else browser')
    .option('--concurrency <n>', 'episodes in parallel', integer(1), 4)
    .option('--workers <n>', 'episodes judged at once', integer(1), 16)
    .option('--max-steps <n>', 'steps per episode', integer(1), 15)
    .option('--episode-timeout <s>', 'time limit of one episode in seconds', integer(1), 300)
    .option('--action-timeout <s>', 'time limit of one element action in seconds (default 10)', integer(1))
    .option('--skip <stages>', 'stages not to run: propose,attempt,judge,verifiers,validate,relabel,rows,report')
    .option('--only <stages>', 'the only stages to run')
    .option('--no-progress', 'no progress bars')
    .option('--judge-lab', 'then run the judge lab on the human-task run: the preset judge variants compared against the verifiers', false)
    .option(MIX_SETUP_FLAG, MIX_SETUP_HELP, false);
  return shardOptions(command);
}


/** The sandbox setup the `--sandbox` flags ask for. */
export function sandboxOptions(flags: PipelineFlags, sites: string[] | undefined) {
  return {
    ...(sites ? { sites } : {}),
    siteCount: flags.sandboxSites,
    humanPerSite: flags.humanPerSite ?? 2,
    port: flags.sandboxPort,
    failureRate: flags.failureRate,
    judgeNoise: flags.judgeNoise,
    verifierErrorRate: flags.verifierErrorRate,
    relabelErrorRate: flags.relabelErrorRate,
    seed: flags.sandboxSeed,
  };
}

/** The flag every writing command takes to write into a dir recorded with another set-up on purpose. */
export const MIX_SETUP_FLAG = '--mix-setup';
/** Its help text. */
export const MIX_SETUP_HELP = 'write into a dir recorded with another set-up (model, per-site, max steps...) on purpose; summaries then count per set-up';
