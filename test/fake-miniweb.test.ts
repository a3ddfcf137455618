/**
 * The fake MiniWeb server itself, through HTTP only (fetch and a cookie jar of our own): the signed cookie, auto-
 * login, the request log, the data overlay in its SQLite file, payments with a mailed code, the annotator switch,
 * logouts, reset, two workers.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMiniweb, type FakeMiniweb, type LogEntry } from './fakes/miniweb/index';

/** A browser-like client: one `session` cookie, redirects not followed. */
class Client {
  cookie: string | null = null;
  /** Every `Set-Cookie` header the server sent. */
  readonly setCookies: string[] = [];

  constructor(private readonly base: string) {}

  async send(
    path: string,
    init: { method?: string; form?: Record<string, string> | URLSearchParams; raw?: { type: string; body: string }; json?: unknown; cookie?: string | null } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = {};
    const cookie = init.cookie === undefined ? this.cookie : init.cookie;
    if (cookie) headers.cookie = `session=${cookie}`;
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    } else if (init.raw) {
      headers['content-type'] = init.raw.type;
      body = init.raw.body;
    } else if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    const res = await fetch(this.base + path, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      this.setCookies.push(c);
      const m = /^session=([^;]*)/.exec(c);
      if (m) this.cookie = m[1] || null;
    }
    return res;
  }

  async text(path: string, init?: Parameters<Client['send']>[1]): Promise<string> {
    return (await this.send(path, init)).text();
  }

  async json<T = unknown>(path: string, init?: Parameters<Client['send']>[1]): Promise<T> {
    return (await (await this.send(path, init)).json()) as T;
  }
}

interface Log {
  count: number;
  entries: LogEntry[];
}

let fake: FakeMiniweb;
beforeAll(async () => {
  fake = await startFakeMiniweb();
});
afterAll(async () => {
  await fake.close();
});

function sessionOf(c: Client): Record<string, unknown> {
  expect(c.cookie).toBeTruthy();
  return fake.sessionOf(c.cookie!)!;
}

const sidOf = (c: Client): string => String(sessionOf(c)._data_overlay_sid);

function dataOf(rows: { item_id: string; data: string | null }[], id: string): Record<string, unknown> {
  const row = rows.find((r) => r.item_id === id);
  expect(row).toBeDefined();
  return JSON.parse(row!.data!) as Record<string, unknown>;
}

