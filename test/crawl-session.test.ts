/**
 * `crawlSite` as a careful browser: on the fake MiniWeb it never requests a logout link, stays logged in from its
 * first page to its last, and resets its own session at the end (`miniwebCrawlSession`), even when aborted; on a
 * tiny site, the link rule (path, query, text, aria-label, title) and redirects followed by hand with each hop's
 * cookies; the link rule and the cookie jar alone.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlSite, miniwebCrawlSession, type CrawlEvent } from '../src/index';
import { CookieJar } from '../src/sites/crawl-cookies';
import { refusedLink } from '../src/sites/crawl-links';
import { loggedOutSites } from '../src/sites/crawl-session';
import { startFakeMiniweb, type FakeMiniweb } from './fakes/miniweb';

/** What one request of the crawl sent and got. */
interface Seen {
  readonly path: string;
  readonly cookie: string;
  readonly status: number;
  readonly text: string;
}

/** A fetch that records every request's path, sent cookie, status and HTML body. */
function recording(): { fetch: typeof globalThis.fetch; seen: Seen[] } {
  const seen: Seen[] = [];
  const wrapped: typeof globalThis.fetch = async (input, init) => {
    const response = await fetch(input, init);
    const text = (response.headers.get('content-type') ?? '').includes('html') ? await response.clone().text() : '';
    seen.push({ path: new URL(String(input)).pathname, cookie: new Headers(init?.headers).get('cookie') ?? '', status: response.status, text });
    return response;
  };
  return { fetch: wrapped, seen };
}

/** The value of the `session` cookie in a `Cookie` header. */
const sessionCookie = (header: string): string => /(?:^|;\s*)session=([^;]*)/.exec(header)?.[1] ?? '';

let fake: FakeMiniweb;
beforeAll(async () => {
  fake = await startFakeMiniweb();
});
afterAll(() => fake.close());

/** A crawl of a fake MiniWeb site in a session of its own, reset at its end; its requests, events and last cookie. */
async function crawlFake(site: string, extra: Partial<Parameters<typeof crawlSite>[0]> = {}) {
  const { fetch: recorded, seen } = recording();
  const events: CrawlEvent[] = [];
  const ends: string[] = [];
  const reset = miniwebCrawlSession({ baseUrl: fake.url });
  const before = fake.requests.length;
  const run = crawlSite({
    baseUrl: fake.url,
    home: `/sites/${site}/`,
    fetch: recorded,
    onEvent: (e) => events.push(e),
    session: {
      end: async (cookie) => {
        ends.push(cookie);
        await reset.end?.(cookie);
      },
    },
    ...extra,
  });
  return { run, seen, events, ends, served: () => fake.requests.slice(before) };
}

