/**
 * One episode: a fresh browser context and server session, the task's start page, then observe, decide, act
 * and record up to `maxSteps` times, and the episode's directory written at the end.
 *
 * Rows: one per step whose reply parsed into an action, its assistant turn the canonical action JSON (what the
 * model is asked to write). A reply that did not parse gets no row, as there is no action to learn; the later
 * rows still show it in their history, as the model saw it. An action that parsed but failed keeps its row.
 * @module
 */
import type { FileStore } from '../files/types';
import { episodeFile, stepImageName } from '../files/layout';
import { addUsage, ZERO_USAGE, type Usage } from '../models/types';
import { VerifierSchema, type Action, type Episode, type Outcome, type Row, type Task } from '../core/schemas';
import type { Claim } from '../claims/schema';
import { writeStartRows } from '../claims/start-rows';
import { decideReward } from './reward';
import { isMiniwebVerifier, lastReasoning, writeDecisions, type EpisodeTrail } from '../miniweb/reward';
import type { MiniwebJudge, MiniwebJudgeDecision } from '../miniweb/verifier-judge';
import type { SiteRecord } from './types';
import { verifyEpisode, type EpisodeEvidence, type VerifyResult } from './verify';
import { describeError } from '../core/errors';
import { performAction } from '../browser/actions';
import { openEpisodePage, type BrowserHost, type EpisodePage } from '../browser/host';
import { observe } from '../browser/observe';
import { PageGoneError } from '../browser/page-watch';
import { actionJson, parseAction } from '../agent/parse-action';
import { defaultAgentMessages } from '../agent/prompt';
import { defaultSitePrefix, outsideSite, siteBoundary, startUrlOf } from '../browser/site-boundary';
import { EpisodeRecorder } from '../browser/recorder';
import type { Observation, Policy, PolicyDecision, StepRecord } from '../agent/types';
import type { EvidenceProvider, EvidenceSession } from './types';
import { StepMarks } from '../claims/steps';
import { describeServerDown, serverDownIn, watchSiteFaults, type SiteFaults } from './site-faults';
import { EpisodeFailure, EpisodeTimeout, ServerStoppedFailure } from './episode-failure';
import { decide } from './policy-call';

export { EpisodeFailure, ServerStoppedFailure } from './episode-failure';
import { checkEntry } from '../core/check';

/**
 * Checks a task's verifier against an episode's evidence; `undefined` when it cannot be checked. The evidence
 * and the verdict are those of {@link verifyEpisode}.
 */
export type VerifyFunction = (task: Task, evidence: EpisodeEvidence) => Promise<VerifyResult | undefined>;

/** The library's verifier ({@link verifyEpisode}); a verifier of an unknown shape is not checked. */
export const defaultVerify: VerifyFunction = async (task, input) => {
  if (isMiniwebVerifier(task.verifier)) return undefined; // MiniWeb's own format: decideReward grades it
  const parsed = VerifierSchema.safeParse(task.verifier);
  return parsed.success ? verifyEpisode(parsed.data, input) : undefined;
};

/** A step as reported through events. */
export interface StepInfo {
  /** 0-based step number. */
  readonly step: number;
  /** The page's path, query and hash when the step was observed. */
  readonly url: string;
  /** The parsed action; `null` when the reply could not be parsed. */
  readonly action: Action | null;
  /** The step's parse or execution error; `null` when it went through. */
  readonly error: string | null;
}

