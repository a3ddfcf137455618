/** The forum's writing pages: a new thread (with preview), editing and deleting your own posts. @module */
import { html } from '../../html';
import { bodyHtml, errorSummary, idOf, postForm, selectField, submit, textArea, textField } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { boards, getThread, postsOf, settings, tagList, type PostRow, type ThreadRow } from './queries';
import { nowStamp, pageOfPost } from './thread-pages';

const TAG = /^[a-z0-9][a-z0-9-]{0,23}$/;

/** Tags as typed (`Wiring, Power`) → the stored list (`wiring, power`), or an error. */
export function normalizeTags(raw: string): { tags: string; error?: string } {
  const list = [...new Set(tagList(raw.toLowerCase()))];
  if (list.length > 5) return { tags: raw, error: 'Use at most 5 tags.' };
  const bad = list.find((t) => !TAG.test(t));
  if (bad) return { tags: raw, error: `"${bad.slice(0, 30)}" is not a valid tag: use lower-case letters, digits and dashes (at most 24).` };
  return { tags: list.join(', ') };
}

function checkTitle(title: string): string | undefined {
  if (title.length < 5) return 'Give your thread a title of at least 5 characters.';
  if (title.length > 120) return 'The title can be at most 120 characters.';
  return undefined;
}

function checkBody(body: string): string | undefined {
  if (!body) return 'Write the first post of your thread.';
  if (body.length > 5000) return 'A post can be at most 5000 characters.';
  return undefined;
}

function newThreadForm(ctx: RequestCtx, v: Record<string, string>, errors: Record<string, string> = {}, preview = false): Reply {
  const all = boards(ctx.db);
  const board = all.find((b) => b.slug === v.board);
  return ctx.render({
    title: 'Start a new thread',
    status: Object.keys(errors).length ? 422 : 200,
    body: html`${errorSummary(errors)}
${preview ? html`<section class="card" aria-label="Preview"><h2>Preview: ${v.title}</h2><p class="muted">In ${board?.name ?? ''} · Tags: ${v.tags || 'none'}</p>${bodyHtml(v.body ?? '')}</section>` : ''}
${postForm(ctx.href('/threads'), html`
${selectField({ label: 'Board', name: 'board', value: v.board, error: errors.board, options: [{ value: '', text: 'Choose a board' }, ...all.map((b) => ({ value: b.slug, text: b.name }))] })}
${textField({ label: 'Title', name: 'title', value: v.title, error: errors.title })}
${textField({ label: 'Tags (comma-separated)', name: 'tags', value: v.tags, error: errors.tags, placeholder: 'e.g. beginner, wiring' })}
${textArea({ label: 'Message', name: 'body', value: v.body, error: errors.body, rows: 8 })}
<div class="row">${submit('Preview', { name: 'action', value: 'preview', variant: 'secondary' })} ${submit('Post thread', { name: 'action', value: 'post' })}</div>`, { label: 'New thread' })}`,
  });
}

function createThread(ctx: RequestCtx): Reply {
  const v = { board: ctx.field('board'), title: ctx.field('title'), tags: ctx.field('tags'), body: ctx.field('body') };
  const errors: Record<string, string> = {};
  const board = boards(ctx.db).find((b) => b.slug === v.board);
  if (!board) errors.board = 'Choose the board to post in.';
  const titleError = checkTitle(v.title);
  if (titleError) errors.title = titleError;
  const tags = normalizeTags(v.tags);
  if (tags.error) errors.tags = tags.error;
  const bodyError = checkBody(v.body);
  if (bodyError) errors.body = bodyError;
  if (Object.keys(errors).length || !board) return newThreadForm(ctx, v, errors);
  if (ctx.field('action') === 'preview') return newThreadForm(ctx, { ...v, tags: tags.tags }, {}, true);
  const me = settings(ctx.db);
  const id = Number(ctx.db.prepare('INSERT INTO threads (board_id, title, author_id, tags, created) VALUES (?, ?, ?, ?, ?)').run(board.id, v.title, me.member_id, tags.tags, nowStamp(ctx)).lastInsertRowid);
  ctx.db.prepare('INSERT INTO posts (thread_id, author_id, subject, body, created) VALUES (?, ?, ?, ?, ?)').run(id, me.member_id, v.title, v.body, nowStamp(ctx));
  ctx.db.prepare('INSERT INTO follows (thread_id, title, since) VALUES (?, ?, ?)').run(id, v.title, ctx.site.today);
  ctx.flash(`Your thread "${v.title}" was posted in ${board.name}.`);
  return ctx.redirect(`/threads/${id}`);
}

