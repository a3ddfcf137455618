/**
 * Issue 12, the site boundary: an episode's browser stays inside its site (origin and `/sites/<site>/`), never
 * another site of the same server, the evidence API or a local file, whether by a link, a `goto` or a redirect; a
 * task or a sitemap page outside the site is refused before anything moves. A small server on 127.0.0.1, one
 * Chromium.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError, OutsideSiteError, runAttempt, browserHost, fakeLLM, memorySource, runPropose, scriptedPolicy, type BrowserHost, type Task } from '../src/index';
import { runCli } from './helpers/cli';
import { tempDir } from './helpers/runs';

const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
let server: Server;
let baseUrl: string;
const served: string[] = [];
let host: BrowserHost;

beforeAll(async () => {
  server = createServer((req, res) => {
    served.push(req.url!);
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (req.url === '/sites/shop/') {
      return html(page('Shop', '<h1>Shop</h1><a href="/sites/bank/">Bank</a> <a href="/_admin/log">Admin</a> <a href="/sites/shop/leave">Leave</a> <a href="/sites/shop/cart">Cart</a>'));
    }
    if (req.url === '/sites/shop/cart') return html(page('Cart', '<h1>Your cart is empty</h1><a href="/sites/shop/">Home</a>'));
    if (req.url === '/sites/shop/leave') return res.writeHead(302, { location: '/sites/bank/' }).end();
    if (req.url?.startsWith('/sites/bank/')) return html(page('Bank', '<h1>BANK SECRET 4242</h1>'));
    if (req.url?.startsWith('/_admin/')) return res.writeHead(200, { 'content-type': 'application/json' }).end('{"secret": "ADMIN SECRET"}');
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  host = browserHost();
});
afterAll(async () => {
  await host.close();
  await new Promise((resolve) => server.close(resolve));
});

const task = (id: string, start_path: string): Task => ({
  kind: 'proposed', task_id: id, site: 'shop', sites: ['shop'], macro: 'proposed', macros: [],
  instruction: 'look around the shop', start_path, task_kind: 'info', verifier: null,
});

describe('site boundary', () => {
  it('refuses a task that starts outside its site, naming the task and start_path, before anything is written', async () => {
    const out = path.join(await tempDir('rel-boundary-'), 'run');
    const cases: Array<[string, string]> = [
      ['file:///etc/passwd', 'file: is not http(s)'],
      ['/sites/bank/', '/sites/bank/ is outside /sites/shop/'],
      ['/_admin/log', 'the evidence API is not part of the site'],
      ['/sites/shop/../bank/', '/sites/bank/ is outside /sites/shop/'],
      ['http://example.com/sites/shop/', 'http://example.com is another server'],
    ];
    for (const [start, reason] of cases) {
      const error = await runAttempt({
        tasks: [task('tg-shop-ok', '/sites/shop/'), task('tg-shop-evil', start)],
        policy: scriptedPolicy([]), source: { baseUrl }, out, browser: host,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OutsideSiteError);
      expect((error as Error).message).toBe(`task tg-shop-evil: start_path: ${JSON.stringify(start)} is outside the site ${baseUrl}/sites/shop/ (${reason}): refused`);
      expect(existsSync(out)).toBe(false);
    }
  });

  it('taskgen attempt refuses it too, through --site-prefix as well, and writes nothing', async () => {
    const dir = await tempDir('rel-boundary-');
    const tasks = path.join(dir, 'tasks.jsonl');
    await fs.writeFile(tasks, `${JSON.stringify(task('tg-shop-evil', '/sites/shop/'))}\n`);
    const r = await runCli(['attempt', '--tasks', tasks, '--out', path.join(dir, 'run'), '--base-url', baseUrl, '--policy', 'oracle', '--site-prefix', '/shops/{site}/']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`task tg-shop-evil: start_path: "/sites/shop/" is outside the site ${baseUrl}/shops/shop/ (/sites/shop/ is outside /shops/shop/): refused`);
    expect(existsSync(path.join(dir, 'run'))).toBe(false);
  });

  it('keeps the agent inside: links, gotos and redirects out are blocked and shown to it; nothing of them is recorded', async () => {
    const out = path.join(await tempDir('rel-boundary-'), 'run');
    const before = served.length;
    const summary = await runAttempt({
      tasks: [task('tg-shop-walk', '/sites/shop/')],
      policy: scriptedPolicy([
        { click: { index: 1 } }, // another site of the server
        { click: { index: 2 } }, // the evidence API
        { click: { index: 3 } }, // a redirect to another site
        { goto: { path: '/sites/bank/' } },
        { goto: { path: '/_admin/log' } },
        { goto: { path: 'file:///etc/passwd' } },
        { click: { index: 4 } }, // inside: goes through
        { done: {} },
      ]),
      source: { baseUrl }, out, browser: host,
    });
    expect(summary.recorded).toBe(1);
    const dir = path.join(out, 'tg-shop-walk');
    const texts = await Promise.all(['grade_inputs.json', 'episode.json', 'rows/rows.jsonl'].map((f) => fs.readFile(path.join(dir, f), 'utf8')));
    for (const text of texts) {
      expect(text).not.toContain('BANK SECRET');
      expect(text).not.toContain('ADMIN SECRET');
      expect(text).not.toContain('root:');
    }
    const rows = texts[2]!;
    const scope = `only ${baseUrl}/sites/shop/ is allowed`;
    expect(rows).toContain(JSON.stringify(`blocked navigation to ${baseUrl}/sites/bank/: ${scope}`).slice(1, -1));
    expect(rows).toContain(JSON.stringify(`blocked navigation to ${baseUrl}/_admin/log: ${scope}`).slice(1, -1));
    for (const p of ['/sites/bank/', '/_admin/log', 'file:///etc/passwd']) {
      expect(rows).toContain(JSON.stringify(`goto ${JSON.stringify(p)} blocked: ${scope}`).slice(1, -1));
    }
    expect(texts[0]).toContain('Your cart is empty'); // the inside click went through
    const requests = served.slice(before);
    expect(requests).not.toContain('/_admin/log');
    expect(requests.filter((u) => u === '/sites/bank/').length).toBeLessThanOrEqual(1); // only the redirect's, never shown
  });

  it('refuses a sitemap whose page is outside the site before any model call', async () => {
    const out = path.join(await tempDir('rel-boundary-'), 'tasks.jsonl');
    for (const [pages, field, shown] of [
      [[{ path: 'file:///etc/passwd' }], 'pages.0.path', '"file:///etc/passwd" is outside the site /sites/shop/ (file: is not http(s))'],
      [[{ path: '/sites/shop/' }, { path: '/_admin/log' }], 'pages.1.path', '"/_admin/log" is outside the site /sites/shop/ (the evidence API is not part of the site)'],
    ] as const) {
      const llm = fakeLLM({ replies: () => '{"tasks": []}' });
      const source = memorySource({ sitemaps: { shop: { pages: [...pages], controls: [] } }, pages: {} });
      const error = await runPropose({ sites: ['shop'], source, llm, out }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as Error).message).toBe(`sitemap of shop: ${field}: ${shown}: refused`);
      expect(llm.calls).toHaveLength(0);
    }
  });
});
