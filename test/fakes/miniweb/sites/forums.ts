/**
 * The fake `forums` site (ForumHub): posts with an upvote button (the vote API answers `{direction, id, score,
 * user_vote}` and keeps `forums_votes` in the cookie), a form that creates `rd_post_NNN` posts, an inbox whose GET
 * marks the messages read (a GET that writes), and a logout that answers 302 with the cookie logged out.
 * @module
 */
import type { Row, TableSpec } from '../db';
import { esc, page, type NavLink } from '../html';
import { errorPage, html, json, redirect, type Ctx, type Reply, type Route } from '../http';
import { utcIsoNow } from '../pyjson';
import { currentUid, intOf, type SiteModule } from '../site';

const SITE = 'forums';
const BRAND = 'ForumHub';
const HOME = '/sites/forums/';

const post = (id: string, author: [number, string], subreddit: string, title: string, score: number, flair: string, tags: string[], day: string): Row => ({
  id,
  author_root_user_id: author[0],
  subreddit,
  title,
  body: `${title} Thoughts welcome.`,
  score,
  num_comments: score,
  flair,
  author: author[1],
  created_utc: `2026-06-${day}T09:00:00Z`,
  url: '',
  sticky: '',
  locked: '',
  tags,
});

const TABLES: TableSpec[] = [
  {
    collection: 'posts',
    table: 'forums_posts',
    columns: [
      ['id', 'TEXT PRIMARY KEY'],
      ['author_root_user_id', 'INTEGER NOT NULL DEFAULT 0'],
      ['subreddit', "TEXT NOT NULL DEFAULT ''"],
      ['title', "TEXT NOT NULL DEFAULT ''"],
      ['body', "TEXT NOT NULL DEFAULT ''"],
      ['score', 'INTEGER NOT NULL DEFAULT 0'],
      ['num_comments', 'INTEGER NOT NULL DEFAULT 0'],
      ['flair', "TEXT NOT NULL DEFAULT ''"],
      ['author', "TEXT NOT NULL DEFAULT ''"],
      ['created_utc', "TEXT NOT NULL DEFAULT ''"],
      ['url', "TEXT NOT NULL DEFAULT ''"],
      ['sticky', "TEXT NOT NULL DEFAULT ''"],
      ['locked', "TEXT NOT NULL DEFAULT ''"],
      ['tags', "TEXT NOT NULL DEFAULT '[]'"],
    ],
    indexes: ['subreddit', 'author'],
    rows: [
      post('1', [2, 'trail_mia'], 'hiking', 'Best day hikes near Lakeport?', 10, 'Question', ['hiking', 'lakeport'], '11'),
      post('2', [3, 'dice_roller'], 'programming', 'Which editor do you use in 2026?', 20, 'Discussion', ['editors'], '12'),
      post('3', [2, 'trail_mia'], 'boardgames', 'Our group’s favourite co-op games', 30, 'Discussion', ['boardgames', 'co-op'], '13'),
    ],
    // tags already as the JSON text the column holds: a million rows need no million `json.dumps`
    extraRow: (i) => ({ ...post(`rd_post_${String(1000 + i).padStart(7, '0')}`, [3, 'dice_roller'], 'programming', `Bulk post ${i}`, 0, '', [], '01'), tags: '["bulk"]' }),
  },
  {
    collection: 'users',
    table: 'forums_users',
    columns: [
      ['root_user_id', 'INTEGER NOT NULL DEFAULT 0'],
      ['karma', 'INTEGER NOT NULL DEFAULT 0'],
      ['subscribed_subreddits', "TEXT NOT NULL DEFAULT ''"],
      ['cake_day', "TEXT NOT NULL DEFAULT ''"],
      ['username', "TEXT NOT NULL DEFAULT ''"],
      ['id', 'INTEGER PRIMARY KEY'],
      ['admin', "TEXT NOT NULL DEFAULT ''"],
      ['biography', "TEXT NOT NULL DEFAULT ''"],
      ['created_at', "TEXT NOT NULL DEFAULT ''"],
    ],
    indexes: ['root_user_id'],
    rows: [
      { root_user_id: 1, karma: 120, subscribed_subreddits: ['hiking', 'boardgames'], cake_day: '2021-03-04', username: 'user1', id: 1, admin: '', biography: 'Lakeport local.', created_at: '2021-03-04' },
      { root_user_id: 2, karma: 880, subscribed_subreddits: ['hiking'], cake_day: '2019-07-21', username: 'trail_mia', id: 2, admin: '', biography: 'Trails and tea.', created_at: '2019-07-21' },
      { root_user_id: 3, karma: 45, subscribed_subreddits: ['programming'], cake_day: '2023-01-09', username: 'dice_roller', id: 3, admin: '', biography: '', created_at: '2023-01-09' },
    ],
  },
  {
    collection: 'messages',
    table: 'forums_messages',
    columns: [
      ['id', 'TEXT PRIMARY KEY'],
      ['from_username', "TEXT NOT NULL DEFAULT ''"],
      ['to_username', "TEXT NOT NULL DEFAULT ''"],
      ['subject', "TEXT NOT NULL DEFAULT ''"],
      ['body', "TEXT NOT NULL DEFAULT ''"],
      ['created_utc', "TEXT NOT NULL DEFAULT ''"],
      ['read', 'INTEGER NOT NULL DEFAULT 0'],
    ],
    indexes: ['to_username', 'from_username'],
    rows: [
      { id: 'rd_msg_001', from_username: 'trail_mia', to_username: 'user1', subject: 'Hike on Saturday?', body: 'Want to join us at Pine Ridge?', created_utc: '2026-06-20T10:00:00Z', read: 0 },
      { id: 'rd_msg_002', from_username: 'dice_roller', to_username: 'user1', subject: 'Game night', body: 'Bring Spirit Island!', created_utc: '2026-06-21T18:30:00Z', read: 0 },
      { id: 'rd_msg_003', from_username: 'user1', to_username: 'trail_mia', subject: 'Re: trails', body: 'Thanks for the map.', created_utc: '2026-06-19T08:00:00Z', read: 1 },
    ],
  },
  {
    collection: 'subreddits',
    table: 'forums_subreddits',
    columns: [
      ['id', 'INTEGER PRIMARY KEY'],
      ['name', "TEXT NOT NULL DEFAULT ''"],
      ['title', "TEXT NOT NULL DEFAULT ''"],
      ['description', "TEXT NOT NULL DEFAULT ''"],
      ['post_count', 'INTEGER NOT NULL DEFAULT 0'],
    ],
    rows: [
      { id: 1, name: 'hiking', title: 'Hiking', description: 'Trails and trips', post_count: 1 },
      { id: 2, name: 'programming', title: 'Programming', description: 'Code talk', post_count: 1 },
      { id: 3, name: 'boardgames', title: 'Board Games', description: 'Tabletop fans', post_count: 1 },
    ],
  },
];