/** What {@link attemptTask} needs. */
export interface AttemptTaskOptions {
  /** The task to attempt; the episode starts at its `start_path`. */
  readonly task: Task;
  /** Decides each step's action. */
  readonly policy: Policy;
  /** The browser the episode opens its own context in. */
  readonly host: BrowserHost;
  /** Opens the server session whose requests and changes are the episode's evidence. */
  readonly evidence: EvidenceProvider;
  /** The server's base URL; the episode starts at `baseUrl + task.start_path` and stays on its origin. */
  readonly baseUrl: string;
  /**
   * The site's path prefix on that server: the start page and every navigation stay under it (DESIGN.md §5).
   * Default `/sites/<site>/`, MiniWeb's and the sandbox's layout.
   */
  readonly sitePrefix?: string;
  /** Where the episode dir is written. */
  readonly store: FileStore;
  /** The episode directory, `<run>/<task_id>`. */
  readonly dir: string;
  /** The most steps; an episode that reaches it without `done` ends as `max_steps`. */
  readonly maxSteps: number;
  /** The episode's time limit in ms; when it passes the episode ends as `timeout`. */
  readonly timeoutMs: number;
  /** Per action (click, fill...) time limit in ms. */
  readonly actionTimeoutMs?: number;
  /** Checks the task's verifier at the end. Without it the episode is not verified. */
  readonly verify?: VerifyFunction;
  /** Decides the checks of a MiniWeb verifier (`verifier.json`) that need an LLM; without it they are undecided. */
  readonly checkJudge?: MiniwebJudge;
  /** A verifier written for the task (`verifiers.jsonl`), checked at the end when the task has no verifier of its own. */
  readonly writtenVerifier?: Claim;
  /**
   * The digest of the run's set-up (`<run>/_setup/<digest>.json`), written in `episode.json` as `setup` so that a
   * run of several set-ups counts per set-up. {@link runAttempt} passes its own.
   */
  readonly setup?: string;
  /** Aborts the episode: nothing is recorded and the call rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Called after each step with what it did. */
  readonly onStep?: (step: StepInfo) => void;
  /**
   * Fields added to `episode.json` once the verdict is known (the environment server marks its episodes with
   * their reward); they never replace the episode's own fields.
   */
  readonly annotate?: (verdict: { readonly ok: boolean | undefined; readonly checks: readonly unknown[] | undefined }) => Record<string, unknown>;
}

/** A finished, recorded episode. */
export interface AttemptTaskResult {
  /** The episode as written to `episode.json`. */
  readonly episode: Episode;
  /** The verifier's result, for tasks with one. */
  readonly ok: boolean | undefined;
  /** The policy's tokens over the episode. */
  readonly usage: Usage;
}


/**
 * Runs one episode and records it. A page that crashes or closes, or a browser that dies, ends the episode
 * with outcome `error` (recorded), unless `signal` was aborted by then; an {@link EpisodeFailure} or an abort
 * leaves nothing behind.
 */
