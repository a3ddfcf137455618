/**
 * The stages, each a resumable step of the library run on the work dir's layout: what a stage finds done
 * it keeps, so the composition resumes as each step does.
 * @module
 */
import { StageStoppedError, formatFailure, type CallFailure } from '../models/failures';
import path from 'node:path';
import { runAttempt } from '../attempt/run';
import { runJudge, type JudgeEvent, type JudgeResult } from '../judge/run';
import { withUsage } from '../models/usage';
import { runPropose } from '../propose';
import { runReport } from '../report/write';
import { DEFAULT_BUDGET, runRows } from '../rows';
import type { Task } from '../core/schemas';
import type { Shard } from '../core/shard';
import { runValidate } from '../validate';
import { runRelabel } from '../relabel/run';
import type { LanguageModel } from '../models/types';
import { judgeFor, measured, policyFor, readTasks, USAGE_STEPS, type StageContext } from './context';
import type {
  AttemptStageSummary,
  JudgeStageSummary,
  ProposeStageSummary,
  RelabelStageSummary,
  ReportStageSummary,
  RowsStageSummary,
  StageSummaries,
  ValidateStageSummary,
  VerifiersStageSummary,
} from './types';
import { runWriteVerifiers } from '../verifiers/run';
import { runTries } from '../files/tries';
import type { SetupCount } from '../files/setup-counts';
import { readPassAtK } from '../validate/pass-at-k';
import { readWrittenVerifiers } from '../verifiers/file';

/** `propose`: tasks for every training site not yet in `<dir>/tasks.jsonl`. */
export async function proposeStage(ctx: StageContext): Promise<ProposeStageSummary> {
  return measured(ctx, [USAGE_STEPS.propose], async () => {
    const { config, plan, layout, store } = ctx;
    const summary = await runPropose({
      sites: plan.sites,
      source: config.source,
      llm: withUsage(config.proposer!, ctx.meter, { step: USAGE_STEPS.propose }),
      out: layout.tasks,
      perSite: config.perSite,
      batch: config.batch,
      seed: config.seed,
      workers: config.proposeWorkers,
      ...mixOf(ctx),
      store,
      onEvent: (event) => ctx.emit({ type: 'propose', event }),
    });
    const emptySites = summary.sites.filter((s) => s.tasks === 0).map((s) => s.site);
    const cause = firstCause(summary.callFailures, summary.failures[0] && `${summary.failures[0].site} batch ${summary.failures[0].batch}: ${summary.failures[0].reason}`);
    if (!(await store.exists(layout.tasks))) {
      // Without a single task the later stages cannot run: stop here with the causes, not at the next stage.
      const causes: CallFailure[] = summary.callFailures.length
        ? [...summary.callFailures]
        : summary.failures.map((f) => ({ stage: 'propose', item: f.site, message: `batch ${f.batch}: ${f.reason}`, fatal: false }));
      throw new StageStoppedError('propose', `no site got a task (${emptySites.join(', ')})`, causes);
    }
    if (emptySites.length) ctx.incomplete.push(`${emptySites.length} sites got no task (${emptySites.join(', ')}); a rerun proposes them again${cause}`);
    return {
      sites: plan.sites.length,
      resumedSites: summary.done.filter((site) => plan.sites.includes(site)).length,
      proposed: summary.tasks,
      info: summary.info,
      tasks: (await readTasks(ctx, 'propose')).length,
      emptySites,
      failedBatches: summary.failedBatches,
      skippedTasks: summary.skippedTasks,
      callErrors: summary.callErrors,
      failures: summary.callFailures,
    };
  });
}

/** `attempt`: every task of `<dir>/tasks.jsonl` by the agent, into `<dir>/run/`. */
export async function attemptStage(ctx: StageContext): Promise<AttemptStageSummary> {
  return measured(ctx, [USAGE_STEPS.attempt], async () => attemptRun(ctx, 'attempt', await readTasks(ctx, 'attempt'), ctx.layout.run));
}

/** `judge`: every episode of `<dir>/run/` into `<dir>/run_judge/`, and of each further try into its own judge dir. */
export async function judgeStage(ctx: StageContext): Promise<JudgeStageSummary> {
  return measured(ctx, [USAGE_STEPS.judge], async () => {
    const figures = [];
    for (const dir of await triesOf(ctx, ctx.layout.run)) {
      const counter = judgedCounter(ctx, 'judge');
      const result = await runJudge({
        run: dir,
        llm: judgeFor(ctx, dir, 'judge', USAGE_STEPS.judge),
        workers: ctx.config.judgeWorkers,
        store: ctx.store,
        onEvent: counter.onEvent,
        ...shardOf(ctx),
        ...mixOf(ctx),
      });
      figures.push(judgeFigures(ctx, 'judge', result, counter.judged()));
    }
    return sumJudgeFigures(figures);
  });
}

