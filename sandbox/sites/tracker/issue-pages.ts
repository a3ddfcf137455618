/** The tracker's issue page: status changes, assignment, comments, the edit form and deletion with confirmation. @module */
import { html } from '../../html';
import { errorSummary, postForm, selectField, submit, textArea } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { STATUSES, TYPES } from './content';
import { issueFields, readIssueFields, type IssueValues } from './create-pages';
import { commentsOf, getIssue, getProject, labelsOf, me, type IssueRow } from './queries';

/** The status buttons an issue shows, by its status: button text and the status it sets. */
export const STATUS_ACTIONS: Record<string, ReadonlyArray<readonly [string, string]>> = {
  Open: [['Start progress', 'In progress'], ['Mark as done', 'Done'], ['Close issue', 'Closed']],
  'In progress': [['Stop progress', 'Open'], ['Mark as done', 'Done'], ['Close issue', 'Closed']],
  Done: [['Reopen issue', 'Open'], ['Close issue', 'Closed']],
  Closed: [['Reopen issue', 'Open']],
};

function withIssue(run: (ctx: RequestCtx, issue: IssueRow) => Reply): Handler {
  return (ctx) => {
    const issue = getIssue(ctx.db, ctx.params.key ?? '');
    return issue ? run(ctx, issue) : ctx.notFound('That issue does not exist or was deleted.');
  };
}

function issuePage(ctx: RequestCtx, i: IssueRow, comment = '', error?: string): Reply {
  const comments = commentsOf(ctx.db, i.id);
  const user = me(ctx.db);
  return ctx.render({
    title: `${i.key}: ${i.title}`,
    status: error ? 422 : 200,
    body: html`<table><tbody><tr><th>Project</th><td><a href="${ctx.href(`/projects/${i.project_key}`)}">${i.project}</a></td></tr>
<tr><th>Type</th><td>${i.type}</td></tr><tr><th>Status</th><td><strong>${i.status}</strong></td></tr><tr><th>Priority</th><td>${i.priority}</td></tr>
<tr><th>Assignee</th><td>${i.assignee || 'Unassigned'}</td></tr><tr><th>Reporter</th><td>${i.reporter}</td></tr>
<tr><th>Milestone</th><td>${i.milestone_id !== null ? html`<a href="${ctx.href(`/milestones/${i.milestone_id}`)}">${i.milestone}</a>` : 'None'}</td></tr>
<tr><th>Labels</th><td>${i.labels || 'None'}</td></tr><tr><th>Created</th><td>${i.created}</td></tr><tr><th>Updated</th><td>${i.updated}</td></tr></tbody></table>
<div class="row">${postForm(ctx.href(`/issues/${i.key}/status`), (STATUS_ACTIONS[i.status] ?? []).map(([text, to]) => html`${submit(text, { name: 'status', value: to, variant: 'secondary' })} `), { inline: true })}
${i.assignee !== user.name ? postForm(ctx.href(`/issues/${i.key}/assign-me`), submit('Assign to me', { variant: 'secondary' }), { inline: true }) : ''}
<a href="${ctx.href(`/issues/${i.key}/edit`)}">Edit issue</a> <a href="${ctx.href(`/issues/${i.key}/delete`)}">Delete issue</a></div>
<h2>Description</h2><p>${i.description || html`<span class="muted">No description.</span>`}</p>
<h2>Comments (${comments.length})</h2>${comments.map((c) => html`<div class="card"><strong>${c.author}</strong> <span class="muted">${c.created}</span><p>${c.body}</p></div>`)}
${error ? errorSummary({ body: error }) : ''}${postForm(ctx.href(`/issues/${i.key}/comments`), html`${textArea({ label: 'Add a comment', name: 'body', value: comment, rows: 3, error })}${submit('Comment')}`, { label: 'Add a comment' })}`,
  });
}

function backPath(raw: string): string | undefined {
  return /^\/board\?project=[A-Z]{1,10}$/.test(raw) ? raw : undefined;
}

const setStatus = withIssue((ctx, i) => {
  const status = ctx.field('status');
  if (!(STATUSES as readonly string[]).includes(status)) return ctx.badRequest(`"${status}" is not a status.`);
  if (status !== i.status) ctx.db.prepare('UPDATE issues SET status = ?, updated = ? WHERE id = ?').run(status, ctx.site.today, i.id);
  ctx.flash(`${i.key} is now ${status}.`);
  const back = backPath(ctx.field('back'));
  return back ? ctx.redirect(back.split('?')[0] ?? '/board', { project: back.split('=')[1] }) : ctx.redirect(`/issues/${i.key}`);
});

const assignMe = withIssue((ctx, i) => {
  const user = me(ctx.db);
  ctx.db.prepare('UPDATE issues SET assignee = ?, updated = ? WHERE id = ?').run(user.name, ctx.site.today, i.id);
  ctx.flash(`${i.key} is assigned to you.`);
  return ctx.redirect(`/issues/${i.key}`);
});

