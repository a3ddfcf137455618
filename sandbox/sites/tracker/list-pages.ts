/** The tracker's lists: dashboard, issue list with search, filters, sort and pages, my issues, the board, projects. @module */
import { html, type SafeHtml } from '../../html';
import { errorSummary, pageNumber, pager, paginate, postForm, selectField, submit } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { LABELS, PRIORITIES, STATUSES } from './content';
import { ISSUE_SORTS, findIssues, getProject, me, members, milestones, percent, projects, type IssueRow } from './queries';

/** Issues per list page. */
export const ISSUE_PAGE_SIZE = 15;

/** The board's columns and where each card can move. */
export const BOARD = [
  { status: 'Open', moves: ['In progress'] },
  { status: 'In progress', moves: ['Open', 'Done'] },
  { status: 'Done', moves: ['In progress'] },
] as const;

/** The accessible name of a board card's move button. */
export function moveLabel(key: string, status: string): string {
  return `Move ${key} to ${status}`;
}

/** A table of issues, each title linking to the issue. */
export function issueTable(ctx: RequestCtx, list: readonly IssueRow[]): SafeHtml {
  return html`<table><thead><tr><th>Key</th><th>Title</th><th>Status</th><th>Priority</th><th>Assignee</th><th>Updated</th></tr></thead><tbody>${list.map(
    (i) => html`<tr><td>${i.key}</td><td><a href="${ctx.href(`/issues/${i.key}`)}">${i.title}</a>${i.labels ? i.labels.split(', ').map((l) => html` <span class="badge">${l}</span>`) : ''}</td>
<td>${i.status}</td><td>${i.priority}</td><td>${i.assignee || html`<span class="muted">Unassigned</span>`}</td><td class="muted">${i.updated}</td></tr>`,
  )}</tbody></table>`;
}

function home(ctx: RequestCtx): Reply {
  const user = me(ctx.db);
  const mine = findIssues(ctx.db, { assignee: user.name, sort: 'priority' }).filter((i) => i.status === 'Open' || i.status === 'In progress');
  const recent = findIssues(ctx.db, { sort: 'updated' }).slice(0, 8);
  return ctx.render({
    title: `${ctx.site.title}: dashboard`,
    body: html`<p>Signed in as <strong>${user.name}</strong> (${user.role}) · <a href="${ctx.href('/issues/new')}">New issue</a></p>
<h2>Projects</h2><div class="grid">${projects(ctx.db).map((p) => html`<div class="card"><a href="${ctx.href(`/projects/${p.key}`)}">${p.name}</a>
<div class="muted">${p.key} · ${p.unresolved} unresolved of ${p.issues}</div></div>`)}</div>
<h2>Assigned to me (${mine.length} unresolved)</h2>${mine.length ? issueTable(ctx, mine) : html`<p>Nothing assigned to you.</p>`}
<h2>Recently updated</h2>${issueTable(ctx, recent)}`,
  });
}

function option(values: readonly string[], empty: string): Array<{ value: string; text: string }> {
  return [{ value: '', text: empty }, ...values.map((v) => ({ value: v, text: v }))];
}

