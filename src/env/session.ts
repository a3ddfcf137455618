/**
 * One environment session (DESIGN.md §10): each `reset` starts an ordinary episode of the attempt step
 * ({@link attemptTask}) whose policy is the remote client: its `decide()` hands the observation to the session and
 * waits for the next `step`. The episode is recorded as `runAttempt` records it, and the reward is its verdict.
 * @module
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Task } from '../core/schemas';
import type { FileStore } from '../files/types';
import type { BrowserHost } from '../browser/host';
import type { EvidenceProvider } from '../attempt/types';
import { attemptTask, type AttemptTaskResult, type VerifyFunction } from '../attempt/episode';
import type { Policy, PolicyDecision, PolicyInput } from '../agent/types';
import { defaultAgentMessages } from '../agent/prompt';
import { describeError } from '../core/errors';
import type { EnvAction, EnvObservation, EnvReset, EnvState, EnvStepResult } from './protocol';
import { EnvRequestError, type EnvTasks } from './tasks';
import type { ClaimedTry, EpisodeSlots } from './recording';

/** An error that ends the session (the browser died, a step ran past its time limit): the server closes it. */
export class EnvSessionError extends Error {
  override readonly name = 'EnvSessionError';
}

/** What a session needs from its server. */
export interface SessionContext {
  readonly tasks: EnvTasks;
  readonly slots: EpisodeSlots;
  readonly host: BrowserHost;
  readonly evidence: EvidenceProvider;
  readonly baseUrl: string;
  readonly sitePrefix: (site: string) => string;
  readonly store: FileStore;
  readonly maxSteps: number;
  readonly episodeTimeoutMs: number;
  readonly stepTimeoutMs: number;
  readonly actionTimeoutMs?: number;
  readonly screenshot: boolean;
  readonly verify: VerifyFunction;
  /** The judge's reward of a recorded episode (`--judge-reward`), for tasks nothing else grades. */
  readonly judgeReward?: (input: { readonly run: string; readonly taskId: string }) => Promise<number | null>;
  /** The policy name written in the episodes (`env`). */
  readonly policyName: string;
  readonly onWarning: (message: string) => void;
}

type Event = { kind: 'observe'; input: PolicyInput } | { kind: 'end'; result: AttemptTaskResult } | { kind: 'fail'; error: unknown };

interface Running {
  readonly task: Task;
  readonly episodeId: string;
  readonly claimed: ClaimedTry;
  readonly stop: AbortController;
  reply: ((decision: PolicyDecision) => void) | null;
  waiter: ((event: Event) => void) | null;
  queued: Event[];
  steps: number;
  /** Whether the shared browser the episode runs in is still up (to name a crash). */
  browserUp: () => boolean;
  last: EnvObservation | null;
  done: boolean;
  episodeDir: string | null;
  settled: Promise<void>;
}

/** One client's session: one episode at a time. */
export class EnvSession {
  /** The session's id. */
  readonly id = randomUUID();
  private running: Running | null = null;

  constructor(private readonly ctx: SessionContext) {}

  /** The state (OpenEnv's `State` and ours). */
  state(): EnvState {
    const r = this.running;
    return {
      episode_id: r?.episodeId ?? null,
      step_count: r?.steps ?? 0,
      task_id: r?.task.task_id ?? null,
      split: r ? this.ctx.tasks.splitOf(r.task.task_id) : null,
      max_steps: this.ctx.maxSteps,
      done: r?.done ?? false,
      episode_dir: r?.episodeDir ?? null,
    };
  }

