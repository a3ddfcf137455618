/**
 * A policy of valid steps only, for measuring what the agent is told that it did not cause: on each step it clicks a
 * link of the page that stays inside the site (never one that logs out, deletes or resets), and ends with `done` (also
 * on a page without such a link). Every error its observations carry is therefore not its own: the count must be 0.
 */
import { scriptedPolicy, type Policy, type Task } from 'miniweb-taskgen';

const DESTRUCTIVE = /log-?out|sign-?out|log-?off|delete|remove|reset|destroy|clear|unsubscribe|deactivate|close-account/i;

/** The policy: `steps` steps of in-site links (a different one each step where it can), then `done`. */
export function wanderPolicy(steps = 3): Policy {
  return scriptedPolicy((input) => {
    if (input.step >= steps) return { done: { answer: `ended on ${input.observation.url.split('?')[0]}` } };
    const prefix = `/sites/${input.task.site}/`;
    const visited = new Set(input.history.map((h) => h.url.split('?')[0]));
    const links = input.observation.elements.filter(
      (e) => e.role === 'link' && e.href !== undefined && e.href.startsWith(prefix) && !DESTRUCTIVE.test(`${e.href} ${e.name}`),
    );
    const next = links.find((e) => !visited.has(e.href!.split('?')[0]) && e.href !== input.observation.url) ?? links[input.step % Math.max(1, links.length)];
    return next ? { click: { index: next.index } } : { done: { answer: `no link on ${input.observation.url.split('?')[0]}` } };
  }, { name: 'wander' });
}

/** A task that starts on a site's home page, for {@link wanderPolicy}. */
export function homeTask(site: string): Task {
  return {
    kind: 'proposed', task_id: `wander-${site}`, site, sites: [site], macro: 'proposed', macros: [],
    instruction: `Look around ${site}.`, start_path: `/sites/${site}/`, task_kind: 'info', verifier: null,
  };
}

/** The errors an episode's observations carried (`agent_steps.json`'s step errors), each with its step. */
export function stepErrors(steps: ReadonlyArray<{ step: number; error: string | null }>): Array<{ step: number; error: string }> {
  return steps.filter((s): s is { step: number; error: string } => s.error !== null).map(({ step, error }) => ({ step, error }));
}