function issueList(ctx: RequestCtx): Reply {
  const f = { q: ctx.q('q'), project: ctx.q('project').toUpperCase(), status: ctx.q('status'), priority: ctx.q('priority'), assignee: ctx.q('assignee'), label: ctx.q('label'), sort: ctx.q('sort') || 'newest' };
  const page = pageNumber(ctx.q('page'));
  if (page === undefined) return ctx.badRequest('The page number must be a positive whole number.');
  const team = members(ctx.db).map((m) => m.name);
  const project = f.project ? getProject(ctx.db, f.project) : undefined;
  const status = STATUSES.find((s) => s.toLowerCase() === f.status.toLowerCase());
  const priority = PRIORITIES.find((s) => s.toLowerCase() === f.priority.toLowerCase());
  const errors: Record<string, string> = {};
  if (f.project && !project) errors.project = 'Choose one of the listed projects.';
  if (f.status && !status) errors.status = 'Choose one of the listed statuses.';
  if (f.priority && !priority) errors.priority = 'Choose one of the listed priorities.';
  if (f.assignee && f.assignee !== 'unassigned' && !team.includes(f.assignee)) errors.assignee = 'Choose a member of the team.';
  if (f.label && !(LABELS as readonly string[]).includes(f.label)) errors.label = 'Choose one of the listed labels.';
  if (!ISSUE_SORTS.some((s) => s.value === f.sort)) errors.sort = 'Choose one of the listed sort orders.';
  const ok = !Object.keys(errors).length;
  const all = ok ? findIssues(ctx.db, { q: f.q, projectId: project?.id, status, priority, assignee: f.assignee, label: f.label, sort: f.sort }) : [];
  const paged = paginate(all, page, ISSUE_PAGE_SIZE);
  if (!paged) return ctx.notFound(`There is no page ${page} of this list.`);
  const { items: shown, pages, first } = paged;
  const query = { ...f, sort: f.sort === 'newest' ? '' : f.sort };
  return ctx.render({
    title: f.q ? `Issues matching "${f.q}"` : project ? `${project.name} issues` : 'Issues',
    status: ok ? 200 : 422,
    body: html`${errorSummary(errors)}<p><a href="${ctx.href('/issues/new')}">New issue</a></p>
<form method="get" action="${ctx.href('/issues')}" aria-label="Filter issues" class="row">${f.q ? html`<input type="hidden" name="q" value="${f.q}">` : ''}
${selectField({ label: 'Project', name: 'project', value: f.project, options: [{ value: '', text: 'All projects' }, ...projects(ctx.db).map((p) => ({ value: p.key, text: p.name }))] })}
${selectField({ label: 'Status', name: 'status', value: status ?? '', options: option(STATUSES, 'Any status') })}
${selectField({ label: 'Priority', name: 'priority', value: priority ?? '', options: option(PRIORITIES, 'Any priority') })}
${selectField({ label: 'Assignee', name: 'assignee', value: f.assignee, options: [{ value: '', text: 'Anyone' }, { value: 'unassigned', text: 'Unassigned' }, ...team.map((n) => ({ value: n, text: n }))] })}
${selectField({ label: 'Label', name: 'label', value: f.label, options: option(LABELS, 'Any label') })}
${selectField({ label: 'Sort by', name: 'sort', value: f.sort, options: ISSUE_SORTS })}
${submit('Apply filters')} <a href="${ctx.href('/issues')}">Clear filters</a></form>
<p>${all.length ? `${all.length} issue${all.length === 1 ? '' : 's'}, showing ${first}–${first + shown.length - 1}` : 'No issues match these filters.'}</p>
${shown.length ? issueTable(ctx, shown) : ''}${pager({ page, pages, href: (n) => ctx.href('/issues', { ...query, page: n === 1 ? '' : n }) })}`,
  });
}

function myIssues(ctx: RequestCtx): Reply {
  const raw = ctx.q('status');
  const status = STATUSES.find((s) => s.toLowerCase() === raw.toLowerCase());
  if (raw && !status) return ctx.badRequest(`"${raw}" is not a status.`);
  const user = me(ctx.db);
  const list = findIssues(ctx.db, { assignee: user.name, status, sort: 'priority' });
  return ctx.render({
    title: 'My issues',
    body: html`<form method="get" action="${ctx.href('/my-issues')}" aria-label="Filter my issues" class="row">
${selectField({ label: 'Status', name: 'status', value: status ?? '', options: option(STATUSES, 'All my issues') })}${submit('Show')}</form>
<p>${list.length} issue${list.length === 1 ? '' : 's'} assigned to ${user.name}${status ? ` with status ${status}` : ''}.</p>${list.length ? issueTable(ctx, list) : ''}`,
  });
}

