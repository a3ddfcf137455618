import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHost, type BrowserHost } from '../src/index';
import { openEpisodePage, type EpisodePage } from '../src/browser/host';
import { idlePageCount } from '../src/browser/page-pool';
import { captureViewport } from '../src/browser/screenshot';
import { startFixtureSite, type FixtureSite } from './agent-fixture';

// An episode's page is emptied and kept for the next episode (src/browser/page-pool.ts): the next episode must find
// it as a new context's page would be, whatever the last one left behind.
let site: FixtureSite;
let host: BrowserHost;
// a new context per episode: the reference a kept page must equal
let other: BrowserHost;

beforeAll(async () => {
  site = await startFixtureSite();
  host = browserHost();
  other = browserHost({ keepPages: false });
});
afterAll(async () => {
  await host.close();
  await other.close();
  await site.close();
});

const HOME = () => `${site.baseUrl}/sites/shop/`;
// what a page keeps across documents; the server's own session cookie (`sid`, new per session) by name
const state = async (ep: EpisodePage) =>
  await ep.page.evaluate(`(async () => ({
    cookie: document.cookie,
    local: localStorage.length,
    session: sessionStorage.length,
    databases: (await indexedDB.databases()).map((d) => d.name),
    name: window.name,
    history: history.length,
  }))()`) as { cookie: string };
const named = async (ep: EpisodePage) => {
  const s = await state(ep);
  return { ...s, cookie: s.cookie.replace(/sid=\w+/, 'sid') };
};

describe('a page kept for the next episode', () => {
  it("starts the next episode as a fresh page would: storage, history, hover, the last page's requests", async () => {
    const first = await openEpisodePage(host, { origin: site.baseUrl });
    await first.page.goto(HOME());
    const plain = await captureViewport(first.page, 10_000);
    await first.page.evaluate(`document.cookie = 'left=1; path=/'; localStorage.setItem('k', 'v'); sessionStorage.setItem('k', 'v');
      window.name = 'left'; indexedDB.open('left'); setInterval(() => fetch('/sites/shop/api/products?tick=1'), 20)`);
    const link = (await first.page.locator('nav a').first().boundingBox())!;
    await first.page.mouse.move(link.x + 4, link.y + 4);
    // the hover shows: what the next episode must not inherit
    expect(Buffer.from(await captureViewport(first.page, 10_000)).equals(Buffer.from(plain))).toBe(false);
    const firstCookie = (await state(first)).cookie;
    await first.page.goto(`${HOME()}cart`);
    await first.close();
    expect(idlePageCount(await host.browser())).toBe(1);

    const heard: string[] = [];
    const second = await openEpisodePage(host, { origin: site.baseUrl, onRequest: (r) => heard.push(r.url) });
    try {
      expect(second.page).toBe(first.page);
      expect(idlePageCount(await host.browser())).toBe(0);
      const served = site.requests.length;
      await second.page.goto(HOME());
      const shot = await captureViewport(second.page, 10_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const fresh = await openEpisodePage(other, { origin: site.baseUrl });
      await fresh.page.goto(HOME());
      expect(await named(second)).toEqual(await named(fresh));
      expect(await named(second)).toMatchObject({ cookie: 'sid', local: 0, session: 0, databases: [], name: '' });
      // a session of its own: the last episode's cookie is gone
      expect((await state(second)).cookie).not.toBe(firstCookie);
      expect(Buffer.from(shot).equals(Buffer.from(await captureViewport(fresh.page, 10_000)))).toBe(true);
      // no request of the last episode's page went out once this one began, nor reached its evidence
      expect(site.requests.slice(served).filter((r) => r.url.includes('tick'))).toEqual([]);
      expect(heard.filter((u) => u.includes('tick'))).toEqual([]);
      // back from the start page leads where a fresh page's does (its first blank page), not to the last episode's
      await second.page.goBack();
      await fresh.page.goBack();
      expect(second.page.url()).toBe(fresh.page.url());
      await fresh.close();
    } finally {
      await second.close();
    }
  });

  it('is closed instead when another tab is open or it crashed', async () => {
    const browser = await host.browser();
    const popup = await openEpisodePage(host, { origin: site.baseUrl });
    await popup.page.goto(HOME());
    const before = idlePageCount(browser);
    await popup.context.newPage();
    await popup.close();
    expect(idlePageCount(browser)).toBe(before);
    expect(popup.page.isClosed()).toBe(true);

    const crashed = await openEpisodePage(host, { origin: site.baseUrl });
    await crashed.page.goto(HOME());
    await crashed.page.goto('chrome://crash').catch(() => {});
    await crashed.close();
    expect(idlePageCount(browser)).toBe(before);
    expect(crashed.page.isClosed()).toBe(true);
  });

  it('is not kept where the host says so (keepPages: false): a new context per episode', async () => {
    const ep = await openEpisodePage(other, { origin: site.baseUrl });
    await ep.page.goto(HOME());
    await ep.close();
    expect(ep.page.isClosed()).toBe(true);
    expect(idlePageCount(await other.browser())).toBe(0);
  });
});
