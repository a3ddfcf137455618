/** The tracker template's reads, shared by its pages and its task generators. @module */
import type { Database } from 'better-sqlite3';

/** A team member. */
export interface MemberRow {
  id: number;
  name: string;
  email: string;
  role: string;
  me: number;
}

/** The team, the signed-in user first, then by name. */
export function members(db: Database): MemberRow[] {
  return db.prepare('SELECT * FROM members ORDER BY me DESC, name').all() as MemberRow[];
}

/** The signed-in user. */
export function me(db: Database): MemberRow {
  return db.prepare('SELECT * FROM members WHERE me = 1').get() as MemberRow;
}

/** A project with its issue counts. */
export interface ProjectRow {
  id: number;
  key: string;
  name: string;
  description: string;
  lead: string;
  next_number: number;
  issues: number;
  unresolved: number;
}

/** Every project with its counts, by name. */
export function projects(db: Database): ProjectRow[] {
  return db.prepare(`SELECT p.*, (SELECT COUNT(*) FROM issues i WHERE i.project_id = p.id) AS issues,
    (SELECT COUNT(*) FROM issues i WHERE i.project_id = p.id AND i.status IN ('Open', 'In progress')) AS unresolved FROM projects p ORDER BY p.name`).all() as ProjectRow[];
}

/** One project by key (case-insensitive). */
export function getProject(db: Database, key: string): ProjectRow | undefined {
  return projects(db).find((p) => p.key.toLowerCase() === key.toLowerCase());
}

/** A milestone with its project and progress. */
export interface MilestoneRow {
  id: number;
  project_id: number;
  project: string;
  project_key: string;
  name: string;
  due: string;
  description: string;
  total: number;
  complete: number;
}

const MILESTONE_SELECT = `SELECT m.*, p.name AS project, p.key AS project_key,
  (SELECT COUNT(*) FROM issues i WHERE i.milestone_id = m.id) AS total,
  (SELECT COUNT(*) FROM issues i WHERE i.milestone_id = m.id AND i.status IN ('Done', 'Closed')) AS complete
  FROM milestones m JOIN projects p ON p.id = m.project_id`;

/** Milestones, by due date; of one project when `projectId` is given. */
export function milestones(db: Database, projectId?: number): MilestoneRow[] {
  return (projectId === undefined
    ? db.prepare(`${MILESTONE_SELECT} ORDER BY m.due, m.id`).all()
    : db.prepare(`${MILESTONE_SELECT} WHERE m.project_id = ? ORDER BY m.due, m.id`).all(projectId)) as MilestoneRow[];
}

/** One milestone. */
export function getMilestone(db: Database, id: number): MilestoneRow | undefined {
  return db.prepare(`${MILESTONE_SELECT} WHERE m.id = ?`).get(id) as MilestoneRow | undefined;
}

/** A milestone's share of complete issues, rounded: `58`. */
export function percent(m: Pick<MilestoneRow, 'total' | 'complete'>): number {
  return m.total ? Math.round((m.complete / m.total) * 100) : 0;
}

/** An issue with its project, milestone, labels and comment count. */
export interface IssueRow {
  id: number;
  key: string;
  project_id: number;
  project: string;
  project_key: string;
  title: string;
  description: string;
  type: string;
  status: string;
  priority: string;
  assignee: string;
  reporter: string;
  milestone_id: number | null;
  milestone: string | null;
  created: string;
  updated: string;
  labels: string;
  comments: number;
}

/** Sort orders of issue lists. */
export const ISSUE_SORTS = [
  { value: 'newest', text: 'Newest first', sql: 'i.created DESC, i.id DESC' },
  { value: 'oldest', text: 'Oldest first', sql: 'i.created, i.id' },
  { value: 'updated', text: 'Recently updated', sql: 'i.updated DESC, i.id DESC' },
  { value: 'priority', text: 'Priority: highest first', sql: "CASE i.priority WHEN 'Urgent' THEN 0 WHEN 'High' THEN 1 WHEN 'Medium' THEN 2 ELSE 3 END, i.created DESC, i.id DESC" },
  { value: 'title', text: 'Title A to Z', sql: 'i.title COLLATE NOCASE, i.id' },
] as const;

/** Issue filters. `assignee` is a member's name, or `unassigned`. */
export interface IssueFilter {
  q?: string;
  projectId?: number;
  status?: string;
  priority?: string;
  assignee?: string;
  label?: string;
  milestoneId?: number;
  sort?: string;
}

const ISSUE_SELECT = `SELECT i.*, p.name AS project, p.key AS project_key, m.name AS milestone,
  COALESCE((SELECT group_concat(name, ', ') FROM (SELECT name FROM issue_labels l WHERE l.issue_id = i.id ORDER BY name)), '') AS labels,
  (SELECT COUNT(*) FROM comments c WHERE c.issue_id = i.id) AS comments
  FROM issues i JOIN projects p ON p.id = i.project_id LEFT JOIN milestones m ON m.id = i.milestone_id`;

/** Issues matching a filter, sorted. */
export function findIssues(db: Database, f: IssueFilter = {}): IssueRow[] {
  const where: string[] = [];
  const args: Array<string | number> = [];
  const add = (sql: string, ...values: Array<string | number>): void => {
    where.push(sql);
    args.push(...values);
  };
  if (f.q) {
    const like = `%${f.q.replace(/[%_]/g, '')}%`;
    add('(i.title LIKE ? OR i.key LIKE ? OR i.description LIKE ?)', like, like, like);
  }
  if (f.projectId !== undefined) add('i.project_id = ?', f.projectId);
  if (f.status) add('i.status = ?', f.status);
  if (f.priority) add('i.priority = ?', f.priority);
  if (f.assignee === 'unassigned') add("i.assignee = ''");
  else if (f.assignee) add('i.assignee = ?', f.assignee);
  if (f.label) add('EXISTS (SELECT 1 FROM issue_labels l WHERE l.issue_id = i.id AND l.name = ?)', f.label);
  if (f.milestoneId !== undefined) add('i.milestone_id = ?', f.milestoneId);
  const sort = ISSUE_SORTS.find((s) => s.value === f.sort) ?? ISSUE_SORTS[0];
  return db.prepare(`${ISSUE_SELECT}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${sort.sql}`).all(...args) as IssueRow[];
}

/** One issue by key (case-insensitive). */
export function getIssue(db: Database, key: string): IssueRow | undefined {
  return db.prepare(`${ISSUE_SELECT} WHERE i.key = ? COLLATE NOCASE`).get(key) as IssueRow | undefined;
}

/** A comment. */
export interface CommentRow {
  id: number;
  issue_id: number;
  author: string;
  body: string;
  created: string;
}

/** An issue's comments, oldest first. */
export function commentsOf(db: Database, issueId: number): CommentRow[] {
  return db.prepare('SELECT id, issue_id, author, body, created FROM comments WHERE issue_id = ? ORDER BY created, id').all(issueId) as CommentRow[];
}

/** An issue's labels, by name. */
export function labelsOf(db: Database, issueId: number): string[] {
  return (db.prepare('SELECT name FROM issue_labels WHERE issue_id = ? ORDER BY name').all(issueId) as Array<{ name: string }>).map((r) => r.name);
}
