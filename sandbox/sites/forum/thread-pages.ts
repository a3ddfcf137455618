/** The forum's thread page and what users do there: reply, upvote, follow, bookmark, delete. @module */
import { html, type SafeHtml } from '../../html';
import { bodyHtml, clip, errorSummary, idOf, pageCount, pageNumber, pager, paginate, plural, postForm, submit, textArea } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { getThread, postsOf, settings, tagList, votedPosts, type PostRow, type ThreadRow } from './queries';

/** The time new posts and edits get: the site's today at noon (data never depends on the wall clock). */
export function nowStamp(ctx: RequestCtx): string {
  return `${ctx.site.today} 12:00`;
}

/** The thread page that shows post number `n` with the user's page size. */
export function pageOfPost(ctx: RequestCtx, n: number): number {
  return pageCount(n, settings(ctx.db).posts_per_page);
}

function threadOf(ctx: RequestCtx): ThreadRow | undefined {
  const id = idOf(ctx.params.id);
  return id === undefined ? undefined : getThread(ctx.db, id);
}

function postCard(ctx: RequestCtx, p: PostRow, mine: boolean, voted: boolean, signature: string): SafeHtml {
  const who = `post #${p.number} by ${p.author}`;
  const vote = mine
    ? html`<span class="muted">${plural(p.score, 'vote')}</span>`
    : postForm(ctx.href(`/posts/${p.id}/vote`), html`<span class="muted">${plural(p.score, 'vote')}</span>
${submit(voted ? '▲ Upvoted' : '▲ Upvote', { label: clip(voted ? `Remove upvote from ${who}` : `Upvote ${who}`), variant: 'secondary' })}`, { inline: true });
  const own = mine
    ? html` <a href="${ctx.href(`/posts/${p.id}/edit`)}" aria-label="Edit post #${p.number}">Edit</a>
${p.number > 1 ? postForm(ctx.href(`/posts/${p.id}/delete`), submit('Delete', { label: `Delete post #${p.number}`, variant: 'danger' }), { inline: true }) : ''}`
    : '';
  return html`<div class="card" id="post-${p.id}"><div><strong>#${p.number}</strong> · <a href="${ctx.href(`/members/${p.author_id}`)}">${p.author}</a>
<span class="muted">· ${p.created}${p.edited ? ` · edited ${p.edited}` : ''}</span></div>
${bodyHtml(p.body)}${mine && signature ? html`<p class="muted">— ${signature}</p>` : ''}
<div class="row">${vote}${own}</div></div>`;
}

/** The thread page; `reply` when the reply form is shown again with an error. */
export function threadPage(ctx: RequestCtx, t: ThreadRow, opts: { page?: number; reply?: { body: string; error: string } } = {}): Reply {
  const me = settings(ctx.db);
  const posts = postsOf(ctx.db, t.id);
  const page = opts.page ?? pageCount(posts.length, me.posts_per_page);
  const paged = paginate(posts, page, me.posts_per_page);
  if (!paged) return ctx.notFound(`There is no page ${page} of this thread.`);
  const { items: shown, pages } = paged;
  const voted = votedPosts(ctx.db);
  const following = !!ctx.db.prepare('SELECT 1 FROM follows WHERE thread_id = ?').get(t.id);
  const saved = !!ctx.db.prepare('SELECT 1 FROM bookmarks WHERE thread_id = ?').get(t.id);
  const mine = t.author_id === me.member_id;
  const replyForm = t.locked
    ? html`<p><strong>This thread is locked.</strong> New replies are not allowed.</p>`
    : html`<h2>Reply to this thread</h2>${opts.reply ? errorSummary({ body: opts.reply.error }) : ''}
${postForm(ctx.href(`/threads/${t.id}/reply`), html`${textArea({ label: 'Your reply', name: 'body', value: opts.reply?.body, error: opts.reply?.error })}${submit('Post reply')}`, { label: 'Reply' })}`;
  return ctx.render({
    title: t.title,
    status: opts.reply ? 422 : 200,
    body: html`<p><a href="${ctx.href(`/boards/${t.board_slug}`)}">${t.board}</a> · Started by <a href="${ctx.href(`/members/${t.author_id}`)}">${t.author}</a> on ${t.created.slice(0, 10)}
· ${plural(t.replies, 'reply', 'replies')} · ${plural(t.views, 'view')}${t.locked ? ' · 🔒 Locked' : ''}</p>
<p>Tags: ${tagList(t.tags).map((tag) => html`<a class="badge" href="${ctx.href(`/boards/${t.board_slug}`, { tag })}">${tag}</a> `)}</p>
<div class="row">${postForm(ctx.href(`/threads/${t.id}/follow`), submit(following ? 'Unfollow thread' : 'Follow thread', { variant: 'secondary' }), { inline: true })}
${postForm(ctx.href(`/threads/${t.id}/bookmark`), submit(saved ? 'Remove bookmark' : 'Bookmark thread', { variant: 'secondary' }), { inline: true })}
${mine ? postForm(ctx.href(`/threads/${t.id}/delete`), submit('Delete thread', { variant: 'danger' }), { inline: true }) : ''}</div>
${pages > 1 ? html`<p class="muted">Page ${page} of ${pages}</p>` : ''}
${shown.map((p) => postCard(ctx, p, p.author_id === me.member_id, voted.has(p.id), me.signature))}
${pager({ page, pages, href: (n) => ctx.href(`/threads/${t.id}`, { page: n }) })}
${replyForm}`,
  });
}

