/** The forum's people and personal pages: members, profiles, bookmarks, notifications, settings, and the JSON API. @module */
import { html } from '../../html';
import { checkbox, clip, errorSummary, idOf, pageNumber, pager, paginate, postForm, radioGroup, selectField, submit, textArea, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { threadTable } from './board-pages';
import {
  MEMBERS_PER_PAGE, MEMBER_SORTS, THREAD_SORTS, bookmarks, boards, findMembers, findThreads, follows, getMember, getThread, notifications,
  postsOf, settings,
} from './queries';
import { EMAIL_NOTIFICATIONS, POSTS_PER_PAGE } from './seed';

function membersPage(ctx: RequestCtx): Reply {
  const q = ctx.q('q');
  const sort = ctx.q('sort') || 'posts';
  const page = pageNumber(ctx.q('page'));
  if (page === undefined) return ctx.badRequest('The page number must be a positive whole number.');
  if (!MEMBER_SORTS.some((s) => s.value === sort)) return ctx.badRequest(`"${sort}" is not a sort order.`);
  const list = findMembers(ctx.db, { q, sort });
  const paged = paginate(list, page, MEMBERS_PER_PAGE);
  if (!paged) return ctx.notFound(`There is no page ${page} of the member list.`);
  const { items: shown, pages } = paged;
  return ctx.render({
    title: 'Members',
    body: html`<form method="get" action="${ctx.href('/members')}" class="row" aria-label="Find members">
${textField({ label: 'Member name', name: 'q', value: q })}
${selectField({ label: 'Sort members by', name: 'sort', value: sort, options: MEMBER_SORTS })}
${submit('Show members')}</form>
${shown.length ? html`<table><thead><tr><th>Member</th><th>Joined</th><th>Location</th><th>Posts</th><th>Reputation</th></tr></thead><tbody>${shown.map(
  (m) => html`<tr><td><a href="${ctx.href(`/members/${m.id}`)}">${m.name}</a></td><td>${m.joined}</td><td>${m.location}</td><td>${m.posts}</td><td>${m.reputation}</td></tr>`,
)}</tbody></table>` : html`<p>No members match.</p>`}
${pager({ page, pages, href: (n) => ctx.href('/members', { q, sort: sort === 'posts' ? '' : sort, page: n === 1 ? '' : n }) })}`,
  });
}

function profilePage(ctx: RequestCtx): Reply {
  const id = idOf(ctx.params.id);
  const m = id === undefined ? undefined : getMember(ctx.db, id);
  if (!m) return ctx.notFound('There is no such member.');
  const started = findThreads(ctx.db, { authorId: m.id, sort: 'newest' });
  return ctx.render({
    title: m.name,
    body: html`<table><tbody><tr><th>Joined</th><td>${m.joined}</td></tr><tr><th>Location</th><td>${m.location}</td></tr>
<tr><th>Posts</th><td>${m.posts}</td></tr><tr><th>Threads started</th><td>${m.threads}</td></tr><tr><th>Reputation</th><td>${m.reputation}</td></tr>
<tr><th>About</th><td>${m.bio}</td></tr></tbody></table>
<h2>Threads started by ${m.name}</h2>${threadTable(ctx, started, { board: true })}`,
  });
}

function bookmarksPage(ctx: RequestCtx): Reply {
  const list = bookmarks(ctx.db);
  return ctx.render({
    title: 'Bookmarks',
    body: list.length
      ? html`<table><thead><tr><th>Thread</th><th>Saved</th><th></th></tr></thead><tbody>${list.map(
          (b) => html`<tr><td><a href="${ctx.href(`/threads/${b.thread_id}`)}">${b.title}</a></td><td class="muted">${b.since}</td>
<td>${postForm(ctx.href('/bookmarks/remove'), html`<input type="hidden" name="thread_id" value="${b.thread_id}">${submit('Remove', { label: clip(`Remove bookmark on ${b.title}`), variant: 'secondary' })}`, { inline: true })}</td></tr>`,
        )}</tbody></table>`
      : html`<p>You have no bookmarks. Use "Bookmark thread" on a thread to save it here.</p>`,
  });
}

function notificationsPage(ctx: RequestCtx): Reply {
  const list = notifications(ctx.db);
  const unread = list.filter((n) => !n.read).length;
  const followed = follows(ctx.db);
  return ctx.render({
    title: 'Notifications',
    body: html`<p>${unread ? `You have ${unread} unread notification${unread === 1 ? '' : 's'}.` : 'You are all caught up.'}</p>
${unread ? postForm(ctx.href('/notifications/read-all'), submit('Mark all as read', { variant: 'secondary' })) : ''}
${list.length ? html`<table><thead><tr><th>What happened</th><th>When</th><th></th></tr></thead><tbody>${list.map(
  (n) => html`<tr><td>${n.read ? '' : html`<span class="badge">New</span> `}<a href="${ctx.href(`/threads/${n.thread_id}`)}">${n.subject}</a></td><td class="muted">${n.created}</td>
<td>${n.read ? '' : postForm(ctx.href(`/notifications/${n.id}/read`), submit('Mark as read', { label: clip(`Mark as read: ${n.subject}`), variant: 'secondary' }), { inline: true })}
${postForm(ctx.href(`/notifications/${n.id}/dismiss`), submit('Dismiss', { label: clip(`Dismiss: ${n.subject}`), variant: 'secondary' }), { inline: true })}</td></tr>`,
)}</tbody></table>` : html`<p>No notifications.</p>`}
<h2>Threads you follow (${followed.length})</h2>
${followed.length ? html`<table><tbody>${followed.map(
  (f) => html`<tr><td><a href="${ctx.href(`/threads/${f.thread_id}`)}">${f.title}</a></td><td class="muted">since ${f.since}</td>
<td>${postForm(ctx.href('/follows/remove'), html`<input type="hidden" name="thread_id" value="${f.thread_id}">${submit('Unfollow', { label: clip(`Unfollow ${f.title}`), variant: 'secondary' })}`, { inline: true })}</td></tr>`,
)}</tbody></table>` : html`<p>You do not follow any threads.</p>`}`,
  });
}

function removeSaved(table: 'follows' | 'bookmarks', back: string, done: string): Handler {
  return (ctx) => {
    const id = idOf(ctx.field('thread_id'));
    const t = id === undefined ? undefined : getThread(ctx.db, id);
    if (!t) return ctx.notFound('That thread does not exist or was deleted.');
    const n = ctx.db.prepare(`DELETE FROM ${table} WHERE thread_id = ?`).run(t.id).changes;
    ctx.flash(n ? done.replace('{t}', t.title) : `"${t.title}" was not in your list.`);
    return ctx.redirect(back);
  };
}

function notificationAction(sql: string, done: string): Handler {
  return (ctx) => {
    const id = idOf(ctx.params.id);
    const n = id === undefined ? undefined : (ctx.db.prepare('SELECT id FROM notifications WHERE id = ?').get(id) as { id: number } | undefined);
    if (!n) return ctx.notFound('That notification does not exist.');
    ctx.db.prepare(sql).run(n.id);
    ctx.flash(done);
    return ctx.redirect('/notifications');
  };
}

function settingsPage(ctx: RequestCtx, values?: Record<string, string>, errors: Record<string, string> = {}): Reply {
  const s = settings(ctx.db);
  const v = values ?? { email: s.email, signature: s.signature, email_notifications: s.email_notifications, posts_per_page: String(s.posts_per_page), show_online: String(s.show_online) };
  return ctx.render({
    title: 'Settings',
    status: Object.keys(errors).length ? 422 : 200,
    body: html`${errorSummary(errors)}<p>Signed in as <a href="${ctx.href(`/members/${s.member_id}`)}">${s.name}</a></p>${postForm(ctx.href('/settings'), html`
${textField({ label: 'Email', name: 'email', type: 'email', value: v.email, error: errors.email })}
${textArea({ label: 'Signature', name: 'signature', value: v.signature, rows: 2, error: errors.signature })}
${radioGroup({ legend: 'Email notifications', name: 'email_notifications', value: v.email_notifications, error: errors.email_notifications, options: EMAIL_NOTIFICATIONS })}
${selectField({ label: 'Posts per page', name: 'posts_per_page', value: v.posts_per_page, error: errors.posts_per_page, options: POSTS_PER_PAGE.map((n) => ({ value: String(n), text: String(n) })) })}
${checkbox({ label: 'Show when I am online', name: 'show_online', checked: v.show_online === '1' })}
${submit('Save settings')}`, { label: 'Settings' })}`,
  });
}

function saveSettings(ctx: RequestCtx): Reply {
  const v = {
    email: ctx.field('email'), signature: ctx.field('signature'), email_notifications: ctx.field('email_notifications'),
    posts_per_page: ctx.field('posts_per_page'), show_online: ctx.field('show_online') === '1' ? '1' : '0',
  };
  const errors: Record<string, string> = {};
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(v.email) || v.email.length > 200) errors.email = 'Enter a valid email address.';
  if (v.signature.length > 200) errors.signature = 'The signature can be at most 200 characters.';
  if (!EMAIL_NOTIFICATIONS.some((e) => e.value === v.email_notifications)) errors.email_notifications = 'Choose how often we email you.';
  if (!POSTS_PER_PAGE.some((n) => String(n) === v.posts_per_page)) errors.posts_per_page = 'Choose 10, 20 or 50 posts per page.';
  if (Object.keys(errors).length) return settingsPage(ctx, v, errors);
  ctx.db.prepare('UPDATE settings SET email = ?, signature = ?, email_notifications = ?, posts_per_page = ?, show_online = ? WHERE id = 1')
    .run(v.email, v.signature, v.email_notifications, Number(v.posts_per_page), Number(v.show_online));
  ctx.flash('Your settings were saved.');
  return ctx.redirect('/settings');
}