/** `verifiers`: a verifier for each proposed task with a judged success, into `<dir>/verifiers.jsonl`. */
export async function verifiersStage(ctx: StageContext): Promise<VerifiersStageSummary> {
  return measured(ctx, [USAGE_STEPS.verifiers], async () => {
    const { config, layout } = ctx;
    await readTasks(ctx, 'verifiers'); // a clear error when there is no tasks file
    const writer = (config.verifierWriter ?? config.proposer)!;
    const r = await runWriteVerifiers({
      run: layout.run,
      tasks: layout.tasks,
      out: layout.verifiers,
      llm: withUsage(writer, ctx.meter, { step: USAGE_STEPS.verifiers }),
      source: config.source,
      store: ctx.store,
      onEvent: (event) => ctx.emit({ type: 'verifiers', event }),
      ...(config.signal ? { signal: config.signal } : {}),
      ...mixOf(ctx),
    });
    if (r.errors.length) ctx.incomplete.push(`verifiers: ${r.errors.length} tasks failed; a rerun tries them again${firstCause(r.failures, `${r.errors[0]!.taskId}: ${r.errors[0]!.error}`)}`);
    return {
      tasks: r.tasks, successes: r.successes, kept: r.kept, written: r.written,
      unparsed: r.unparsed.count, notHolding: r.notHolding.count, vacuous: r.vacuous.count, loose: r.loose.count, looseness: r.looseness, errors: r.errors.length, model: writer.modelId,
    };
  });
}

/** `validate`: the human tasks of the training sites attempted into `<dir>/human/`, judged, scored. */
export async function validateStage(ctx: StageContext): Promise<ValidateStageSummary> {
  const { validateAttempt, validateJudge } = USAGE_STEPS;
  return measured(ctx, [validateAttempt, validateJudge], async () => {
    const { layout, plan } = ctx;
    const attempted = await measured(ctx, [validateAttempt], () => attemptRun(ctx, 'validate', plan.humanTasks, layout.human));
    ctx.config.signal?.throwIfAborted();
    // Every try judged and scored in its own judge dir; the summary's score is try 1's (`<dir>/human_judge/`).
    const tries = [];
    for (const dir of await triesOf(ctx, layout.human)) {
      const counter = judgedCounter(ctx, 'validate');
      const scored = await measured(ctx, [validateJudge], () =>
        runValidate({
          run: dir,
          llm: judgeFor(ctx, dir, 'validate', validateJudge),
          workers: ctx.config.judgeWorkers,
          store: ctx.store,
          onEvent: counter.onEvent,
          ...shardOf(ctx),
          ...mixOf(ctx),
        }),
      );
      tries.push({ scored, figures: judgeFigures(ctx, 'validate', scored.judged, counter.judged()) });
    }
    const scored = tries[0]!.scored;
    const report = scored.report;
    return {
      humanTasks: plan.humanTasks.length,
      attempt: attempted,
      judge: { ...sumJudgeFigures(tries.map((t) => t.figures)), ms: scored.ms, usage: scored.usage },
      score: report?.overall ?? null,
      byKind: report?.by_kind ?? null,
      file: report ? layout.validate : null,
    };
  });
}

/** `rows`: the judged successes up to the budget into `<dir>/rows/`, which then holds exactly the selection. */
export async function rowsStage(ctx: StageContext): Promise<RowsStageSummary> {
  return measured(ctx, [USAGE_STEPS.rows], async () => {
    const { layout, store } = ctx;
    await readTasks(ctx, 'rows'); // a clear error when there is no tasks file
    const selection = await runRows({
      run: layout.run,
      out: layout.rows,
      tasks: layout.tasks,
      budget: ctx.config.budget ?? DEFAULT_BUDGET,
      ...(ctx.config.pick ? { pick: ctx.config.pick } : {}),
      ...(ctx.config.minPrecision !== undefined ? { minPrecision: ctx.config.minPrecision } : {}),
      stale: 'remove', // the pipeline's own rows dir: earlier selections are removed
      store,
      // provenance: the run is named after the work dir, as `taskgen export` names it
      recipe: { runId: path.posix.basename(path.resolve(layout.dir)), proposerModel: ctx.config.proposer?.modelId ?? null },
      onEvent: (event) => ctx.emit({ type: 'rows', event }),
    });
    const passAtK = (await triesOf(ctx, layout.run)).length > 1 ? await readPassAtK({ run: layout.run, store, tasksFile: layout.tasks }) : null;
    return { report: selection.report, picked: selection.picked, pruned: selection.removed.length, relabeled: { picked: selection.relabeled.picked.length, rows: selection.relabeled.rows }, passAtK, labels: selection.labels };
  });
}

