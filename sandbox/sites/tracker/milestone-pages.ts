/** The tracker's milestones (list with progress, details, create, edit) and its JSON API. @module */
import { html } from '../../html';
import { errorSummary, idOf, postForm, selectField, submit, textArea, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { isDate } from '../../values';
import { issueTable } from './list-pages';
import { commentsOf, findIssues, getIssue, getMilestone, getProject, members, milestones, percent, projects, type MilestoneRow } from './queries';

/** `7 of 12 complete (58%)` */
export function progressText(m: Pick<MilestoneRow, 'total' | 'complete'>): string {
  return `${m.complete} of ${m.total} complete (${percent(m)}%)`;
}

function milestoneList(ctx: RequestCtx): Reply {
  const list = milestones(ctx.db);
  return ctx.render({
    title: 'Milestones',
    body: html`<p><a href="${ctx.href('/milestones/new')}">New milestone</a></p>
<table><thead><tr><th>Milestone</th><th>Project</th><th>Due</th><th>Progress</th></tr></thead><tbody>${list.map((m) => html`<tr>
<td><a href="${ctx.href(`/milestones/${m.id}`)}">${m.name}</a></td><td>${m.project}</td><td>${m.due}${m.due < ctx.site.today && m.complete < m.total ? html` <span class="error">overdue</span>` : ''}</td>
<td><progress max="100" value="${percent(m)}"></progress> ${progressText(m)}</td></tr>`)}</tbody></table>`,
  });
}

function findMilestone(ctx: RequestCtx): MilestoneRow | undefined {
  const id = idOf(ctx.params.id);
  return id === undefined ? undefined : getMilestone(ctx.db, id);
}

function milestonePage(ctx: RequestCtx): Reply {
  const m = findMilestone(ctx);
  if (!m) return ctx.notFound('That milestone does not exist.');
  const issues = findIssues(ctx.db, { milestoneId: m.id, sort: 'priority' });
  return ctx.render({
    title: m.name,
    body: html`<p>${m.project} · due ${m.due} · ${progressText(m)}</p><p>${m.description}</p>
<p><a href="${ctx.href(`/milestones/${m.id}/edit`)}">Edit milestone</a></p>${issues.length ? issueTable(ctx, issues) : html`<p>No issues in this milestone yet.</p>`}`,
  });
}

interface MilestoneValues {
  project: string;
  name: string;
  due: string;
  description: string;
}

function milestoneForm(ctx: RequestCtx, action: string, title: string, v: MilestoneValues, errors: Record<string, string>, withProject: boolean): Reply {
  return ctx.render({
    title,
    status: Object.keys(errors).length ? 422 : 200,
    body: html`${errorSummary(errors)}${postForm(ctx.href(action), html`
${withProject ? selectField({ label: 'Project', name: 'project', value: v.project, options: [{ value: '', text: 'Choose a project' }, ...projects(ctx.db).map((p) => ({ value: p.key, text: p.name }))], error: errors.project }) : ''}
${textField({ label: 'Milestone name', name: 'name', value: v.name, error: errors.name })}
${textField({ label: 'Due date', name: 'due', type: 'date', value: v.due, error: errors.due })}
${textArea({ label: 'Description', name: 'description', value: v.description, rows: 3, error: errors.description })}
${submit('Save milestone')}`, { label: title })}`,
  });
}

function checkMilestone(ctx: RequestCtx, v: MilestoneValues, selfId?: number): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!v.name || v.name.length > 80) errors.name = 'Name the milestone (at most 80 characters).';
  else {
    const other = ctx.db.prepare('SELECT id FROM milestones WHERE name = ? COLLATE NOCASE').get(v.name) as { id: number } | undefined;
    if (other && other.id !== selfId) errors.name = 'Another milestone already has this name.';
  }
  if (!isDate(v.due)) errors.due = 'Enter the due date as YYYY-MM-DD.';
  if (v.description.length > 2000) errors.description = 'The description can be at most 2000 characters.';
  return errors;
}

