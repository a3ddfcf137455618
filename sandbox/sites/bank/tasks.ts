/** The bank's tasks: info and action generators over the site's data, each with a verifier and an oracle. @module */
import { firstIsHuman, roundRobin } from '../../task-kit';
import type { TaskInput, TaskSpec } from '../../template';
import { actionTasks } from './action-tasks';
import { infoTasks } from './info-tasks';
import { moneyTasks } from './money-tasks';
import { bankData } from './task-data';

/**
 * Generates the bank's tasks (about 450 per site) in round-robin order over the generators. The first task of
 * the main generators is a human task: balances, a transaction's amount, monthly spending, a statement, a payee's
 * account number, a scheduled date (info); a transfer, a scheduled bill payment, cancelling a scheduled payment,
 * adding a payee, freezing a card, recategorizing a transaction, filtering an account (action).
 */
export function bankTasks(input: TaskInput): TaskSpec[] {
  const d = bankData(input);
  const info = infoTasks(d);
  const money = moneyTasks(d);
  const other = actionTasks(d);
  const mark = (groups: TaskSpec[][], keep: readonly number[]): TaskSpec[][] => groups.map((g, i) => (keep.includes(i) ? firstIsHuman(g) : g));
  return roundRobin([...mark(info, [0, 1, 2, 3, 4, 5]), ...mark(money, [0, 1, 3]), ...mark(other, [0, 4, 8, 10])]);
}