  /** Starts an episode of the task `data` names (an episode in progress is dropped, unrecorded). */
  async reset(data: EnvReset): Promise<EnvStepResult> {
    const task = this.ctx.tasks.pick(data);
    await this.drop('reset');
    const browser = await this.ctx.host.browser();
    const claimed = await this.ctx.slots.claim(task);
    const r: Running = {
      browserUp: () => browser.isConnected(),
      task,
      episodeId: data.episode_id ?? `${task.task_id}@${claimed.n}:${this.id.slice(0, 8)}`,
      claimed,
      stop: new AbortController(),
      reply: null,
      waiter: null,
      queued: [],
      steps: 0,
      last: null,
      done: false,
      episodeDir: null,
      settled: Promise.resolve(),
    };
    this.running = r;
    r.settled = this.run(r);
    return this.next(r, null);
  }

  /** Takes one action; the reply is the next observation, or the end with the reward. */
  async step(action: EnvAction): Promise<EnvStepResult> {
    const r = this.running;
    if (!r) throw new EnvRequestError('step: no episode; send reset first');
    if (r.done) throw new EnvRequestError('step: the episode is over; send reset to start another');
    if (!r.reply) throw new EnvRequestError('step: the previous step is still running');
    const reply = r.reply;
    r.reply = null;
    r.steps++;
    reply({ text: action.action !== undefined ? JSON.stringify(action.action) : action.text! });
    return this.next(r, this.ctx.stepTimeoutMs);
  }

  /** Ends the session: an episode in progress is dropped, unrecorded. */
  async close(why = 'the session closed'): Promise<void> {
    await this.drop(why);
  }

  // The episode, from its start page to its recording; its events go to the session in order.
  private async run(r: Running): Promise<void> {
    const post = (event: Event) => {
      if (r.waiter) {
        const w = r.waiter;
        r.waiter = null;
        w(event);
      } else r.queued.push(event);
    };
    const policy: Policy = {
      name: this.ctx.policyName,
      decide: (input) =>
        new Promise<PolicyDecision>((resolve) => {
          r.reply = resolve;
          post({ kind: 'observe', input });
        }),
    };
    const source = this.ctx.tasks.rewardSource(r.task, this.ctx.judgeReward !== undefined);
    let result: AttemptTaskResult;
    try {
      result = await attemptTask({
        task: r.task,
        policy,
        host: this.ctx.host,
        evidence: this.ctx.evidence,
        baseUrl: this.ctx.baseUrl,
        sitePrefix: this.ctx.sitePrefix(r.task.site),
        store: this.ctx.store,
        dir: r.claimed.claim.staging,
        maxSteps: this.ctx.maxSteps,
        timeoutMs: this.ctx.episodeTimeoutMs,
        setup: r.claimed.setup,
        verify: this.ctx.verify,
        ...(this.ctx.actionTimeoutMs ? { actionTimeoutMs: this.ctx.actionTimeoutMs } : {}),
        ...(this.ctx.tasks.written.has(r.task.task_id) ? { writtenVerifier: this.ctx.tasks.written.get(r.task.task_id)! } : {}),
        signal: AbortSignal.any([r.stop.signal, r.claimed.claim.lost]),
        annotate: ({ ok }) => ({
          env: { session: this.id, episode_id: r.episodeId, reward: source === 'judge' ? null : rewardOf(ok), reward_source: source },
        }),
      });
      // Dropped while it was being graded or written (a shutdown's cut): kept aside, never published.
      if (r.stop.signal.aborted) {
        const aside = await r.claimed.claim.setAside('dropped');
        this.ctx.onWarning(`episode ${r.task.task_id}: dropped after it was recorded (${describeError(r.stop.signal.reason)}); kept unpublished in ${aside}`);
        throw r.stop.signal.reason;
      }
      const committed = await r.claimed.claim.commit();
      if (committed === 'duplicate') throw new Error(`another server recorded ${r.task.task_id} in ${r.claimed.run} first; this episode was moved aside`);
      r.episodeDir = path.posix.join(r.claimed.run, r.task.task_id);
    } catch (error) {
      post({ kind: 'fail', error });
      return;
    } finally {
      await r.claimed.claim.release().catch(() => {});
    }
    // The episode is published: the reply goes out now, results.jsonl follows (a reader re-derives it if we die).
    post({ kind: 'end', result });
    await this.ctx.slots.syncResults(r.claimed.run).catch((error: unknown) => this.ctx.onWarning(`${r.claimed.run}: results.jsonl not updated: ${describeError(error)}`));
  }

