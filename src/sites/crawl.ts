/**
 * A sitemap for any website, by crawling it: GET-only breadth-first search over same-site links under the home
 * path, recording each HTML page (path, title) and its controls (form fields, selects with their options, radio
 * groups, buttons) with the names the agent harness gives them.
 *
 * The crawl behaves as a careful browser would, so a site it maps is left as it was found:
 * - Only GET requests are sent, and links with a query string are not followed (they are views of a page already
 *   listed), so the crawl ends.
 * - It never requests a link that logs out or destroys (`logout`, "Sign out", `/delete`, `?action=reset`...; the
 *   rule is told in `crawl-links.ts`): each such link is reported once as a `skip` event.
 * - Cookies are kept in a jar of its own and applied on every request, each redirect hop included: redirects are
 *   followed by hand, at most 10 hops, and only to the same origin under the home prefix, each response's
 *   `Set-Cookie` applied before the next hop, so a login set or kept by a redirect lasts.
 * - It runs in a session: `session.cookie` is where its jar starts, and `session.end` is called with the jar's
 *   cookies when the crawl ends, in a `finally`, even when it fails or is aborted, so a caller can reset the
 *   session's data (a GET can write on some sites: see `miniwebCrawlSession`).
 * @module
 */
import type { Sitemap, SitemapControl, SitemapPage } from '../core/schemas';
import type { HTMLElement } from 'node-html-parser';
import { CookieJar } from './crawl-cookies';
import { refusedLink } from './crawl-links';
import { collapse, parseHtml, pageTitle, scanElements, type StaticElement } from './elements';

export { pageElements, type StaticElement, type StaticOption } from './elements';

/** What {@link crawlSite} reports as it goes: a page recorded, a link it refused to request, a page that failed. */
export type CrawlEvent =
  | { readonly type: 'page'; readonly path: string; readonly title: string }
  /** A link not requested: it logs out or destroys (each target reported once), or a redirect went to one. */
  | { readonly type: 'skip'; readonly path: string; readonly reason: string }
  /** A page requested but not recorded: an HTTP error, not HTML, a network error, a redirect not followed. */
  | { readonly type: 'fail'; readonly path: string; readonly reason: string };

/** Options of {@link crawlSite}. */
export interface CrawlOptions {
  /** The site's origin, `http://127.0.0.1:8000`. */
  readonly baseUrl: string;
  /** The home page's path; only pages under it are crawled. `/sites/shop-01/` */
  readonly home: string;
  /** The most pages fetched. Default 80. */
  readonly maxPages?: number;
  /** The fetch to use (tests, proxies, auth). Default the global fetch. */
  readonly fetch?: typeof globalThis.fetch;
  /** Extra request headers. A `cookie` among them starts the jar, as `session.cookie` does. */
  readonly headers?: Record<string, string>;
  /** Stops the crawl: the fetch in flight and the call reject (`session.end` is still called). */
  readonly signal?: AbortSignal;
  /**
   * The crawl's session. `cookie`: a `Cookie` header (`session=...`) the jar starts from; default none, a session
   * of its own on a site that makes one per visitor. `end`: called once with the jar's `Cookie` header for the home
   * path (`''` when empty) when the crawl ends, however it ends; its rejection rejects the crawl.
   */
  readonly session?: { readonly cookie?: string; readonly end?: (cookieHeader: string) => Promise<void> };
  /** Called with each {@link CrawlEvent}. */
  readonly onEvent?: (event: CrawlEvent) => void;
}

const ASSET = /\.(css|js|mjs|png|jpe?g|gif|svg|ico|webp|woff2?|ttf|pdf|zip|json|xml|txt)$/i;
const MAX_REDIRECTS = 10;

function controlKind(e: StaticElement): string {
  if (e.tag === 'select') return 'select';
  if (e.tag === 'textarea') return 'textarea';
  if (e.role === 'button') return 'button';
  if (e.tag === 'input') return e.type ?? 'text';
  return e.role;
}

/**
 * The controls of a page's HTML as sitemap controls: one per field, select (with options), button, and one per
 * radio group (its legend as the label, each radio an option). Links are pages, not controls. Controls with the
 * same kind, label and name on a page are listed once.
 */
export function pageControls(html: string, page: string): SitemapControl[] {
  return controlsOf(parseHtml(html), page);
}

