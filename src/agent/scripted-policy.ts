/**
 * A policy that replays a script, for tests and demos: a list of actions (or raw replies) or a function.
 * @module
 */
import type { Action } from '../core/schemas';
import { actionJson } from './parse-action';
import type { Policy, PolicyInput } from './types';

/** One scripted step: an action, or a raw reply text (to test the parser and error feedback). */
export type ScriptedStep = Action | string;

/** Computes the next step from what the policy sees. */
export type ScriptFunction = (input: PolicyInput) => ScriptedStep | Promise<ScriptedStep>;

/** Options of {@link scriptedPolicy}. */
export interface ScriptedPolicyOptions {
  /** The policy's name in episodes. Default `scripted`. */
  readonly name?: string;
}

/**
 * A policy that returns `script[step]` (then `{"done": {}}` once the list runs out), or whatever `script`
 * computes. The same list serves every task; use a function to vary it by task.
 * @example
 * scriptedPolicy([{ click: { index: 2 } }, 'not json', { done: { answer: '42' } }])
 */
export function scriptedPolicy(script: readonly ScriptedStep[] | ScriptFunction, options: ScriptedPolicyOptions = {}): Policy {
  return {
    name: options.name ?? 'scripted',
    async decide(input) {
      const next: ScriptedStep =
        typeof script === 'function' ? await script(input) : (script[input.step] ?? { done: {} });
      return { text: typeof next === 'string' ? next : actionJson(next) };
    },
  };
}