function values(ctx: RequestCtx): MilestoneValues {
  return { project: ctx.field('project').toUpperCase(), name: ctx.field('name'), due: ctx.field('due'), description: ctx.field('description') };
}

function createMilestone(ctx: RequestCtx): Reply {
  const v = values(ctx);
  const project = getProject(ctx.db, v.project);
  const errors = checkMilestone(ctx, v);
  if (!project) errors.project = 'Choose a project.';
  if (!project || Object.keys(errors).length) return milestoneForm(ctx, '/milestones', 'New milestone', v, errors, true);
  const id = ctx.db.prepare('INSERT INTO milestones (project_id, name, due, description) VALUES (?, ?, ?, ?)').run(project.id, v.name, v.due, v.description).lastInsertRowid;
  ctx.flash(`Created the milestone ${v.name}.`);
  return ctx.redirect(`/milestones/${id}`);
}

const updateMilestone: Handler = (ctx) => {
  const m = findMilestone(ctx);
  if (!m) return ctx.notFound('That milestone does not exist.');
  const v = values(ctx);
  const errors = checkMilestone(ctx, v, m.id);
  if (Object.keys(errors).length) return milestoneForm(ctx, `/milestones/${m.id}`, `Edit ${m.name}`, v, errors, false);
  ctx.db.prepare('UPDATE milestones SET name = ?, due = ?, description = ? WHERE id = ?').run(v.name, v.due, v.description, m.id);
  ctx.flash(`Saved the milestone ${v.name}.`);
  return ctx.redirect(`/milestones/${m.id}`);
};

/** Registers milestones and the JSON API. */
export function milestoneRoutes(r: Router<Handler>): void {
  r.get('/milestones', milestoneList);
  r.get('/milestones/new', (ctx) => milestoneForm(ctx, '/milestones', 'New milestone', { project: ctx.q('project').toUpperCase(), name: '', due: '', description: '' }, {}, true));
  r.post('/milestones', createMilestone);
  r.get('/milestones/:id', milestonePage);
  r.get('/milestones/:id/edit', (ctx) => {
    const m = findMilestone(ctx);
    return m ? milestoneForm(ctx, `/milestones/${m.id}`, `Edit ${m.name}`, { project: m.project_key, name: m.name, due: m.due, description: m.description }, {}, false)
      : ctx.notFound('That milestone does not exist.');
  });
  r.post('/milestones/:id', updateMilestone);
  r.get('/api/projects', (ctx) => ctx.json(projects(ctx.db)));
  r.get('/api/members', (ctx) => ctx.json(members(ctx.db).map(({ me: _me, ...m }) => m)));
  r.get('/api/milestones', (ctx) => ctx.json(milestones(ctx.db).map((m) => ({ ...m, percent: percent(m) }))));
  r.get('/api/issues', (ctx) => {
    const project = ctx.q('project') ? getProject(ctx.db, ctx.q('project')) : undefined;
    if (ctx.q('project') && !project) return ctx.json({ error: `no project ${ctx.q('project')}` }, 404);
    const list = findIssues(ctx.db, { q: ctx.q('q'), projectId: project?.id, status: ctx.q('status'), priority: ctx.q('priority'), assignee: ctx.q('assignee'), label: ctx.q('label'), sort: ctx.q('sort') });
    return ctx.json({ total: list.length, issues: list.map((i) => ({ ...i, labels: i.labels ? i.labels.split(', ') : [], url: ctx.href(`/issues/${i.key}`) })) });
  });
  r.get('/api/issues/:key', (ctx) => {
    const i = getIssue(ctx.db, ctx.params.key ?? '');
    return i ? ctx.json({ ...i, labels: i.labels ? i.labels.split(', ') : [], comments: commentsOf(ctx.db, i.id) }) : ctx.json({ error: 'no such issue' }, 404);
  });
}
