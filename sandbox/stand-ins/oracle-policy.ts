/**
 * The stand-in agent: a {@link Policy} that follows each task's oracle solution, resolving role + name targets to
 * the observation's element numbers, and with a set failure rate deviates the way weak agents do: most often it
 * does another task of the site (the same kind of task with other values, or another kind), otherwise it stops
 * early or reports a wrong answer. Deterministic per task and try for a given seed, so reruns give the same episodes
 * and the tries of one task differ (`forTry`: each try fails on its own draw, at the same rate).
 * @module
 */
import type { Observation, Policy, PolicyDecision, PolicyInput, Action, Task } from 'miniweb-taskgen';
import { defaultCatalog, type SiteCatalog } from '../catalog';
import { OracleSchema, resolveTarget, stepKind, stepTarget, type OracleStep } from '../oracle';
import { normInstruction, type SandboxTask } from '../tasks';
import { bankTask, unitHash } from './lookup';

/** Options of {@link oraclePolicy}. */
export interface OraclePolicyOptions {
  /** Tasks with an `oracle` field (human tasks, bank tasks); looked up by task id, then by site + instruction. */
  readonly tasks?: ReadonlyArray<Task & { oracle?: unknown }>;
  /** The share of tasks on which the agent deviates from the oracle, 0 to 1. Default 0. */
  readonly failureRate?: number;
  /**
   * Of the failing tasks, the share on which the agent does another task of the site's bank instead (3 in 4 of
   * those the same kind of task with other values), as weak agents do: the wrong item, the wrong filter. The rest
   * stop early or answer wrong. Default 0.6.
   */
  readonly replayRate?: number;
  /** Seeds which tasks fail and how. Default 0. */
  readonly seed?: number | string;
  /** Where tasks proposed from the bank are looked up. Default the bundled templates. */
  readonly catalog?: SiteCatalog;
  /** Default `stand-in-oracle`. */
  readonly model?: string;
  /** Which try of each task this policy makes (1-based; {@link Policy.forTry} sets it). Default 1. */
  readonly try?: number;
}

/** How a failing episode deviates; `replay` follows another task's solution to its end. */
type Plan = { kind: 'follow' } | { kind: 'stop'; at: number } | { kind: 'wrong' } | { kind: 'replay'; steps: OracleStep[] };

// The kind of a bank task: its kind, the first word of its slug (`price` of `bank-shop-01-price-12`) and the shape
// of its solution (step kinds and roles), so "the same kind with other values" is the same generator's output.
function taskShape(task: SandboxTask): string {
  const slug = task.task_id.slice(`bank-${task.site}-`.length).split('-')[0];
  return [task.task_kind, slug, ...task.oracle.map((s) => `${stepKind(s)}:${stepTarget(s)?.role ?? ''}`)].join('|');
}

// The bank task a failing episode does instead of its own: seeded per task, the same kind 3 times in 4.
function replayOf(catalog: SiteCatalog, task: Task, key: string): SandboxTask | undefined {
  const own = normInstruction(task.instruction);
  const others = (catalog.tasks(task.site)?.bank ?? []).filter((t) => normInstruction(t.instruction) !== own);
  const mine = bankTask(catalog, task.site, task.instruction);
  const same = mine ? others.filter((t) => taskShape(t) === taskShape(mine)) : [];
  const pool = same.length && unitHash(`${key}:same`) < 0.75 ? same : others;
  return pool[Math.floor(unitHash(`${key}:pick`) * pool.length)];
}

function wrongAnswer(answer: string): string {
  if (/\d/.test(answer)) return answer.replace(/\d(?=\D*$)/, (d) => String((Number(d) + 1) % 10));
  return 'I could not find that on the site.';
}

function toAction(step: OracleStep, obs: Observation): Action | string {
  const target = stepTarget(step);
  if (!target) return step as Action;
  const el = resolveTarget(obs.elements, target);
  if (typeof el === 'string') return `stand-in oracle: ${el}`;
  const index = el.index;
  if ('click' in step) return { click: { index } };
  if ('type' in step) return { type: { index, text: step.type.text, ...(step.type.enter ? { enter: true } : {}) } };
  if ('select' in step) return { select: { index, option: step.select.option } };
  return { check: { index } };
}