function me(ctx: Ctx): Row | null {
  const uid = currentUid(ctx);
  if (uid === null) return null;
  return ctx.data.query(SITE, 'users', { where: { root_user_id: uid }, limit: 1 })[0] ?? null;
}

function view(ctx: Ctx, title: string, body: string): Reply {
  const user = me(ctx);
  const nav: NavLink[] = [
    { href: HOME, text: 'Home' },
    { href: '/sites/forums/submit', text: 'Create Post' },
    { href: '/sites/forums/messages', text: 'Messages' },
    user ? { href: '/sites/forums/logout', text: 'Log out' } : { href: '/sites/forums/login', text: 'Log In' },
  ];
  const who = user ? `<p class="muted">Logged in as u/${esc(user.username)}</p>` : '<p class="muted">You are not logged in.</p>';
  return html(page({ title, brand: BRAND, home: HOME, nav, body: who + body }));
}

function postCard(p: Row, link: boolean): string {
  const id = esc(p.id);
  const vote = `fetch('/sites/forums/api/posts/${id}/vote', {method:'POST', headers:{'content-type':'application/json'}, body: JSON.stringify({direction:'up'})}).then(function (r) { return r.json(); }).then(function (d) { if (d.score !== undefined) document.getElementById('score-${id}').textContent = d.score; })`;
  const title = link ? `<a href="/sites/forums/post/${encodeURIComponent(String(p.id))}">${esc(p.title)}</a>` : esc(p.title);
  const tags = Array.isArray(p.tags) ? p.tags.map((t) => `<span class="tag">#${esc(t)}</span>`).join(' ') : '';
  return `<article class="card"><button type="button" aria-label="Upvote" onclick="${vote}">&#9650; Upvote</button>
<span class="score" id="score-${id}">${esc(p.score)}</span> <strong>${title}</strong>
<div class="muted">r/${esc(p.subreddit)} · u/${esc(p.author)} · ${esc(p.flair)} ${tags}</div>${link ? '' : `<p>${esc(p.body)}</p>`}</article>`;
}

