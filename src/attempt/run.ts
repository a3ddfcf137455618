/**
 * The attempt step: every task run by a policy in a real browser from its start page, N at a time, each
 * episode recorded in `<out>/<task_id>/`. Resumable: finished episodes are skipped, half-written ones redone.
 * @module
 */
import { setTimeout as delay } from 'node:timers/promises';
import PQueue from 'p-queue';
import { describeError } from '../core/errors';
import { checkInput, ENTRY_SCHEMAS } from '../core/check';
import { StageStoppedError, type CallFailure } from '../models/failures';
import { nodeStore } from '../files/node';
import type { FileStore } from '../files/types';
import { addUsage, ZERO_USAGE, type LanguageModel, type Usage } from '../models/types';
import { miniwebJudge } from '../miniweb/verifier-judge';
import { assertPlainName } from '../core/names';
import type { Outcome, Task } from '../core/schemas';
import type { Shard } from '../core/shard';
import type { SiteSource } from '../sites/types';
import { browserHost, isBrowserHost, type BrowserHost, type BrowserOptions } from '../browser/host';
import { defaultVerify, attemptTask, type StepInfo, type VerifyFunction } from './episode';
import { describeFailure, faultOf } from './could-not-run';
import { browserEvidence } from './evidence';
import { ClaimLostError, describeHolder } from './claims';
import { finishedTotals, type FinishedTotals } from './run-dir';
import { openTry, type OpenTry } from './try-dir';
import { MAX_TRIES } from '../files/layout';
import { defaultSitePrefix, siteBoundary, startUrlOf } from '../browser/site-boundary';
import type { Policy } from '../agent/types';
import type { EvidenceProvider } from './types';
import { readSetups } from '../files/setup';
import { DEFAULT_MAX_STEPS, DEFAULT_STOP_AFTER_FAILURES } from './setup';
import type { WrittenClaim } from '../claims/grade';

/** Options of {@link runAttempt}. */
export interface AttemptOptions {
  /** The tasks to attempt (a task id listed twice is attempted once, with a warning). */
  readonly tasks: readonly Task[];
  /** Decides each action. */
  readonly policy: Policy;
  /** Where the sites are served: its `baseUrl` is the server the browser visits. */
  readonly source: Pick<SiteSource, 'baseUrl'>;
  /** The run directory. */
  readonly out: string;
  /**
   * A site's path prefix on the server: each episode's start page and navigations stay under it (DESIGN.md §5).
   * Default {@link defaultSitePrefix} (`/sites/<site>/`, MiniWeb's and the sandbox's layout).
   */
  readonly sitePrefix?: (site: string) => string;
  /** The server's record of each episode. Default {@link browserEvidence} (requests only, no data changes). */
  readonly evidence?: EvidenceProvider;
  /** Episodes in parallel. Default 4. */
  readonly concurrency?: number;
  /** Steps per episode. Default 15. */
  readonly maxSteps?: number;
  /** Time limit of one episode in ms. Default 300000. */
  readonly episodeTimeoutMs?: number;
  /** Time limit of one element action in ms. Default 10000. */
  readonly actionTimeoutMs?: number;
  /**
   * Checks tasks that have a verifier; its result goes to `episode.json` (`ok`, `checks`) and `results.jsonl`.
   * Default {@link defaultVerify}; `false` checks nothing.
   */
  readonly verify?: VerifyFunction | false;
  /**
   * Verifiers written for proposed tasks (`verifiers.jsonl`, see `readWrittenVerifiers`): a task with no verifier of
   * its own whose id and instruction match one is checked with its claim, and the run gets `results.jsonl` as a run
   * of human tasks does. Default none.
   */
  readonly verifiers?: readonly WrittenClaim[];
  /**
   * The model that decides the checks of MiniWeb's verifiers (`verifier.json`) that need an LLM (fuzzy answers,
   * reasoning); its decisions are kept in each episode dir. Without it those checks are undecided, and such a task's
   * reward falls to its written verifier or the judge. Default none.
   */
  readonly checkJudge?: LanguageModel;
  /** How many more times an episode that could not run (model or server failure) is tried in this run. Default 1. */
  readonly retries?: number;
  /**
   * Stops the run after this many tries in a row that could not run (the agent's model or the site's server
   * failing), rejecting with a {@link StageStoppedError} that names the first causes; episodes in flight are
   * dropped, and a rerun redoes them. Default 3; 0 never stops for that.
   */
  readonly stopAfterFailures?: number;
  /** A browser to share (its owner closes it), or options for one this run launches and closes. */
  readonly browser?: BrowserHost | BrowserOptions;
  /**
   * Tries per task (1 to 10,000): each its own episode, with its own browser context and site session, recorded in its
   * own run dir (try 1 in `out`, try n in `<out>/_tries/<n>/`, `files/layout.ts`), with the policy's `forTry(n)`, so
   * a sampling policy's tries differ. Resumable per try; a shard takes tries, not tasks. Default 1: `out` is what a
   * run of one try always was.
   */
  readonly attempts?: number;
  /** Default {@link nodeStore}. */
  readonly store?: FileStore;
  /** Progress events; the library never prints. */
  readonly onEvent?: (event: AttemptEvent) => void;
  /** Stops the run: no new episodes start, running ones are dropped (redone next time), the call rejects. */
  readonly signal?: AbortSignal;
  /**
   * Attempt only this shard's tasks, `tasks[index::count]` in the given order (DESIGN.md §8); `tasks.jsonl`
   * still lists them all, so every shard writes the same run files. Default all tasks.
   */
  readonly shard?: Shard;
  /**
   * Add episodes to a run dir recorded with another set-up (policy, model, max steps, site prefix) on purpose.
   * Default false: such a dir is refused before anything runs, the differences named (`SetupMismatchError`).
   */
  readonly mixSetup?: boolean;
}