const addComment = withIssue((ctx, i) => {
  const body = ctx.field('body');
  if (!body) return issuePage(ctx, i, body, 'Write something before commenting.');
  if (body.length > 5000) return issuePage(ctx, i, body, 'A comment can be at most 5000 characters.');
  ctx.db.prepare('INSERT INTO comments (issue_id, subject, author, body, created) VALUES (?, ?, ?, ?, ?)').run(i.id, i.title, me(ctx.db).name, body, ctx.site.today);
  ctx.db.prepare('UPDATE issues SET updated = ? WHERE id = ?').run(ctx.site.today, i.id);
  ctx.flash('Your comment was added.');
  return ctx.redirect(`/issues/${i.key}`);
});

function editPage(ctx: RequestCtx, i: IssueRow, v: IssueValues & { status: string }, errors: Record<string, string> = {}): Reply {
  const project = getProject(ctx.db, i.project_key);
  if (!project) return ctx.notFound('That project does not exist.');
  return ctx.render({
    title: `Edit ${i.key}`,
    status: Object.keys(errors).length ? 422 : 200,
    body: html`${errorSummary(errors)}${postForm(ctx.href(`/issues/${i.key}`), html`
${selectField({ label: 'Type', name: 'type', value: v.type, options: TYPES.map((t) => ({ value: t, text: t })), error: errors.type })}
${selectField({ label: 'Status', name: 'status', value: v.status, options: STATUSES.map((s) => ({ value: s, text: s })), error: errors.status })}
${issueFields(ctx, project, v, errors)}${submit('Save changes')}`, { label: `Edit ${i.key}` })}
<p><a href="${ctx.href(`/issues/${i.key}`)}">Back to ${i.key}</a></p>`,
  });
}

const saveIssue = withIssue((ctx, i) => {
  const project = getProject(ctx.db, i.project_key);
  if (!project) return ctx.notFound('That project does not exist.');
  const { values, errors } = readIssueFields(ctx, project);
  const status = ctx.field('status');
  if (!(STATUSES as readonly string[]).includes(status)) errors.status = 'Choose a status.';
  if (Object.keys(errors).length) return editPage(ctx, i, { ...values, status }, errors);
  ctx.db.prepare('UPDATE issues SET title = ?, description = ?, type = ?, status = ?, priority = ?, assignee = ?, milestone_id = ?, updated = ? WHERE id = ?')
    .run(values.title, values.description, values.type, status, values.priority, values.assignee, values.milestone ? Number(values.milestone) : null, ctx.site.today, i.id);
  const old = labelsOf(ctx.db, i.id);
  const removeLabel = ctx.db.prepare('DELETE FROM issue_labels WHERE issue_id = ? AND name = ?');
  for (const l of old.filter((x) => !values.labels.includes(x))) removeLabel.run(i.id, l);
  const addLabel = ctx.db.prepare('INSERT INTO issue_labels (issue_id, title, name) VALUES (?, ?, ?)');
  for (const l of values.labels.filter((x) => !old.includes(x))) addLabel.run(i.id, values.title, l);
  if (values.title !== i.title) {
    ctx.db.prepare('UPDATE issue_labels SET title = ? WHERE issue_id = ?').run(values.title, i.id);
    ctx.db.prepare('UPDATE comments SET subject = ? WHERE issue_id = ?').run(values.title, i.id);
  }
  ctx.flash(`Saved ${i.key}.`);
  return ctx.redirect(`/issues/${i.key}`);
});

const confirmDelete = withIssue((ctx, i) => ctx.render({
  title: `Delete ${i.key}?`,
  body: html`<p>This deletes <strong>${i.title}</strong> with its ${i.comments} comment${i.comments === 1 ? '' : 's'} and labels. It cannot be undone.</p>
<div class="row">${postForm(ctx.href(`/issues/${i.key}/delete`), submit('Yes, delete this issue', { variant: 'danger' }), { inline: true })}
<a href="${ctx.href(`/issues/${i.key}`)}">Keep the issue</a></div>`,
}));

const deleteIssue = withIssue((ctx, i) => {
  ctx.db.prepare('DELETE FROM issues WHERE id = ?').run(i.id);
  ctx.flash(`Deleted ${i.key}: ${i.title}`);
  return ctx.redirect('/issues', { project: i.project_key });
});

/** Registers the issue page and its actions. */
export function issueRoutes(r: Router<Handler>): void {
  r.get('/issues/:key', withIssue((ctx, i) => issuePage(ctx, i)));
  r.post('/issues/:key', saveIssue);
  r.post('/issues/:key/status', setStatus);
  r.post('/issues/:key/assign-me', assignMe);
  r.post('/issues/:key/comments', addComment);
  r.get('/issues/:key/edit', withIssue((ctx, i) => editPage(ctx, i, {
    title: i.title, description: i.description, type: i.type, status: i.status, priority: i.priority, assignee: i.assignee,
    milestone: i.milestone_id === null ? '' : String(i.milestone_id), labels: labelsOf(ctx.db, i.id),
  })));
  r.get('/issues/:key/delete', confirmDelete);
  r.post('/issues/:key/delete', deleteIssue);
}
