/**
 * Before the first stage: every stage's set-up compared with what its dir records (`src/files/setup.ts`), then
 * what the stages will need checked (`preflight`), so a refused dir or a missing browser stops the run before
 * the proposer's paid calls.
 * @module
 */
import path from 'node:path';
import { attemptSetup, DEFAULT_MAX_STEPS } from '../attempt/setup';
import { compareSetup, type StageSetup } from '../files/setup';
import { judgeSetup } from '../judge/setup';
import type { LanguageModel } from '../models/types';
import { assertPreflight } from '../preflight/run';
import { PROPOSE_DEFAULTS, proposeSetup } from '../propose/setup';
import { RELABEL_DEFAULTS, relabelSetup } from '../relabel/setup';
import { verifiersSetup } from '../verifiers/setup';
import { judgeDirOf, relabelDirOf } from '../files/layout';
import { policyFor, type StageContext } from './context';

/** Refuses a dir recorded with another set-up (unless `mixSetup`), then throws a `PreflightError` for what is missing. */
export async function preflightPipeline(ctx: StageContext): Promise<void> {
  const { config, plan, layout, store } = ctx;
  const runs = (...stages: string[]) => stages.some((s) => (plan.stages as readonly string[]).includes(s));
  const setups: Array<{ dir: string; setup: StageSetup }> = [];
  if (runs('propose') && config.proposer) {
    const { perSite, batch, seed } = { ...PROPOSE_DEFAULTS, ...defined({ perSite: config.perSite, batch: config.batch, seed: config.seed }) };
    setups.push({ dir: path.posix.dirname(layout.tasks), setup: proposeSetup({ llm: config.proposer, out: layout.tasks, perSite, batch, seed }) });
  }
  if (runs('attempt', 'validate') && (config.agent || config.policy)) {
    const setup = attemptSetup({ policy: policyFor(ctx, 'preflight'), maxSteps: config.maxSteps ?? DEFAULT_MAX_STEPS, baseUrl: config.source.baseUrl ?? '' });
    if (runs('attempt')) setups.push({ dir: layout.run, setup });
    if (runs('validate')) setups.push({ dir: layout.human, setup });
  }
  const judge = typeof config.judge === 'function' ? undefined : config.judge;
  if (judge) {
    if (runs('judge')) setups.push({ dir: layout.runJudge, setup: judgeSetup(judge, judge.modelId, undefined) });
    if (runs('validate')) setups.push({ dir: layout.humanJudge, setup: judgeSetup(judge, judge.modelId, undefined) });
  }
  const writer = config.verifierWriter ?? config.proposer;
  if (runs('verifiers') && writer) {
    setups.push({ dir: path.posix.dirname(layout.verifiers), setup: verifiersSetup({ out: layout.verifiers, model: writer.modelId, provider: writer.provider, ...(writer.endpoint ? { endpoint: writer.endpoint } : {}) }) });
  }
  const relabelJudge = config.relabelJudge ?? judge;
  if (runs('relabel') && config.relabeler && relabelJudge) {
    const out = relabelDirOf(layout.run);
    setups.push({ dir: out, setup: relabelSetup({ llm: config.relabeler, judge: relabelJudge, k: config.relabelK ?? RELABEL_DEFAULTS.k, screenshots: RELABEL_DEFAULTS.screenshots }) });
    setups.push({ dir: judgeDirOf(out), setup: judgeSetup(relabelJudge, relabelJudge.modelId, undefined) });
  }
  for (const { dir, setup } of setups) await compareSetup({ store, dir, setup, mix: config.mixSetup });
  if (config.preflight === false) return;

  const models: Array<{ role: string; llm: LanguageModel }> = [];
  if (runs('propose') && config.proposer) models.push({ role: 'proposer', llm: config.proposer });
  if (runs('attempt', 'validate') && config.agent && !config.policy) models.push({ role: 'agent', llm: config.agent });
  if (runs('judge', 'validate') && judge) models.push({ role: 'judge', llm: judge });
  const browsing = runs('attempt', 'validate');
  const baseUrl = config.source.baseUrl;
  await assertPreflight({
    outDirs: [layout.dir],
    models,
    ...(browsing ? { browser: ctx.host } : {}),
    ...(browsing && baseUrl && plan.sites.length ? { sites: { baseUrl, sites: plan.sites } } : {}),
    ...(browsing && baseUrl && config.evidence?.check ? { evidence: { provider: config.evidence, baseUrl, sites: plan.sites } } : {}),
  });
}

function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
