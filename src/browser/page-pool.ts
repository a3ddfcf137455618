/**
 * Episode pages kept for the next episode. A fresh context per episode costs Chromium a renderer process started
 * anew (about 0.05 CPU s per step of a 6-step episode, on the sandbox at 8 in parallel: docs/past-one-machine.md),
 * work the agent never sees. So an episode's page, once the episode ends, is emptied and kept: its document
 * replaced by `about:blank` (the site's scripts stop before any cookie changes), its cookies, its origin's storage
 * (local and session storage, IndexedDB, caches) and its history cleared, its window name emptied, its garbage
 * collected, the mouse moved off the page; the next episode finds it as a fresh one would be
 * (test/browser-pool.test.ts). A page that cannot be emptied, that has another tab open, that crashed or that
 * served {@link MAX_USES} episodes is closed instead; at most {@link MAX_IDLE} wait per browser, each at most
 * {@link IDLE_MS}.
 * @module
 */
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import type { PageWatch } from './page-watch';
import type { SiteBoundary } from './site-boundary';

/** Episodes one page serves before it is closed, so no renderer lives for days. */
export const MAX_USES = 20;
/** Emptied pages kept per browser; more are closed. */
export const MAX_IDLE = 16;
/** How long an emptied page waits for an episode before it is closed. */
export const IDLE_MS = 15_000;
// Emptying a page: a bound, past which it is closed instead.
const EMPTY_MS = 5_000;

/** The episode a page serves now, which its site-boundary route reads; `null` between episodes. */
export interface PageEpisode {
  readonly boundary: SiteBoundary;
  readonly watch: PageWatch;
  /** Paths of the origin outside the site that the page's own scripts may POST to (a site's recorder). */
  readonly pagePosts: readonly string[];
}

/** A context with its one page, for one episode after another. */
export interface PooledPage {
  readonly context: BrowserContext;
  readonly page: Page;
  /** The episode using it now. */
  episode: PageEpisode | null;
  /** Episodes it has served, the current one included. */
  uses: number;
  /** The origin whose storage it must clear. */
  origin: string | null;
  cdp: CDPSession | null;
  timer: NodeJS.Timeout | null;
}

interface Pool {
  /** Emptied, waiting for an episode. */
  readonly ready: Set<PooledPage>;
  /** Being emptied: each settles once its page is ready or closed. */
  readonly emptying: Set<Promise<void>>;
}

const pools = new WeakMap<Browser, Pool>();
const poolOf = (browser: Browser): Pool => pools.get(browser) ?? pools.set(browser, { ready: new Set(), emptying: new Set() }).get(browser)!;
// How often an episode waits for a page being emptied (tens of ms) before it opens a new context instead.
const MAX_WAITS = 3;

/**
 * An emptied page of `browser` to reuse, or `null` when none waits. A page still being emptied is waited for:
 * an episode that starts as the last one ends takes that one's page rather than a new context.
 */
export async function takeIdlePage(browser: Browser): Promise<PooledPage | null> {
  const pool = pools.get(browser);
  for (let waits = 0; pool; waits++) {
    for (const slot of pool.ready) {
      pool.ready.delete(slot);
      clearTimeout(slot.timer ?? undefined);
      slot.timer = null;
      if (!slot.page.isClosed() && browser.isConnected()) return slot;
    }
    if (pool.emptying.size === 0 || waits === MAX_WAITS) break;
    await Promise.race(pool.emptying);
  }
  return null;
}

/** How many pages of `browser` serve no episode: emptied and waiting, or being emptied. */
export function idlePageCount(browser: Browser): number {
  const pool = pools.get(browser);
  return pool ? pool.ready.size + pool.emptying.size : 0;
}

/** Empties `slot`'s page after its episode and keeps it for the next, or closes its context. */
export async function releasePage(browser: Browser, slot: PooledPage): Promise<void> {
  const crashed = slot.episode?.watch.goneBecause != null;
  slot.episode = null;
  const pool = poolOf(browser);
  const keep = !crashed && browser.isConnected() && !slot.page.isClosed() && slot.uses < MAX_USES && pool.ready.size + pool.emptying.size < MAX_IDLE && slot.context.pages().length === 1;
  if (!keep) {
    await slot.context.close().catch(() => {});
    return;
  }
  const done = (async () => {
    if (!(await empty(slot))) {
      await slot.context.close().catch(() => {});
      return;
    }
    slot.timer = setTimeout(() => {
      pool.ready.delete(slot);
      void slot.context.close().catch(() => {});
    }, IDLE_MS);
    slot.timer.unref();
    pool.ready.add(slot);
  })().finally(() => pool.emptying.delete(done));
  pool.emptying.add(done);
  await done;
}

// Whether the page was emptied within EMPTY_MS.
async function empty(slot: PooledPage): Promise<boolean> {
  const work = (async () => {
    const { page, context } = slot;
    // a tab's session storage belongs to the tab: Chromium 150 no longer clears it by origin, and from about:blank
    // nothing reaches it, so the document clears its own first
    await page.evaluate(CLEAR_SESSION_STORAGE).catch(() => {});
    // then the document, so none of the site's scripts runs on with the next episode's cookies
    await page.goto('about:blank', { timeout: EMPTY_MS });
    slot.cdp ??= await context.newCDPSession(page);
    await context.clearCookies();
    if (slot.origin) await slot.cdp.send('Storage.clearDataForOrigin', { origin: slot.origin, storageTypes: 'all' });
    await slot.cdp.send('Page.resetNavigationHistory');
    await page.evaluate(RESET_WINDOW);
    // the last episode's documents are garbage in the renderer's V8 heap, which V8 leaves to grow: about 7 MiB of
    // PSS per 6-step episode without this, flat with it (docs/past-one-machine.md)
    await slot.cdp.send('HeapProfiler.collectGarbage');
    // where the mouse was, a link would show hovered on the next episode's first page; a fresh page has no position
    await slot.cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: -1, y: -1 });
    return true;
  })();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), EMPTY_MS)));
  try {
    return await Promise.race([work.catch(() => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

// What outlives a document in its tab and no storage clearing reaches: the window's name.
const RESET_WINDOW = "window.name = ''";
const CLEAR_SESSION_STORAGE = 'try { sessionStorage.clear() } catch {}';
