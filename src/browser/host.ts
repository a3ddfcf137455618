/**
 * The browser: one system Chromium shared by a run (relaunched if it dies), and per episode a 1280x800 page
 * locked to the site, as fresh as a new context's: an earlier episode's page emptied and kept (page-pool.ts), or a new
 * context.
 * @module
 */
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { Listeners, sameOrigin, withTimeout } from './page-util';
import { releasePage, takeIdlePage, type PooledPage } from './page-pool';
import { PageWatch } from './page-watch';
import { COUNT_NAVIGATIONS } from './action-script';
import { HIDE_CARET_CSS } from './screenshot';
import { EVIDENCE_PREFIX, describeBoundary, outsideSite, siteBoundary } from './site-boundary';
import type { BrowserRequest } from './types';

/** The viewport of every episode, and so the size of every screenshot. */
export const VIEWPORT = Object.freeze({ width: 1280, height: 800 });

/**
 * Chromium flags that work as root in a container with no network: without the background-networking flags
 * Chromium tries to reach Google's services.
 */
export const CHROMIUM_ARGS: readonly string[] = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);

/**
 * The features Playwright (1.65) turns off with its own `--disable-features`. Chromium keeps only the last
 * `--disable-features` of its command line, so ours repeats them (test/browser-cpu.test.ts checks that the launched
 * browser's command line lost none of Playwright's).
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades', 'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay', 'MediaRouter', 'PaintHolding', 'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin', 'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch',
  'msForceBrowserSignIn', 'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Features turned off because they cost CPU the agent never sees. Headless Chromium opens a browser window per
 * context, and each window preloads its omnibox's popup, a WebUI page in a renderer process of its own: a second
 * renderer per episode, started, laid out and kept, a quarter of Chromium's CPU per step in the sizing bench.
 * And RenderDocument: with it every navigation, even within the site, builds a new frame host, widget and
 * compositor in the renderer; without it the page's are reused, about a tenth less Chromium CPU per step on the
 * headless shell (docs/past-one-machine.md), the same pixels.
 */
const CHEAPER_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup', 'RenderDocument'];

/**
 * The flags a launch passes after Playwright's defaults: {@link CHROMIUM_ARGS}, then `extra`, with every
 * `--disable-features` (Playwright's list, ours, the caller's) merged into one, since Chromium keeps only the last.
 */
export function launchArgs(extra: readonly string[] = []): string[] {
  const disabled = [...PLAYWRIGHT_DISABLED_FEATURES, ...CHEAPER_DISABLED_FEATURES];
  const args: string[] = [];
  for (const arg of [...CHROMIUM_ARGS, ...extra]) {
    if (arg.startsWith('--disable-features=')) disabled.push(...arg.slice('--disable-features='.length).split(',').filter(Boolean));
    else args.push(arg);
  }
  return [...args, `--disable-features=${[...new Set(disabled)].join(',')}`];
}

/**
 * Keeps the agent in one tab: links and forms aimed at another window open in this one, and `window.open`
 * navigates this page. A popup would race the observation that follows the action; this cannot. And hides the text
 * caret for the screenshots ({@link HIDE_CARET_CSS}), in a sheet no DOM query sees.
 */
const INIT_SCRIPT = `(() => {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(${JSON.stringify(HIDE_CARET_CSS)});
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  } catch (e) {}
  const here = (el) => { if (el && el.target && el.target !== '_self') el.target = '_self'; };
  document.addEventListener('click', (e) => here(e.target && e.target.closest ? e.target.closest('a[target],area[target]') : null), true);
  document.addEventListener('submit', (e) => here(e.target), true);
  window.open = function (url) { if (url) location.assign(url); return window; };
})();
${COUNT_NAVIGATIONS}`;

/**
 * Where Chromium is looked for when neither `executablePath` nor `CHROMIUM_PATH` names it, first found first.
 * Debian's headless shell (`apt-get install chromium-headless-shell`, Playwright's own choice for headless) draws
 * the same pixels as the full browser for about half its CPU per step: no browser window, toolbar or omnibox
 * behind each page (docs/past-one-machine.md). Its binary itself, since Debian's /usr/bin/chromium-headless-shell
 * is a script that runs it as a child without exec, so a signal to the launched process would miss the browser.
 */
const CHROMIUM_CANDIDATES = ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium'];

/** The Chromium binary a launch uses: `executablePath`, else env `CHROMIUM_PATH`, else the first installed candidate. */
export function chromiumPath(executablePath?: string): string {
  return executablePath ?? process.env.CHROMIUM_PATH ?? CHROMIUM_CANDIDATES.find((p) => existsSync(p)) ?? CHROMIUM_CANDIDATES.at(-1)!;
}