interface OwnPost {
  post: PostRow;
  thread: ThreadRow;
}

/** The post named by the path if the user wrote it, or the reply to give instead. */
function ownPost(ctx: RequestCtx): OwnPost | Reply {
  const id = idOf(ctx.params.id);
  const raw = id === undefined ? undefined : (ctx.db.prepare('SELECT thread_id FROM posts WHERE id = ?').get(id) as { thread_id: number } | undefined);
  const thread = raw ? getThread(ctx.db, raw.thread_id) : undefined;
  const post = thread ? postsOf(ctx.db, thread.id).find((p) => p.id === id) : undefined;
  if (!post || !thread) return ctx.notFound('That post does not exist or was deleted.');
  if (post.author_id !== settings(ctx.db).member_id) {
    return ctx.render({ title: 'Not allowed', status: 403, body: html`<p>You can only change your own posts.</p>` });
  }
  return { post, thread };
}

function editForm(ctx: RequestCtx, own: OwnPost, v: Record<string, string>, errors: Record<string, string> = {}): Reply {
  const first = own.post.number === 1;
  return ctx.render({
    title: first ? `Edit thread: ${own.thread.title}` : `Edit post #${own.post.number} in ${own.thread.title}`,
    status: Object.keys(errors).length ? 422 : 200,
    body: html`${errorSummary(errors)}${postForm(ctx.href(`/posts/${own.post.id}`), html`
${first ? html`${textField({ label: 'Title', name: 'title', value: v.title, error: errors.title })}
${textField({ label: 'Tags (comma-separated)', name: 'tags', value: v.tags, error: errors.tags })}` : ''}
${textArea({ label: 'Message', name: 'body', value: v.body, error: errors.body, rows: 8 })}
${submit('Save changes')} <a href="${ctx.href(`/threads/${own.thread.id}`, { page: pageOfPost(ctx, own.post.number) })}">Cancel</a>`, { label: 'Edit post' })}`,
  });
}

function saveEdit(ctx: RequestCtx): Reply {
  const own = ownPost(ctx);
  if (!('post' in own)) return own;
  const first = own.post.number === 1;
  const v = { title: ctx.field('title'), tags: ctx.field('tags'), body: ctx.field('body') };
  const errors: Record<string, string> = {};
  const tags = normalizeTags(v.tags);
  if (first) {
    const titleError = checkTitle(v.title);
    if (titleError) errors.title = titleError;
    if (tags.error) errors.tags = tags.error;
  }
  const bodyError = checkBody(v.body);
  if (bodyError) errors.body = bodyError;
  if (Object.keys(errors).length) return editForm(ctx, own, v, errors);
  if (first) {
    ctx.db.prepare('UPDATE threads SET title = ?, tags = ? WHERE id = ?').run(v.title, tags.tags, own.thread.id);
    ctx.db.prepare('UPDATE posts SET subject = ?, body = ?, edited = ? WHERE id = ?').run(v.title, v.body, nowStamp(ctx), own.post.id);
  } else ctx.db.prepare('UPDATE posts SET body = ?, edited = ? WHERE id = ?').run(v.body, nowStamp(ctx), own.post.id);
  ctx.flash(first ? 'Your thread was updated.' : `Post #${own.post.number} was updated.`);
  return ctx.redirect(`/threads/${own.thread.id}`, { page: pageOfPost(ctx, own.post.number) });
}

function deletePost(ctx: RequestCtx): Reply {
  const own = ownPost(ctx);
  if (!('post' in own)) return own;
  if (own.post.number === 1) return ctx.badRequest('The first post of a thread cannot be deleted on its own; delete the thread instead.');
  ctx.db.prepare('DELETE FROM votes WHERE post_id = ?').run(own.post.id);
  ctx.db.prepare('DELETE FROM posts WHERE id = ?').run(own.post.id);
  ctx.flash(`Post #${own.post.number} was deleted.`);
  return ctx.redirect(`/threads/${own.thread.id}`, { page: pageOfPost(ctx, own.post.number - 1) });
}

/** Registers the new-thread flow and post editing (before the thread page, so `/threads/new` is not an id). */
export function composeRoutes(r: Router<Handler>): void {
  r.get('/threads/new', (ctx) => newThreadForm(ctx, { board: ctx.q('board') }));
  r.post('/threads', createThread);
  r.get('/posts/:id/edit', (ctx) => {
    const own = ownPost(ctx);
    return 'post' in own ? editForm(ctx, own, { title: own.thread.title, tags: own.thread.tags, body: own.post.body }) : own;
  });
  r.post('/posts/:id', saveEdit);
  r.post('/posts/:id/delete', deletePost);
}
