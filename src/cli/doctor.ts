/**
 * `taskgen doctor`: the checks the pipeline runs before its first paid call, alone, with the pipeline's flags:
 * the keys are set, each model's server answers and serves it, the sites answer at the base URL under their
 * prefix, Chromium launches, the work dir can be written. Prints a pass/fail list; exits 1 when one fails.
 * Also `checkBeforeSpending`, the same checks as the other commands run them before their first paid call.
 * @module
 */
import type { Command } from 'commander';
import { miniwebSource } from '../sites/miniweb';
import { stagesToRun } from '../pipeline/plan';
import type { PipelineStage } from '../pipeline/types';
import type { PreflightCheck } from '../preflight/checks';
import { preflight, PreflightError, type PreflightOptions } from '../preflight/run';
import type { LanguageModel } from '../models/types';
import { resolveModel } from './models';
import { evidenceKindOf, nonSandboxEvidence } from './evidence';
import { DEFAULT_DEMO_DIR, DEFAULT_PIPELINE_DIR, pipelineCommand, type PipelineFlags } from './pipeline-flags';
import { checkRealSetup, resolveRealModels, type Runs } from './pipeline-models';

/** Registers `taskgen doctor`. */
export function register(program: Command): void {
  pipelineCommand(program, 'doctor')
    .description(
      'check, without a paid call, what `taskgen pipeline` with the same flags will need: API keys, the agent and judge ' +
        'servers (they answer and serve the named model), the sites at --base-url, Chromium, the work dir; exits 1 when one fails',
    )
    .action(async (flags: PipelineFlags) => {
      const checks = await doctorChecks(flags);
      process.stdout.write(`${formatChecks(checks)}\n`);
      const failed = checks.filter((c) => !c.ok).length;
      process.stdout.write(failed ? `${failed} of ${checks.length} checks failed\n` : `all ${checks.length} checks passed\n`);
      if (failed) process.exitCode = 1;
    });
}

/** The checks, one line each: `ok   name: detail`, or `FAIL name: detail` and the hint on the next line. */
export function formatChecks(checks: readonly PreflightCheck[]): string {
  return checks.map((c) => (c.ok ? `ok   ${c.name}: ${c.detail}` : `FAIL ${c.name}: ${c.detail}\n     -> ${c.hint}`)).join('\n');
}

/** Runs the checks before a command's first paid call; on a failure prints them and throws a `PreflightError`. */
export async function checkBeforeSpending(options: PreflightOptions): Promise<void> {
  const report = await preflight(options);
  if (report.ok) return;
  const failed = report.checks.filter((c) => !c.ok);
  process.stderr.write(`${formatChecks(failed)}\n`);
  throw new PreflightError(failed);
}

async function doctorChecks(flags: PipelineFlags): Promise<PreflightCheck[]> {
  const list = (text: string | undefined) => (text === undefined ? undefined : text.split(',').map((s) => s.trim()));
  const { stages } = stagesToRun({ skip: list(flags.skip) as PipelineStage[] | undefined, only: list(flags.only) as PipelineStage[] | undefined });
  const runs: Runs = (...names) => names.some((s) => stages.includes(s));
  const checks: PreflightCheck[] = [];
  const fail = (name: string, detail: string, hint: string) => checks.push({ name, ok: false, detail, hint });
  if (!flags.sandbox) {
    try {
      checkRealSetup(flags, runs);
    } catch (error) {
      fail('flags', (error as Error).message, 'give the flags named, or try it offline with --sandbox');
    }
  }
  const models: Array<{ role: string; llm: LanguageModel }> = [];
  try {
    const real = resolveRealModels(flags, runs);
    if (real.proposer) models.push({ role: 'proposer', llm: real.proposer });
    if (real.judge) models.push({ role: 'judge', llm: real.judge });
  } catch (error) {
    fail('keys', (error as Error).message, 'export the key in this shell (or name its variable with --api-key-env)');
  }
  const agent = agentFor(flags, runs, fail);
  if (agent) models.push({ role: 'agent', llm: agent });
  const sites = await sitesFor(flags, runs, fail);
  const evidence = sites && flags.baseUrl ? evidenceCheck(flags, flags.baseUrl, sites, fail) : undefined;
  const report = await preflight({
    outDirs: [flags.out ?? (flags.sandbox ? DEFAULT_DEMO_DIR : DEFAULT_PIPELINE_DIR)],
    models,
    ...(runs('attempt', 'validate') ? { browser: {} } : {}),
    ...(sites && flags.baseUrl ? { sites: { baseUrl: flags.baseUrl, sites } } : {}),
    ...(evidence ? { evidence } : {}),
    timeoutMs: flags.timeout * 1000,
  });
  return [...checks, ...report.checks];
}

// The evidence the run will use, for its own check (MiniWeb's: the server's database, one request log).
function evidenceCheck(flags: PipelineFlags, baseUrl: string, sites: string[], fail: (name: string, detail: string, hint: string) => void): PreflightOptions['evidence'] {
  const kind = evidenceKindOf(flags, false);
  if (kind !== 'miniweb') return undefined;
  try {
    return { provider: nonSandboxEvidence(kind, flags, baseUrl), baseUrl, sites };
  } catch (error) {
    fail('evidence', (error as Error).message, 'give --miniweb-db (MiniWeb\'s SQLite file), or choose --evidence browser');
    return undefined;
  }
}

// The agent's model, when the stages need it and a server is named (--serve-qwen starts one at run time).
function agentFor(flags: PipelineFlags, runs: Runs, fail: (name: string, detail: string, hint: string) => void): LanguageModel | undefined {
  if (!runs('attempt', 'validate') || flags.serveQwen) return undefined;
  const endpoint = flags.agentEndpoint ?? (flags.sandbox ? undefined : process.env.QWEN_ENDPOINT);
  if (!endpoint) return undefined; // the sandbox's stand-in, or named missing by the flags check
  try {
    return resolveModel({ model: flags.agentModel, endpoint, apiKeyEnv: flags.agentApiKeyEnv, timeoutMs: flags.timeout * 1000 });
  } catch (error) {
    fail('agent model', (error as Error).message, 'export the agent key (--agent-api-key-env names its variable)');
    return undefined;
  }
}

// The training sites the flags name (--sites, else the split's train list), when the browser will visit them.
async function sitesFor(flags: PipelineFlags, runs: Runs, fail: (name: string, detail: string, hint: string) => void): Promise<string[] | undefined> {
  if (flags.sandbox || !runs('attempt', 'validate') || !flags.baseUrl) return undefined;
  if (flags.sites) return flags.sites.split(',').map((s) => s.trim());
  if (!flags.split || !flags.sitemaps) return undefined;
  try {
    return [...(await miniwebSource({ sitemaps: flags.sitemaps, split: flags.split, baseUrl: flags.baseUrl }).split()).train];
  } catch (error) {
    fail('split', (error as Error).message, 'check --split and --sitemaps');
    return undefined;
  }
}