function controlsOf(root: HTMLElement, page: string): SitemapControl[] {
  const out: SitemapControl[] = [];
  const seen = new Set<string>();
  const radios = new Map<string, SitemapControl & { options: Array<{ text: string; value: string }> }>();
  let forms: HTMLElement[] | undefined; // the page's forms, listed at the first radio
  for (const e of scanElements(root)) {
    if (e.role === 'link') continue;
    if (e.role === 'radio') {
      const form = e.node.closest('form');
      forms ??= root.querySelectorAll('form');
      const key = `${form ? forms.indexOf(form) : -1}:${e.field ?? e.name}`;
      let group = radios.get(key);
      if (!group) {
        const legend = e.node.closest('fieldset')?.querySelector('legend');
        group = { kind: 'radio', label: collapse(legend?.text ?? '') || (e.field ?? e.name), name: e.field ?? null, page, options: [] };
        radios.set(key, group);
        out.push(group);
      }
      group.options.push({ text: e.name, value: e.value ?? '' });
      continue;
    }
    const kind = controlKind(e);
    const key = `${kind}\u0000${e.name}\u0000${e.field ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      kind,
      label: e.name,
      name: e.field ?? null,
      page,
      ...(e.options ? { options: e.options.map((o) => ({ text: o.text, value: o.value })) } : {}),
    });
  }
  return out;
}

/** `home` with a trailing `/`: the prefix every crawled path starts with. */
function under(home: string): string {
  return home.endsWith('/') ? home : `${home}/`;
}

function message(error: unknown): string {
  if (error instanceof Error) return error.cause instanceof Error ? error.cause.message : error.message;
  return String(error);
}

/**
 * Crawls a site from its home page and returns its sitemap. Pages that fail or are not HTML are left out (a `fail`
 * event each).
 *
 * A link is never requested when it logs out or destroys: when logout, log out, sign out, log off, sign off, delete,
 * remove, destroy, erase, purge, wipe, reset, clear, unsubscribe, deactivate, revoke or close account appears,
 * case-insensitively and as whole tokens, in its path below the home (segments split on `-`, `_`, `.` and
 * camelCase), its query, or the words of its visible text, `aria-label` or `title`; or when a path segment is no
 * page (`_admin`, `_reset...`, `api`). `/cleared-items`, "Close" and "Cancel" are crawled. Each refused link is a
 * `skip` event, once per target; a redirect to one is refused too.
 * @example
 * const sitemap = await crawlSite({ baseUrl: 'http://127.0.0.1:8000', home: '/sites/forums/',
 *   session: miniwebCrawlSession({ baseUrl: 'http://127.0.0.1:8000' }), onEvent: (e) => console.log(e) });
 */
export async function crawlSite(options: CrawlOptions): Promise<Sitemap> {
  const jar = new CookieJar();
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.headers ?? {})) {
    if (key.toLowerCase() === 'cookie') jar.addHeader(value);
    else headers[key] = value;
  }
  if (options.session?.cookie) jar.addHeader(options.session.cookie);
  const home = new URL(options.home, options.baseUrl).pathname;
  let result: Sitemap;
  try {
    result = await crawl(options, jar, headers);
  } catch (error) {
    await endSession(options, jar.header(home), error);
    throw error;
  }
  await endSession(options, jar.header(home));
  return result;
}

/** Calls `session.end`; when the crawl failed too, rejects with both (the crawl's error first). */
async function endSession(options: CrawlOptions, cookieHeader: string, crawlError?: unknown): Promise<void> {
  const end = options.session?.end;
  if (!end) return;
  try {
    await end(cookieHeader);
  } catch (endError) {
    if (crawlError === undefined) throw endError;
    throw new AggregateError([crawlError, endError], `${message(crawlError)} (and ending the crawl's session failed: ${message(endError)})`);
  }
}

/** A page's response after its redirects, or why there is none. */
type Fetched = { readonly response: Response; readonly url: URL } | { readonly skip: string; readonly target: string } | { readonly fail: string };

interface Crawl {
  readonly options: CrawlOptions;
  readonly jar: CookieJar;
  readonly headers: Record<string, string>;
  readonly origin: string;
  readonly prefix: string;
  /** Whether a path is the home page or under its prefix. */
  readonly within: (path: string) => boolean;
}

/** GETs a path, following same-origin redirects under the prefix by hand with the jar applied on every hop. */
async function fetchPage(c: Crawl, path: string): Promise<Fetched> {
  const doFetch = c.options.fetch ?? globalThis.fetch;
  let url = new URL(path, c.origin);
  for (let hop = 0; ; hop++) {
    const cookie = c.jar.header(url.pathname);
    const response = await doFetch(url.href, {
      method: 'GET',
      redirect: 'manual',
      headers: { accept: 'text/html', ...c.headers, ...(cookie ? { cookie } : {}) },
      ...(c.options.signal ? { signal: c.options.signal } : {}),
    });
    c.jar.apply(response.headers.getSetCookie?.() ?? [], url.pathname);
    if (response.status < 300 || response.status > 399 || response.status === 304) return { response, url };
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (!location) return { fail: `HTTP ${response.status} without a Location` };
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      return { fail: `HTTP ${response.status} to a bad Location ${JSON.stringify(location)}` };
    }
    if (next.origin !== c.origin) return { fail: `redirects to another origin (${next.origin}), not followed` };
    if (!c.within(next.pathname)) {
      return { fail: `redirects outside ${c.prefix} (to ${next.pathname}), not followed` };
    }
    const refused = refusedLink(next, c.prefix);
    if (refused) return { skip: `${refused} (a redirect from ${path})`, target: next.pathname };
    if (hop >= MAX_REDIRECTS) return { fail: `more than ${MAX_REDIRECTS} redirects` };
    url = next;
  }
}