function viewThread(ctx: RequestCtx): Reply {
  const t = threadOf(ctx);
  if (!t) return ctx.notFound('That thread does not exist or was deleted.');
  const page = pageNumber(ctx.q('page'));
  if (page === undefined) return ctx.badRequest('The page number must be a positive whole number.');
  return threadPage(ctx, t, { page });
}

function reply(ctx: RequestCtx): Reply {
  const t = threadOf(ctx);
  if (!t) return ctx.notFound('That thread does not exist or was deleted.');
  const body = ctx.field('body');
  let error = '';
  if (t.locked) error = 'This thread is locked; new replies are not allowed.';
  else if (!body) error = 'Write something before posting.';
  else if (body.length > 5000) error = 'A post can be at most 5000 characters.';
  if (error) return threadPage(ctx, t, { reply: { body, error } });
  const me = settings(ctx.db);
  ctx.db.prepare('INSERT INTO posts (thread_id, author_id, subject, body, created) VALUES (?, ?, ?, ?, ?)').run(t.id, me.member_id, `Re: ${t.title}`, body, nowStamp(ctx));
  ctx.flash('Your reply was posted.');
  return ctx.redirect(`/threads/${t.id}`, { page: pageOfPost(ctx, t.replies + 2) });
}

function toggle(table: 'follows' | 'bookmarks', on: string, off: string): Handler {
  return (ctx) => {
    const t = threadOf(ctx);
    if (!t) return ctx.notFound('That thread does not exist or was deleted.');
    const had = ctx.db.prepare(`DELETE FROM ${table} WHERE thread_id = ?`).run(t.id).changes > 0;
    if (!had) ctx.db.prepare(`INSERT INTO ${table} (thread_id, title, ${table === 'follows' ? 'since' : 'added'}) VALUES (?, ?, ?)`).run(t.id, t.title, ctx.site.today);
    ctx.flash(had ? off.replace('{t}', t.title) : on.replace('{t}', t.title));
    return ctx.redirect(`/threads/${t.id}`);
  };
}

function vote(ctx: RequestCtx): Reply {
  const id = idOf(ctx.params.id);
  const post = id === undefined ? undefined : (ctx.db.prepare('SELECT * FROM posts WHERE id = ?').get(id) as PostRow | undefined);
  if (!post) return ctx.notFound('That post does not exist or was deleted.');
  const t = getThread(ctx.db, post.thread_id) as ThreadRow;
  const number = postsOf(ctx.db, t.id).find((p) => p.id === post.id)?.number ?? 1;
  if (post.author_id === settings(ctx.db).member_id) {
    ctx.flash('You cannot upvote your own post.');
    return ctx.redirect(`/threads/${t.id}`, { page: pageOfPost(ctx, number) });
  }
  const had = ctx.db.prepare('DELETE FROM votes WHERE post_id = ?').run(post.id).changes > 0;
  if (had) ctx.db.prepare('UPDATE posts SET score = MAX(score - 1, 0) WHERE id = ?').run(post.id);
  else {
    ctx.db.prepare('INSERT INTO votes (post_id, subject, voted) VALUES (?, ?, ?)').run(post.id, `Post in ${t.title}`, ctx.site.today);
    ctx.db.prepare('UPDATE posts SET score = score + 1 WHERE id = ?').run(post.id);
  }
  ctx.flash(had ? `Removed your upvote from post #${number}.` : `You upvoted post #${number}.`);
  return ctx.redirect(`/threads/${t.id}`, { page: pageOfPost(ctx, number) });
}

function deleteThread(ctx: RequestCtx): Reply {
  const t = threadOf(ctx);
  if (!t) return ctx.notFound('That thread does not exist or was deleted.');
  if (t.author_id !== settings(ctx.db).member_id) {
    return ctx.render({ title: 'Not allowed', status: 403, body: html`<p>You can only delete threads you started.</p>` });
  }
  ctx.db.prepare('DELETE FROM votes WHERE post_id IN (SELECT id FROM posts WHERE thread_id = ?)').run(t.id);
  for (const table of ['notifications', 'follows', 'bookmarks', 'posts']) ctx.db.prepare(`DELETE FROM ${table} WHERE thread_id = ?`).run(t.id);
  ctx.db.prepare('DELETE FROM threads WHERE id = ?').run(t.id);
  ctx.flash(`The thread "${t.title}" was deleted.`);
  return ctx.redirect(`/boards/${t.board_slug}`);
}

/** Registers the thread page and its actions. */
export function threadRoutes(r: Router<Handler>): void {
  r.get('/threads/:id', viewThread);
  r.post('/threads/:id/reply', reply);
  r.post('/threads/:id/follow', toggle('follows', 'You are now following "{t}".', 'You no longer follow "{t}".'));
  r.post('/threads/:id/bookmark', toggle('bookmarks', 'Bookmarked "{t}".', 'Removed the bookmark on "{t}".'));
  r.post('/threads/:id/delete', deleteThread);
  r.post('/posts/:id/vote', vote);
}
