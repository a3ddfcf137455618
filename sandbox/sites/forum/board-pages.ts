/** The forum's lists: the board index, thread lists (per board and all), and search. @module */
import { html, type SafeHtml } from '../../html';
import { pageNumber, pager, paginate, plural, selectField, submit } from '../../layout';
import type { Router } from '../../router';
import type { Handler, Reply, RequestCtx } from '../../template';
import { THREADS_PER_PAGE, THREAD_SORTS, boards, findThreads, tagList, tagsIn, type BoardRow, type ThreadRow } from './queries';

/** A table of threads with their board, author, figures and last post. */
export function threadTable(ctx: RequestCtx, list: readonly ThreadRow[], opts: { board?: boolean } = {}): SafeHtml {
  if (!list.length) return html`<p>No threads match.</p>`;
  return html`<table><thead><tr><th>Thread</th>${opts.board ? html`<th>Board</th>` : ''}<th>Started by</th><th>Replies</th><th>Votes</th><th>Views</th><th>Last post</th></tr></thead><tbody>${list.map(
    (t) => html`<tr><td>${t.locked ? '🔒 ' : ''}<a href="${ctx.href(`/threads/${t.id}`)}">${t.title}</a>
<div>${tagList(t.tags).map((tag) => html`<span class="badge">${tag}</span> `)}</div></td>
${opts.board ? html`<td>${t.board}</td>` : ''}<td><a href="${ctx.href(`/members/${t.author_id}`)}">${t.author}</a></td>
<td>${t.replies}</td><td>${t.votes}</td><td>${t.views}</td><td class="muted">${t.last_activity}<br>by ${t.last_author}</td></tr>`,
  )}</tbody></table>`;
}

function home(ctx: RequestCtx): Reply {
  const all = boards(ctx.db);
  const cats = [...new Set(all.map((b) => b.category))];
  const row = (b: BoardRow) => html`<tr><td><a href="${ctx.href(`/boards/${b.slug}`)}">${b.name}</a><div class="muted">${b.description}</div></td>
<td>${b.threads}</td><td>${b.posts}</td><td class="muted">${b.last_activity ?? '—'}</td></tr>`;
  const latest = findThreads(ctx.db, { sort: 'latest' }).slice(0, 5);
  return ctx.render({
    title: `${ctx.site.title} forums`,
    body: html`${cats.map((c) => html`<h2>${c}</h2><table><thead><tr><th>Board</th><th>Threads</th><th>Posts</th><th>Last post</th></tr></thead>
<tbody>${all.filter((b) => b.category === c).map(row)}</tbody></table>`)}
<h2>Latest activity</h2><ul>${latest.map((t) => html`<li>${t.title} in ${t.board} · ${t.last_activity} by ${t.last_author}</li>`)}</ul>
<p><a href="${ctx.href('/threads')}">All threads</a></p>`,
  });
}

interface ListSpec {
  path: string;
  title: string;
  board?: BoardRow;
  search?: boolean;
}

function listPage(ctx: RequestCtx, spec: ListSpec): Reply {
  const all = boards(ctx.db);
  const q = ctx.q('q');
  const sort = ctx.q('sort') || (spec.search ? 'relevance' : 'latest');
  const tag = ctx.q('tag');
  const boardSlug = spec.board ? spec.board.slug : ctx.q('board');
  const page = pageNumber(ctx.q('page'));
  if (page === undefined) return ctx.badRequest('The page number must be a positive whole number.');
  const sorts = [...(spec.search ? [{ value: 'relevance', text: 'Best match' }] : []), ...THREAD_SORTS];
  if (!sorts.some((s) => s.value === sort)) return ctx.badRequest(`"${sort}" is not a sort order.`);
  if (boardSlug && !all.some((b) => b.slug === boardSlug)) return ctx.badRequest(`There is no board "${boardSlug}".`);
  if (spec.search && !q) {
    return ctx.render({ title: 'Search the forum', body: html`<p>Type words from a thread title or a post in the search box above.</p>` });
  }
  const tags = tagsIn(ctx.db, boardSlug || undefined);
  const list = findThreads(ctx.db, { board: boardSlug, tag, q, sort });
  const paged = paginate(list, page, THREADS_PER_PAGE);
  if (!paged) return ctx.notFound(`There is no page ${page} of this list.`);
  const { items: shown, pages, first: from } = paged;
  const defaultSort = spec.search ? 'relevance' : 'latest';
  const query = { q, board: spec.board ? '' : boardSlug, tag, sort: sort === defaultSort ? '' : sort };
  const boardSelect = spec.board ? '' : selectField({ label: 'Board', name: 'board', value: boardSlug, options: [{ value: '', text: 'All boards' }, ...all.map((b) => ({ value: b.slug, text: b.name }))] });
  return ctx.render({
    title: spec.title,
    body: html`${spec.board ? html`<p>${spec.board.description} <a href="${ctx.href('/')}">All boards</a></p>` : ''}
<form method="get" action="${ctx.href(spec.path)}" class="row" aria-label="${spec.search ? 'Refine search' : 'Filter threads'}">${q ? html`<input type="hidden" name="q" value="${q}">` : ''}
${boardSelect}
${selectField({ label: 'Sort by', name: 'sort', value: sort, options: sorts })}
${selectField({ label: 'Tag', name: 'tag', value: tag, options: [{ value: '', text: 'Any tag' }, ...tags.map((t) => ({ value: t, text: t }))] })}
${submit(spec.search ? 'Refine search' : 'Apply filters')}</form>
${spec.board ? html`<p><a class="button" href="${ctx.href('/threads/new', { board: spec.board.slug })}">Start a new thread</a></p>` : ''}
<p>${list.length ? `Showing ${from}–${from + shown.length - 1} of ${plural(list.length, 'thread')}` : spec.search ? 'No threads match your search.' : 'No threads here yet.'}</p>
${threadTable(ctx, shown, { board: !spec.board })}
${pager({ page, pages, href: (n) => ctx.href(spec.path, { ...query, page: n === 1 ? '' : n }) })}`,
  });
}

/** Registers the board index, the thread lists and search. */
export function boardRoutes(r: Router<Handler>): void {
  r.get('/', home);
  r.get('/boards/:slug', (ctx) => {
    const board = boards(ctx.db).find((b) => b.slug === ctx.params.slug);
    return board ? listPage(ctx, { path: `/boards/${board.slug}`, title: board.name, board }) : ctx.notFound(`There is no board "${ctx.params.slug}".`);
  });
  r.get('/threads', (ctx) => listPage(ctx, { path: '/threads', title: 'All threads' }));
  r.get('/search', (ctx) => listPage(ctx, { path: '/search', title: `Search results for "${ctx.q('q')}"`, search: true }));
}
