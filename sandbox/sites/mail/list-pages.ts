/** The mail template's message lists: inbox, folders, search, and bulk actions. @module */
import { html } from '../../html';
import { idOf, pageNumber, pager, paginate, selectField, submit } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { LABELS } from './content';
import { FOLDERS, MESSAGE_SORTS, findMessages, settings, unreadCounts, type Folder, type MessageRow } from './queries';

/** A folder's display name. */
export function folderName(folder: string): string {
  return folder[0]?.toUpperCase() + folder.slice(1);
}

const SHOW = [
  { value: '', text: 'All messages' },
  { value: 'unread', text: 'Unread only' },
  { value: 'starred', text: 'Starred only' },
];

function messageHref(ctx: RequestCtx, m: MessageRow): string {
  return m.folder === 'drafts' ? ctx.href('/compose', { draft: m.id }) : ctx.href(`/messages/${m.id}`);
}

function listPage(ctx: RequestCtx, folder: Folder | undefined, path: string): Reply {
  const q = ctx.q('q');
  const show = ctx.q('show');
  const label = ctx.q('label');
  const sort = ctx.q('sort') || 'newest';
  const page = pageNumber(ctx.q('page'));
  if (page === undefined) return ctx.badRequest('The page number must be a positive whole number.');
  if (!SHOW.some((s) => s.value === show)) return ctx.badRequest(`"${show}" is not a message filter.`);
  if (label && !(LABELS as readonly string[]).includes(label)) return ctx.badRequest(`There is no label "${label}".`);
  if (!MESSAGE_SORTS.some((s) => s.value === sort)) return ctx.badRequest(`"${sort}" is not a sort order.`);
  const search = folder === undefined;
  if (search && !q) {
    return ctx.render({ title: 'Search mail', body: html`<p>Type words from a subject, a message or a sender in the search box above.</p>` });
  }
  const all = findMessages(ctx.db, { folder, q, show, label, sort });
  const per = settings(ctx.db).per_page;
  const paged = paginate(all, page, per);
  if (!paged) return ctx.notFound(`There is no page ${page} of this list.`);
  const { items: shown, pages, first: from } = paged;
  const unread = unreadCounts(ctx.db);
  const outgoing = folder === 'sent' || folder === 'drafts';
  const title = search ? `Search results for "${q}"` : folderName(folder);
  const query = { q, show, label, sort: sort === 'newest' ? '' : sort };
  const rows = shown.map((m) => {
    const subject = m.read ? html`${m.subject}` : html`<strong>${m.subject}</strong>`;
    return html`<tr><td><input type="checkbox" name="ids" value="${m.id}" aria-label="Select ${m.subject}"></td>
<td>${m.starred ? '★' : ''}</td><td>${outgoing ? `To: ${m.to_email}` : m.from_name}</td>
<td><a href="${messageHref(ctx, m)}">${subject}</a>${m.label ? html` <span class="badge">${m.label}</span>` : ''}</td>
${search ? html`<td>${folderName(m.folder)}</td>` : ''}<td class="muted">${m.sent_at}</td></tr>`;
  });
  const bulk = folder === 'trash'
    ? html`${submit('Restore selected', { name: 'action', value: 'inbox', variant: 'secondary' })} ${submit('Delete selected forever', { name: 'action', value: 'delete', variant: 'danger' })}`
    : html`${submit('Archive selected', { name: 'action', value: 'archive', variant: 'secondary' })} ${submit('Mark selected as read', { name: 'action', value: 'read', variant: 'secondary' })} ${submit('Move selected to trash', { name: 'action', value: 'trash', variant: 'danger' })}`;
  return ctx.render({
    title,
    body: html`<p class="muted">${FOLDERS.map((f) => html`${folderName(f)}${unread[f] ? ` (${unread[f]} unread)` : ''} · `)}</p>
<form method="get" action="${ctx.href(path)}" class="row" aria-label="Filter messages">${q ? html`<input type="hidden" name="q" value="${q}">` : ''}
${selectField({ label: 'Show', name: 'show', value: show, options: SHOW })}
${selectField({ label: 'Label', name: 'label', value: label, options: [{ value: '', text: 'Any label' }, ...LABELS.map((l) => ({ value: l, text: l }))] })}
${selectField({ label: 'Sort by', name: 'sort', value: sort, options: MESSAGE_SORTS })}
${submit('Apply')}</form>
<p>${folder === 'inbox' ? `${unread.inbox ?? 0} unread · ` : ''}${all.length ? `Showing ${from}–${from + shown.length - 1} of ${all.length} messages` : 'No messages here.'}</p>
${shown.length ? html`<form method="post" action="${ctx.href('/bulk')}" aria-label="Selected messages"><input type="hidden" name="back" value="${path}">
<table><thead><tr><th></th><th></th><th>${outgoing ? 'To' : 'From'}</th><th>Subject</th>${search ? html`<th>Folder</th>` : ''}<th>Date</th></tr></thead><tbody>${rows}</tbody></table>
<div class="row">${bulk}</div></form>` : ''}
${pager({ page, pages, href: (n) => ctx.href(path, { ...query, page: n === 1 ? '' : n }) })}`,
  });
}

function bulk(ctx: RequestCtx): Reply {
  const back = ctx.field('back');
  const target = back === '/' || /^\/folder\/(inbox|sent|drafts|archive|trash)$/.test(back) ? back : '/';
  const ids = ctx.fields('ids').map((x) => idOf(x));
  if (ids.some((x) => x === undefined)) return ctx.badRequest('The selection is malformed.');
  if (!ids.length) {
    ctx.flash('Select at least one message first.');
    return ctx.redirect(target);
  }
  const action = ctx.field('action');
  const run = (sql: string): number => ids.reduce((n: number, id) => n + ctx.db.prepare(sql).run(id).changes, 0);
  let n: number;
  if (action === 'archive' || action === 'trash' || action === 'inbox') n = run(`UPDATE messages SET folder = '${action}' WHERE id = ?`);
  else if (action === 'read') n = run('UPDATE messages SET read = 1 WHERE id = ?');
  else if (action === 'delete') n = run("DELETE FROM messages WHERE id = ? AND folder = 'trash'");
  else return ctx.badRequest(`"${action}" is not something we can do to messages.`);
  const done: Record<string, string> = { archive: 'archived', trash: 'moved to the trash', inbox: 'restored to the inbox', read: 'marked as read', delete: 'deleted forever' };
  ctx.flash(`${n} message${n === 1 ? '' : 's'} ${done[action]}.`);
  return ctx.redirect(target);
}

/** Registers the lists. */
export function listRoutes(r: Router<Handler>): void {
  r.get('/', (ctx) => listPage(ctx, 'inbox', '/'));
  r.get('/folder/:folder', (ctx) => {
    const folder = ctx.params.folder as Folder;
    if (!FOLDERS.includes(folder)) return ctx.notFound(`There is no folder "${ctx.params.folder}".`);
    return folder === 'inbox' ? ctx.redirect('/') : listPage(ctx, folder, `/folder/${folder}`);
  });
  r.get('/search', (ctx) => listPage(ctx, undefined, '/search'));
  r.post('/bulk', bulk);
}
