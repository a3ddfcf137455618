/**
 * The tracker's two-step "new issue" flow (project and type first, then the details) and the issue fields it shares
 * with the edit form.
 * @module
 */
import { html, type SafeHtml } from '../../html';
import { checkbox, errorSummary, idOf, postForm, radioGroup, selectField, submit, textArea, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { LABELS, PRIORITIES, TYPES } from './content';
import { getProject, me, members, milestones, projects, type ProjectRow } from './queries';

/** An issue form's values as submitted (labels as a list). */
export interface IssueValues {
  title: string;
  description: string;
  type: string;
  priority: string;
  assignee: string;
  milestone: string;
  labels: string[];
}

/** The fields an issue form shares (title, description, priority, assignee, milestone, labels) for a project. */
export function issueFields(ctx: RequestCtx, project: ProjectRow, v: IssueValues, errors: Record<string, string>): SafeHtml {
  return html`${textField({ label: 'Title', name: 'title', value: v.title, error: errors.title })}
${textArea({ label: 'Description', name: 'description', value: v.description, rows: 5, error: errors.description })}
${selectField({ label: 'Priority', name: 'priority', value: v.priority, options: PRIORITIES.map((p) => ({ value: p, text: p })), error: errors.priority })}
${selectField({ label: 'Assignee', name: 'assignee', value: v.assignee, options: [{ value: '', text: 'Unassigned' }, ...members(ctx.db).map((m) => ({ value: m.name, text: m.name }))], error: errors.assignee })}
${selectField({ label: 'Milestone', name: 'milestone', value: v.milestone, options: [{ value: '', text: 'No milestone' }, ...milestones(ctx.db, project.id).map((m) => ({ value: String(m.id), text: m.name }))], error: errors.milestone })}
<fieldset class="field"><legend>Labels</legend>${LABELS.map((l) => checkbox({ label: l, name: 'labels', value: l, checked: v.labels.includes(l) }))}${errors.labels ? html`<div class="error" role="alert">${errors.labels}</div>` : ''}</fieldset>`;
}

/** Reads and checks an issue form's shared fields; `type` is checked too. */
export function readIssueFields(ctx: RequestCtx, project: ProjectRow): { values: IssueValues; errors: Record<string, string> } {
  const values: IssueValues = {
    title: ctx.field('title'), description: ctx.field('description'), type: ctx.field('type'), priority: ctx.field('priority') || 'Medium',
    assignee: ctx.field('assignee'), milestone: ctx.field('milestone'), labels: [...new Set(ctx.fields('labels'))],
  };
  const errors: Record<string, string> = {};
  if (!values.title) errors.title = 'Give the issue a title.';
  else if (values.title.length > 120 || /[\r\n]/.test(values.title)) errors.title = 'The title can be at most 120 characters on one line.';
  if (values.description.length > 5000) errors.description = 'The description can be at most 5000 characters.';
  if (!(TYPES as readonly string[]).includes(values.type)) errors.type = 'Choose an issue type.';
  if (!(PRIORITIES as readonly string[]).includes(values.priority)) errors.priority = 'Choose a priority.';
  if (values.assignee && !members(ctx.db).some((m) => m.name === values.assignee)) errors.assignee = 'Choose a member of the team.';
  const mid = idOf(values.milestone);
  if (values.milestone && (mid === undefined || !milestones(ctx.db, project.id).some((m) => m.id === mid))) errors.milestone = `Choose a milestone of ${project.name}.`;
  if (values.labels.some((l) => !(LABELS as readonly string[]).includes(l))) errors.labels = 'Choose labels from the list.';
  return { values, errors };
}

function stepOne(ctx: RequestCtx, v: { project: string; type: string }, errors: Record<string, string> = {}): Reply {
  return ctx.render({
    title: 'New issue',
    status: Object.keys(errors).length ? 422 : 200,
    body: html`<p class="muted">Step 1 of 2: where does the issue belong?</p>${errorSummary(errors)}
<form method="get" action="${ctx.href('/issues/new/details')}" aria-label="New issue: project and type">
${selectField({ label: 'Project', name: 'project', value: v.project, options: [{ value: '', text: 'Choose a project' }, ...projects(ctx.db).map((p) => ({ value: p.key, text: p.name }))], error: errors.project })}
${radioGroup({ legend: 'Issue type', name: 'type', value: v.type || 'Bug', options: TYPES.map((t) => ({ value: t, text: t })), error: errors.type })}
${submit('Continue')}</form>`,
  });
}

function detailsPage(ctx: RequestCtx, project: ProjectRow, v: IssueValues, errors: Record<string, string> = {}): Reply {
  return ctx.render({
    title: `New ${v.type.toLowerCase()} in ${project.name}`,
    status: Object.keys(errors).length ? 422 : 200,
    body: html`<p class="muted">Step 2 of 2: describe the ${v.type.toLowerCase()}. <a href="${ctx.href('/issues/new', { project: project.key, type: v.type })}">Change project or type</a></p>
${errorSummary(errors)}${postForm(ctx.href('/issues'), html`<input type="hidden" name="project" value="${project.key}"><input type="hidden" name="type" value="${v.type}">
${issueFields(ctx, project, v, errors)}${submit('Create issue')}`, { label: 'New issue details' })}`,
  });
}

function details(ctx: RequestCtx): Reply {
  const v = { project: ctx.q('project').toUpperCase(), type: ctx.q('type') };
  const project = getProject(ctx.db, v.project);
  const errors: Record<string, string> = {};
  if (!project) errors.project = 'Choose a project.';
  if (!(TYPES as readonly string[]).includes(v.type)) errors.type = 'Choose an issue type.';
  if (!project || Object.keys(errors).length) return stepOne(ctx, v, errors);
  return detailsPage(ctx, project, { title: '', description: '', type: v.type, priority: 'Medium', assignee: '', milestone: '', labels: [] });
}

function createIssue(ctx: RequestCtx): Reply {
  const project = getProject(ctx.db, ctx.field('project'));
  if (!project) return stepOne(ctx, { project: ctx.field('project'), type: ctx.field('type') }, { project: 'Choose a project.' });
  const { values, errors } = readIssueFields(ctx, project);
  if (errors.type) return stepOne(ctx, { project: project.key, type: '' }, { type: errors.type });
  if (Object.keys(errors).length) return detailsPage(ctx, project, values, errors);
  const key = `${project.key}-${project.next_number}`;
  const today = ctx.site.today;
  const id = ctx.db.prepare(`INSERT INTO issues (key, project_id, title, description, type, status, priority, assignee, reporter, milestone_id, created, updated)
    VALUES (?, ?, ?, ?, ?, 'Open', ?, ?, ?, ?, ?, ?)`).run(key, project.id, values.title, values.description, values.type, values.priority, values.assignee,
    me(ctx.db).name, values.milestone ? Number(values.milestone) : null, today, today).lastInsertRowid;
  const addLabel = ctx.db.prepare('INSERT INTO issue_labels (issue_id, title, name) VALUES (?, ?, ?)');
  for (const l of values.labels) addLabel.run(id, values.title, l);
  ctx.db.prepare('UPDATE projects SET next_number = next_number + 1 WHERE id = ?').run(project.id);
  ctx.flash(`Created ${key}: ${values.title}`);
  return ctx.redirect(`/issues/${key}`);
}

/** Registers the new-issue flow. */
export function createRoutes(r: Router<Handler>): void {
  r.get('/issues/new', (ctx) => stepOne(ctx, { project: ctx.q('project').toUpperCase(), type: ctx.q('type') }));
  r.get('/issues/new/details', details);
  r.post('/issues', createIssue);
}