/** Options of {@link browserHost}. */
export interface BrowserOptions {
  /**
   * The Chromium binary. Default: env `CHROMIUM_PATH`, else Debian's headless shell where installed
   * (`/usr/lib/chromium/chromium-headless-shell`: the same pixels for about half the CPU), else `/usr/bin/chromium`.
   */
  readonly executablePath?: string;
  /** Extra Chromium flags, after {@link CHROMIUM_ARGS} (a `--disable-features` adds to the features turned off). */
  readonly args?: readonly string[];
  /** Called after each launch (the first and every relaunch), with the launch count. */
  readonly onLaunch?: (launches: number) => void;
  /**
   * Whether Playwright closes the browser on SIGINT, SIGTERM and SIGHUP (and exits 130 on SIGINT), before the
   * process's own handlers are done. Default false: closed under the episodes in flight, those would end as recorded
   * errors; the owner stops on signals itself (the CLI's stop, the environment server's grace period) and closes the
   * host when done, and a signal nobody handles ends the process, and Chromium, whose pipe closes, with it.
   */
  readonly closeOnSignals?: boolean;
  /**
   * Whether an episode's page is emptied and kept for the next episode (default true: as fresh as a new context's,
   * for a renderer process less per episode); false: a new context per episode, for a site that keeps state where
   * the emptying does not reach.
   */
  readonly keepPages?: boolean;
}

/** A shared browser that is launched on first use and relaunched when it has died. */
export interface BrowserHost {
  /** The live browser, launching one if there is none. */
  browser(): Promise<Browser>;
  /** How many times a browser was launched. */
  readonly launches: number;
  /** Whether episodes' pages are kept for the next episode; absent: they are ({@link BrowserOptions.keepPages}). */
  readonly keepPages?: boolean;
  /** Closes the browser. */
  close(): Promise<void>;
}

/** Whether `b` is a {@link BrowserHost} to share rather than options for a browser of one's own. */
export function isBrowserHost(b: BrowserHost | BrowserOptions | undefined): b is BrowserHost {
  return typeof (b as BrowserHost | undefined)?.browser === 'function';
}

/**
 * A shared Chromium; see {@link BrowserHost}. An episode's page outlives its episode: emptied (document, cookies,
 * storage, history, window name, mouse) and kept up to 15 s for the next episode, which finds it as a new context's
 * page would be; that saves Chromium a renderer process per episode (docs/past-one-machine.md).
 */
export function browserHost(options: BrowserOptions = {}): BrowserHost {
  let current: Promise<Browser> | null = null;
  let launches = 0;
  const launch = async (): Promise<Browser> => {
    // Loaded here, not at import: playwright-core takes about a second to load and most commands never launch.
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: chromiumPath(options.executablePath),
      args: launchArgs(options.args),
      headless: true,
      ...(options.closeOnSignals ? {} : { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false }),
    });
    launches++;
    options.onLaunch?.(launches);
    return browser;
  };
  return {
    get launches() {
      return launches;
    },
    keepPages: options.keepPages ?? true,
    async browser() {
      if (current) {
        const b = await current.catch(() => null);
        if (b?.isConnected()) return b;
      }
      const next = launch();
      current = next;
      next.catch(() => {
        if (current === next) current = null;
      });
      return next;
    },
    async close() {
      const b = current ? await current.catch(() => null) : null;
      current = null;
      await b?.close().catch(() => {});
    },
  };
}

/** One episode's browser state. */
export interface EpisodePage {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly watch: PageWatch;
  /** The site's origin, the only one the page may reach. */
  readonly origin: string;
  /** The site's path prefix on it (`/`: the whole origin). */
  readonly prefix: string;
  /** Paths outside the prefix open to the episode. */
  readonly reachable: readonly string[];
  /** Where the episode's own listeners on the page and its context go: removed when the episode ends. */
  readonly listeners: Listeners;
  /** Waits (at most `capMs`) until every started request was reported to `onRequest`. */
  flushRequests(capMs?: number): Promise<void>;
  /** Ends the episode's hold on the page: emptied and kept for the next episode (src/browser/page-pool.ts), or closed. */
  close(): Promise<void>;
}

/** Options of {@link openEpisodePage}. */
export interface EpisodePageOptions {
  /** The only origin the page may reach: `http://127.0.0.1:8000`. */
  readonly origin: string;
  /**
   * The site's path prefix (`/sites/shop/`): a navigation elsewhere on the origin is refused, as is any request to
   * the evidence API (`/_admin/`); other requests of the origin (shared styles, images) go through. Default `/`.
   */
  readonly prefix?: string;
  /** Paths outside the prefix that the server declares open to the site's episodes (`/verify-payment`). */
  readonly reachable?: readonly string[];
  /**
   * Paths outside the site that the page's own scripts may POST to (MiniWeb's recorder, `/_admin/record`): let
   * through, never as a navigation, counted in {@link PageWatch.pagePosts}.
   */
  readonly pagePosts?: readonly string[];
  /** Cookies of the episode's server session. */
  readonly cookies?: ReadonlyArray<{ readonly name: string; readonly value: string; readonly url: string }>;
  /** Called with each finished same-origin request, for browser-side evidence. */
  readonly onRequest?: (request: BrowserRequest) => void;
}

/**
 * A page for one episode, as fresh as a new context's: 1280x800, service workers off (so every request is seen), one
 * tab (new-window links open in place), every request that leaves the site aborted and reported to the page's
 * {@link PageWatch}. An emptied page kept from an earlier episode when one waits (src/browser/page-pool.ts), else a
 * new context.
 */