/** `relabel`: the episodes of `<dir>/run/` judged not successful, relabeled into `<dir>/run_relabel/` (`runRelabel`). */
export async function relabelStage(ctx: StageContext): Promise<RelabelStageSummary> {
  return measured(ctx, [USAGE_STEPS.relabel, USAGE_STEPS.relabelJudge], async () => {
    const { config, layout } = ctx;
    await readTasks(ctx, 'relabel'); // a clear error when there is no tasks file
    const judge = config.relabelJudge ?? (config.judge as LanguageModel);
    // Every try relabeled into its own relabel dir (`<try>_relabel`); the summary is try 1's.
    const results = [];
    for (const dir of await triesOf(ctx, layout.run)) {
      const result = await runRelabel({
        run: dir,
        llm: withUsage(config.relabeler!, ctx.meter, { step: USAGE_STEPS.relabel }),
        judge: withUsage(judge, ctx.meter, { step: USAGE_STEPS.relabelJudge }),
        k: config.relabelK,
        source: config.source,
        store: ctx.store,
        onEvent: (event) => ctx.emit({ type: 'relabel', event }),
        ...shardOf(ctx),
        ...mixOf(ctx),
      });
      if (result.errors.length) ctx.incomplete.push(`relabel${dir === layout.run ? '' : ` (${dir})`}: ${result.errors.length} episodes not relabeled; a rerun relabels them${firstCause(result.failures, `${result.errors[0]!.taskId}: ${result.errors[0]!.error}`)}`);
      results.push(result);
    }
    return { summary: results[0]!.summary };
  });
}

/** `report`: the HTML report of each run there is (`<dir>/run_report/`, `<dir>/human_report/`). */
export async function reportStage(ctx: StageContext): Promise<ReportStageSummary> {
  return measured(ctx, [], async () => {
    const { layout, store } = ctx;
    const one = async (which: 'run' | 'human'): Promise<string | null> => {
      const run = which === 'run' ? layout.run : layout.human;
      if (!(await store.exists(run))) {
        ctx.emit({ type: 'warning', stage: 'report', message: `no ${run}: no report of it` });
        return null;
      }
      const rows = which === 'run' && (await store.exists(layout.rowsReport)) ? layout.rows : undefined;
      return runReport({
        run,
        out: path.posix.dirname(which === 'run' ? layout.runReport : layout.humanReport),
        ...(rows ? { rows } : {}),
        tasksFile: layout.tasks,
        usage: ctx.meter.summary(),
        store,
        onEvent: (event) => ctx.emit({ type: 'report', run: which, event }),
      });
    };
    return { run: await one('run'), human: await one('human') };
  });
}

/** Every stage's runner. */
export const STAGE_RUNNERS: { readonly [S in keyof StageSummaries]: (ctx: StageContext) => Promise<StageSummaries[S]> } = {
  propose: proposeStage,
  attempt: attemptStage,
  judge: judgeStage,
  verifiers: verifiersStage,
  validate: validateStage,
  relabel: relabelStage,
  rows: rowsStage,
  report: reportStage,
};

// One run of the attempt step, with the run dir's totals (episodes finished before this call included).
async function attemptRun(ctx: StageContext, stage: 'attempt' | 'validate', tasks: readonly Task[], out: string): Promise<Omit<AttemptStageSummary, 'ms' | 'usage'>> {
  const { config } = ctx;
  const label = stage === 'attempt' ? USAGE_STEPS.attempt : USAGE_STEPS.validateAttempt;
  const verifiers = stage === 'attempt' ? [...(await readWrittenVerifiers(ctx.store, ctx.layout.verifiers)).byTask.values()] : [];
  const summary = await runAttempt({
    tasks,
    policy: policyFor(ctx, label),
    source: config.source,
    out,
    ...(config.evidence ? { evidence: config.evidence } : {}),
    concurrency: config.concurrency,
    maxSteps: config.maxSteps,
    episodeTimeoutMs: config.episodeTimeoutMs,
    actionTimeoutMs: config.actionTimeoutMs,
    stopAfterFailures: config.stopAfterFailures,
    ...(config.attempts !== undefined ? { attempts: config.attempts } : {}),
    browser: ctx.host,
    store: ctx.store,
    onEvent: (event) => ctx.emit({ type: 'attempt', stage, event }),
    ...(config.signal ? { signal: config.signal } : {}),
    ...(verifiers.length ? { verifiers } : {}),
    // MiniWeb verifiers' checks that need an LLM (a human task's qa_answer) are decided by the judge model
    ...(stage === 'validate' && typeof config.judge === 'object' ? { checkJudge: config.judge } : {}),
    ...shardOf(ctx),
    ...mixOf(ctx),
  });
  if (summary.failed) {
    const cause = summary.failures[0] ? ` (first cause: ${formatFailure(summary.failures[0])})` : '';
    ctx.incomplete.push(`${stage}: ${summary.failed} episodes could not run${cause}; a rerun tries them again`);
  }
  const { total, passed } = summary.verified;
  return {
    tasks: summary.tasks,
    episodes: summary.finished.episodes,
    steps: summary.finished.steps,
    outcomes: summary.finished.outcomes,
    ran: summary.recorded,
    ranSteps: summary.steps,
    failed: summary.failed,
    verified: total ? { total, passed, rate: passed / total } : null,
    bySetup: summary.finished.bySetup,
  };
}

