/**
 * `taskgen sitemaps` end to end: on the fake MiniWeb (its portal's sites, never a logout, every session reset), and
 * on a small MiniWeb-like server on 127.0.0.1: the sites from `--sites`, a checkout's `site.json` files or the portal;
 * `<site>.json` sitemaps and `split.json` written; each site's session reset; a failing site named, with exit 1.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseSitemap } from '../src/index';
import { startFakeMiniweb } from './fakes/miniweb';
import { runCli } from './helpers/cli';

const requests: string[] = [];
const resets: string[] = [];
let sessions = 0;

const page = (title: string, body = '') => `<html><head><title>${title}</title></head><body>${body}</body></html>`;
const SITES: Record<string, Record<string, string>> = {
  alpha: { '': page('Alpha', '<a href="a">A</a> <a href="logout">Log out</a>'), a: page('Page A', '<form><input name="q" aria-label="Find"></form>') },
  beta: { '': page('Beta', '<a href="b">B</a> <a href="items/2/delete">Delete</a>'), b: page('Page B') },
};

// A Flask-like session cookie: base64url JSON, a stamp, a signature (not checked: the sid is what matters here).
function sidOf(req: IncomingMessage): string | null {
  const value = /(?:^|;\s*)session=([^.;]*)/.exec(req.headers.cookie ?? '')?.[1];
  if (!value) return null;
  const sid = (JSON.parse(Buffer.from(value, 'base64url').toString()) as { _data_overlay_sid?: string })._data_overlay_sid;
  return sid ?? null;
}
const cookieFor = (sid: string) => `session=${Buffer.from(JSON.stringify({ _data_overlay_sid: sid, user_id: 1 })).toString('base64url')}.1.sig; Path=/`;

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(`${req.method} ${url.pathname}`);
    const sid = sidOf(req) ?? `s${++sessions}`;
    if (req.method === 'POST' && url.pathname === '/_reset_data') {
      resets.push(sid);
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'reset', cleared_sid: sid }));
    }
    if (url.pathname === '/') {
      const links = ['alpha', 'beta', 'broken'].map((s) => `<a href="/sites/${s}/">${s}</a>`).join(' ');
      return res.writeHead(200, { 'content-type': 'text/html' }).end(page('Portal', `${links} <a href="/annotate/">Annotate</a>`));
    }
    const m = /^\/sites\/([^/]+)\/(.*)$/.exec(url.pathname);
    const body = m ? SITES[m[1] ?? '']?.[m[2] ?? ''] : undefined;
    if (m?.[1] === 'broken') return res.writeHead(500, { 'set-cookie': cookieFor(sid) }).end('boom');
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html', 'set-cookie': cookieFor(sid) }).end(body ?? 'not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  requests.length = 0;
  resets.length = 0;
});

const json = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

describe('taskgen sitemaps', () => {
  it('writes a sitemap per site and the split, each site in its own session, reset at its end', async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'taskgen-sitemaps-')), 'maps');
    const r = await runCli(['sitemaps', '--base-url', base, '--out', out, '--sites', 'beta,alpha', '--test', 'beta', '--no-progress']);
    expect(r.stderr).toContain('done: 2/2 sites written, 4 pages, 2 links not requested');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('alpha: 2 pages, 1 links not requested, 0 pages failed\n    not requested /sites/alpha/logout: path has "logout"');
    const alpha = parseSitemap(readFileSync(path.join(out, 'alpha.json'), 'utf8'), 'alpha.json');
    expect(alpha).toEqual({
      name: 'Alpha',
      pages: [{ path: '/sites/alpha/', title: 'Alpha' }, { path: '/sites/alpha/a', title: 'Page A' }],
      controls: [{ kind: 'text', label: 'Find', name: 'q', page: '/sites/alpha/a' }],
    });
    expect(json(path.join(out, 'split.json'))).toEqual({ train: ['alpha'], test: ['beta'] });
    expect(requests).not.toContain('GET /sites/alpha/logout');
    expect(requests).not.toContain('GET /sites/beta/items/2/delete');
    expect(resets).toHaveLength(2);
    expect(new Set(resets).size).toBe(2);
  });

  it("lists the portal's sites, and exits 1 naming a site that failed", async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'taskgen-sitemaps-'));
    const r = await runCli(['sitemaps', '--base-url', base, '--out', out, '--test-fraction', '0', '--no-progress']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('failed: broken: its home /sites/broken/ gave no page: HTTP 500');
    expect(r.stderr).toContain('1 sites have no sitemap');
    expect(json(path.join(out, 'beta.json'))).toMatchObject({ name: 'Beta' });
    expect(() => readFileSync(path.join(out, 'broken.json'))).toThrow();
    expect(json(path.join(out, 'split.json'))).toEqual({ train: ['alpha', 'beta', 'broken'], test: [] });
    expect(resets).toHaveLength(3); // the failed site's session too
  });

  it("takes the sites and their names from a MiniWeb checkout's site.json files, and draws the test sites by seed", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'taskgen-sitemaps-'));
    const sites = path.join(dir, 'sites');
    for (const [id, name] of [['alpha', 'Alpha Works'], ['beta', 'Beta Bank']] as const) {
      mkdirSync(path.join(sites, id), { recursive: true });
      writeFileSync(path.join(sites, id, 'site.json'), JSON.stringify({ id, name, description: '', tags: [] }));
    }
    mkdirSync(path.join(sites, '_template'));
    writeFileSync(path.join(sites, 'README.md'), 'not a site');
    const args = ['sitemaps', '--base-url', base, '--out', path.join(dir, 'out'), '--miniweb-sites', sites, '--test-fraction', '0.5', '--seed', '7', '--no-progress'];
    const r = await runCli(args);
    expect(r.code, r.stderr).toBe(0);
    expect(json(path.join(dir, 'out', 'alpha.json'))).toMatchObject({ name: 'Alpha Works' });
    const split = json(path.join(dir, 'out', 'split.json')) as { train: string[]; test: string[] };
    expect([...split.train, ...split.test].sort()).toEqual(['alpha', 'beta']);
    expect(split.test).toHaveLength(1);
    // An id that is not its dir's name is refused, naming the file and field.
    writeFileSync(path.join(sites, 'beta', 'site.json'), JSON.stringify({ id: '../beta', name: 'x' }));
    const bad = await runCli(args);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${path.join(sites, 'beta', 'site.json')}: id: is "../beta", not its directory's name "beta"`);
  });
});

describe('taskgen sitemaps on the fake MiniWeb', () => {
  it("maps every site its portal lists, logged in, never a logout, each session reset; a missing site named", async () => {
    const fake = await startFakeMiniweb();
    try {
      const out = mkdtempSync(path.join(tmpdir(), 'taskgen-sitemaps-'));
      const r = await runCli(['sitemaps', '--base-url', fake.url, '--out', out, '--test', 'forums', '--no-progress']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/done: 4\/4 sites written, \d+ pages, [1-9]\d* links not requested/);
      expect(json(path.join(out, 'split.json'))).toEqual({ train: ['banking', 'e-commerce', 'email'], test: ['forums'] });
      const forums = parseSitemap(readFileSync(path.join(out, 'forums.json'), 'utf8'), 'forums.json');
      expect(forums.pages.map((p) => p.path)).toEqual(expect.arrayContaining(['/sites/forums/', '/sites/forums/messages', '/sites/forums/submit']));
      expect(forums.pages.map((p) => p.path)).not.toContain('/sites/forums/login'); // still logged in: no "Log In" link
      const banking = parseSitemap(readFileSync(path.join(out, 'banking.json'), 'utf8'), 'banking.json');
      expect(banking.pages.map((p) => p.title)).not.toContain('Signed out - SecureBank Online');
      expect(fake.requests.filter((q) => q.path.includes('logout'))).toEqual([]);
      expect(fake.requests.filter((q) => q.path === '/_reset_data')).toEqual(Array(4).fill({ method: 'POST', path: '/_reset_data', status: 200 }));
      // the forums inbox GET writes (test/crawl-session.test.ts shows it): no session's rows are left at the end
      const db = new Database(fake.database, { readonly: true });
      try {
        expect(db.prepare('SELECT COUNT(*) AS n FROM session_overlay').get()).toEqual({ n: 0 });
      } finally {
        db.close();
      }
      const missing = await runCli(['sitemaps', '--base-url', fake.url, '--out', out, '--sites', 'email,nope', '--no-progress']);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('failed: nope: its home /sites/nope/ gave no page: HTTP 404');
      expect(json(path.join(out, 'email.json'))).toMatchObject({ pages: expect.any(Array) });
    } finally {
      await fake.close();
    }
  });
});