export async function openEpisodePage(host: BrowserHost, options: EpisodePageOptions): Promise<EpisodePage> {
  const { origin } = options;
  const browser = await host.browser();
  const keep = host.keepPages !== false;
  const slot = (keep ? await takeIdlePage(browser) : null) ?? (await newPooledPage(browser));
  slot.uses++;
  const { context, page } = slot;
  const listeners = new Listeners();
  try {
    if (options.cookies?.length) await context.addCookies(options.cookies.map((c) => ({ ...c })));
    const boundary = siteBoundary(origin, options.prefix ?? '/', options.reachable ?? []);
    const watch = new PageWatch(page, origin, describeBoundary(boundary), listeners);
    slot.episode = { boundary, watch, pagePosts: options.pagePosts ?? [] };
    slot.origin = origin;
    listeners.on(browser, 'disconnected', () => watch.markGone('the browser died'));
    const requests = options.onRequest ? requestReporter(context, origin, options.onRequest, listeners) : null;
    return {
      context,
      page,
      watch,
      origin,
      prefix: boundary.prefix,
      reachable: boundary.reachable ?? [],
      listeners,
      flushRequests: (capMs = 2000) => requests?.flush(capMs) ?? Promise.resolve(),
      async close() {
        watch.end();
        listeners.removeAll();
        if (keep) await releasePage(browser, slot);
        else await context.close().catch(() => {});
      },
    };
  } catch (error) {
    listeners.removeAll();
    await context.close().catch(() => {});
    throw error;
  }
}

// A new context and page whose route keeps each episode inside its site, the one it serves at the time: the site's
// requests (and the origin's shared styles and images, and the page's own posts to its recorder) go through, any
// other is aborted; a navigation of the page is reported to the agent, what the page fetched by itself only counted.
async function newPooledPage(browser: Browser): Promise<PooledPage> {
  const context = await browser.newContext({
    viewport: VIEWPORT,
    deviceScaleFactor: 1,
    serviceWorkers: 'block',
    acceptDownloads: false,
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  try {
    await context.addInitScript({ content: INIT_SCRIPT });
    const page = await context.newPage();
    const slot: PooledPage = { context, page, episode: null, uses: 0, origin: null, cdp: null, timer: null };
    await context.route(ANY_URL, (route) => {
      const request = route.request();
      const episode = slot.episode;
      // between episodes nothing goes out: the last document's requests are not the next episode's
      if (!episode) return route.abort('blockedbyclient').catch(() => {});
      const { origin } = episode.boundary;
      const url = request.url();
      const navigation = request.isNavigationRequest();
      const path = sameOrigin(url, origin) ? new URL(url).pathname : null;
      const shared = path !== null && !navigation && !path.startsWith(EVIDENCE_PREFIX);
      const recorder = path !== null && !navigation && request.method() === 'POST' && episode.pagePosts.includes(path);
      if (recorder) episode.watch.pagePosts++;
      if (recorder || shared || outsideSite(url, episode.boundary) === null) return route.continue().catch(() => {});
      if (navigation && mainFrameOf(request, page)) episode.watch.blocked(url, true);
      else episode.watch.blockedByPage(url);
      return route.abort('blockedbyclient').catch(() => {});
    });
    return slot;
  } catch (error) {
    await context.close().catch(() => {});
    throw error;
  }
}

const ANY_URL = /^(?:https?|wss?):/i;

// Whether a request is the main frame's (a service worker's request has no frame).
function mainFrameOf(request: Request, page: Page): boolean {
  try {
    return request.frame() === page.mainFrame();
  } catch {
    return false;
  }
}

// Reports same-origin requests in the order they started, each once it has finished or failed; a request that
// never ends is reported with status null when the episode flushes.
function requestReporter(
  context: BrowserContext,
  origin: string,
  report: (request: BrowserRequest) => void,
  listeners: Listeners,
): { flush(capMs: number): Promise<void> } {
  const open = new Map<Request, (status: number | null) => void>();
  let chain: Promise<void> = Promise.resolve();
  listeners.on(context, 'request', (r: Request) => {
    if (!sameOrigin(r.url(), origin)) return;
    const ended = new Promise<number | null>((resolve) => open.set(r, resolve));
    const entry: Omit<BrowserRequest, 'status'> = {
      method: r.method(),
      url: r.url(),
      postData: r.postData(),
      contentType: r.headers()['content-type'] ?? null,
    };
    chain = chain.then(async () => {
      const status = await ended;
      try {
        report({ ...entry, status });
      } catch {
        // a faulty evidence recorder must not stall the episode; its log is what it is
      }
    });
  });
  const end = (r: Request, status: number | null) => {
    open.get(r)?.(status);
    open.delete(r);
  };
  listeners.on(context, 'requestfinished', (r: Request) => {
    void r.response().then(
      (res) => end(r, res ? res.status() : null),
      () => end(r, null),
    );
  });
  listeners.on(context, 'requestfailed', (r: Request) => end(r, null));
  return {
    async flush(capMs) {
      await withTimeout(chain, capMs);
      for (const r of [...open.keys()]) end(r, null);
      await chain;
    },
  };
}