/**
 * Progress of an {@link runAttempt} run. In a run of several tries per task, each episode's event names its `try`
 * (1-based); a run of one try leaves it out.
 */
export type AttemptEvent =
  | {
      readonly type: 'run-start';
      /** This call's tasks (its shard's). */
      readonly tasks: number;
      readonly finished: number;
      readonly todo: number;
      /** The shard, and the tasks of all shards; `null` for an unsharded run. */
      readonly shard: { readonly index: number; readonly count: number; readonly total: number } | null;
      /** Tries per task, when more than one (then `tasks`, `finished` and `todo` count tries). */
      readonly attempts?: number;
    }
  | { readonly type: 'episode-start'; readonly taskId: string; readonly try?: number }
  | ({ readonly type: 'step'; readonly taskId: string; readonly try?: number } & StepInfo)
  | {
      readonly type: 'episode-end';
      readonly taskId: string;
      readonly try?: number;
      readonly outcome: Outcome;
      readonly steps: number;
      readonly ok: boolean | undefined;
      readonly error: string | null;
    }
  | { readonly type: 'episode-failed'; readonly taskId: string; readonly error: string; readonly try?: number }
  /**
   * Another process has the episode (DESIGN.md §8): `claimed` (running it; this call waits for it), `finished`
   * (it finished it), `taken-over` (it took this call's claim over, finding it stale), `duplicate` (it published
   * the episode first; this call's recording was moved to `_aside/`).
   */
  | {
      readonly type: 'episode-elsewhere';
      readonly taskId: string;
      readonly try?: number;
      readonly reason: 'claimed' | 'finished' | 'taken-over' | 'duplicate';
      readonly holder: string | null;
    }
  | { readonly type: 'browser-launch'; readonly launches: number }
  /** The run stopped before its end: episodes kept failing for reasons outside them (see `stopAfterFailures`). */
  | { readonly type: 'stopped'; readonly error: StageStoppedError }
  | { readonly type: 'warning'; readonly message: string };

