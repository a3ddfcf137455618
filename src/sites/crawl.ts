/**
 * A sitemap for any website, by crawling it: GET-only breadth-first search over same-site links under the home
 * path, recording each HTML page (path, title) and its controls (form fields, selects with their options, radio
 * groups, buttons) with the names the agent harness gives them. Nothing but GET requests is ever sent, and
 * links with a query string are not followed (they are views of a page already listed), so crawling changes
 * nothing on the site and ends.
 * @module
 */
import type { Sitemap, SitemapControl, SitemapPage } from '../core/schemas';
import type { HTMLElement } from 'node-html-parser';
import { collapse, parseHtml, pageTitle, scanElements, type StaticElement } from './elements';

export { pageElements, type StaticElement, type StaticOption } from './elements';

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
  /** Extra request headers (a session cookie...). */
  readonly headers?: Record<string, string>;
  /** Stops the crawl: the fetch in flight and the call reject. */
  readonly signal?: AbortSignal;
}

const ASSET = /\.(css|js|mjs|png|jpe?g|gif|svg|ico|webp|woff2?|ttf|pdf|zip|json|xml|txt)$/i;

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

function under(home: string): string {
  return home.endsWith('/') ? home : `${home}/`;
}

/** Crawls a site from its home page and returns its sitemap. Pages that fail or are not HTML are skipped. */
export async function crawlSite(options: CrawlOptions): Promise<Sitemap> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const origin = new URL(options.baseUrl).origin;
  const home = new URL(options.home, origin).pathname;
  const prefix = under(home);
  const maxPages = options.maxPages ?? 80;
  const cookies = new Map<string, string>();
  const pages: SitemapPage[] = [];
  const controls: SitemapControl[] = [];
  const queued = new Set<string>([home]);
  const queue: string[] = [home];
  let name: string | null = null;
  let fetched = 0;

  while (queue.length && fetched < maxPages) {
    const path = queue.shift() as string;
    fetched++;
    const cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let response: Response;
    try {
      response = await doFetch(origin + path, {
        method: 'GET',
        redirect: 'follow',
        headers: { accept: 'text/html', ...options.headers, ...(cookie ? { cookie } : {}) },
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      continue;
    }
    for (const c of response.headers.getSetCookie?.() ?? []) {
      const pair = c.split(';')[0] ?? '';
      const i = pair.indexOf('=');
      if (i > 0) cookies.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim());
    }
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !type.includes('html')) {
      await response.body?.cancel();
      continue;
    }
    const html = await response.text();
    const finalUrl = new URL(response.url || origin + path);
    const pagePath = finalUrl.origin === origin ? finalUrl.pathname : path;
    if (pagePath !== path && pages.some((p) => p.path === pagePath)) continue;
    const root = parseHtml(html);
    if (path === home) {
      name = collapse(root.querySelector('meta[name="application-name"]')?.getAttribute('content') ?? '') || pageTitle(root) || null;
    }
    pages.push({ path: pagePath, title: pageTitle(root) });
    controls.push(...controlsOf(root, pagePath));
    for (const a of root.querySelectorAll('a[href]')) {
      let target: URL;
      try {
        target = new URL(a.getAttribute('href') ?? '', finalUrl);
      } catch {
        continue;
      }
      if (target.origin !== origin || target.search || ASSET.test(target.pathname)) continue;
      const next = target.pathname;
      if (next !== home && !next.startsWith(prefix)) continue;
      if (!queued.has(next)) {
        queued.add(next);
        queue.push(next);
      }
    }
  }
  return { name, pages, controls };
}
