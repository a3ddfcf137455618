/**
 * What `taskgen pipeline` runs with, and how it says so: the pipeline config from the flags and the setup, the
 * evidence, and the setup text (sites, models, and a notice wherever a sandbox stand-in plays a model's role).
 * @module
 */
import { evidenceKindOf, nonSandboxEvidence } from './evidence';
import type { EvidenceProvider } from '../attempt/types';
import { UsageMeter } from '../models/usage';
import type { PipelineOptions, PipelineStage } from '../pipeline/types';
import { memorySource } from '../sites/memory';
import { miniwebSource } from '../sites/miniweb';
import type { PipelineFlags } from './pipeline-flags';
import type { RealModels, Runs } from './pipeline-models';
import { loadSandbox, type SandboxSetup } from './sandbox';

const REAL_COMMAND =
  'GEMINI_API_KEY=... taskgen pipeline --model gemini-3.5-flash --agent-endpoint http://127.0.0.1:8000/v1 ' +
  '--agent-model Qwen/Qwen3.5-4B --sitemaps DIR --split FILE --base-url URL --human-tasks FILE';

export function buildConfig(
  flags: PipelineFlags,
  setup: {
    out: string;
    sites?: string[];
    sandbox?: SandboxSetup;
    models: RealModels;
    agent?: PipelineOptions['agent'];
    evidence: EvidenceProvider;
    skip: PipelineStage[] | undefined;
    only: PipelineStage[] | undefined;
    stop: AbortSignal;
  },
): PipelineOptions & { readonly perSite: number } {
  const { sandbox, models } = setup;
  const source = sandbox?.source
    ?? (flags.sitemaps && flags.baseUrl ? miniwebSource({ sitemaps: flags.sitemaps, split: flags.split, baseUrl: flags.baseUrl }) : memorySource({ sitemaps: {} }));
  return {
    dir: setup.out,
    source,
    sites: setup.sites ?? sandbox?.sites,
    proposer: models.proposer ?? sandbox?.proposer,
    verifierWriter: models.proposer ?? sandbox?.verifierWriter,
    judge: models.judge ?? sandbox?.judge,
    // The relabeler is the proposer's model (the relabel judge the judge's), else the sandbox's stand-ins.
    ...(models.proposer ?? sandbox ? { relabeler: models.proposer ?? sandbox!.relabeler } : {}),
    ...(models.judge ?? sandbox ? { relabelJudge: models.judge ?? sandbox!.relabelJudge } : {}),
    relabelK: flags.relabelK,
    ...(flags.attempts > 1 ? { attempts: flags.attempts } : {}),
    ...(flags.pick !== 'shortest' ? { pick: flags.pick } : {}),
    ...(flags.minPrecision !== undefined ? { minPrecision: flags.minPrecision } : {}),
    ...(flags.agentTemperature !== undefined ? { agentTemperature: flags.agentTemperature } : {}),
    ...(flags.agentSeed !== undefined ? { agentSeed: flags.agentSeed } : {}),
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
    stopAfterFailures: flags.stopAfterFailures,
    skip: setup.skip,
    only: setup.only,
    meter: new UsageMeter(),
    signal: setup.stop,
    ...(flags.mixSetup ? { mixSetup: true } : {}),
  };
}

// The sandbox's own record for its sites (or a server speaking its /_admin/ API), MiniWeb's, or what the browser saw.
export async function evidenceFor(flags: PipelineFlags, sandbox: SandboxSetup | undefined): Promise<EvidenceProvider> {
  const kind = evidenceKindOf(flags, sandbox !== undefined);
  if (kind !== 'sandbox') return nonSandboxEvidence(kind, flags, flags.baseUrl);
  if (sandbox) return sandbox.evidence;
  if (!flags.baseUrl) throw new Error('--evidence sandbox needs --base-url URL (a server with the sandbox\'s /_admin/ API)');
  return (await loadSandbox()).sandboxEvidence({ url: flags.baseUrl });
}

// The roles a stand-in plays in this run: those whose stages run and no real model was named for.
export function standInRoles(models: RealModels, runs: Runs): string[] {
  const roles: Array<[string, boolean]> = [
    ['proposer', runs('propose') && !models.proposer],
    ['agent', runs('attempt', 'validate') && !models.agentGiven],
    ['judge', runs('judge', 'validate') && !models.judge],
    ['verifier writer', runs('verifiers') && !models.proposer],
    ['relabeler', runs('relabel') && !models.proposer],
  ];
  return roles.filter(([, standIn]) => standIn).map(([role]) => role);
}

// Which sites, server and models this run uses, in words.
export function describeSetup(flags: PipelineFlags, sandbox: SandboxSetup | undefined, models: RealModels, agent: string | undefined, runs: Runs): string[] {
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
  role('verifiers', runs('verifiers'), models.proposer?.description, sandbox?.describe.verifierWriter);
  role('relabeler', runs('relabel'), models.proposer?.description, sandbox?.describe.relabeler);
  const standIns = standInRoles(models, runs);
  if (sandbox && standIns.length) lines.push(standInNotice(sandbox, standIns));
  return lines;
}

export function standInNotice(sandbox: SandboxSetup, roles: readonly string[]): string {
  const named = roles.map((r) => `the ${r}`).join(roles.length > 2 ? ', ' : ' and ').replace(/, (the [\w ]+)$/, ' and $1');
  const many = roles.length > 1;
  return [
    `NOTE: STAND-IN MODELS. ${named[0]!.toUpperCase()}${named.slice(1)} of this run ${many ? 'are' : 'is'} the sandbox's offline stand-in${many ? 's' : ''}, not ${many ? 'models' : 'a model'}:`,
    '  the figures show the pipeline working end to end, not what real models would do.',
    `  Real models: ${REAL_COMMAND}`,
    '  (--serve-qwen --gpus N instead of --agent-endpoint starts vLLM here; model flags with --sandbox use real models on these sandbox sites.)',
    `  The sandbox's sites: ${sandbox.url} while this runs, or npm run sandbox.`,
  ].join('\n');
}