  // The episode's next event as a reply: an observation, the end with its reward, or an error.
  private async next(r: Running, timeoutMs: number | null): Promise<EnvStepResult> {
    const event = await this.nextEvent(r, timeoutMs);
    if (event.kind === 'observe') {
      r.last = this.observation(r.task, event.input);
      return { observation: r.last, reward: null, done: false };
    }
    r.done = true;
    if (event.kind === 'fail') {
      if (r.stop.signal.aborted) throw new EnvSessionError(describeError(r.stop.signal.reason));
      throw new EnvRequestError(`the episode could not run, nothing was recorded: ${describeError(event.error)}`);
    }
    const { episode, ok } = event.result;
    if (episode.outcome === 'error') {
      const why = r.browserUp() ? episode.error ?? 'unknown' : `the browser (Chromium) died: ${episode.error ?? 'unknown'}; it is relaunched for the next episode`;
      throw new EnvSessionError(`the episode ended with an error (${why}); it is recorded in ${r.episodeDir} as outcome error`);
    }
    const source = this.ctx.tasks.rewardSource(r.task, this.ctx.judgeReward !== undefined);
    const reward = source === 'judge' ? await this.ctx.judgeReward!({ run: r.claimed.run, taskId: r.task.task_id }) : rewardOf(ok);
    const last = r.last ?? this.emptyObservation(r.task);
    const observation: EnvObservation = {
      ...last,
      step: episode.steps,
      screenshot: null,
      metadata: {
        outcome: episode.outcome,
        answer: episode.answer,
        error: episode.error,
        reward_source: source,
        checks: episode.checks ?? [],
        episode_dir: r.episodeDir,
        episode_id: r.episodeId,
      },
    };
    return { observation, reward, done: true };
  }

  private nextEvent(r: Running, timeoutMs: number | null): Promise<Event> {
    const queued = r.queued.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise<Event>((resolve, reject) => {
      const timer = timeoutMs === null ? null : setTimeout(() => {
        r.waiter = null;
        const error = new EnvSessionError(`the step ran past its time limit (${timeoutMs} ms); the episode was dropped, nothing recorded`);
        r.stop.abort(error);
        r.done = true;
        reject(error);
      }, timeoutMs);
      r.waiter = (event) => {
        if (timer) clearTimeout(timer);
        resolve(event);
      };
    });
  }

  private observation(task: Task, input: PolicyInput): EnvObservation {
    const o = input.observation;
    return {
      task_id: task.task_id,
      site: task.site,
      instruction: task.instruction,
      url: o.url,
      title: o.title,
      elements: o.elements.map(({ options, ...e }) => ({ ...e, ...(options ? { options: [...options] } : {}) })),
      text: o.text,
      error: o.error,
      step: input.step,
      max_steps: input.maxSteps,
      screenshot: this.ctx.screenshot ? Buffer.from(o.screenshot).toString('base64') : null,
      prompt: defaultAgentMessages(input),
      metadata: {},
    };
  }

  private emptyObservation(task: Task): EnvObservation {
    return { task_id: task.task_id, site: task.site, instruction: task.instruction, url: '', title: '', elements: [], text: '', error: null, step: 0, max_steps: this.ctx.maxSteps, screenshot: null, prompt: { system: '', user: '' }, metadata: {} };
  }

  // Stops the episode in progress (nothing recorded) and waits for it to let go of its page and claim.
  private async drop(why: string): Promise<void> {
    const r = this.running;
    this.running = null;
    if (!r) return;
    if (!r.done) r.stop.abort(new EnvSessionError(why));
    await r.settled;
  }
}

function rewardOf(ok: boolean | undefined): number | null {
  return ok === undefined ? null : ok ? 1 : 0;
}
