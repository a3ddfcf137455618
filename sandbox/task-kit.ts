/**
 * Helpers for writing task generators: oracle steps by role and name, verifier checks, and the bank's order.
 * @module
 */
import type { AnswerCheck, RequestCheck, Scalar, StateCheck } from 'miniweb-taskgen';
import type { OracleStep } from './oracle';
import type { TaskSpec } from './template';

/** Oracle steps. Names are accessible names as the harness computes them (see TEMPLATES.md). */
export const step = {
  /** Click a link. */
  link: (name: string, nth?: number): OracleStep => ({ click: { role: 'link', name, ...(nth ? { nth } : {}) } }),
  /** Click a button. */
  button: (name: string, nth?: number): OracleStep => ({ click: { role: 'button', name, ...(nth ? { nth } : {}) } }),
  /** Type into a field (`textbox` by default; `searchbox`, `spinbutton`...). */
  type: (name: string, text: string, opts: { role?: string; enter?: boolean } = {}): OracleStep => ({
    type: { role: opts.role ?? 'textbox', name, text, ...(opts.enter ? { enter: true } : {}) },
  }),
  /** Type into a search box and press Enter. */
  search: (name: string, text: string): OracleStep => ({ type: { role: 'searchbox', name, text, enter: true } }),
  /** Pick an option (by its visible text) of a select. */
  select: (name: string, option: string): OracleStep => ({ select: { role: 'combobox', name, option } }),
  /** Toggle a checkbox. */
  check: (name: string): OracleStep => ({ check: { role: 'checkbox', name } }),
  /** Pick a radio button. */
  radio: (name: string): OracleStep => ({ check: { role: 'radio', name } }),
  /** Go to a path of the site. */
  goto: (path: string): OracleStep => ({ goto: { path } }),
  /** End, with an answer for info tasks. */
  done: (answer?: string): OracleStep => ({ done: answer === undefined ? {} : { answer } }),
};

/** Answer checks. */
export const answer = {
  /** Every value appears in the answer (case-insensitive). */
  includes: (...values: string[]): AnswerCheck => ({ type: 'includes', value: values.length === 1 ? (values[0] as string) : values }),
  /** A number in the answer within `tolerance` of `value` (default: cents). */
  number: (value: number, tolerance = 0.005): AnswerCheck => ({ type: 'number', value, tolerance }),
  /** The whole answer equals `value` after trimming and case-folding. */
  exact: (value: string): AnswerCheck => ({ type: 'exact', value }),
};

/** A request check: some request with this method and path carries `params`. */
export function request(method: string, path: string, params?: Record<string, Scalar>): RequestCheck {
  return { method, path, ...(params ? { params } : {}) };
}

/** A state check: a row of `table` matching `where` has `values`. */
export function row(table: string, where: Record<string, Scalar>, values?: Record<string, Scalar>): StateCheck {
  return { table, where, ...(values ? { values } : {}) };
}

/** A state check: no row of `table` matches `where`. */
export function noRow(table: string, where: Record<string, Scalar>): StateCheck {
  return { table, where, should_not_exist: true };
}

/**
 * The bank's order: one task from each group in turn (groups are generators), so any prefix of the bank mixes
 * kinds of task; within a group, the group's order. Info and action groups take turns, so even the first few
 * tasks (a small `--per-site`) mix questions and things to do.
 */
export function roundRobin(groups: ReadonlyArray<readonly TaskSpec[]>): TaskSpec[] {
  const info = groups.filter((g) => g[0]?.kind === 'info');
  const other = groups.filter((g) => g[0]?.kind !== 'info');
  const alternating = Array.from({ length: Math.max(info.length, other.length) }, (_, i) => [info[i], other[i]])
    .flat()
    .filter((g): g is readonly TaskSpec[] => g !== undefined);
  const out: TaskSpec[] = [];
  const queues = alternating.map((g) => [...g]);
  while (queues.some((q) => q.length)) {
    for (const q of queues) {
      const next = q.shift();
      if (next) out.push(next);
    }
  }
  return out;
}

/** Marks the first task of each group as a human task. */
export function firstIsHuman(group: readonly TaskSpec[]): TaskSpec[] {
  return group.map((t, i) => (i === 0 ? { ...t, human: true } : t));
}