/** What a run did. */
export interface AttemptResult {
  /** Episodes of this call (task x try): the given tasks (duplicates removed) times the tries, or its shard's. */
  readonly tasks: number;
  /** Tries per task. */
  readonly attempts: number;
  /** Episodes already finished before this call, skipped. */
  readonly skipped: number;
  /** Episodes run and recorded by this call. */
  readonly recorded: number;
  /** Episodes that could not run (model or server failures); not recorded, a rerun retries them. */
  readonly failed: number;
  /** The first causes of tries that could not run (status, message, model, hint), for the summary. */
  readonly failures: readonly CallFailure[];
  /** Episodes of this call's tasks finished meanwhile by other processes sharing the run dir. */
  readonly elsewhere: number;
  /** Recorded episodes of this call by outcome. */
  readonly outcomes: Readonly<Record<Outcome, number>>;
  /** Steps taken in this call's episodes. */
  readonly steps: number;
  /** The given tasks' finished episodes in the run dir, earlier calls' included: how many, their steps and outcomes. */
  readonly finished: FinishedTotals;
  /** Verified episodes of the whole run (`results.jsonl`), and how many passed. */
  readonly verified: { readonly total: number; readonly passed: number };
  /** The policy's tokens in this call. */
  readonly usage: Usage;
  /** Wall time in ms. */
  readonly ms: number;
}


/**
 * Attempts `tasks` with `policy` and records every episode under `out` (DESIGN.md §3): `tasks.jsonl`,
 * `<task_id>/{grade_inputs.json, screenshots/, final.png, rows/, episode.json}` and `results.jsonl`.
 * A page or browser crash ends only its own episode, recorded with its error (a dead browser is relaunched).
 */