function board(ctx: RequestCtx): Reply {
  const all = projects(ctx.db);
  const key = ctx.q('project').toUpperCase();
  const project = key ? all.find((p) => p.key === key) : all[0];
  if (!project) return ctx.notFound(`There is no project "${key}".`);
  const issues = findIssues(ctx.db, { projectId: project.id, sort: 'priority' });
  const back = `/board?project=${project.key}`;
  const column = (c: (typeof BOARD)[number]): SafeHtml => {
    const cards = issues.filter((i) => i.status === c.status);
    return html`<div><h2>${c.status} (${cards.length})</h2>${cards.map((i) => html`<div class="card"><a href="${ctx.href(`/issues/${i.key}`)}">${i.title}</a>
<div class="muted">${i.key} · ${i.priority} · ${i.assignee || 'Unassigned'}</div>${c.moves.map((to) => postForm(ctx.href(`/issues/${i.key}/status`), html`<input type="hidden" name="status" value="${to}"><input type="hidden" name="back" value="${back}">
${submit(`→ ${to}`, { label: moveLabel(i.key, to), variant: 'secondary' })}`, { inline: true }))}</div>`)}</div>`;
  };
  return ctx.render({
    title: `${project.name} board`,
    body: html`<form method="get" action="${ctx.href('/board')}" aria-label="Choose a board" class="row">
${selectField({ label: 'Project', name: 'project', value: project.key, options: all.map((p) => ({ value: p.key, text: p.name })) })}${submit('Show board')}</form>
<p class="muted">Closed issues are not shown on the board.</p><div class="grid">${BOARD.map(column)}</div>`,
  });
}

function projectList(ctx: RequestCtx): Reply {
  return ctx.render({
    title: 'Projects',
    body: html`<table><thead><tr><th>Project</th><th>Key</th><th>Lead</th><th>Unresolved</th><th>All issues</th></tr></thead><tbody>${projects(ctx.db).map(
      (p) => html`<tr><td><a href="${ctx.href(`/projects/${p.key}`)}">${p.name}</a></td><td>${p.key}</td><td>${p.lead}</td><td>${p.unresolved}</td><td>${p.issues}</td></tr>`,
    )}</tbody></table>`,
  });
}

function projectPage(ctx: RequestCtx): Reply {
  const p = getProject(ctx.db, ctx.params.key ?? '');
  if (!p) return ctx.notFound('There is no such project.');
  const issues = findIssues(ctx.db, { projectId: p.id, sort: 'updated' });
  return ctx.render({
    title: p.name,
    body: html`<p>${p.description}</p><p>Key: <strong>${p.key}</strong> · Lead: <strong>${p.lead}</strong></p>
<p><a href="${ctx.href('/issues', { project: p.key })}">All ${p.name} issues</a> · <a href="${ctx.href('/board', { project: p.key })}">${p.name} board</a></p>
<h2>Issues by status</h2><table><tbody>${STATUSES.map((s) => html`<tr><th>${s}</th><td>${issues.filter((i) => i.status === s).length}</td></tr>`)}</tbody></table>
<h2>Milestones</h2><table><thead><tr><th>Milestone</th><th>Due</th><th>Progress</th></tr></thead><tbody>${milestones(ctx.db, p.id).map(
      (m) => html`<tr><td><a href="${ctx.href(`/milestones/${m.id}`)}">${m.name}</a></td><td>${m.due}</td><td>${m.complete} of ${m.total} complete (${percent(m)}%)</td></tr>`,
    )}</tbody></table>
<h2>Recently updated</h2>${issueTable(ctx, issues.slice(0, 6))}`,
  });
}

/** Registers the dashboard, issue list, my issues, board and projects. */
export function listRoutes(r: Router<Handler>): void {
  r.get('/', home);
  r.get('/issues', issueList);
  r.get('/my-issues', myIssues);
  r.get('/board', board);
  r.get('/projects', projectList);
  r.get('/projects/:key', projectPage);
}
