/** The tracker template's tasks: info and action generators over the site's data, each with a verifier and an oracle. @module */
import { firstIsHuman, roundRobin } from '../../task-kit';
import type { TaskInput, TaskSpec } from '../../template';
import { actionTasks } from './action-tasks';
import { infoTasks } from './info-tasks';
import { loadData } from './task-steps';

/** Info groups whose first task is a human task (status, assignee, comments, milestone due and progress, counts, project lead). */
const HUMAN_INFO = new Set([0, 1, 3, 4, 5, 6, 7]);
/** Action groups whose first task is a human task (start work, assign, label, comment, delete, create issue, create milestone, filter). */
const HUMAN_ACTION = new Set([0, 1, 2, 3, 4, 5, 6, 7]);

/** Generates the tracker site's tasks (several hundred per site); the first of most generators is a human task. */
export function trackerTasks(input: TaskInput): TaskSpec[] {
  const data = loadData(input.db);
  const mark = (groups: TaskSpec[][], keep: Set<number>): TaskSpec[][] => groups.map((g, i) => (keep.has(i) ? firstIsHuman(g) : g));
  return roundRobin([...mark(infoTasks(data, input.faker), HUMAN_INFO), ...mark(actionTasks(data, input), HUMAN_ACTION)]);
}