export async function runAttempt(options: AttemptOptions): Promise<AttemptResult> {
  // Checked and given the schema's defaults, so the tasks written to `tasks.jsonl` read back as written.
  const { tasks } = checkInput('runAttempt', ENTRY_SCHEMAS.runAttempt, options);
  const t0 = Date.now();
  const store = options.store ?? nodeStore();
  const emit = options.onEvent ?? (() => {});
  const warn = (message: string) => emit({ type: 'warning', message });
  const baseUrl = options.source.baseUrl;
  if (!baseUrl) throw new Error('attempt: the site source has no baseUrl (the server the browser visits)');
  const { out } = options;
  const attempts = options.attempts ?? 1;
  if (!Number.isInteger(attempts) || attempts < 1 || attempts > MAX_TRIES) throw new RangeError(`runAttempt: attempts must be an integer in 1..${MAX_TRIES}, got ${String(attempts)}`);
  const prefixOf = options.sitePrefix ?? defaultSitePrefix;
  const unique = dedupe(tasks, warn);
  // Every task's start page is checked before anything is written or launched.
  for (const task of unique) startUrlOf(task, baseUrl, siteBoundary(baseUrl, prefixOf(task.site)));
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  const timeoutMs = options.episodeTimeoutMs ?? 300_000;
  const tries: OpenTry[] = [];
  for (let n = 1; n <= attempts; n++) {
    tries.push(await openTry({
      store, run: out, n, of: attempts, tasks: unique, policy: options.policy, maxSteps, baseUrl, sitePrefix: options.sitePrefix,
      verifiers: options.verifiers ?? [], ...(options.shard ? { shard: options.shard } : {}), mixSetup: options.mixSetup, staleMs: timeoutMs, warn,
    }));
  }
  const tagOf = (t: OpenTry) => (attempts > 1 ? { try: t.n } : {});
  // Task-major: every try of a task before the next task, so the tries of one task run side by side.
  const units = unique.flatMap((task) => tries.filter((t) => t.mine.includes(task) && !t.finished.has(task.task_id)).map((t) => ({ task, t })));
  const given = tries.reduce((n, t) => n + t.mine.length, 0);
  const skipped = given - units.length;
  const shard = options.shard ? { ...options.shard, total: unique.length } : null;
  emit({ type: 'run-start', tasks: given, finished: skipped, todo: units.length, shard, ...(attempts > 1 ? { attempts } : {}) });

  const owned = !isBrowserHost(options.browser);
  const host = isBrowserHost(options.browser)
    ? options.browser
    : browserHost({ ...options.browser, onLaunch: (launches) => emit({ type: 'browser-launch', launches }) });
  const evidence = options.evidence ?? browserEvidence();
  const checkJudge = options.checkJudge ? miniwebJudge(options.checkJudge) : undefined;
  // A server that cannot give the evidence is named before any episode runs (or any model is called).
  if (units.length && evidence.check) await evidence.check({ baseUrl, sites: [...new Set(units.map((u) => u.task.site))] });
  const outcomes: Record<Outcome, number> = { done: 0, max_steps: 0, timeout: 0, error: 0 };
  let recorded = 0;
  let failed = 0;
  let steps = 0;
  let usage = ZERO_USAGE;
  let elsewhere = 0;
  const pollMs = Math.min(5000, Math.max(200, timeoutMs / 20));
  const queue = new PQueue({ concurrency: Math.max(1, options.concurrency ?? 4) });
  const waits = new Set<Promise<void>>();
  // Aborted by the caller's signal, or by this run when episodes keep failing.
  const stop = new AbortController();
  const stopSignal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const onAbort = () => queue.clear();
  stopSignal.addEventListener('abort', onAbort, { once: true });
  const failures: CallFailure[] = [];
  const stopAfter = options.stopAfterFailures ?? DEFAULT_STOP_AFTER_FAILURES;
  let inARow = 0;
  let stopped: StageStoppedError | undefined;
  const couldNotRun = (taskId: string, error: unknown) => {
    const failure = faultOf(error, taskId, baseUrl);
    if (failures.length < 5) failures.push(failure);
    inARow++;
    if (stopAfter > 0 && inARow >= stopAfter && !stopped) {
      stopped = new StageStoppedError('attempt', `${inARow} episodes in a row could not run`, failures.slice(-inARow), { cause: error });
      emit({ type: 'stopped', error: stopped });
      stop.abort(stopped);
    }
  };
  try {
    const retries = options.retries ?? 1;
    const elsewhereEnd = async (t: OpenTry, taskId: string, reason: 'finished' | 'taken-over' | 'duplicate', holder: string | null) => {
      elsewhere++;
      emit({ type: 'episode-elsewhere', taskId, reason, holder, ...tagOf(t) });
      if (t.verifying) await t.saveResults();
    };
    const schedule = (task: Task, t: OpenTry, retried: number, waited = false): void => {
      void queue.add(async () => {
        if (stopSignal.aborted) return;
        const taskId = task.task_id;
        const got = await t.claims.acquire(taskId, () => t.isFinished(taskId));
        if (got.kind === 'finished') return elsewhereEnd(t, taskId, 'finished', null);
        if (got.kind === 'busy') {
          // Another live process runs it: look again later, and take it over if that process dies.
          if (!waited) emit({ type: 'episode-elsewhere', taskId, reason: 'claimed', holder: describeHolder(got.holder), ...tagOf(t) });
          const wait: Promise<void> = delay(pollMs).then(() => {
            waits.delete(wait);
            schedule(task, t, retried, true);
          });
          waits.add(wait);
          return;
        }
        const { claim } = got;
        for (const aside of claim.asides) warn(`episode ${taskId}${tryLabel(t, attempts)}: a dead process's partial episode was moved to ${aside}`);
        emit({ type: 'episode-start', taskId, ...tagOf(t) });
        try {
          // Each try its own episode: its own browser context and site session (attemptTask opens both).
          const result = await attemptTask({
            task,
            policy: t.policy,
            host,
            evidence,
            baseUrl,
            sitePrefix: prefixOf(task.site),
            store,
            dir: claim.staging,
            maxSteps,
            timeoutMs,
            setup: t.setup,
            ...(options.actionTimeoutMs ? { actionTimeoutMs: options.actionTimeoutMs } : {}),
            ...(options.verify !== false ? { verify: options.verify ?? defaultVerify } : {}),
            ...(t.written.has(taskId) ? { writtenVerifier: t.written.get(taskId)! } : {}),
            ...(checkJudge ? { checkJudge } : {}),
            signal: AbortSignal.any([stopSignal, claim.lost]),
            onStep: (s) => emit({ type: 'step', taskId, ...s, ...tagOf(t) }),
          });
          if ((await claim.commit()) === 'duplicate') {
            await t.isFinished(taskId);
            return await elsewhereEnd(t, taskId, 'duplicate', null);
          }
          const { episode } = result;
          inARow = 0;
          recorded++;
          outcomes[episode.outcome]++;
          steps += episode.steps;
          usage = addUsage(usage, result.usage);
          t.finished.set(taskId, { episode, ok: result.ok });
          if (result.ok !== undefined) await t.saveResults();
          emit({ type: 'episode-end', taskId, outcome: episode.outcome, steps: episode.steps, ok: result.ok, error: episode.error, ...tagOf(t) });
        } catch (error) {
          if (stopSignal.aborted) return;
          if (claim.lost.aborted || error instanceof ClaimLostError) return await elsewhereEnd(t, taskId, 'taken-over', describeError(claim.lost.reason ?? error));
          couldNotRun(taskId, error);
          if (stopped) return;
          if (retried < retries) {
            warn(`episode ${taskId}${tryLabel(t, attempts)} could not run (${describeFailure(error)}); trying it again`);
            schedule(task, t, retried + 1);
            return;
          }
          failed++;
          emit({ type: 'episode-failed', taskId, error: describeFailure(error), ...tagOf(t) });
        } finally {
          await claim.release();
        }
      });
    };
    for (const { task, t } of units) schedule(task, t, 0);
    for (;;) {
      await queue.onIdle();
      if (waits.size === 0 || stopSignal.aborted) break;
      await Promise.race(waits);
    }
  } finally {
    stopSignal.removeEventListener('abort', onAbort);
    if (owned) await host.close();
  }
  let verifiedCount = 0;
  for (const t of tries) if (t.verifying) verifiedCount += await t.saveResults();
  if (options.signal?.aborted) throw options.signal.reason;
  if (stopped) throw stopped;
  const passed = tries.reduce((n, t) => n + [...t.finished.values()].filter((f) => f.ok === true).length, 0);
  const done = tries.flatMap((t) => t.mine.flatMap((task: Task) => t.finished.get(task.task_id) ?? []));
  const setups = (await Promise.all(tries.map((t) => readSetups(store, t.dir, 'attempt', '.')))).flat();
  return {
    tasks: given,
    attempts,
    skipped,
    recorded,
    failed,
    failures,
    elsewhere,
    outcomes,
    steps,
    finished: finishedTotals(done, setups),
    verified: { total: verifiedCount, passed },
    usage,
    ms: Date.now() - t0,
  };
}

// ` (try 2)` in a message of a run with several tries; nothing in a run of one.
function tryLabel(t: OpenTry, attempts: number): string {
  return attempts > 1 ? ` (try ${t.n})` : '';
}

// Checks every id and site before any path is built; a repeated task id is attempted once.
function dedupe(tasks: readonly Task[], warn: (message: string) => void): Task[] {
  const seen = new Set<string>();
  const out: Task[] = [];
  for (const task of tasks) {
    assertPlainName(task.task_id, 'task id');
    assertPlainName(task.site, 'site');
    if (seen.has(task.task_id)) {
      warn(`task ${task.task_id} appears more than once; attempted once`);
      continue;
    }
    seen.add(task.task_id);
    out.push(task);
  }
  return out;
}
