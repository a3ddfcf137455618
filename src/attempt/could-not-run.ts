/**
 * Why an episode of `attempt` could not run (a fault outside it: the agent's model, the site's server, its evidence
 * endpoint), as the run's events and its failures say it. @module
 */
import { describeError } from '../core/errors';
import { StageStoppedError, callFailureOf, type CallFailure } from '../models/failures';
import { LLMError } from '../models/types';
import { EpisodeFailure, ServerStoppedFailure } from './episode';
import { serverDownOf } from './site-faults';

/** Why an episode could not run, as its event says it: a server that stopped answering is its cause and what to do. */
export function describeFailure(error: unknown): string {
  return error instanceof ServerStoppedFailure ? error.message : describeError(error);
}

/** Why a try could not run, for the run's failures: the model's failure (status, model, hint), or the site's server's. */
export function faultOf(error: unknown, taskId: string, baseUrl: string): CallFailure {
  for (let e = error; e instanceof Error; e = e.cause) {
    if (e instanceof StageStoppedError && e.failures[0]) return e.failures[0];
    if (e instanceof LLMError) return callFailureOf(e, 'attempt', taskId);
  }
  if (error instanceof ServerStoppedFailure) return { stage: 'attempt', item: taskId, message: error.message, hint: error.hint, fatal: false };
  const message = error instanceof EpisodeFailure ? error.message : describeError(error);
  const down = serverDownOf(error);
  if (down) {
    const hint = `${down.replace(/ does not answer.*/, '')} stopped answering: start it again (the sites' server is at ${baseUrl}), then run the same command again: finished episodes are kept`;
    return { stage: 'attempt', item: taskId, message: `${message} (${hint})`, hint, fatal: false };
  }
  if (!/^(the site's server failed|start page|evidence)\b/.test(message)) return { stage: 'attempt', item: taskId, message, fatal: false };
  const hint = `check that the sites' server at ${baseUrl} is up and reachable`;
  return { stage: 'attempt', item: taskId, message: `${message} (${hint})`, hint, fatal: false };
}