/**
 * Which oracle step comes next: one per step that went through. After a failed action (a slow page can time out
 * a click that still happened) the step is tried again, unless its target is gone and the next step's target is
 * there (then it did happen); a step failing three times ends the episode with the error as the answer.
 */
function position(input: PolicyInput, steps: readonly OracleStep[]): number | string {
  let i = 0;
  let failures = 0;
  for (const h of input.history) {
    if (h.error) failures++;
    else {
      i++;
      failures = 0;
    }
  }
  const last = input.history[input.history.length - 1];
  if (!last?.error) return i;
  if (failures >= 3) return `stand-in oracle: the action failed three times: ${last.error}`;
  const here = (k: number): boolean => {
    const target = steps[k] && stepTarget(steps[k] as OracleStep);
    return !target || typeof resolveTarget(input.observation.elements, target) !== 'string';
  };
  return !here(i) && here(i + 1) ? i + 1 : i;
}

/**
 * A stand-in agent (`name: 'oracle'`, `model: 'stand-in-oracle'`): it replays the task's oracle solution step
 * by step. A target that is not on the page, an action failing three times, or a task without a known solution
 * ends the episode with that message as its answer.
 */
export function oraclePolicy(options: OraclePolicyOptions = {}): Policy {
  const failureRate = options.failureRate ?? 0;
  const replayRate = options.replayRate ?? 0.6;
  const catalog = options.catalog ?? defaultCatalog();
  const attempt = options.try ?? 1;
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`oraclePolicy: try must be an integer >= 1, got ${String(attempt)}`);
  // Try 1 draws as a policy of one try always did; try n its own draws.
  const seed = attempt === 1 ? String(options.seed ?? 0) : `${String(options.seed ?? 0)}:try${attempt}`;
  const byId = new Map<string, unknown>();
  const byText = new Map<string, unknown>();
  for (const t of options.tasks ?? []) {
    if (t.oracle === undefined) continue;
    byId.set(t.task_id, t.oracle);
    byText.set(`${t.site}\u0000${t.instruction}`, t.oracle);
  }
  const solution = (task: Task & { oracle?: unknown }): OracleStep[] | undefined => {
    const raw = task.oracle ?? byId.get(task.task_id) ?? byText.get(`${task.site}\u0000${task.instruction}`)
      ?? bankTask(catalog, task.site, task.instruction)?.oracle;
    const parsed = OracleSchema.safeParse(raw);
    return parsed.success ? parsed.data : undefined;
  };
  const plan = (task: Task, steps: number): Plan => {
    if (unitHash(`${seed}:fail:${task.task_id}`) >= failureRate) return { kind: 'follow' };
    const how = unitHash(`${seed}:how:${task.task_id}`);
    if (how < replayRate) {
      const other = replayOf(catalog, task, `${seed}:replay:${task.task_id}`);
      if (other) return { kind: 'replay', steps: other.oracle };
    }
    const u = unitHash(`${seed}:stop:${task.task_id}`);
    if (task.task_kind === 'info' && u < 0.5) return { kind: 'wrong' };
    return { kind: 'stop', at: Math.floor(u * Math.max(1, steps - 1)) };
  };
  const reply = (action: Action): PolicyDecision => ({ text: JSON.stringify(action) });
  return {
    name: 'oracle',
    model: options.model ?? 'stand-in-oracle',
    ...(attempt > 1 ? { sampling: { try: attempt } } : {}),
    forTry: (n: number) => oraclePolicy({ ...options, try: n }),
    async decide(input: PolicyInput): Promise<PolicyDecision> {
      const own = solution(input.task as Task & { oracle?: unknown });
      if (!own) return reply({ done: { answer: 'stand-in oracle: no solution is known for this task' } });
      const p = plan(input.task, own.length);
      const steps = p.kind === 'replay' ? p.steps : own;
      const i = position(input, steps);
      if (typeof i === 'string') return reply({ done: { answer: i } });
      if (p.kind === 'stop' && i >= p.at) return reply({ done: {} });
      const step = steps[Math.min(i, steps.length - 1)] as OracleStep;
      if ('done' in step && p.kind === 'wrong') return reply({ done: { answer: wrongAnswer(step.done.answer ?? '') } });
      const action = toAction(step, input.observation);
      return reply(typeof action === 'string' ? { done: { answer: action } } : action);
    },
  };
}