/** The link's targets to queue from a page: same origin, under the prefix, no query, no asset, not refused. */
function linksOf(c: Crawl, root: HTMLElement, base: URL, skip: (path: string, reason: string) => void): string[] {
  const out: string[] = [];
  for (const a of root.querySelectorAll('a[href]')) {
    let target: URL;
    try {
      target = new URL(a.getAttribute('href') ?? '', base);
    } catch {
      continue;
    }
    if (target.origin !== c.origin) continue;
    const next = target.pathname;
    if (!c.within(next)) continue;
    const alts = a.querySelectorAll('img[alt]').map((img) => img.getAttribute('alt') ?? '');
    const refused = refusedLink(target, c.prefix, {
      text: collapse([a.text, ...alts].join(' ')),
      ariaLabel: a.getAttribute('aria-label'),
      title: a.getAttribute('title'),
    });
    if (refused) {
      skip(next + target.search, refused);
      continue;
    }
    if (target.search || ASSET.test(next)) continue;
    out.push(next);
  }
  return out;
}

async function crawl(options: CrawlOptions, jar: CookieJar, headers: Record<string, string>): Promise<Sitemap> {
  const origin = new URL(options.baseUrl).origin;
  const home = new URL(options.home, origin).pathname;
  const prefix = under(home);
  const c: Crawl = { options, jar, headers, origin, prefix, within: (path) => path === home || path.startsWith(prefix) };
  const emit = options.onEvent ?? (() => {});
  const maxPages = options.maxPages ?? 80;
  const pages: SitemapPage[] = [];
  const recorded = new Set<string>();
  const controls: SitemapControl[] = [];
  const queued = new Set<string>([home]);
  const queue: string[] = [home];
  const skipped = new Set<string>();
  const skip = (path: string, reason: string): void => {
    if (skipped.has(path)) return;
    skipped.add(path);
    emit({ type: 'skip', path, reason });
  };
  let name: string | null = null;
  let fetched = 0;

  while (queue.length && fetched < maxPages) {
    const path = queue.shift() as string;
    if (recorded.has(path)) continue; // reached before by a redirect
    fetched++;
    let got: Fetched;
    try {
      got = await fetchPage(c, path);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      emit({ type: 'fail', path, reason: message(error) });
      continue;
    }
    if ('skip' in got) {
      skip(got.target, got.skip);
      continue;
    }
    if ('fail' in got) {
      emit({ type: 'fail', path, reason: got.fail });
      continue;
    }
    const { response, url } = got;
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !type.includes('html')) {
      await response.body?.cancel();
      emit({ type: 'fail', path, reason: response.ok ? `not HTML (${type || 'no content type'})` : `HTTP ${response.status}` });
      continue;
    }
    const html = await response.text();
    const pagePath = url.pathname;
    if (recorded.has(pagePath)) continue;
    recorded.add(pagePath);
    queued.add(pagePath);
    const root = parseHtml(html);
    if (path === home) {
      name = collapse(root.querySelector('meta[name="application-name"]')?.getAttribute('content') ?? '') || pageTitle(root) || null;
    }
    const title = pageTitle(root);
    pages.push({ path: pagePath, title });
    emit({ type: 'page', path: pagePath, title });
    controls.push(...controlsOf(root, pagePath));
    for (const next of linksOf(c, root, url, skip)) {
      if (!queued.has(next)) {
        queued.add(next);
        queue.push(next);
      }
    }
  }
  return { name, pages, controls };
}