/** `_next_prefixed_id`: one more than the largest `rd_post_NNN` of the base table and this session's overlay. */
function nextPostId(ctx: Ctx): string {
  const prefix = 'rd_post_';
  const num = (v: unknown): number => intOf(String(v ?? '').replace(prefix, '')) ?? 0;
  const base = ctx.db.sql.prepare('SELECT MAX([id]) AS max_id FROM [forums_posts]').get() as { max_id: unknown };
  const max = Math.max(num(base.max_id), ...ctx.db.overlayIds(ctx.data.sid(), SITE, 'posts').map(num));
  return `${prefix}${String(max + 1).padStart(3, '0')}`;
}

function submitPage(ctx: Ctx, error = ''): Reply {
  const subs = ctx.data.query(SITE, 'subreddits', { sort: 'name' });
  const options = subs.map((s) => `<option value="${esc(s.name)}">r/${esc(s.name)}</option>`).join('');
  return view(
    ctx,
    `Create Post — ${BRAND}`,
    `<h1>Create a post</h1>${error ? `<p class="error">${esc(error)}</p>` : ''}
<form method="post" action="/sites/forums/submit">
<label for="subreddit">Community</label><select id="subreddit" name="subreddit"><option value="">Choose a community</option>${options}</select>
<label for="title">Title</label><input type="text" id="title" name="title">
<label for="body">Body (optional)</label><textarea id="body" name="body"></textarea>
<label for="flair">Flair (optional)</label><input type="text" id="flair" name="flair">
<p><button type="submit">Post</button></p></form>`,
  );
}

