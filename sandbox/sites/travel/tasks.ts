/** The travel template's tasks: info and action generators over the site's data, each with a verifier and an oracle. @module */
import { firstIsHuman, roundRobin } from '../../task-kit';
import type { TaskInput, TaskSpec } from '../../template';
import { actionTasks } from './action-tasks';
import { infoTasks } from './info-tasks';
import { loadData } from './task-steps';

/** Info groups whose first task is a human task (fare, cheapest flight, departure, rating, cheapest hotel, trip total, profile). */
const HUMAN_INFO = new Set([0, 1, 4, 8, 10, 14, 17]);
/** Action groups whose first task is a human task (search, book a flight, hotel filters, save, book a hotel, cancel, change date, profile). */
const HUMAN_ACTION = new Set([0, 1, 2, 3, 4, 5, 6, 7]);

/** Generates the travel site's tasks (several hundred per site); the first of most generators is a human task. */
export function travelTasks(input: TaskInput): TaskSpec[] {
  const data = loadData(input.db, input.site);
  const mark = (groups: TaskSpec[][], keep: Set<number>): TaskSpec[][] => groups.map((g, i) => (keep.has(i) ? firstIsHuman(g) : g));
  return roundRobin([...mark(infoTasks(data, input.faker), HUMAN_INFO), ...mark(actionTasks(data, input), HUMAN_ACTION)]);
}
