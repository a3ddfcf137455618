/**
 * Relabeling failed episodes on the sandbox, the figures: rows per 100 episodes before and after relabel; every
 * relabeled row's claim checked again on its cut episode; claims that did not hold, counted, none in the rows;
 * relabel precision against the sandbox's own verifiers read on the state at the cut (Wilson interval); accepted
 * claims that hold on their do-nothing episode or at their start (must be 0); cost per accepted relabel at the default
 * Gemini prices (the stand-ins' estimated tokens).
 *
 * The same run's written verifiers (its verifiers stage): on the do-nothing episode, and on their site's other
 * tasks' episodes (cross pairs), truth the hand-written verifiers on the state.
 *
 * On a pipeline work dir made by `taskgen pipeline --sandbox --sandbox-sites 8 --per-site 20` (RELABEL_DIR), or,
 * without one, that pipeline run here first (BENCH_SITES, BENCH_PER_SITE, BENCH_CONCURRENCY) into BENCH_DIR (default
 * a new temporary dir; an earlier bench's dir is resumed, so a run can grow by chunks: more sites on each call;
 * BENCH_MIX_SETUP=1 lets the new sites get another BENCH_PER_SITE).
 * RELABEL_ERROR_RATE (default 0.1): the stand-in relabeler's share of wrong tasks; RELABEL_K (default 3);
 * JUDGE_NOISE (default 0.1); VERIFIER_ERROR_RATE (default 0.1, the stand-in verifier writer's); the stand-in agent fails on 30% of tasks (the pipeline's default).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sandboxSetup } from '../sandbox/index';
import { handOnState, handVerifierOf, holdsOnNothing, writtenFigures } from './claim-figures';
import { checkClaim, loadStepEvidence } from '../src/claims';
import { ClaimSchema } from '../src/claims';
import {
  DEFAULT_PRICES, nodeStore, pipelineLayout, runPipeline, runRelabel, runRows, wilsonInterval,
} from '../src/index';

const K = Number(process.env.RELABEL_K ?? 3);
const ERROR_RATE = Number(process.env.RELABEL_ERROR_RATE ?? 0.1);
const NOISE = Number(process.env.JUDGE_NOISE ?? 0.1);
const gemini = DEFAULT_PRICES['gemini-3.5-flash']!;
// AgentHER's human-rated relabel precision: the Wilson lower bound the relabels must reach.
const BOUND = 0.97;

// The fewest relabels, all of them right, whose Wilson 95% lower bound reaches `bound`: with every one right the
// bound is n / (n + z^2), so n >= bound z^2 / (1 - bound) (125 for 0.97; the rounded bound shows 0.970 from 123).
function allRightNeeded(bound: number, z = 1.96): number {
  return Math.ceil((bound * z * z) / (1 - bound));
}

// The Wilson 95% lower bound unrounded (wilsonInterval rounds to 3 places, as the seed prints it).
function wilsonLower(k: number, n: number, z = 1.96): number {
  if (n === 0) return 0;
  const p = k / n;
  const z2 = z * z;
  return (p + z2 / (2 * n) - z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
}

const dir = process.env.RELABEL_DIR ?? process.env.BENCH_DIR ?? (await mkdtemp(path.join(tmpdir(), 'relabel-bench-')));
const layout = pipelineLayout(dir);
const sb = await sandboxSetup({ siteCount: Number(process.env.BENCH_SITES ?? 8), failureRate: 0.3, judgeNoise: NOISE, relabelErrorRate: ERROR_RATE, verifierErrorRate: Number(process.env.VERIFIER_ERROR_RATE ?? 0.1) });
try {
  if (!process.env.RELABEL_DIR) {
    process.stdout.write(`running the sandbox pipeline into ${dir} (${sb.sites.length} sites x ${process.env.BENCH_PER_SITE ?? 20} tasks)\n`);
    await runPipeline({
      dir, source: sb.source, evidence: sb.evidence, sites: sb.sites, proposer: sb.proposer, judge: sb.judge, policy: sb.policy,
      verifierWriter: sb.verifierWriter, humanTasks: sb.humanTasks, perSite: Number(process.env.BENCH_PER_SITE ?? 20), concurrency: Number(process.env.BENCH_CONCURRENCY ?? 4),
      skip: ['validate', 'report'],
      // Growing a run with another per-site count for the new sites is a change of set-up, made on purpose.
      mixSetup: process.env.BENCH_MIX_SETUP === '1',
    });
  }
  process.stdout.write(`${sb.describe.relabeler}\n${sb.describe.judge}\n`);
  const store = nodeStore();
  const before = await runRows({ run: layout.run, out: path.join(dir, 'bench_rows_before'), tasks: layout.tasks, relabel: false, stale: 'remove' });
  const t0 = Date.now();
  process.stdout.write(`relabeling at ${new Date().toISOString()}\n`);
  const relabel = await runRelabel({
    run: layout.run, llm: sb.relabeler, judge: sb.relabelJudge, k: K, source: sb.source,
    // The stand-ins' estimated tokens priced as the default Gemini model's.
    prices: { 'stand-in-relabeler': gemini, 'stand-in-judge': gemini },
  });
  const ms = Date.now() - t0;
  const after = await runRows({ run: layout.run, out: path.join(dir, 'bench_rows_after'), tasks: layout.tasks, stale: 'remove' });
  const s = relabel.summary;
  const judged = before.report;
  const episodes = (await store.list(layout.run)).filter((e) => e.isDirectory && !e.name.startsWith('_')).length;
  const per100 = (rows: number) => ((100 * rows) / Math.max(1, episodes)).toFixed(1);
  process.stdout.write(`\n${episodes} episodes, ${s.episodes} judged not successful (relabeled in ${(ms / 1000).toFixed(1)} s)\n`);
  process.stdout.write(`rows per 100 episodes: before ${per100(judged.selected_rows)} (${judged.selected_rows} rows), after ${per100(after.report.selected_rows)} (${after.report.selected_rows} rows, budget ${after.report.budget})\n`);

  // Every relabeled row's claim, checked again on its cut episode at its prefix.
  const picked = new Set(after.picked);
  const byId = new Map(relabel.parents.flatMap((p) => p.proposals.filter((x) => x.task_id).map((x) => [x.task_id!, { parent: p, proposal: x }] as const)));
  let inRows = 0;
  let holds = 0;
  let failedInRows = 0;
  const agree: boolean[] = [];
  let onNothing = 0;
  for (const task of relabel.tasks) {
    const { proposal } = byId.get(task.task_id)!;
    const episodeDir = path.join(relabel.out, task.task_id);
    const evidence = await loadStepEvidence(store, episodeDir);
    const result = checkClaim(ClaimSchema.parse(proposal.claim), evidence, { question: task.instruction });
    if (picked.has(task.task_id)) {
      inRows++;
      if (result.holds && evidence.steps === task.prefix_steps) holds++;
      if (proposal.status !== 'accepted') failedInRows++;
    }
    if (proposal.status === 'accepted' && holdsOnNothing(ClaimSchema.parse(proposal.claim), evidence, task.site, task.instruction)) onNothing++;
    // Ground truth: the bank task's own verifier on the cut episode, read on the state at the cut (start rows plus
    // the changes up to it), so "no such row" means none in the tables, not none created.
    const hand = handVerifierOf(task.site, task.instruction);
    if (!hand) continue;
    agree.push(await handOnState(hand, evidence, task.site, task.instruction));
  }
  const notHeld = s.statuses['claim-failed'] + s.statuses['bad-claim'];
  const claimFailedIds = new Set(relabel.parents.flatMap((p) => p.proposals.filter((x) => x.status !== 'accepted' && x.task_id).map((x) => x.task_id!)));
  const leaked = after.picked.filter((id) => claimFailedIds.has(id)).length;
  process.stdout.write(`relabels: ${s.proposed} written, ${s.accepted} accepted (${s.acceptedRows} rows), ${s.statuses['judged-failure']} judged not successful\n`);
  process.stdout.write(`claims that did not hold: ${notHeld} (never judged), in the rows: ${leaked + failedInRows}\n`);
  process.stdout.write(`relabeled episodes in the rows: ${inRows}, claim holds on the cut episode at its prefix: ${holds}/${inRows}\n`);
  process.stdout.write(`vacuous claims (hold on an episode that did nothing or at its start; never judged): ${s.statuses.vacuous}; accepted ones holding on their do-nothing episode or at their start: ${onNothing}\n`);
  const ok = agree.filter(Boolean).length;
  const [lo, hi] = wilsonInterval(ok, agree.length) ?? [0, 0];
  process.stdout.write(`precision against the sandbox's verifiers on the state at the cut: ${ok}/${agree.length} = ${(ok / Math.max(1, agree.length)).toFixed(3)}, Wilson 95% [${lo.toFixed(3)}, ${hi.toFixed(3)}] (stand-in relabeler wrong on purpose on ${Math.round(ERROR_RATE * 100)}% of tasks)\n`);
  const needed = allRightNeeded(BOUND);
  process.stdout.write(`lower bound ${BOUND}: ${wilsonLower(ok, agree.length) >= BOUND ? 'met' : 'NOT met'} (it needs at least ${needed} relabels of known tasks, all right; got ${agree.length}, ${agree.length - ok} wrong)\n`);
  const cost = s.cost ?? 0;
  // The same run's written verifiers (the pipeline's verifiers stage), on their site's episodes.
  for (const line of await writtenFigures(layout.run, layout.verifiers)) process.stdout.write(`${line}\n`);
  process.stdout.write(`tokens (estimated by the stand-ins): relabeler ${s.tokens.proposer.inputTokens} in / ${s.tokens.proposer.outputTokens} out, judge ${s.tokens.judge.inputTokens} in / ${s.tokens.judge.outputTokens} out\n`);
  process.stdout.write(`cost at gemini-3.5-flash prices: $${cost.toFixed(4)}, per accepted relabel $${(s.costPerAccepted ?? 0).toFixed(5)} ($${((s.costPerAccepted ?? 0) * 1000).toFixed(2)} per thousand)\n`);
} finally {
  await sb.close();
}