describe('crawlSite on the fake MiniWeb', () => {
  it('maps forums logged in, never requests its logout, and resets its own session at the end', async () => {
    const { run, seen, events, ends, served } = await crawlFake('forums');
    const sitemap = await run;
    expect(served().some((r) => r.path.includes('logout'))).toBe(false);
    expect(events.filter((e) => e.type === 'skip')).toEqual([{ type: 'skip', path: '/sites/forums/logout', reason: 'path has "logout"' }]);
    expect(sitemap.pages.map((p) => p.path)).toEqual(expect.arrayContaining(['/sites/forums/', '/sites/forums/submit', '/sites/forums/messages', '/sites/forums/post/1']));
    expect(sitemap.name).toBe('ForumHub');
    // every page was fetched logged in, all in one session: the cookie of the first answer, kept to the end
    const pages = seen.filter((s) => s.status === 200 && s.text);
    expect(pages.length).toBe(sitemap.pages.length);
    for (const page of pages) expect(page.text, page.path).toContain('Logged in as u/user1');
    expect(seen[0]?.cookie).toBe('');
    const sids = new Set(seen.slice(1).map((s) => fake.sessionOf(sessionCookie(s.cookie))?._data_overlay_sid));
    expect(sids.size).toBe(1);
    const sid = String([...sids][0]);
    expect(sid).toHaveLength(12); // 12 characters of a uuid4, as MiniWeb names a session
    expect(ends).toHaveLength(1);
    expect(fake.sessionOf(sessionCookie(ends[0] ?? ''))?._data_overlay_sid).toBe(sid);
    expect(loggedOutSites(ends[0] ?? '')).toEqual([]);
    // the messages GET wrote (read: 1) in the crawl's session; the reset at the end dropped it
    expect(served().at(-1)).toEqual({ method: 'POST', path: '/_reset_data', status: 200 });
    expect(fake.overlayRows(sid)).toEqual([]);
  });

  it('leaves the written session when no session end is given (what the reset above cleans)', async () => {
    const { fetch: recorded, seen } = recording();
    await crawlSite({ baseUrl: fake.url, home: '/sites/forums/', fetch: recorded });
    const sid = fake.sessionOf(sessionCookie(seen.at(-1)?.cookie ?? ''))?._data_overlay_sid;
    expect(fake.overlayRows(String(sid)).map((r) => `${r.site}/${r.collection}`)).toContain('forums/messages');
  });

  it('maps banking without ever signing out: no page asks to sign in', async () => {
    const { run, seen, events, ends, served } = await crawlFake('banking');
    const sitemap = await run;
    expect(served().filter((r) => r.path === '/sites/banking/logout')).toEqual([]);
    expect(events).toContainEqual({ type: 'skip', path: '/sites/banking/logout', reason: 'path has "logout"' });
    expect(sitemap.pages.map((p) => p.path)).toEqual(expect.arrayContaining(['/sites/banking/', '/sites/banking/accounts', '/sites/banking/transfer']));
    const pages = seen.filter((s) => s.status === 200 && s.text);
    expect(pages.length).toBe(sitemap.pages.length);
    for (const page of pages) {
      expect(page.text, page.path).not.toContain('Please sign in');
      expect(page.text, page.path).toContain('Sign out'); // the logged-in top bar
    }
    expect(loggedOutSites(ends[0] ?? '')).toEqual([]);
  });

  it("keeps the cookie a redirect sets: the hop after MiniWeb's slash redirect is in the same, logged-in session", async () => {
    const { run, seen } = await crawlFake('forums', { home: '/sites/forums', maxPages: 1 });
    const sitemap = await run;
    expect(seen.map((s) => [s.path, s.status])).toEqual([['/sites/forums', 308], ['/sites/forums/', 200]]);
    expect(seen[0]?.cookie).toBe('');
    expect(fake.sessionOf(sessionCookie(seen[1]?.cookie ?? ''))?._uid_forums).toBe(1);
    expect(seen[1]?.text).toContain('Logged in as');
    expect(sitemap.pages).toEqual([{ path: '/sites/forums/', title: 'ForumHub' }]);
  });

  it('ends and resets the session when the crawl is aborted', async () => {
    const stop = new AbortController();
    const { run, ends, served } = await crawlFake('forums', {
      signal: stop.signal,
      onEvent: (e) => {
        if (e.type === 'page' && e.path === '/sites/forums/messages') stop.abort(new Error('stop now'));
      },
    });
    await expect(run).rejects.toThrow('stop now');
    expect(ends).toHaveLength(1);
    const sid = fake.sessionOf(sessionCookie(ends[0] ?? ''))?._data_overlay_sid;
    expect(typeof sid).toBe('string');
    expect(served().at(-1)).toEqual({ method: 'POST', path: '/_reset_data', status: 200 });
    expect(fake.overlayRows(String(sid))).toEqual([]);
  });
});

// A tiny site for what the fake lacks: a login set by a redirect chain, a cookie deleted, destructive links.
const TINY_HOME = `<html><head><title>Tiny home</title></head><body>
  <a href="/app/items">Items</a> <a href="/app/items/1/delete">Zap</a> <a href="/app/items/2">Remove item</a>
  <a href="/app/bye" aria-label="Sign out">⏻</a> <a href="/app/x" title="Reset everything">x</a>
  <a href="/app/do?action=log_out">Do</a> <a href="/app/cleared-items">Cleared items</a> <a href="/app/help">Close</a>
  <a href="/app/deleteAccount">Account</a> <a href="/app/_admin/log">Log</a> <a href="/app/away">Away</a>
  <a href="/app/loop/0">Loop</a> <a href="/app/outside">Outside</a> <a href="/app/sneaky">Sneaky</a></body></html>`;

