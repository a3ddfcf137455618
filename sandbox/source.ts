/**
 * The sandbox as a {@link SiteSource}: the split from the server, sitemaps crawled from the running sites (once
 * each, then cached), pages over HTTP in one session of their own. {@link writeSitemaps} puts the sitemaps and
 * the split on disk in MiniWeb's layout, so `miniwebSource` can read the sandbox too.
 * @module
 */
import path from 'node:path';
import { crawlSite, nodeStore, assertPlainName, type Sitemap, type Split, type SiteSource } from 'miniweb-taskgen';
import { SplitSchema } from 'miniweb-taskgen/schemas';
import { createSession } from './admin-client';
import { SESSION_COOKIE } from './sessions';

/** Options of {@link sandboxSource}. */
export interface SandboxSourceOptions {
  /** The sandbox's URL, `http://127.0.0.1:8000`. */
  readonly url: string;
  /** The most pages crawled per site. Default 80. */
  readonly maxPages?: number;
  /** The fetch to use. Default the global fetch. */
  readonly fetch?: typeof globalThis.fetch;
}

/** A site source over a running sandbox. */
export function sandboxSource(options: SandboxSourceOptions): SiteSource {
  const doFetch = options.fetch ?? globalThis.fetch;
  const root = options.url.replace(/\/+$/, '');
  const sitemaps = new Map<string, Promise<Sitemap>>();
  let session: Promise<string> | undefined;
  const cookie = async (): Promise<string> => {
    session ??= createSession(root, doFetch).then((b) => `${SESSION_COOKIE}=${b.id}`);
    return session;
  };
  return {
    baseUrl: root,
    async split(): Promise<Split> {
      const r = await doFetch(`${root}/_admin/split`);
      if (!r.ok) throw new Error(`sandbox split: HTTP ${r.status}`);
      return SplitSchema.parse(await r.json());
    },
    sitemap(site: string): Promise<Sitemap> {
      assertPlainName(site, 'site');
      let cached = sitemaps.get(site);
      if (!cached) {
        cached = cookie().then((c) =>
          crawlSite({ baseUrl: root, home: `/sites/${site}/`, maxPages: options.maxPages ?? 80, fetch: doFetch, headers: { cookie: c } }),
        );
        cached.catch(() => sitemaps.delete(site)); // a failed crawl is tried again next time
        sitemaps.set(site, cached);
      }
      return cached;
    },
    async fetchPage(pagePath: string): Promise<string> {
      const url = root + (pagePath.startsWith('/') ? pagePath : `/${pagePath}`);
      const r = await doFetch(url, { redirect: 'follow', headers: { cookie: await cookie() } });
      return r.text();
    },
  };
}

/**
 * Crawls every site of the sandbox at `url` and writes `<dir>/sitemaps/<site>.json` and `<dir>/split.json`
 * (MiniWeb's layout; read it with `miniwebSource({sitemaps: '<dir>/sitemaps', split: '<dir>/split.json', baseUrl})`).
 * Resolves with the sites written.
 */
export async function writeSitemaps(options: SandboxSourceOptions & { dir: string; onSite?: (site: string) => void }): Promise<string[]> {
  const source = sandboxSource(options);
  const split = await source.split();
  const sites = [...split.train, ...split.test];
  const store = nodeStore();
  await store.mkdir(path.join(options.dir, 'sitemaps')); // an empty split still gets its sitemaps dir
  for (const site of sites) {
    const sitemap = await source.sitemap(site); // checks the name (assertPlainName) before the path below is built
    await store.writeAtomic(path.join(options.dir, 'sitemaps', `${site}.json`), `${JSON.stringify(sitemap, null, 1)}\n`);
    options.onSite?.(site);
  }
  await store.writeAtomic(path.join(options.dir, 'split.json'), `${JSON.stringify(split, null, 1)}\n`);
  return sites;
}