export async function attemptTask(options: AttemptTaskOptions): Promise<AttemptTaskResult> {
  checkEntry('attemptTask', options);
  const { task, policy, store, dir } = options;
  const prefix = options.sitePrefix ?? defaultSitePrefix(task.site);
  // Refused before anything moves: a task that starts outside its site (a local file, another site, /_admin/).
  const boundary = siteBoundary(options.baseUrl, prefix);
  const start = startUrlOf(task, options.baseUrl, boundary);
  const started = new Date();
  const recorder = new EpisodeRecorder(store, dir);
  await store.remove(dir);
  const origin = new URL(options.baseUrl).origin;
  const timer = new AbortController();
  const deadline = setTimeout(() => timer.abort(new EpisodeTimeout('time limit')), options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timer.signal]) : timer.signal;
  let session: EvidenceSession | null = null;
  let ep: EpisodePage | null = null;
  try {
    session = await infra(options.baseUrl, 'evidence', () => options.evidence.open({ site: task.site, taskId: task.task_id, baseUrl: options.baseUrl }));
    const s = session;
    ep = await openEpisodePage(options.host, {
      origin,
      prefix,
      ...(s.reachable?.length ? { reachable: s.reachable } : {}),
      ...(s.pagePosts?.length ? { pagePosts: s.pagePosts } : {}),
      cookies: s.cookies,
      ...(s.onRequest ? { onRequest: (r) => s.onRequest!(r) } : {}),
    });
    const faults = watchSiteFaults(ep.page, origin, ep.listeners);
    // The tables before the first action: what a state claim reads the changes against.
    const startRows = s.startRows ? await infra(options.baseUrl, 'evidence', () => s.startRows!()) : null;
    const consequences = s.consequences ? await infra(options.baseUrl, 'evidence', () => s.consequences!()) : [];
    await infra(options.baseUrl, 'start page', () => ep!.watch.guard(ep!.page.goto(start, { waitUntil: 'load', timeout: 30_000 })));
    // A server redirect is not routed: a start page that led outside the site is not an episode of the site.
    const landed = outsideSite(ep.page.url(), boundary);
    if (landed !== null) throw new EpisodeFailure(`the start page ${start} led outside the site to ${ep.page.url().slice(0, 200)} (${landed})`);
    const marks = new StepMarks(s); // the step map for claims (evidence_steps.json)
    const run = await loop(options, ep, recorder, signal, marks, faults);
    await ep.flushRequests(ep.watch.goneBecause ? 0 : 2000); // a dead page finishes no more requests
    assertSiteUp(faults);
    const evidence = await infra(options.baseUrl, 'evidence', () => s.collect());
    // Rewarded on the recorded evidence (the start rows with the changes applied, not the live tables), so a reader
    // of the episode dir decides the same reward (`decideReward`).
    const graded = { steps: run.history.length, answer: run.answer, log: evidence.log, changes: evidence.changes, seen: run.seen, start: startRows, consequences };
    // MiniWeb's verifiers read the episode's trail too, and keep their judge's decisions in the episode dir.
    const miniweb = isMiniwebVerifier(task.verifier)
      ? { trail: trailOf(run, evidence.record), decided: new Map<string, MiniwebJudgeDecision>(), ...(options.checkJudge ? { judge: options.checkJudge } : {}) }
      : undefined;
    const rewarded = (task.verifier && options.verify) || options.writtenVerifier
      ? await infra(options.baseUrl, 'verifier', () => decideReward({ task, written: options.writtenVerifier ?? null, evidence: graded, ...(options.verify ? { verify: options.verify } : {}), ...(miniweb ? { miniweb } : {}) }))
      : undefined;
    const verdict = rewarded && rewarded.reward !== null ? { ok: rewarded.reward === 1, checks: [...rewarded.checks] } : undefined;
    const ok = verdict?.ok;
    const ended = new Date();
    const episode: Episode = {
      ...options.annotate?.({ ok, checks: verdict?.checks }),
      task,
      outcome: run.outcome,
      steps: run.history.length,
      answer: run.answer,
      timings: { started: started.toISOString(), ended: ended.toISOString(), ms: ended.getTime() - started.getTime() },
      model: policy.model ?? null,
      error: run.error,
      policy: policy.name,
      ...(options.setup ? { setup: options.setup } : {}),
      ...(verdict ? { ok: verdict.ok, checks: verdict.checks ?? [] } : {}),
      blocked: ep.watch.blockedUrls,
      ...(ep.watch.pageBlocked.count ? { page_blocked: { count: ep.watch.pageBlocked.count, urls: ep.watch.pageBlocked.urls } } : {}),
      ...(ep.watch.pagePosts ? { page_posts: ep.watch.pagePosts } : {}),
      usage: run.usage,
    };
    // A page that went away while the run was being stopped is not the agent's error: Chromium closed by a signal
    // (Playwright's handler, or a scheduler's SIGTERM to the whole job, whose handling may come a moment later).
    if (run.outcome === 'error' && options.signal?.aborted) throw options.signal.reason;
    await marks.write(store, dir, evidence, { steps: run.history.length, done: run.outcome === 'done', seen: run.seen.length });
    if (startRows) await writeStartRows(store, dir, startRows, consequences);
    if (evidence.record) await store.writeAtomic(episodeFile(dir, 'siteRecord'), `${JSON.stringify(evidence.record)}\n`);
    if (miniweb) await writeDecisions(store, dir, miniweb.decided);
    await recorder.finish({
      gradeInputs: { actions: run.actions, answer: run.answer, log: evidence.log, changes: evidence.changes, seen: run.seen },
      rows: run.rows,
      episode,
      agentSteps: { max_steps: options.maxSteps, steps: run.history },
    });
    return { episode, ok, usage: run.usage };
  } catch (error) {
    await recorder.discard().catch(() => {});
    if (options.signal?.aborted) throw options.signal.reason;
    throw error instanceof EpisodeFailure ? error : new EpisodeFailure(describeError(error), { cause: error });
  } finally {
    clearTimeout(deadline);
    await ep?.close();
    await session?.close?.().catch(() => {});
  }
}

interface LoopResult {
  outcome: Outcome;
  answer: string | null;
  error: string | null;
  history: StepRecord[];
  actions: Action[];
  rows: Row[];
  seen: string[];
  usage: Usage;
}