function apiThreads(ctx: RequestCtx): Reply {
  const sort = ctx.q('sort') || 'latest';
  if (!THREAD_SORTS.some((s) => s.value === sort)) return ctx.json({ error: `no sort order ${sort}` }, 400);
  const list = findThreads(ctx.db, { board: ctx.q('board'), tag: ctx.q('tag'), q: ctx.q('q'), sort });
  return ctx.json({ total: list.length, threads: list.map((t) => ({ ...t, url: ctx.href(`/threads/${t.id}`) })) });
}

/** Registers members, profiles, bookmarks, notifications, settings and the JSON API. */
export function accountRoutes(r: Router<Handler>): void {
  r.get('/members', membersPage);
  r.get('/members/:id', profilePage);
  r.get('/bookmarks', bookmarksPage);
  r.post('/bookmarks/remove', removeSaved('bookmarks', '/bookmarks', 'Removed the bookmark on "{t}".'));
  r.get('/notifications', notificationsPage);
  r.post('/notifications/read-all', (ctx) => {
    const n = ctx.db.prepare('UPDATE notifications SET read = 1 WHERE read = 0').run().changes;
    ctx.flash(`Marked ${n} notification${n === 1 ? '' : 's'} as read.`);
    return ctx.redirect('/notifications');
  });
  r.post('/notifications/:id/read', notificationAction('UPDATE notifications SET read = 1 WHERE id = ?', 'Marked the notification as read.'));
  r.post('/notifications/:id/dismiss', notificationAction('DELETE FROM notifications WHERE id = ?', 'The notification was dismissed.'));
  r.post('/follows/remove', removeSaved('follows', '/notifications', 'You no longer follow "{t}".'));
  r.get('/settings', (ctx) => settingsPage(ctx));
  r.post('/settings', saveSettings);
  r.get('/api/boards', (ctx) => ctx.json(boards(ctx.db)));
  r.get('/api/threads', apiThreads);
  r.get('/api/threads/:id', (ctx) => {
    const id = idOf(ctx.params.id);
    const t = id === undefined ? undefined : getThread(ctx.db, id);
    return t ? ctx.json({ ...t, posts: postsOf(ctx.db, t.id) }) : ctx.json({ error: 'no such thread' }, 404);
  });
  r.get('/api/members/:id', (ctx) => {
    const id = idOf(ctx.params.id);
    const m = id === undefined ? undefined : getMember(ctx.db, id);
    return m ? ctx.json(m) : ctx.json({ error: 'no such member' }, 404);
  });
}
