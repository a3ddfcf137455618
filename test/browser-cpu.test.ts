import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { browserHost, type BrowserHost } from '../src/index';
import { CHROMIUM_ARGS, chromiumPath, openEpisodePage } from '../src/browser/host';
import { observe } from '../src/browser/observe';
import { startSandbox, type SandboxServer } from '../sandbox/index';

// The harness launches Debian's headless shell where installed, with flags and features off that save CPU
// (src/browser/host.ts). What the model and the judge receive must not change: on every sandbox site's start page,
// with a focused field and scrolled down, the harness's observation (its screenshot's decoded pixels and its text)
// must equal what the same episode page and observation give in the same run on a plain launch of the full browser
// (/usr/bin/chromium, started by Playwright with only the container flags: the harness's launch before this work).
// test/agent-sandbox.test.ts checks the observation's screenshot against `page.screenshot()`'s.
const FULL_CHROMIUM = '/usr/bin/chromium';
const SHELL = '/usr/lib/chromium/chromium-headless-shell';

let sandbox: SandboxServer;
let host: BrowserHost;
let plain: Browser;
// the plain launch as a host, for openEpisodePage
const plainHost: BrowserHost = { browser: async () => plain, launches: 1, close: async () => {} };

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, catalog: { variants: 1, testVariants: [] } });
  host = browserHost();
  const { chromium } = await import('playwright-core');
  plain = await chromium.launch({ executablePath: FULL_CHROMIUM, args: [...CHROMIUM_ARGS], headless: true });
});
afterAll(async () => {
  await plain?.close();
  await host.close();
  await sandbox.close();
});

const pixels = async (png: Uint8Array) => {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, size: `${info.width}x${info.height}` };
};

// How two decoded images differ, for the failure message.
function changed(a: Buffer, b: Buffer): string {
  let n = 0;
  let max = 0;
  let first = -1;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = Math.abs(a[i]! - b[i]!);
    if (d) [n, max, first] = [n + 1, Math.max(max, d), first < 0 ? i : first];
  }
  return `${n} channel values differ (by at most ${max}), the first at y=${Math.floor(first / 4 / 1280)} x=${Math.floor(first / 4) % 1280}`;
}

// The same moves on a page of either browser: the start page, a field focused (when the page has one), scrolled,
// and the page its first link leads to (a navigation within the site: the frame host reused, RenderDocument off).
async function views(page: Page, shoot: (page: Page, step: number) => Promise<{ png: Uint8Array; prompt: string }>) {
  const out = new Map<string, { png: Uint8Array; prompt: string }>();
  out.set('start page', await shoot(page, 0));
  if (await page.locator('input:not([type=hidden]),textarea').first().focus({ timeout: 2000 }).then(() => true, () => false)) {
    out.set('a focused field', await shoot(page, 1));
  }
  await page.evaluate('window.scrollBy(0, 600)');
  out.set('scrolled', await shoot(page, 2));
  const link = (await page.evaluate("[...document.querySelectorAll('a[href]')].map((a) => a.href).find((h) => h.split('#')[0] !== location.href && new URL(h).pathname.startsWith('/sites/'))")) as string | undefined;
  if (link) {
    await page.goto(link, { waitUntil: 'load' });
    out.set('another page', await shoot(page, 3));
  }
  return out;
}

describe('the cheaper browser', () => {
  it("gives the plain launch's pixels and observation text", async () => {
    const sites = sandbox.catalog.sites();
    expect(sites.length).toBeGreaterThanOrEqual(2);
    const differ: string[] = [];
    let compared = 0;
    let scrolledAway = 0;
    for (const site of sites) {
      const start = `${sandbox.url}/sites/${site}/`;
      const boundary = { origin: new URL(sandbox.url).origin, prefix: `/sites/${site}/` };
      const reference = await openEpisodePage(plainHost, boundary);
      const ep = await openEpisodePage(host, boundary);
      try {
        const shoot = async (p: Page, step: number) => {
          const o = await observe(p, { step });
          return { png: o.screenshot, prompt: o.prompt };
        };
        await reference.page.goto(start, { waitUntil: 'load' });
        const theirs = await views(reference.page, shoot);
        await ep.page.goto(start, { waitUntil: 'load' });
        const ours = await views(ep.page, shoot);
        expect([...ours.keys()]).toEqual([...theirs.keys()]);
        for (const [what, mine] of ours) {
          const a = await pixels(mine.png);
          const b = await pixels(theirs.get(what)!.png);
          expect(a.size).toBe('1280x800');
          if (a.size !== b.size || !a.data.equals(b.data)) differ.push(`${site} ${what}: ${changed(a.data, b.data)}`);
          if (mine.prompt !== theirs.get(what)!.prompt) differ.push(`${site} ${what}: text`);
          compared++;
        }
        const [top, below] = [await pixels(ours.get('start page')!.png), await pixels(ours.get('scrolled')!.png)];
        if (!top.data.equals(below.data)) scrolledAway++;
      } finally {
        // ours is emptied and kept, so every site after the first is seen on a page an earlier site used
        // (src/browser/page-pool.ts); the reference's context is closed, so each reference page is a new one
        await ep.close();
        await reference.context.close();
      }
    }
    expect(differ).toEqual([]);
    expect(compared).toBeGreaterThanOrEqual(sites.length * 3);
    // the comparison sees a change on the page: a scrolled page decodes differently from its top
    expect(scrolledAway).toBeGreaterThan(0);
  });

  it('launches the headless shell where it is installed and CHROMIUM_PATH names no other', () => {
    if (process.env.CHROMIUM_PATH) expect(chromiumPath()).toBe(process.env.CHROMIUM_PATH);
    else expect(chromiumPath()).toBe(existsSync(SHELL) ? SHELL : FULL_CHROMIUM);
    expect(chromiumPath('/opt/chrome')).toBe('/opt/chrome');
  });

  it("keeps Playwright's disabled features on the full browser and opens no omnibox page per context", async () => {
    // the full browser (no chrome:// pages in the headless shell), as a user without the shell has it
    const full = browserHost({ executablePath: FULL_CHROMIUM });
    const browser = await full.browser();
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto('chrome://version');
      const line = await page.locator('#command_line').innerText();
      const lists = [...line.matchAll(/--disable-features=(\S+)/g)].map((m) => m[1]!.split(','));
      // Playwright's list and ours: Chromium keeps the last, which must hold every feature of the others
      expect(lists.length).toBeGreaterThanOrEqual(2);
      const last = new Set(lists.at(-1));
      expect(lists.flat().filter((f) => !last.has(f))).toEqual([]);
      expect(['PaintHolding', 'WebUIOmniboxPopup', 'RenderDocument'].filter((f) => !last.has(f))).toEqual([]);
      const session = await browser.newBrowserCDPSession();
      const { targetInfos } = await session.send('Target.getTargets');
      await session.detach();
      expect(targetInfos.filter((t) => t.url.includes('omnibox')).map((t) => t.url)).toEqual([]);
    } finally {
      await context.close();
      await full.close();
    }
  });
});
