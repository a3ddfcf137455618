/** What the tracker task generators share: the site's data, read once, and oracle step sequences. @module */
import type { Database } from 'better-sqlite3';
import type { OracleStep } from '../../oracle';
import { step } from '../../task-kit';
import {
  commentsOf, findIssues, me, members, milestones, projects,
  type CommentRow, type IssueRow, type MemberRow, type MilestoneRow, type ProjectRow,
} from './queries';

/** The search box's name. */
export const SEARCH = 'Search issues';

/** The site's data as task generators need it. */
export interface TrackerData {
  readonly issues: readonly IssueRow[];
  readonly projects: readonly ProjectRow[];
  readonly milestones: readonly MilestoneRow[];
  readonly members: readonly MemberRow[];
  readonly me: MemberRow;
  readonly comments: ReadonlyMap<number, readonly CommentRow[]>;
}

/** Reads what the generators need from the pristine data. */
export function loadData(db: Database): TrackerData {
  const issues = findIssues(db, { sort: 'oldest' });
  return {
    issues,
    projects: projects(db),
    milestones: milestones(db),
    members: members(db),
    me: me(db),
    comments: new Map(issues.map((i) => [i.id, commentsOf(db, i.id)])),
  };
}

/** From the home page to an issue's page. */
export function openIssue(i: Pick<IssueRow, 'title'>): OracleStep[] {
  return [step.search(SEARCH, i.title), step.link(i.title)];
}

/** From the home page to an issue's edit form. */
export function editIssue(i: Pick<IssueRow, 'title'>): OracleStep[] {
  return [...openIssue(i), step.link('Edit issue')];
}

/** From the home page to a milestone's page. */
export function openMilestone(m: Pick<MilestoneRow, 'name'>): OracleStep[] {
  return [step.link('Milestones'), step.link(m.name)];
}

/** Filters the issue list: each select by its label and option text, then Apply. */
export function filterIssues(selects: Record<string, string>): OracleStep[] {
  return [step.link('Issues'), ...Object.entries(selects).map(([name, option]) => step.select(name, option)), step.button('Apply filters')];
}