let tiny: Server;
let tinyUrl: string;
let resetReply = '';
const tinyRequests: Array<{ path: string; cookie: string }> = [];
beforeAll(async () => {
  tiny = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const cookie = req.headers.cookie ?? '';
    tinyRequests.push({ path: url.pathname + url.search, cookie });
    const redirect = (location: string, setCookie: string | string[] = []): void => void res.writeHead(302, { location, 'set-cookie': setCookie }).end();
    const loop = /^\/app\/loop\/(\d+)$/.exec(url.pathname);
    if (url.pathname === '/_reset_data') return void res.writeHead(200, { 'content-type': 'application/json' }).end(resetReply);
    // the first visit logs in through two redirects; the login cookie is set on the first hop only
    if (url.pathname === '/app/' && !cookie.includes('auth=')) return redirect('/app/login/callback', ['auth=ok; Path=/app', 'tmp=1; Path=/']);
    if (url.pathname === '/app/login/callback') return redirect('/app/', 'tmp=; Path=/; Max-Age=0');
    if (loop) return redirect(`/app/loop/${Number(loop[1]) + 1}`);
    if (url.pathname === '/app/away') return redirect('http://127.0.0.2:9/app/');
    if (url.pathname === '/app/outside') return redirect('/elsewhere');
    if (url.pathname === '/app/sneaky') return redirect('/app/logout');
    const body = url.pathname === '/app/' ? TINY_HOME : `<title>Tiny ${url.pathname}</title>`;
    res.writeHead(200, { 'content-type': 'text/html' }).end(body);
  });
  await new Promise<void>((r) => tiny.listen(0, '127.0.0.1', r));
  tinyUrl = `http://127.0.0.1:${(tiny.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => tiny.close(() => r())));

describe('crawlSite on a tiny site', () => {
  it('refuses links that log out or destroy, by path, query, text, aria-label and title, as whole tokens', async () => {
    tinyRequests.length = 0;
    const events: CrawlEvent[] = [];
    const sitemap = await crawlSite({ baseUrl: tinyUrl, home: '/app/', onEvent: (e) => events.push(e) });
    const skips = Object.fromEntries(events.filter((e) => e.type === 'skip').map((e) => [e.path, e.reason]));
    expect(skips).toEqual({
      '/app/items/1/delete': 'path has "delete"',
      '/app/items/2': 'text has "remove"',
      '/app/bye': 'aria-label has "sign out"',
      '/app/x': 'title has "reset"',
      '/app/do?action=log_out': 'query has "log out"',
      '/app/deleteAccount': 'path has "delete"',
      '/app/_admin/log': 'path has "_admin", a route that is not a page',
      '/app/logout': 'path has "logout" (a redirect from /app/sneaky)',
    });
    const asked = tinyRequests.map((r) => r.path);
    for (const path of ['/app/items/1/delete', '/app/items/2', '/app/bye', '/app/x', '/app/do', '/app/deleteAccount', '/app/_admin/log', '/app/logout']) {
      expect(asked.some((p) => p.startsWith(path)), path).toBe(false);
    }
    expect(sitemap.pages.map((p) => p.path)).toEqual(['/app/', '/app/items', '/app/cleared-items', '/app/help']);
  });

  it("applies each hop's Set-Cookie before the next, and follows redirects only under the home, at most 10 hops", async () => {
    tinyRequests.length = 0;
    const events: CrawlEvent[] = [];
    const ends: string[] = [];
    const sitemap = await crawlSite({ baseUrl: tinyUrl, home: '/app/', onEvent: (e) => events.push(e), session: { end: async (c) => void ends.push(c) } });
    expect(tinyRequests.slice(0, 3)).toEqual([
      { path: '/app/', cookie: '' },
      { path: '/app/login/callback', cookie: 'auth=ok; tmp=1' },
      { path: '/app/', cookie: 'auth=ok' },
    ]);
    expect(sitemap.pages[0]).toEqual({ path: '/app/', title: 'Tiny home' });
    expect(tinyRequests.find((r) => r.path === '/app/items')?.cookie).toBe('auth=ok');
    const fails = Object.fromEntries(events.filter((e) => e.type === 'fail').map((e) => [e.path, e.reason]));
    expect(fails).toEqual({
      '/app/away': 'redirects to another origin (http://127.0.0.2:9), not followed',
      '/app/outside': 'redirects outside /app/ (to /elsewhere), not followed',
      '/app/loop/0': 'more than 10 redirects',
    });
    expect(tinyRequests.filter((r) => r.path.startsWith('/app/loop/'))).toHaveLength(11);
    expect(tinyRequests.some((r) => r.path === '/elsewhere')).toBe(false);
    expect(ends).toEqual(['auth=ok']);
  });

  it('starts from the session cookie it is given, and ends the session when the crawl fails', async () => {
    tinyRequests.length = 0;
    const ends: string[] = [];
    const failing = crawlSite({
      baseUrl: tinyUrl,
      home: '/app/',
      session: { cookie: 'auth=ok', end: async (c) => void ends.push(c) },
      onEvent: (e) => {
        if (e.type === 'page' && e.path === '/app/items') throw new Error('handler broke');
      },
    });
    await expect(failing).rejects.toThrow('handler broke');
    expect(tinyRequests[0]).toEqual({ path: '/app/', cookie: 'auth=ok' });
    expect(ends).toEqual(['auth=ok']);
  });

  it('rejects when ending the session fails, with both errors when the crawl failed too', async () => {
    const end = async (): Promise<void> => {
      throw new Error('reset refused');
    };
    await expect(crawlSite({ baseUrl: tinyUrl, home: '/app/', maxPages: 1, session: { end } })).rejects.toThrow('reset refused');
    const broken = (): void => {
      throw new Error('handler broke');
    };
    const both = crawlSite({ baseUrl: tinyUrl, home: '/app/', session: { end }, onEvent: broken });
    await expect(both).rejects.toThrow("handler broke (and ending the crawl's session failed: reset refused)");
  });

  it('miniwebCrawlSession fails loudly unless the reset answers {"status": "reset"} for the session', async () => {
    const session = miniwebCrawlSession({ baseUrl: tinyUrl });
    for (const reply of ['<p>not JSON</p>', '{"status": "nope"}', '{"status": "reset", "cleared_sid": "someone-else"}']) {
      resetReply = reply;
      await expect(crawlSite({ baseUrl: tinyUrl, home: '/app/', maxPages: 1, session }), reply).rejects.toThrow(/MiniWeb POST \/_reset_data answered 200: did not reset/);
    }
    resetReply = '{"status": "reset", "cleared_sid": ""}';
    await expect(crawlSite({ baseUrl: tinyUrl, home: '/app/', maxPages: 1, session })).resolves.toMatchObject({ name: 'Tiny home' });
  });
});

describe('the link rule', () => {
  const judge = (href: string, label = {}) => refusedLink(new URL(href, 'http://h/sites/clear-sky/'), '/sites/clear-sky/', label);
  it('refuses whole tokens of the path below the home, the query and the label, case-insensitively', () => {
    for (const href of ['log-out', 'log_out', 'LogOut', 'sign-out', 'signout', 'a/b.delete', 'deleteAccount', 'close-account', 'x?action=logout',
      'x?reset=1', '_admin/log', '_reset_data', 'api/posts', 'unsubscribe', 'session/destroy']) {
      expect(judge(href), href).not.toBeNull();
    }
    expect(judge('x', { text: 'Sign Out' })).toBe('text has "sign out"');
    expect(judge('x', { title: 'Clear history' })).toBe('title has "clear"');
    for (const href of ['', 'deleted-items', 'removals', 'cancel', 'close', 'logs', 'apis', 'signing', 'x?page=2']) {
      expect(judge(href), href).toBeNull();
    }
    expect(judge('x', { text: 'Log in' })).toBeNull();
  });
});

describe('the cookie jar', () => {
  it('keeps paths, drops expired cookies, and sends longer paths first', () => {
    const jar = new CookieJar();
    jar.addHeader('a=1; b=2');
    jar.apply(['c=3; Path=/sites/x/', 'b=9; Max-Age=0; Path=/', 'd=4'], '/sites/x/page');
    expect(jar.header('/sites/x/page')).toBe('c=3; d=4; a=1');
    expect(jar.header('/sites/y/')).toBe('a=1');
    jar.apply(['a=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/'], '/');
    expect(jar.header('/sites/y/')).toBe('');
    expect(jar.header('/sites/xy')).toBe('');
  });
});
