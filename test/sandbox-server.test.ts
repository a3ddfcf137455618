/**
 * The sandbox server through its public API: sessions by cookie, exact evidence of a scripted session, parallel
 * sessions kept apart, the admin endpoints, and bad input getting what real sites give (never losing the log).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE, html, sandboxEvidence, startSandbox, type SandboxServer, type SiteTemplate } from '../sandbox/index';

let sandbox: SandboxServer;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox?.close();
});

const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
  redirect: 'manual',
});

function client(cookie: string, name = SESSION_COOKIE, url = sandbox.url) {
  return (path: string, init: RequestInit = {}) =>
    fetch(url + path, { redirect: 'manual', ...init, headers: { ...(init.headers as Record<string, string>), cookie: `${name}=${cookie}` } });
}

// An episode's session as the evidence opens it (MiniWeb's `session` cookie), and a client that carries its cookie.
async function openSession(site: string, url = sandbox.url) {
  const session = await sandboxEvidence({ url }).open({ site, taskId: 't', baseUrl: url });
  const get = client(session.cookies[0]!.value, session.cookies[0]!.name, url);
  // MiniWeb's own read of a collection as the session sees it now
  const rows = async <T>(collection: string): Promise<T[]> => {
    const r = await get(`/_admin/data/${site}/${collection}`);
    if (!r.ok) throw new Error(`/_admin/data/${site}/${collection} answered ${r.status}`);
    return (await r.json()) as T[];
  };
  return { session, get, rows };
}

describe('sessions', () => {
  it('start on the first request without a cookie, then stick to the cookie', async () => {
    const first = await fetch(`${sandbox.url}/sites/shop-01/cart`);
    const cookie = /sandbox_session=([0-9a-f]+)/.exec(first.headers.get('set-cookie') ?? '')?.[1];
    expect(first.status).toBe(200);
    expect(cookie).toMatch(/^[0-9a-f]{32}$/);
    const second = await client(cookie as string)('/sites/shop-01/orders');
    expect(second.headers.get('set-cookie')).toBeNull();
    const log = (await (await fetch(`${sandbox.url}/_admin/sessions/${cookie}/log`)).json()) as Array<{ path: string }>;
    expect(log.map((e) => e.path)).toEqual(['/sites/shop-01/cart', '/sites/shop-01/orders']);
    const stale = await fetch(`${sandbox.url}/sites/shop-01/`, { headers: { cookie: `${SESSION_COOKIE}=${'0'.repeat(32)}` } });
    expect(stale.headers.get('set-cookie')).toMatch(/sandbox_session=/);
  });

  it('record exactly what a scripted session did: its requests and its data changes', async () => {
    const { session, get, rows } = await openSession('shop-01');
    const cart = await rows<{ id: number; product_id: number; name: string; price: number; quantity: number }>('cart_items');
    const products = await rows<{ id: number; name: string; price: number; stock: number }>('products');
    const pick = products.find((p) => p.stock >= 5 && !cart.some((c) => c.product_id === p.id)) as (typeof products)[number];
    const line = cart[0] as (typeof cart)[number];
    expect((await get('/sites/shop-01/products?q=lamp&sort=price_asc&sort=name')).status).toBe(200);
    expect((await get('/sites/shop-01/cart/add', form({ product_id: String(pick.id), quantity: '2' }))).status).toBe(303);
    expect((await get('/sites/shop-01/cart/update', form({ item_id: String(line.id), quantity: String(line.quantity + 3) }))).status).toBe(303);
    const json = await get('/sites/shop-01/api/products/1', { method: 'GET' });
    expect(json.headers.get('content-type')).toMatch(/json/);
    const { log, changes } = await session.collect();
    expect(log).toEqual([
      { method: 'GET', path: '/sites/shop-01/products', query: { q: 'lamp', sort: ['price_asc', 'name'] }, body: null, status: 200 },
      { method: 'POST', path: '/sites/shop-01/cart/add', query: {}, body: { product_id: String(pick.id), quantity: '2' }, status: 303 },
      { method: 'POST', path: '/sites/shop-01/cart/update', query: {}, body: { item_id: String(line.id), quantity: String(line.quantity + 3) }, status: 303 },
      { method: 'GET', path: '/sites/shop-01/api/products/1', query: {}, body: null, status: 200 },
    ]);
    const created = { id: Math.max(...cart.map((c) => c.id)) + 1, product_id: pick.id, name: pick.name, price: pick.price, quantity: 2 };
    expect(changes).toEqual([
      { site: 'shop-01', collection: 'cart_items', op: 'create', before: null, after: created, changed: created },
      { site: 'shop-01', collection: 'cart_items', op: 'update', before: line, after: { ...line, quantity: line.quantity + 3 }, changed: { quantity: [line.quantity, line.quantity + 3] } },
    ]);
    await session.close?.();
    // reset: the session's log and data are gone
    expect(await (await get('/_admin/log')).json()).toEqual({ count: 0, entries: [] });
  });

  it('keep the data and changes of parallel sessions apart', async () => {
    const [a, b, fresh] = await Promise.all([openSession('mail-01'), openSession('mail-01'), openSession('mail-01')]);
    const contacts = await fresh.rows<{ id: number; name: string }>('contacts');
    const gone = contacts[0] as (typeof contacts)[number];
    await Promise.all([
      a.get('/sites/mail-01/contacts', form({ name: 'Ada Lovelace', email: 'ada@example.org', phone: '', company: 'Analytical Engines', notes: '' })),
      b.get(`/sites/mail-01/contacts/${gone.id}/delete`, form({})),
      ...Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).get('/sites/mail-01/')),
    ]);
    const [ea, eb, ef] = await Promise.all([a.session.collect(), b.session.collect(), fresh.session.collect()]);
    expect(ea.changes.map((c) => [c.collection, c.op])).toEqual([['contacts', 'create']]);
    expect(eb.changes.map((c) => [c.collection, c.op, (c.before as { id: number }).id])).toEqual([['contacts', 'delete', gone.id]]);
    expect(ef.changes).toEqual([]);
    expect(ea.log.filter((e) => e.method === 'GET')).toHaveLength(3);
    const rows = (s: typeof a) => s.rows<{ id: number; email: string }>('contacts');
    expect((await rows(a)).some((r) => r.email === 'ada@example.org')).toBe(true);
    expect((await rows(a)).some((r) => r.id === gone.id)).toBe(true);
    expect((await rows(b)).some((r) => r.id === gone.id || r.email === 'ada@example.org')).toBe(false);
    expect(await rows(fresh)).toHaveLength(contacts.length);
  });
});

describe('session limits', () => {
  it('end the least recently used session past the cap', async () => {
    const own = await startSandbox({ port: 0, catalog: sandbox.catalog, sessions: { maxSessions: 3 } });
    try {
      const open = async () => ((await (await fetch(`${own.url}/_admin/sessions`, { method: 'POST' })).json()) as { id: string }).id;
      const [a, b, c] = [await open(), await open(), await open()];
      await fetch(`${own.url}/sites/shop-01/`, { headers: { cookie: `${SESSION_COOKIE}=${a}` } });
      await open();
      const alive = async (id: string) => (await fetch(`${own.url}/_admin/sessions/${id}/log`)).status === 200;
      expect([await alive(a), await alive(b), await alive(c)]).toEqual([true, false, true]);
      expect(own.sessions.size).toBe(3);
    } finally {
      await own.close();
    }
  });
});

describe('bad input', () => {
  it('gets 404 pages, 400s, 405, 413, 415 and shown form errors, never a 500, and every request stays in the log', async () => {
    const { session, get } = await openSession('shop-01');
    const cases: Array<[string, RequestInit | undefined, number, RegExp?]> = [
      ['/sites/nowhere-01/', undefined, 404, /no such page or site/],
      ['/sites/shop-01/no/such/page', undefined, 404, /could not find that page/],
      ['/sites/shop-01/products/999999', undefined, 404, /does not exist/],
      ['/sites/shop-01/products/%E0%A4%A', undefined, 404],
      ['/sites/shop-01/products?page=abc', undefined, 400, /positive whole number/],
      ['/sites/shop-01/products?page=500', undefined, 404],
      ['/sites/shop-01/products?category=%27%3B%20DROP%20TABLE%20products', undefined, 404],
      ['/sites/shop-01/products?max_price=cheap', undefined, 400, /Max price must be a number/],
      ['/sites/shop-01/orders?status=lost', undefined, 400],
      ['/sites/shop-01/checkout', form({ name: '', street: 'x', city: 'y', zip: 'abc', shipping: 'teleport', payment: 'visa' }), 422, /Enter a 5-digit ZIP code/],
      ['/sites/shop-01/cart/add', form({ product_id: 'abc', quantity: '2' }), 404],
      ['/sites/shop-01/cart/add', form({ product_id: '1', quantity: '-3' }), 422, /Enter a quantity from 1 to 99/],
      ['/sites/shop-01/cart/add', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"product_id": ' }, 400, /not valid JSON/],
      ['/sites/shop-01/cart/add', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'x'.repeat(2 << 20) }, 413],
      ['/sites/shop-01/account', { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x--' }, 415],
      ['/sites/shop-01/cart', { method: 'PUT' }, 405],
      ['/sites/mail-01/compose', form({ to: 'not an address', subject: 's', body: 'b', action: 'send' }), 422, /Not a valid email address/],
      ['/sites/mail-01/messages/1/move', form({ folder: 'spam' }), 400],
      ['/sites/mail-01/bulk', form({ ids: 'x', action: 'archive' }), 400],
      ['/sites/mail-01/?show=everything', undefined, 400],
    ];
    for (const [path, init, status, text] of cases) {
      const r = await get(path, init);
      expect(r.status, path).toBe(status);
      const body = await r.text();
      if (text) expect(body, path).toMatch(text);
      if (r.status === 405) expect(r.headers.get('allow')).toBe('GET');
    }
    const { log, changes } = await session.collect();
    expect(log.map((e) => e.status)).toEqual(cases.map((c) => c[2]));
    expect(changes).toEqual([]);
    expect((log[9]?.body as Record<string, string>).zip).toBe('abc');
  });

  it('keeps the log and rolls back half-done writes when a handler fails', async () => {
    const boom: SiteTemplate = {
      id: 'boom',
      kind: 'test site',
      schema: 'CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL);',
      seed: ({ db }) => {
        db.prepare("INSERT INTO things (name) VALUES ('first')").run();
        return { title: 'Boom' };
      },
      nav: [],
      routes(r) {
        r.get('/', (ctx) => ctx.render({ title: 'Home', body: html`<p>ok</p>` }));
        r.post('/explode', (ctx) => {
          ctx.db.prepare("INSERT INTO things (name) VALUES ('half-done')").run();
          throw new Error('bug in a handler');
        });
      },
      tasks: () => [],
    };
    const own = await startSandbox({ port: 0, catalog: { templates: [boom], variants: 1 } });
    try {
      const { session, rows } = await openSession('boom-01', own.url);
      const cookie = { cookie: `${session.cookies[0]!.name}=${session.cookies[0]!.value}` };
      const r = await fetch(`${own.url}/sites/boom-01/explode`, { method: 'POST', headers: { ...cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' });
      expect(r.status).toBe(500);
      expect(await r.text()).toMatch(/Something went wrong/);
      await fetch(`${own.url}/sites/boom-01/`, { headers: cookie });
      const { log, changes } = await session.collect();
      expect(log.map((e) => [e.method, e.path, e.status, e.body])).toEqual([
        ['POST', '/sites/boom-01/explode', 500, { a: '1' }],
        ['GET', '/sites/boom-01/', 200, null],
      ]);
      expect(changes).toEqual([]);
      expect(await rows('things')).toEqual([{ id: 1, name: 'first' }]);
      await expect(rows('nope')).rejects.toThrow(/404/);
    } finally {
      await own.close();
    }
  });
});

describe('admin', () => {
  it('lists sites, the split and tasks, and refuses unknown sessions and tables', async () => {
    const sites = (await (await fetch(`${sandbox.url}/_admin/sites`)).json()) as Array<{ name: string; split: string }>;
    expect(sites.find((s) => s.name === 'shop-08')?.split).toBe('test');
    const split = (await (await fetch(`${sandbox.url}/_admin/split`)).json()) as { train: string[] };
    expect(split.train).toContain('mail-03');
    const tasks = (await (await fetch(`${sandbox.url}/_admin/sites/mail-02/tasks`)).json()) as Array<{ task_id: string }>;
    expect(tasks.length).toBeGreaterThanOrEqual(10);
    expect((await fetch(`${sandbox.url}/_admin/sessions/nope`)).status).toBe(404);
    expect((await fetch(`${sandbox.url}/_admin/sites/nope-01/tasks`)).status).toBe(404);
    expect((await fetch(`${sandbox.url}/_admin/split`, { method: 'POST' })).status).toBe(405);
    expect(await (await fetch(`${sandbox.url}/_admin/ping`)).text()).toBe('ok');
    const index = await (await fetch(`${sandbox.url}/`)).text();
    expect(index).toContain('/sites/shop-01/');
  });
});