function readDb<T>(read: (db: Database.Database) => T, file: string = fake.database): T {
  const db = new Database(file, { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

describe('forums: cookie, vote, post, log, overlay', () => {
  let alice: Client;
  beforeAll(() => {
    alice = new Client(fake.url);
  });

  it('logs a fresh visitor in as user 1 with a signed session cookie', async () => {
    const res = await alice.send('/sites/forums/');
    const page = await res.text();
    expect(res.status).toBe(200);
    expect(page).toContain('<title>ForumHub</title>');
    expect(page).toContain('href="/sites/forums/post/3"');
    expect(page).toContain('<script src="/static/recorder.js"></script>\n</body>');
    const set = alice.setCookies.at(-1)!;
    expect(set).toMatch(/^session=[\w.-]+\.[\w-]+\.[\w-]+; HttpOnly; Path=\/; SameSite=Lax$/);
    const session = sessionOf(alice);
    expect(session._uid_forums).toBe(1);
    expect(session.user_id).toBe(1);
    expect(String(session._data_overlay_sid)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{3}$/);
    expect(await (await alice.send('/static/recorder.js')).text()).toContain("'/_admin/record'");
    expect((await alice.send('/static/site.css')).status).toBe(200);
  });

  it('votes on post 3: the JSON answer, the cookie, the whole row in the overlay', async () => {
    const res = await alice.send('/sites/forums/api/posts/3/vote', { json: { direction: 'up' } });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.text()).toBe('{"direction":"up","id":"3","score":31,"user_vote":"up"}\n');
    expect(sessionOf(alice).forums_votes).toEqual({ '1:post:3': 'up' });
    const row = fake.overlayRows(sidOf(alice)).find((r) => r.collection === 'posts' && r.item_id === '3')!;
    expect(row).toMatchObject({ site: 'forums', op: 'upsert' });
    expect(row.data).toMatch(/^\{"id": "3", "author_root_user_id": 2, .*"score": 31, .*"tags": \["boardgames", "co-op"\]\}$/);
    const base = readDb((db) => db.prepare("SELECT score, tags FROM forums_posts WHERE id = '3'").get());
    expect(base).toEqual({ score: 30, tags: '["boardgames", "co-op"]' });
  });

  it('creates a post through the form and redirects to it', async () => {
    expect(await alice.text('/sites/forums/submit')).toContain('<title>Create Post — ForumHub</title>');
    const res = await alice.send('/sites/forums/submit', { form: { title: 'Evidence probe post', subreddit: 'hiking', body: 'Hello', flair: 'Question' } });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/sites/forums/post/rd_post_004');
    expect(await alice.text('/sites/forums/post/rd_post_004')).toContain('<title>Evidence probe post — ForumHub</title>');
    const created = dataOf(fake.overlayRows(sidOf(alice)), 'rd_post_004');
    expect(created).toMatchObject({ id: 'rd_post_004', author: 'user1', subreddit: 'hiking', title: 'Evidence probe post', score: 1 });
    expect(await alice.json('/_admin/data/forums/posts?_count=1')).toEqual({ count: 4 });
  });

  it('logs exactly the session’s /sites/ requests in MiniWeb’s entry format', async () => {
    await alice.send('/sites/forums/?sort=top&sort=new&x=1');
    const log = await alice.json<Log>('/_admin/log');
    expect(log.entries.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      'GET /sites/forums/ 200',
      'POST /sites/forums/api/posts/3/vote 200',
      'GET /sites/forums/submit 200',
      'POST /sites/forums/submit 302',
      'GET /sites/forums/post/rd_post_004 200',
      'GET /sites/forums/ 200',
    ]);
    expect(log.count).toBe(6);
    const [home, vote, , submit, , sorted] = log.entries as [LogEntry, LogEntry, LogEntry, LogEntry, LogEntry, LogEntry];
    expect(Object.keys(home).sort()).toEqual(['duration_ms', 'method', 'path', 'query', 'status', 'timestamp']);
    expect(home.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?$/);
    expect(vote.body).toEqual({ direction: 'up' });
    expect(vote.response).toEqual({ direction: 'up', id: '3', score: 31, user_vote: 'up' });
    expect(submit.body).toEqual({ title: 'Evidence probe post', subreddit: 'hiking', body: 'Hello', flair: 'Question' });
    expect(submit.response).toBeUndefined();
    expect(sorted.query).toEqual({ sort: 'top', x: '1' });
    expect((await alice.json<Log>('/_admin/log?method=post')).count).toBe(2);
    expect((await alice.json<Log>('/_admin/log?path=vote')).entries.map((e) => e.path)).toEqual(['/sites/forums/api/posts/3/vote']);
    expect((await alice.json<Log>('/_admin/log?last=1')).entries[0]!.query).toEqual({ sort: 'top', x: '1' });
    const raw = await alice.text('/_admin/session');
    expect(JSON.parse(raw)).toEqual({ forums_votes: { '1:post:3': 'up' }, user_id: 1 });
  });

  it('keeps another client’s session apart, and a client with no cookie has no log', async () => {
    const bob = new Client(fake.url);
    await bob.send('/sites/forums/');
    const log = await bob.json<Log>('/_admin/log');
    expect(log.entries.map((e) => e.path)).toEqual(['/sites/forums/']);
    expect(sidOf(bob)).not.toBe(sidOf(alice));
    expect(fake.overlayRows(sidOf(bob))).toEqual([]);
    expect(await new Client(fake.url).text('/_admin/log')).toBe('{"count":0,"entries":[]}\n');
    expect((await new Client(fake.url).json<Log>('/_admin/log?all=1')).count).toBeGreaterThanOrEqual(7);
  });

  it('logs a request that touched no data under a key of its own, and sends no cookie for a read', async () => {
    const c = new Client(fake.url);
    expect((await c.send('/sites/forums/no/such/page')).status).toBe(404);
    expect(sessionOf(c)._data_overlay_sid).toBeUndefined();
    await c.send('/sites/forums/');
    const before = c.setCookies.length;
    expect((await c.json<Log>('/_admin/log')).entries.map((e) => e.path)).toEqual(['/sites/forums/']);
    expect(c.setCookies).toHaveLength(before);
    const all = await c.json<Log>('/_admin/log?all=1');
    expect(all.entries.some((e) => e.path === '/sites/forums/no/such/page' && e.status === 404)).toBe(true);
  });

  it('logs a form’s repeated fields as lists, leaves a multipart form’s file fields out, previews a long /api/ answer', async () => {
    const c = new Client(fake.url);
    await c.send('/sites/forums/submit', { form: new URLSearchParams([['title', 'Two tags'], ['subreddit', 'hiking'], ['tag', 'a'], ['tag', 'b']]) });
    // as Chromium sends a form with an empty file input and a chosen file
    const part = (name: string, value: string, file?: string): string =>
      `--B0\r\nContent-Disposition: form-data; name="${name}"${file === undefined ? '' : `; filename="${file}"\r\nContent-Type: application/octet-stream`}\r\n\r\n${value}\r\n`;
    const upload = part('title', 'With a picture') + part('subreddit', 'hiking') + part('image', '', '') + part('attachment', 'x', 'x.txt') + '--B0--\r\n';
    const posted = await c.send('/sites/forums/submit', { raw: { type: 'multipart/form-data; boundary=B0', body: upload } });
    expect(posted.headers.get('location')).toBe('/sites/forums/post/rd_post_005');
    const products = await c.text('/sites/e-commerce/api/products');
    expect(products.length).toBeGreaterThanOrEqual(500);
    const [form, multipart, api] = (await c.json<Log>('/_admin/log')).entries as [LogEntry, LogEntry, LogEntry];
    expect(form.body).toEqual({ title: 'Two tags', subreddit: 'hiking', tag: ['a', 'b'] });
    expect(multipart.body).toEqual({ title: 'With a picture', subreddit: 'hiking' });
    expect(api.response).toBeUndefined();
    expect(api.response_preview).toBe(`${products.slice(0, 200)}...`);
  });

  it('keeps the recorder’s records and beacons per session', async () => {
    const c = new Client(fake.url);
    await c.send('/sites/forums/');
    expect((await c.send('/_admin/record', { json: { mw: 'observation', url: '/sites/forums/', title: 'ForumHub' } })).status).toBe(204);
    await c.send('/_admin/record', { json: { mw: 'action', action: 'click', target: "button 'Upvote'", selector: 'button', url: '/sites/forums/', timestamp: '2026-12-07T06:12:07.174Z' } });
    await c.send('/_admin/record', { json: { mw: 'network', url: '/x' } });
    const records = await c.json<{ count: number; entries: Record<string, unknown>[] }>('/_admin/record');
    expect(records.count).toBe(2);
    expect(records.entries[0]).toMatchObject({ type: 'observation', url: '/sites/forums/', title: 'ForumHub' });
    expect(String(records.entries[0]!.timestamp)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    expect(records.entries[1]).toEqual({ type: 'action', action: 'click', target: "button 'Upvote'", selector: 'button', url: '/sites/forums/', timestamp: '2026-12-07T06:12:07.174Z' });
    const beacon = await c.send('/_admin/beacon', { json: { mw: 'action', action: 'click', target: "button 'Upvote'", url: '/sites/forums/', x: 3, value: null } });
    expect(beacon.status).toBe(204);
    expect(await c.json('/_admin/beacon')).toEqual({ count: 1, entries: [{ action: 'click', target: "button 'Upvote'", selector: '', url: '/sites/forums/', timestamp: '', x: 3 }] });
    const other = new Client(fake.url);
    await other.send('/sites/forums/');
    expect(await other.json('/_admin/record')).toEqual({ count: 0, entries: [] });
  });

  it('answers every site’s home, listed by the portal', async () => {
    const c = new Client(fake.url);
    const portal = await c.text('/');
    for (const site of ['forums', 'banking', 'e-commerce', 'email']) {
      expect(portal).toContain(`href="/sites/${site}/"`);
      const res = await c.send(`/sites/${site}/`);
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/<title>[^<]+<\/title>[\s\S]*<script src="\/static\/recorder.js"><\/script>/);
    }
    expect(sessionOf(c)).toMatchObject({ _uid_forums: 1, _uid_banking: 1, '_uid_e-commerce': 1, _uid_email: 1 });
    const slash = await c.send('/sites/forums?sort=new');
    expect(slash.status).toBe(308);
    expect(slash.headers.get('location')).toBe(`${fake.url}/sites/forums/?sort=new`);
  });

  it('answers 404 for an unknown collection but still gives the session its overlay id', async () => {
    const carol = new Client(fake.url);
    const res = await carol.send('/_admin/data/forums/nothing');
    expect(res.status).toBe(404);
    expect(sidOf(carol)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{3}$/);
    expect((await carol.send('/sites/forums/no/such/page')).status).toBe(404);
    expect((await carol.send('/')).status).toBe(200);
  });
});

describe('banking', () => {
  it('saves a transfer as the whole accounts collection and two transactions', async () => {
    const c = new Client(fake.url);
    const page = await c.text('/sites/banking/accounts');
    expect(page).toContain('CHK-••••91');
    expect(page).not.toContain('CHK-847291');
    const res = await c.send('/sites/banking/transfer', { form: { from_account: '1', to_account: '2', amount: '100' } });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/sites/banking/accounts');
    const sid = sidOf(c);
    const replaced = readDb((db) => db.prepare('SELECT site, collection FROM session_collection_replaced WHERE session_id = ?').all(sid));
    expect(replaced).toEqual([{ site: 'banking', collection: 'accounts' }]);
    const rows = fake.overlayRows(sid);
    const accounts = rows.filter((r) => r.collection === 'accounts');
    expect(accounts.map((r) => r.item_id)).toEqual(['1', '2']);
    expect(dataOf(accounts, '1').balance).toBe(2350.75);
    expect(dataOf(accounts, '2').balance).toBe(10300.5);
    const txns = rows.filter((r) => r.collection === 'transactions');
    expect(txns.map((r) => JSON.parse(r.data!).type)).toEqual(['debit', 'credit']);
    expect(txns[0]!.data).toContain('"amount": 100.0');
    const merged = await c.json<{ id: number }[]>('/_admin/data/banking/accounts');
    expect(merged.map((a) => a.id)).toEqual([1, 2]);
    expect(readDb((db) => db.prepare('SELECT COUNT(*) AS n FROM banking_accounts').get())).toEqual({ n: 3 });
  });

  it('reveals account numbers after the mailed code', async () => {
    const c = new Client(fake.url);
    expect(await c.text('/sites/banking/accounts')).toContain('name="next" value="/sites/banking/accounts?"');
    const res = await c.send('/sites/banking/accounts/reveal', { form: { next: '/sites/banking/accounts?' } });
    expect(res.headers.get('location')).toBe('/verify-payment');
    const code = String((sessionOf(c)._pending_2fa as { code: string }).code);
    expect(await c.text('/sites/email/')).toContain(`Verification Code: ${code}`);
    const done = await c.send('/verify-payment', { form: { code } });
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/sites/banking/accounts');
    expect(await c.text('/sites/banking/accounts')).toContain('CHK-847291');
  });

  it('signs out with a 200 page, and stays signed out', async () => {
    const c = new Client(fake.url);
    expect(await c.text('/sites/banking/')).toContain('Sign out');
    const res = await c.send('/sites/banking/logout');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('You have been signed out');
    expect(sessionOf(c)._uid_banking).toBeNull();
    const later = await c.text('/sites/banking/accounts');
    expect(later).toContain('Please sign in');
    expect(later).not.toContain('CHK-');
  });
});

describe('forums logout and a GET that writes', () => {
  it('logs out with a 302 whose cookie is logged out; the old cookie stays logged in', async () => {
    const c = new Client(fake.url);
    await c.send('/sites/forums/');
    const old = c.cookie;
    const res = await c.send('/sites/forums/logout');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/sites/forums/');
    expect(sessionOf(c)._uid_forums).toBeNull();
    expect(await c.text('/sites/forums/')).toContain('You are not logged in.');
    expect(await c.text('/sites/forums/', { cookie: old })).toContain('Logged in as u/user1');
    // per-site logins: the forums logout leaves banking logged in
    expect(await c.text('/sites/banking/accounts')).toContain('Sign out');
  });

  it('marks the inbox read on GET /sites/forums/messages', async () => {
    const c = new Client(fake.url);
    expect(await c.text('/sites/forums/messages')).toContain('Hike on Saturday?');
    const rows = fake.overlayRows(sidOf(c)).filter((r) => r.collection === 'messages');
    expect(rows.map((r) => r.item_id)).toEqual(['rd_msg_001', 'rd_msg_002']);
    expect(rows.map((r) => JSON.parse(r.data!).read)).toEqual([1, 1]);
  });
});

describe('e-commerce checkout with a code', () => {
  async function checkout(c: Client): Promise<Response> {
    await c.send('/sites/e-commerce/');
    expect(await c.text('/sites/e-commerce/product/2')).toContain('Add to cart');
    expect((await c.send('/sites/e-commerce/cart/add', { form: { product_id: '2', quantity: '2' } })).headers.get('location')).toBe('/sites/e-commerce/cart');
    expect(await c.text('/sites/e-commerce/cart')).toContain('Checkout');
    return c.send('/sites/e-commerce/checkout', { method: 'POST' });
  }
  const orders = (c: Client): Record<string, unknown>[] =>
    fake
      .overlayRows(sidOf(c))
      .filter((r) => r.collection === 'orders')
      .map((r) => JSON.parse(r.data!) as Record<string, unknown>);

  it('mails a code, refuses a wrong one, and places the order on the right one', async () => {
    const c = new Client(fake.url);
    const res = await checkout(c);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/verify-payment');
    const pending = sessionOf(c)._pending_2fa as { code: string; event_type: string; return_url: string };
    expect(pending.event_type).toBe('purchase');
    const mail = fake.overlayRows(sidOf(c)).filter((r) => r.site === 'email' && r.collection === 'sent_messages');
    const sent = mail.map((r) => JSON.parse(r.data!) as Record<string, unknown>).find((m) => m.from_addr === 'security@miniweb.local')!;
    expect(sent).toMatchObject({ user_id: 1, subject: `Verification Code: ${pending.code}`, labels: ['security', '2fa'], to: ['alex.rivera@meridiansystems.com'] });
    expect(String(sent.body)).toMatch(new RegExp(`^Your verification code is: ${pending.code}\n`));
    expect(await c.text('/verify-payment')).toContain('name="code"');
    const wrong = await c.send('/verify-payment', { form: { code: pending.code === '000000' ? '111111' : '000000' } });
    expect(wrong.status).toBe(200);
    expect(await wrong.text()).toContain('Invalid verification code');
    expect(orders(c)).toEqual([]);
    const right = await c.send('/verify-payment', { form: { code: pending.code } });
    expect(right.status).toBe(302);
    expect(right.headers.get('location')).toBe(pending.return_url);
    const [order] = orders(c);
    expect(order).toMatchObject({ user_id: 1, total: 119, status: 'processing', items: [{ product_id: 2, name: 'Wireless Earbuds', price: 59.5, quantity: 2 }] });
    expect(pending.return_url).toBe(`/sites/e-commerce/orders/${String(order!.id)}`);
    expect(fake.overlayRows(sidOf(c)).filter((r) => r.collection === 'cart').map((r) => r.op)).toEqual(['delete']);
    expect(await c.text(pending.return_url)).toContain('Order placed');
    expect(sessionOf(c)._pending_2fa).toBeUndefined();
    expect(await c.text('/verify-payment')).toContain('No pending transaction.');
    const events = await c.json<{ event_type: string; payload: { order_id: string } }[]>('/_admin/events');
    expect(events.map((e) => [e.event_type, e.payload.order_id])).toEqual([['purchase', order!.id]]);
  });

  it('goes straight to the order, with no mail, once an annotator turned 2FA off', async () => {
    const c = new Client(fake.url);
    expect((await c.send('/annotate/api/toggle_2fa', { json: { disable: true } })).status).toBe(401);
    expect(await c.text('/annotate/login', { form: { username: 'minh', password: 'wrong' } })).toContain('Invalid credentials');
    expect((await c.send('/annotate/login', { form: { username: 'minh', password: 'miniweb' } })).status).toBe(302);
    expect(sessionOf(c).annotator_authenticated).toBe(true);
    expect(await c.json('/annotate/api/toggle_2fa', { json: { disable: true } })).toEqual({ disabled: true });
    const res = await checkout(c);
    expect(res.headers.get('location')).toMatch(/^\/sites\/e-commerce\/orders\/ORD-\d{8}-\d{3}$/);
    expect(orders(c)).toHaveLength(1);
    expect(fake.overlayRows(sidOf(c)).filter((r) => r.site === 'email')).toEqual([]);
    expect(sessionOf(c)._pending_2fa).toBeUndefined();
  });
});

describe('reset, workers, cookies', () => {
  it('drops the session’s data and log on /_reset_data, keeping the annotator state', async () => {
    const c = new Client(fake.url);
    await c.send('/annotate/login', { form: { username: 'minh', password: 'miniweb' } });
    await c.send('/annotate/api/toggle_2fa', { json: { disable: true } });
    await c.send('/sites/forums/api/posts/1/vote', { json: { direction: 'up' } });
    const sid = sidOf(c);
    expect(fake.overlayRows(sid)).toHaveLength(1);
    expect(await c.json('/_reset_data')).toEqual({ status: 'reset', cleared_sid: sid });
    expect(fake.overlayRows(sid)).toEqual([]);
    expect(readDb((db) => db.prepare('SELECT COUNT(*) AS n FROM sessions WHERE session_id = ?').get(sid))).toEqual({ n: 0 });
    expect(sessionOf(c)).toEqual({ _disable_2fa: true, annotator_authenticated: true, annotator_name: 'minh' });
    await c.send('/sites/forums/');
    expect(sidOf(c)).not.toBe(sid);
    expect((await c.json<Log>('/_admin/log')).entries.map((e) => e.path)).toEqual(['/sites/forums/']);
    expect((await c.json<Log>('/_admin/log?all=1')).entries.some((e) => e.path === '/sites/forums/api/posts/1/vote')).toBe(false);
  });

  it('starts logged out after a reset with ?no_autologin=1', async () => {
    const c = new Client(fake.url);
    await c.send('/sites/forums/');
    expect(await c.json('/_reset_data?no_autologin=1', { method: 'POST' })).toMatchObject({ status: 'reset' });
    expect(await c.text('/sites/forums/')).toContain('You are not logged in.');
    expect(sessionOf(c)._uid_forums).toBeNull();
  });

  it('splits one session’s log between two workers', async () => {
    const two = await startFakeMiniweb({ workers: 2 });
    try {
      const c = new Client(two.url);
      for (const p of ['/sites/forums/', '/sites/forums/submit', '/sites/email/', '/sites/banking/']) await c.send(p);
      const first = await c.json<Log>('/_admin/log');
      const second = await c.json<Log>('/_admin/log');
      expect(first.count + second.count).toBe(4);
      expect(first.count).toBeLessThan(4);
      expect(second.count).toBeLessThan(4);
    } finally {
      await two.close();
    }
  });

  it('ignores a cookie with a wrong signature', async () => {
    const c = new Client(fake.url);
    await c.send('/sites/forums/api/posts/2/vote', { json: { direction: 'up' } });
    const good = c.cookie!;
    const forged = `${good.slice(0, good.lastIndexOf('.') + 1)}${'A'.repeat(27)}`;
    const res = await c.send('/sites/forums/api/posts/2/vote', { json: { direction: 'up' }, cookie: forged });
    expect(((await res.json()) as { score: number }).score).toBe(21);
    expect(sidOf(c)).not.toBe(fake.sessionOf(good)!._data_overlay_sid);
    expect(await c.json('/_admin/session', { cookie: forged })).toEqual({});
  });

  it('compresses a long session into a "."-cookie that decodes and is read back', async () => {
    const big = await startFakeMiniweb({ extraRows: { table: 'forums_posts', count: 30 } });
    try {
      const c = new Client(big.url);
      const ids = Array.from({ length: 25 }, (_, i) => `rd_post_${String(1000 + i).padStart(7, '0')}`);
      for (const id of ids) expect((await c.send(`/sites/forums/api/posts/${id}/vote`, { json: { direction: 'up' } })).status).toBe(200);
      expect(c.cookie!.startsWith('.')).toBe(true);
      const votes = big.sessionOf(c.cookie!)!.forums_votes as Record<string, string>;
      expect(Object.keys(votes)).toHaveLength(25);
      // the server reads its compressed cookie back: a second vote on the same post clears it
      expect(await c.json(`/sites/forums/api/posts/${ids[0]}/vote`, { json: { direction: 'up' } })).toMatchObject({ score: 0, user_vote: null });
      expect(readDb((db) => db.prepare('SELECT COUNT(*) AS n FROM forums_posts').get(), big.database)).toEqual({ n: 33 });
    } finally {
      await big.close();
    }
  });
});