function routes(): Route[] {
  return [
    {
      method: 'GET',
      path: '/sites/forums/',
      handle: (ctx) => {
        const posts = ctx.data.query(SITE, 'posts', { sort: '-score', limit: 25 });
        return view(ctx, BRAND, `<h1>Popular posts</h1>${posts.map((p) => postCard(p, true)).join('\n')}`);
      },
    },
    {
      method: 'GET',
      path: '/sites/forums/post/:id',
      handle: (ctx) => {
        const p = ctx.data.getItem(SITE, 'posts', ctx.params.id);
        return p ? view(ctx, `${String(p.title)} — ${BRAND}`, postCard(p, false)) : errorPage(404);
      },
    },
    { method: 'GET', path: '/sites/forums/submit', handle: (ctx) => submitPage(ctx) },
    {
      method: 'POST',
      path: '/sites/forums/submit',
      handle: (ctx) => {
        const user = me(ctx);
        if (!user) return redirect('/sites/forums/login');
        const title = ctx.field('title');
        const subreddit = ctx.field('subreddit').replace(/^r\//, '');
        if (!title || !subreddit) return submitPage(ctx, 'Title and subreddit are required.');
        const created = {
          id: nextPostId(ctx),
          author_root_user_id: user.root_user_id,
          author: user.username,
          subreddit,
          title,
          body: ctx.field('body'),
          score: 1,
          num_comments: 0,
          created_utc: utcIsoNow().replace('+00:00', 'Z'),
          flair: ctx.field('flair'),
        };
        ctx.data.saveItem(SITE, 'posts', created.id, created);
        return redirect(`/sites/forums/post/${created.id}`);
      },
    },
    {
      method: 'GET',
      path: '/sites/forums/messages',
      handle: (ctx) => {
        const user = me(ctx);
        if (!user) return redirect('/sites/forums/login');
        const inbox = ctx.data
          .query(SITE, 'messages')
          .filter((m) => m.to_username === user.username)
          .sort((a, b) => String(b.created_utc).localeCompare(String(a.created_utc)));
        const list = inbox.map((m) => `<li class="card">${isRead(m) ? '' : '<strong>New</strong> '}${esc(m.subject)} — from u/${esc(m.from_username)}<p>${esc(m.body)}</p></li>`);
        // viewing the inbox marks it read: a GET that writes, as MiniWeb's forums does
        for (const m of inbox) if (!isRead(m)) ctx.data.saveItem(SITE, 'messages', m.id, { ...m, read: 1 });
        return view(ctx, `Messages — ${BRAND}`, `<h1>Messages</h1><ul>${list.join('')}</ul>`);
      },
    },
    {
      method: 'GET',
      path: '/sites/forums/logout',
      handle: (ctx) => {
        ctx.session.pop('user_id');
        return redirect(HOME);
      },
    },
    {
      method: 'GET',
      path: '/sites/forums/login',
      handle: (ctx) =>
        view(
          ctx,
          `Log In — ${BRAND}`,
          `<h1>Log in</h1><form method="post" action="/sites/forums/login"><label for="username">Username</label><input type="text" id="username" name="username">
<label for="password">Password</label><input type="password" id="password" name="password"><p><button type="submit">Log In</button></p></form>`,
        ),
    },
    {
      method: 'POST',
      path: '/sites/forums/login',
      handle: (ctx) => {
        const user = ctx.data.query(SITE, 'users', { where: { username: ctx.field('username') }, limit: 1 })[0];
        if (!user) return view(ctx, `Log In — ${BRAND}`, '<p class="error">Invalid username or password.</p>');
        ctx.session.set('user_id', user.root_user_id);
        return redirect(HOME);
      },
    },
    {
      method: 'GET',
      path: '/sites/forums/api/posts/:id',
      handle: (ctx) => {
        const p = ctx.data.getItem(SITE, 'posts', ctx.params.id);
        return p ? json(p) : json({ error: 'Post not found' }, 404);
      },
    },
    { method: 'POST', path: '/sites/forums/api/posts/:id/vote', handle: vote },
  ];
}

function isRead(m: Row): boolean {
  return !['0', '', 'none', 'false'].includes(String(m.read ?? 0).toLowerCase());
}

/** The toggle vote: one vote per user, kept in the cookie's `forums_votes`; the post's score saved with it. */
function vote(ctx: Ctx): Reply {
  if (!me(ctx)) return json({ error: 'Not logged in' }, 401);
  const body = ctx.json && typeof ctx.json === 'object' ? (ctx.json as Row) : {};
  const direction = body.direction ?? 'up';
  if (direction !== 'up' && direction !== 'down') return json({ error: "direction must be 'up' or 'down'" }, 400);
  const id = ctx.params.id!;
  const p = ctx.data.getItem(SITE, 'posts', id);
  if (!p) return json({ error: 'Post not found' }, 404);
  const votes = { ...((ctx.session.get('forums_votes') as Record<string, string> | undefined) ?? {}) };
  const key = `${String(ctx.session.get('user_id'))}:post:${id}`;
  const prev = votes[key];
  const next = direction === prev ? null : direction;
  const value = (v: string | null | undefined): number => (v === 'up' ? 1 : v === 'down' ? -1 : 0);
  if (next) votes[key] = next;
  else delete votes[key];
  ctx.session.set('forums_votes', votes);
  p.score = Number(p.score ?? 0) + value(next) - value(prev);
  ctx.data.saveItem(SITE, 'posts', id, p);
  return json({ id, score: p.score, direction, user_vote: next });
}

/** ForumHub. */
export const forums: SiteModule = {
  id: SITE,
  name: BRAND,
  description: 'ForumHub — Social media',
  tables: TABLES,
  install: () => routes(),
};