// Observe, decide, act, until done, the step limit, the time limit, or the page going away.
async function loop(options: AttemptTaskOptions, ep: EpisodePage, recorder: EpisodeRecorder, signal: AbortSignal, marks: StepMarks, faults: SiteFaults): Promise<LoopResult> {
  const { task, policy, maxSteps } = options;
  const r: LoopResult = { outcome: 'max_steps', answer: null, error: null, history: [], actions: [], rows: [], seen: [], usage: ZERO_USAGE };
  let last: Observation | null = null;
  let lastError: string | null = null;
  let finalShot: Uint8Array | null = null;
  try {
    for (let step = 0; step < maxSteps; step++) {
      if (signal.aborted) throw signal.reason;
      assertSiteUp(faults);
      const observation = await ep.watch.guard(observe(ep.page, { step, error: lastError }));
      last = observation;
      recorder.screenshot(step, observation.screenshot);
      r.seen.push(observation.prompt);
      const counted = marks.mark(step, r.seen.length); // counted while the policy decides, before the action
      const input = { task, observation, history: [...r.history], step, maxSteps, ...(options.signal ? { signal: options.signal } : {}) };
      const decision = await decide(policy, input, signal, options.timeoutMs);
      r.usage = addUsage(r.usage, decision.usage);
      const parsed = parseAction(decision.text);
      let error = parsed.error ?? null;
      if (parsed.action) {
        r.actions.push(parsed.action);
        r.rows.push(row(decision, input, parsed.action));
        if ('done' in parsed.action) {
          r.answer = parsed.action.done.answer ?? null;
          r.outcome = 'done';
          finalShot = observation.screenshot;
        } else {
          await counted;
          error = await performAction(parsed.action, { watch: ep.watch, origin: ep.origin, prefix: ep.prefix, reachable: ep.reachable, elements: observation.elements, ...(options.actionTimeoutMs ? { actionTimeoutMs: options.actionTimeoutMs } : {}) });
        }
      }
      r.history.push({ step, url: observation.url, raw: decision.text, action: parsed.action ?? null, error });
      options.onStep?.({ step, url: observation.url, action: parsed.action ?? null, error });
      lastError = error;
      if (r.outcome === 'done') break;
    }
  } catch (error) {
    if (error instanceof EpisodeFailure) throw error;
    if (error instanceof PageGoneError) {
      r.outcome = 'error';
      r.error = error.message;
      return r;
    }
    if (!(signal.reason instanceof EpisodeTimeout) || options.signal?.aborted) throw error;
    r.outcome = 'timeout';
    r.error = `the episode ran past its time limit (${options.timeoutMs} ms)`;
  }
  await finish(ep, recorder, r, last, lastError, finalShot);
  return r;
}

// The final state: the last screenshot when the agent said done, else a fresh observation.
async function finish(ep: EpisodePage, recorder: EpisodeRecorder, r: LoopResult, last: Observation | null, lastError: string | null, shot: Uint8Array | null): Promise<void> {
  if (shot) {
    recorder.final(shot);
    return;
  }
  try {
    const final = await ep.watch.guard(observe(ep.page, { step: r.history.length, error: lastError }));
    recorder.final(final.screenshot);
    if (final.prompt !== last?.prompt) r.seen.push(final.prompt);
  } catch (error) {
    if (!(error instanceof PageGoneError)) throw error;
    r.outcome = 'error';
    r.error ??= error.message;
  }
}

// What a MiniWeb verifier reads of the finished run: its pages, last page text, MiniWeb's record, its reasoning.
function trailOf(run: LoopResult, record: SiteRecord | undefined): EpisodeTrail {
  return {
    urls: run.history.map((h) => h.url),
    lastPageText: run.seen.at(-1) ?? null,
    records: record?.records ?? [],
    beacons: record?.beacons ?? [],
    reasoning: lastReasoning(run.history.map((h) => h.raw)),
  };
}

function assertSiteUp(faults: SiteFaults): void {
  if (faults.first !== null) throw new EpisodeFailure(`the site's server failed: ${faults.first}`);
}

// A training row: the messages the model got (or the default agent prompt) and the canonical action.
function row(decision: PolicyDecision, input: Parameters<Policy['decide']>[0], action: Action): Row {
  const messages = decision.messages ?? defaultAgentMessages(input);
  return {
    messages: [
      { role: 'system', content: messages.system },
      { role: 'user', content: messages.user },
      { role: 'assistant', content: actionJson(action) },
    ],
    images: [stepImageName(input.step)],
  };
}

// Work of the harness around the agent (evidence, start page, verifier): a failure is a fault, not the episode's; a
// server that stopped answering is named with what to do.
async function infra<T>(baseUrl: string, what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PageGoneError) throw error;
    const down = serverDownIn(error);
    if (down) {
      const { message, hint } = describeServerDown(down, what, baseUrl);
      throw new ServerStoppedFailure(message, hint, { cause: error });
    }
    throw new EpisodeFailure(`${what}: ${describeError(error)}`, { cause: error });
  }
}
