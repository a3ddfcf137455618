/**
 * A small website for the agent tests, served on 127.0.0.1: links, a search form, a select, a checkbox form,
 * a cart kept per cookie, a JSON endpoint, a tall page, an off-site link, a popup link and a confirm dialog.
 * It logs every request it receives, so tests can compare with what the agent recorded.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Task } from '../src/core/schemas';

/** A request the fixture server received. */
export interface ServedRequest {
  method: string;
  url: string;
  /** The session cookie the request carried, or the one the server gave it. */
  sid: string;
  body: string;
}

/** A running fixture site. */
export interface FixtureSite {
  baseUrl: string;
  requests: ServedRequest[];
  close(): Promise<void>;
}

const PRODUCTS = [
  { id: 1, name: 'Blue Kettle', price: '24.00' },
  { id: 2, name: 'Red Teapot', price: '31.50' },
  { id: 3, name: 'Green Mug', price: '8.25' },
];

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title><link rel="stylesheet" href="/static/app.css"></head><body>${body}</body></html>`;

function home(): string {
  return page(
    'Fixture Shop',
    `<h1>Fixture Shop</h1>
<nav><a href="/sites/shop/">Home</a> <a href="/sites/shop/cart">Cart</a> <a href="https://example.com/elsewhere">Partner site</a>
<a href="/sites/shop/long">Long page</a> <a href="/sites/shop/popup" target="_blank">Open in new tab</a></nav>
<form action="/sites/shop/search" method="get"><input type="search" name="q" placeholder="Search products">
<input type="hidden" name="src" value="home"><button type="submit">Search</button></form>
<form action="/sites/shop/prefs" method="post">
<label>Sort by <select name="sort"><option value="price">Price</option><option value="name">Name</option></select></label>
<input type="checkbox" id="news" name="newsletter" value="yes"><label for="news">Send me the newsletter</label>
<input type="radio" name="speed" value="slow" aria-label="Slow shipping" checked><input type="radio" name="speed" value="fast" aria-label="Fast shipping">
<input type="email" name="email" title="Your email">
<textarea name="note" aria-labelledby="note-label"></textarea><span id="note-label">Gift note</span>
<input type="submit" value="Save preferences"></form>
<ul>${PRODUCTS.map((p) => `<li><a href="/sites/shop/product/${p.id}">${p.name}</a> $${p.price}</li>`).join('')}</ul>
<a href="/sites/shop/cart"><img src="/static/cart.png" alt="Cart icon"></a>
<button style="display:none">Hidden button</button><a href="/x" style="visibility:hidden">Invisible link</a>
<div role="button" tabindex="0" onclick="document.getElementById('out').textContent='div clicked'">Fancy   div
 button</div>
<details><summary>More info</summary><p>Shipping is free.</p></details>
<button onclick="if (confirm('Really clear?')) document.getElementById('out').textContent='cleared'">Clear all</button>
<button onclick="fetch('/sites/shop/api/note', {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({text: 'hi', n: 2})}).then(r => r.json()).then(j => document.getElementById('out').textContent = 'saved ' + j.id)">Save note</button>
<p id="out"></p>`,
  );
}

/** Starts the fixture site on a free port. `slowMs` delays every page (to keep episodes in flight). */
export async function startFixtureSite(options: { slowMs?: number } = {}): Promise<FixtureSite> {
  const requests: ServedRequest[] = [];
  const carts = new Map<string, string[]>();
  let nextSid = 1;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      let sid = /(?:^|;\s*)sid=([^;]+)/.exec(req.headers.cookie ?? '')?.[1] ?? null;
      if (!sid) {
        sid = `s${nextSid++}`;
        res.setHeader('set-cookie', `sid=${sid}; Path=/`);
      }
      requests.push({ method: req.method ?? 'GET', url: url.pathname + url.search, sid, body });
      const send = (status: number, type: string, text: string) => {
        const go = () => {
          res.writeHead(status, { 'content-type': type });
          res.end(text);
        };
        if (options.slowMs && type.startsWith('text/html')) setTimeout(go, options.slowMs);
        else go();
      };
      const html = (text: string, status = 200) => send(status, 'text/html; charset=utf-8', text);
      const p = url.pathname;
      if (p.startsWith('/static/')) return send(200, p.endsWith('.css') ? 'text/css' : 'image/png', p.endsWith('.css') ? 'body{font-family:sans-serif} nav a:hover{background:#fc0}' : '');
      if (p === '/sites/shop/' || p === '/sites/shop') return html(home());
      if (p === '/sites/shop/search') {
        const q = (url.searchParams.get('q') ?? '').toLowerCase();
        const hits = PRODUCTS.filter((x) => x.name.toLowerCase().includes(q));
        return html(page('Search', `<h1>Results for ${q}</h1><ul>${hits.map((x) => `<li><a href="/sites/shop/product/${x.id}">${x.name}</a></li>`).join('')}</ul>`));
      }
      const product = /^\/sites\/shop\/product\/(\d+)$/.exec(p);
      if (product) {
        const x = PRODUCTS.find((y) => y.id === Number(product[1]));
        if (!x) return html(page('Not found', '<h1>No such product</h1>'), 404);
        return html(page(x.name, `<h1>${x.name}</h1><p>Price: $${x.price}</p><form method="post" action="/sites/shop/cart"><input type="hidden" name="item" value="${x.id}"><label>Quantity <input type="number" name="qty" value="1"></label><button>Add to cart</button></form><a href="/sites/shop/">Back home</a>`));
      }
      if (p === '/sites/shop/cart') {
        const cart = carts.get(sid) ?? [];
        if (req.method === 'POST') {
          const form = new URLSearchParams(body);
          cart.push(`${form.get('item')}x${form.get('qty')}`);
          carts.set(sid, cart);
          res.writeHead(303, { location: '/sites/shop/cart' });
          return res.end();
        }
        return html(page('Cart', `<h1>Cart</h1><p>${cart.length} items: ${cart.join(', ') || 'empty'}</p><a href="/sites/shop/">Home</a>`));
      }
      if (p === '/sites/shop/prefs' && req.method === 'POST') return html(page('Saved', `<h1>Preferences saved</h1><p>${body}</p>`));
      if (p === '/sites/shop/api/note' && req.method === 'POST') return send(200, 'application/json', JSON.stringify({ id: 7 }));
      if (p === '/sites/shop/long') return html(page('Long', `<h1>Long page</h1><div style="height:3000px">top</div><p>Bottom line</p><button>Bottom button</button>`));
      if (p === '/sites/shop/popup') return html(page('Popup page', '<h1>Opened from a new tab</h1>'));
      if (p === '/sites/shop/crash-target') return html(page('Crash target', '<h1>This page will crash</h1><a href="/sites/shop/">Home</a>'));
      return html(page('Not found', '<h1>Not found</h1>'), 404);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A task on the fixture site. */
export function fixtureTask(id: string, instruction: string, extra: Partial<Task> = {}): Task {
  return {
    kind: 'proposed',
    task_id: id,
    site: 'shop',
    sites: ['shop'],
    macro: 'proposed',
    macros: [],
    instruction,
    start_path: '/sites/shop/',
    task_kind: 'action',
    verifier: null,
    ...extra,
  };
}
