/**
 * The real proposer and judge of `taskgen pipeline`, resolved from its flags before anything starts (a missing key
 * fails at once), and the check that a run without `--sandbox` names its sites, server and agent.
 * @module
 */
import { DEFAULT_GEMINI_MODEL } from '../models/gemini';
import { createLimiter } from '../models/limiter';
import type { PipelineStage } from '../pipeline/types';
import { resolveModel } from './models';
import type { PipelineFlags } from './pipeline-flags';

/** Whether any of the stages runs. */
export type Runs = (...stages: PipelineStage[]) => boolean;

/** The real models the flags name. */
export interface RealModels {
  proposer?: ReturnType<typeof resolveModel>;
  judge?: ReturnType<typeof resolveModel>;
  /** Whether the flags name a real agent (an endpoint or --serve-qwen). */
  agentGiven: boolean;
}

// The real proposer and judge the flags ask for (with --sandbox only those named by a flag), resolved before
// anything starts, so a missing key fails at once.
export function resolveRealModels(flags: PipelineFlags, runs: Runs): RealModels {
  const limiter = createLimiter({ concurrency: Math.max(16, flags.workers), ...(flags.rpm ? { requestsPerMinute: flags.rpm } : {}) });
  const proposerNamed = !flags.sandbox || flags.model !== undefined || flags.endpoint !== undefined;
  const judgeNamed = !flags.sandbox || flags.judgeModel !== undefined || flags.judgeEndpoint !== undefined || flags.model !== undefined;
  const proposer =
    runs('propose', 'verifiers') && proposerNamed
      ? resolveModel({ model: flags.model ?? DEFAULT_GEMINI_MODEL, endpoint: flags.endpoint, apiKeyEnv: flags.apiKeyEnv, limiter, timeoutMs: flags.timeout * 1000 })
      : undefined;
  const judge =
    runs('judge', 'validate') && judgeNamed
      ? resolveModel({
          model: flags.judgeModel ?? flags.model ?? DEFAULT_GEMINI_MODEL,
          endpoint: flags.judgeEndpoint ?? (flags.judgeModel === undefined ? flags.endpoint : undefined),
          apiKeyEnv: flags.apiKeyEnv,
          limiter,
          timeoutMs: flags.timeout * 1000,
        })
      : undefined;
  const agentGiven = flags.serveQwen || Boolean(flags.agentEndpoint ?? (flags.sandbox ? undefined : process.env.QWEN_ENDPOINT));
  if (agentGiven && flags.agentApiKeyEnv && !process.env[flags.agentApiKeyEnv]) {
    throw new Error(`no API key for the agent: set ${flags.agentApiKeyEnv} in the environment (--agent-api-key-env)`);
  }
  return { proposer, judge, agentGiven };
}

// Without --sandbox: the sites, the server and the agent must be named by flags.
export function checkRealSetup(flags: PipelineFlags, runs: Runs): void {
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
