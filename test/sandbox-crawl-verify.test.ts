/** The library's generic parts the sandbox relies on: `crawlSite`/`pageControls` and `verifyEpisode`. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlSite, verifyEpisode, type Change, type LogEntry } from '../src/index';
import { pageControls } from '../src/sites/crawl';
import { pageElements } from '../src/sites/elements';

const PAGES: Record<string, string> = {
  '/site/': `<html><head><title>Home</title><meta name="application-name" content="Tiny Site"></head><body>
    <a href="/site/a">A</a> <a href="a#top">A again</a> <a href="/site/b?x=1">B with query</a> <a href="/other/">Other</a>
    <a href="http://example.com/site/c">External</a> <a href="/site/style.css">CSS</a> <a href="/site/broken">Broken</a>
    <a href="/site/data">Data</a> <a href="/site/moved">Moved</a>
    <form method="post" action="/site/a"><button>Do it</button></form></body></html>`,
  '/site/a': `<html><head><title>Page A</title></head><body>
    <form method="get" action="/site/a"><label for="q">Find things</label><input id="q" type="search" name="q">
    <label for="s">Sort</label><select id="s" name="sort"><option value="new">Newest</option><option value="old" selected>Oldest</option></select>
    <fieldset><legend>Size</legend><label><input type="radio" name="size" value="s"> Small</label><label><input type="radio" name="size" value="l"> Large</label></fieldset>
    <input type="hidden" name="token" value="x"><div style="display: none"><input name="ghost" aria-label="Ghost"></div>
    <details><summary>More</summary><input name="inside" aria-label="Inside"></details>
    <input type="number" name="n" placeholder="How many"><textarea name="note" title="Note"></textarea>
    <button type="submit" aria-label="Apply the filters">Go</button><input type="submit" value="Also go"></form>
    <a href="/site/">Home</a><div role="button">Fake button</div></body></html>`,
};

let server: Server;
let base: string;
const methods: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    methods.push(`${req.method} ${req.url}`);
    const path = (req.url ?? '/').split('?')[0] as string;
    if (path === '/site/moved') return res.writeHead(302, { location: '/site/a' }).end();
    if (path === '/site/broken') return res.writeHead(500).end('boom');
    if (path === '/site/data') return res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    const page = PAGES[path];
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html', 'set-cookie': 'sid=abc; Path=/' }).end(page ?? 'missing');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('crawlSite', () => {
  it('sends only GETs, stays under the home path, skips query links, assets, errors and non-HTML, and keeps cookies', async () => {
    const sitemap = await crawlSite({ baseUrl: base, home: '/site/' });
    expect(sitemap.name).toBe('Tiny Site');
    expect(sitemap.pages).toEqual([
      { path: '/site/', title: 'Home' },
      { path: '/site/a', title: 'Page A' },
    ]);
    expect(methods.every((m) => m.startsWith('GET '))).toBe(true);
    expect(methods.some((m) => m.includes('?') || m.includes('/other/') || m.includes('style.css'))).toBe(false);
    expect(methods).toContain('GET /site/broken');
    const controls = sitemap.controls as Array<Record<string, unknown>>;
    expect(controls.filter((c) => c.page === '/site/a')).toEqual([
      { kind: 'search', label: 'Find things', name: 'q', page: '/site/a' },
      { kind: 'select', label: 'Sort', name: 'sort', page: '/site/a', options: [{ text: 'Newest', value: 'new' }, { text: 'Oldest', value: 'old' }] },
      { kind: 'radio', label: 'Size', name: 'size', page: '/site/a', options: [{ text: 'Small', value: 's' }, { text: 'Large', value: 'l' }] },
      { kind: 'button', label: 'More', name: null, page: '/site/a' },
      { kind: 'number', label: 'How many', name: 'n', page: '/site/a' },
      { kind: 'textarea', label: 'Note', name: 'note', page: '/site/a' },
      { kind: 'button', label: 'Apply the filters', name: null, page: '/site/a' },
      { kind: 'button', label: 'Also go', name: null, page: '/site/a' },
      { kind: 'button', label: 'Fake button', name: null, page: '/site/a' },
    ]);
    expect(controls.find((c) => c.page === '/site/')).toEqual({ kind: 'button', label: 'Do it', name: null, page: '/site/' });
  });

  it('stops at maxPages and sends the cookies it was given', async () => {
    methods.length = 0;
    const sitemap = await crawlSite({ baseUrl: base, home: '/site/', maxPages: 1, fetch: (url, init) => {
      expect(new Headers(init?.headers).get('cookie')).toBe('sid=given');
      return fetch(url, init);
    }, headers: { cookie: 'sid=given' } });
    expect(sitemap.pages).toHaveLength(1);
    expect(methods).toHaveLength(1);
  });

  it('names elements as the harness does', () => {
    const els = pageElements(PAGES['/site/a'] as string).map((e) => `${e.role}:${e.name}`);
    expect(els).toEqual(['searchbox:Find things', 'combobox:Sort', 'radio:Small', 'radio:Large', 'button:More', 'spinbutton:How many',
      'textbox:Note', 'button:Apply the filters', 'button:Also go', 'link:Home', 'button:Fake button']);
    expect(pageControls('<p>no controls</p>', '/x')).toEqual([]);
  });
});

describe('verifyEpisode', () => {
  const log: LogEntry[] = [
    { method: 'GET', path: '/s/products', query: { q: 'Lamp ', sort: 'price_asc' }, body: null, status: 200 },
    { method: 'POST', path: '/s/cart/add', query: {}, body: { product_id: '12', quantity: '2' }, status: 303 },
    { method: 'POST', path: '/s/cart/add', query: {}, body: { product_id: '13', quantity: '-1' }, status: 422 },
  ];
  const changes: Change[] = [
    { table: 'cart_items', op: 'create', before: null, after: { id: 5, product_id: 12, quantity: 2 }, changed: {} },
    { table: 'cart_items', op: 'update', before: { id: 5, product_id: 12, quantity: 2 }, after: { id: 5, product_id: 12, quantity: 3 }, changed: {} },
    { table: 'wishlist', op: 'delete', before: { id: 1, product_id: 4 }, after: null, changed: {} },
  ];

  it('checks answers: includes, exact, number with tolerance', async () => {
    const v = async (answer: string, check: Parameters<typeof verifyEpisode>[0]['answer']) => (await verifyEpisode({ answer: check }, { answer })).ok;
    expect(await v('It is the  Classic KETTLE.', { type: 'includes', value: 'classic kettle' })).toBe(true);
    expect(await v('Classic Kettle', { type: 'includes', value: ['Classic Kettle', 'Acme'] })).toBe(false);
    expect(await v('  shipped ', { type: 'exact', value: 'Shipped' })).toBe(true);
    expect(await v('not shipped', { type: 'exact', value: 'Shipped' })).toBe(false);
    expect(await v('It costs $1,234.50 today', { type: 'number', value: 1234.5, tolerance: 0.005 })).toBe(true);
    expect(await v('It costs $1,234.56', { type: 'number', value: 1234.5, tolerance: 0.005 })).toBe(false);
    expect(await v('', { type: 'number', value: 0 })).toBe(false);
  });

  it('checks requests: method, path, loose parameters, errors not counted, should_not_exist', async () => {
    const ok = async (requests: NonNullable<Parameters<typeof verifyEpisode>[0]['requests']>) => (await verifyEpisode({ requests }, { log })).ok;
    expect(await ok([{ method: 'get', path: '/s/products/', params: { q: 'lamp', sort: 'PRICE_ASC' } }])).toBe(true);
    expect(await ok([{ method: 'POST', path: '/s/cart/add', params: { product_id: 12, quantity: 2 } }])).toBe(true);
    expect(await ok([{ method: 'POST', path: '/s/cart/add', params: { product_id: 13 } }])).toBe(false);
    expect(await ok([{ method: 'POST', path: '/s/cart/add', params: { product_id: 13 }, should_not_exist: true }])).toBe(true);
    expect(await ok([{ method: 'POST', path: '/s/checkout', should_not_exist: true }])).toBe(true);
    expect(await ok([{ method: 'GET', path: '/s/products', params: { category: null } }])).toBe(true);
    const r = await verifyEpisode({ requests: [{ method: 'GET', path: '/s/products', params: { sort: 'name' } }] }, { log });
    expect(r.checks[0]?.detail).toMatch(/none with those parameters/);
  });

  it('checks state against the rows when given, else against the changes', async () => {
    const rows = [{ id: 5, product_id: 12, quantity: 3, gift: 1 }];
    const state = (t: string) => (t === 'cart_items' ? rows : []);
    const check = (s: NonNullable<Parameters<typeof verifyEpisode>[0]['state']>) => ({ state: s });
    expect((await verifyEpisode(check([{ table: 'cart_items', where: { product_id: '12' }, values: { quantity: 3, gift: true } }]), { state })).ok).toBe(true);
    const wrong = await verifyEpisode(check([{ table: 'cart_items', where: { product_id: 12 }, values: { quantity: 2 } }]), { state });
    expect(wrong.ok).toBe(false);
    expect(wrong.checks[0]?.detail).toBe('the row has {"quantity":3}');
    expect((await verifyEpisode(check([{ table: 'cart_items', where: { product_id: 12 }, should_not_exist: true }]), { state })).ok).toBe(false);
    // Each check on its own: the fixture's changes all admitted as the site's consequences.
    const admitted = { changes, consequences: [{ allow: [{ table: 'cart_items', op: 'create' as const }, { table: 'cart_items', op: 'update' as const }, { table: 'wishlist', op: 'delete' as const }] }] };
    expect((await verifyEpisode(check([{ table: 'cart_items', where: { product_id: 12 }, values: { quantity: 3 } }]), admitted)).ok).toBe(true);
    expect((await verifyEpisode(check([{ table: 'cart_items', where: { product_id: 12 }, values: { quantity: 2 } }]), admitted)).ok).toBe(false);
    expect((await verifyEpisode(check([{ table: 'wishlist', where: { id: 1 }, should_not_exist: true }]), admitted)).ok).toBe(true);
    expect((await verifyEpisode(check([{ table: 'wishlist', where: { id: 1 } }]), admitted)).ok).toBe(false);
    // Without them, the wishlist row deleted besides the cart's is a change nobody asked for.
    const extra = await verifyEpisode(check([{ table: 'cart_items', where: { product_id: 12 }, values: { quantity: 3 } }]), { changes });
    expect(extra.ok).toBe(false);
    expect(extra.checks.at(-1)?.detail).toBe('unrequested: delete wishlist {"id":1}');
    expect((await verifyEpisode({}, {})).ok).toBe(true);
  });
});