// The run dirs of a run's tries (`files/layout.ts`): the run dir, then `<run>/_tries/<n>/` of each try on disk.
async function triesOf(ctx: StageContext, run: string): Promise<string[]> {
  const found = await runTries(ctx.store, run);
  return found.length ? found.map((t) => t.dir) : [run];
}

// The judge figures of several tries as one: counts added, the rate of the sums, causes in try order.
function sumJudgeFigures(figures: ReadonlyArray<Omit<JudgeStageSummary, 'ms' | 'usage'>>): Omit<JudgeStageSummary, 'ms' | 'usage'> {
  if (figures.length === 1) return figures[0]!;
  const sum = (f: (x: Omit<JudgeStageSummary, 'ms' | 'usage'>) => number) => figures.reduce((n, x) => n + f(x), 0);
  const episodes = sum((x) => x.episodes);
  const success = sum((x) => x.success);
  return {
    ...figures[0]!,
    episodes, success, rate: episodes ? Math.round((success / episodes) * 1e4) / 1e4 : 0,
    judged: sum((x) => x.judged), noVerdict: sum((x) => x.noVerdict), errors: sum((x) => x.errors), callErrors: sum((x) => x.callErrors),
    failures: figures.flatMap((x) => x.failures).slice(0, 5), noVerdictCauses: figures.flatMap((x) => x.noVerdictCauses).slice(0, SHOWN_CAUSES),
    bySetup: mergeSetupCounts(figures.flatMap((x) => x.bySetup)),
  };
}

// One judge set-up judges every try: its counts added, one line per set-up.
function mergeSetupCounts(counts: readonly SetupCount[]): SetupCount[] {
  const byDigest = new Map<string | null, SetupCount>();
  for (const c of counts) {
    const seen = byDigest.get(c.digest);
    byDigest.set(c.digest, seen ? { ...seen, count: seen.count + c.count, success: seen.success + c.success } : c);
  }
  return [...byDigest.values()];
}

function mixOf(ctx: StageContext): { mixSetup?: boolean } {
  return ctx.config.mixSetup ? { mixSetup: true } : {};
}

function shardOf(ctx: StageContext): { shard?: Shard } {
  return ctx.config.shard ? { shard: ctx.config.shard } : {};
}

// Forwards judge events and counts the episodes judged by this call.
function judgedCounter(ctx: StageContext, stage: 'judge' | 'validate'): { onEvent: (event: JudgeEvent) => void; judged: () => number } {
  let judged = 0;
  return {
    onEvent(event) {
      if (event.type === 'episode' && event.outcome === 'judged') judged++;
      ctx.emit({ type: 'judge', stage, event });
    },
    judged: () => judged,
  };
}

function judgeFigures(ctx: StageContext, stage: 'judge' | 'validate', result: JudgeResult, judged: number): Omit<JudgeStageSummary, 'ms' | 'usage'> {
  const s = result.summary;
  const left = s.no_verdict + s.errors;
  if (left) ctx.incomplete.push(`${stage}: ${left} episodes not judged (${s.errors} errors, ${s.no_verdict} without a verdict); a rerun judges them${firstCause(result.failures, result.errors[0] && `${result.errors[0].taskId}: ${result.errors[0].error}`)}`);
  return {
    episodes: s.episodes, success: s.success, rate: s.rate, judged, noVerdict: s.no_verdict, errors: s.errors, model: s.judge,
    callErrors: result.callErrors, failures: result.failures, noVerdictCauses: result.noVerdict.slice(0, SHOWN_CAUSES),
    bySetup: result.bySetup,
  };
}

/** Episodes without a verdict named in a judge summary, as failed calls are (`failures`: at most 5). */
const SHOWN_CAUSES = 5;

/** `; first cause: ...` for an incomplete-stage line: the first failed call, else `other`, else nothing. */
function firstCause(failures: readonly CallFailure[], other: string | undefined): string {
  const cause = failures[0] ? formatFailure(failures[0]) : other;
  return cause ? `; first cause: ${cause}` : '';
}

