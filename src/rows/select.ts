/**
 * Which judged successes become training rows (the seed's `cmd_rows` selection): sites interleaved round robin, each
 * site's tasks in file order, whole episodes until the step budget.
 * @module
 */
import { pyPathStr } from '../core/py/path';
import { compareCodePoints } from '../core/py/text';
import { type RowsReport, type RowsTask } from '../core/schemas';

/** The skill-centric executor's training steps: the default budget. */
export const DEFAULT_BUDGET = 27644;

/** A task as row selection sees it. */
export type RowsTaskRef = Pick<RowsTask, 'task_id' | 'site'>;

/** Input of {@link selectRows}. */
export interface SelectRowsInput {
  /** The run dir, as given (the report holds `str(Path(run))`). */
  readonly run: string;
  /** The tasks, in file order (duplicates count as often as they appear, as in the seed). */
  readonly tasks: readonly RowsTaskRef[];
  /** The judged successes that have a rows file: task id to its number of rows (non-blank lines). */
  readonly candidates: ReadonlyMap<string, number>;
  /** Default {@link DEFAULT_BUDGET}. */
  readonly budget?: number;
  /**
   * Relabeled tasks (written from other tasks' episodes), in file order: after each site's own tasks in the same
   * round robin, or, with `originalsFirst`, only once every original task has had its turn.
   */
  readonly relabeled?: readonly RowsTaskRef[];
  /** Relabeled tasks only after all original ones. Default false. */
  readonly originalsFirst?: boolean;
}

/** What {@link selectRows} chose. */
export interface RowsSelection {
  /** The selected task ids, in selection order. */
  readonly picked: readonly string[];
  /** The seed's report. */
  readonly report: RowsReport;
}

/** The seed's task order: tasks grouped by site in file order, sites sorted by name, then round robin. */
export function interleaveBySite<T extends { readonly site: string }>(tasks: readonly T[]): T[] {
  const bySite = new Map<string, T[]>();
  for (const t of tasks) {
    const list = bySite.get(t.site);
    if (list) list.push(t);
    else bySite.set(t.site, [t]);
  }
  const queues = [...bySite.keys()].sort(compareCodePoints).map((site) => bySite.get(site)!);
  const order: T[] = [];
  const rounds = Math.max(0, ...queues.map((q) => q.length));
  for (let r = 0; r < rounds; r++) for (const q of queues) if (r < q.length) order.push(q[r]!);
  return order;
}

/**
 * The site part of a task id as the seed counts sites: `t.split("-", 1)[1].rsplit("-", 1)[0]`
 * (`tg-shop-01-1a2b3c4d` gives `shop-01`); `undefined` for an id without `-` (where the seed would crash).
 */
export function siteOfTaskId(taskId: string): string | undefined {
  const i = taskId.indexOf('-');
  if (i < 0) return undefined;
  const rest = taskId.slice(i + 1);
  const j = rest.lastIndexOf('-');
  return j < 0 ? rest : rest.slice(0, j);
}

/**
 * Chooses the rows as the seed's `cmd_rows` does, without touching files: in {@link interleaveBySite} order,
 * each candidate counts; one with no rows is skipped; once the budget is reached the rest are skipped (still
 * counted as candidates); whole episodes are taken, so the last one may overshoot the budget. `sites` counts
 * the picked task ids' site parts ({@link siteOfTaskId}; an id without `-` counts under its task's site).
 */
export function selectRows(input: SelectRowsInput): RowsSelection {
  const budget = input.budget ?? DEFAULT_BUDGET;
  const picked: string[] = [];
  const sites = new Set<string>();
  let steps = 0;
  let candidates = 0;
  const more = input.relabeled ?? [];
  const order = input.originalsFirst ? [...interleaveBySite(input.tasks), ...interleaveBySite(more)] : interleaveBySite([...input.tasks, ...more]);
  for (const t of order) {
    const n = input.candidates.get(t.task_id);
    if (n === undefined) continue;
    candidates++;
    if (n === 0 || steps >= budget) continue;
    picked.push(t.task_id);
    sites.add(siteOfTaskId(t.task_id) ?? t.site);
    steps += n;
  }
  const report: RowsReport = {
    run: pyPathStr(input.run),
    candidates,
    selected_trajectories: picked.length,
    selected_rows: steps,
    budget,
    short_by: Math.max(0, budget - steps),
    sites: sites.size,
  };
  return { picked, report };
}
