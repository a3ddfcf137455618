/**
 * One model call of the policy within an episode: bounded by the episode's time limit and a grace period after it,
 * a failing call named as the model's fault.
 * @module
 */
import type { Policy, PolicyDecision } from '../agent/types';
import { describeError } from '../core/errors';
import { EpisodeFailure, EpisodeTimeout } from './episode-failure';
import { serverDownOf } from './site-faults';

/**
 * One model call of the policy. The episode's time limit does not cut it short: the call ends on its own (its
 * adapter bounds it), within `graceMs` more, so that a call that was failing (5xx, refused, timed out) ends the
 * episode as the model's fault, not as the agent running out of time. A call that answers after the limit ends the
 * episode as `timeout`, its answer unused.
 */
export async function decide(policy: Policy, input: Parameters<Policy['decide']>[0], signal: AbortSignal, timeoutMs: number): Promise<PolicyDecision> {
  const call = policy.decide(input);
  const failure = (error: unknown) => new EpisodeFailure(`policy ${policy.name}: ${describeFault(error)}`, { cause: error });
  try {
    return await untilAborted(call, signal);
  } catch (error) {
    if (!signal.aborted) throw failure(error);
    if (!(signal.reason instanceof EpisodeTimeout)) throw signal.reason;
  }
  const graceMs = Math.max(timeoutMs, 60_000);
  const late = new AbortController();
  const timer = setTimeout(() => late.abort(), graceMs);
  try {
    await untilAborted(call, input.signal ? AbortSignal.any([input.signal, late.signal]) : late.signal);
  } catch (error) {
    if (input.signal?.aborted) throw input.signal.reason;
    if (late.signal.aborted) {
      throw new EpisodeFailure(`policy ${policy.name}: the model had not answered ${graceMs / 1000} s after the episode's time limit (${timeoutMs / 1000} s)`);
    }
    throw failure(error);
  } finally {
    clearTimeout(timer);
  }
  throw signal.reason;
}

// `work`, or a rejection with the signal's reason once it fires.
async function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => {});
    throw signal.reason;
  }
  let onAbort: () => void = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    work.catch(() => {});
    signal.removeEventListener('abort', onAbort);
  }
}

// An error as text; a failed fetch also names the server that stopped answering (`fetch failed` alone does not).
function describeFault(error: unknown): string {
  const down = serverDownOf(error);
  return down ? `${describeError(error)}: ${down}` : describeError(error);
}
