/** MiniWeb's layout: a sitemap directory, a split file, and the sites served over HTTP. @module */
import path from 'node:path';
import { readJsonFile } from '../core/io';
import { assertPlainName } from '../core/names';
import { SplitSchema } from '../core/schemas';
import { nodeStore } from '../files/node';
import type { FileStore } from '../files/types';
import { PageDecodeError, PageFetchError } from './errors';
import { parseSitemap } from './sitemap';
import type { SiteSource } from './types';

/** Options of {@link miniwebSource}. */
export interface MiniwebSourceOptions {
  /** The directory of `<site>.json` sitemaps. */
  readonly sitemaps: string;
  /** The split file (`{"train": [...], "test": [...]}`); `split()` fails without one. */
  readonly split?: string;
  /** The server's origin, such as `http://127.0.0.1:8000`; page paths are appended to it. */
  readonly baseUrl: string;
  /** Where the sitemaps and split are read. Default the local disk. */
  readonly store?: FileStore;
  /** The fetch to use. Default `globalThis.fetch`. */
  readonly fetch?: typeof fetch;
  /** Milliseconds before a page fetch is abandoned. Default 30 000. */
  readonly timeoutMs?: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A {@link SiteSource} over MiniWeb's layout. Sitemaps are parsed as Python parses them and returned as parsed
 * (dict-shaped controls keep the file's key order); site names are checked with `assertPlainName` before the path
 * is built. Pages are fetched over HTTP following redirects, and the body of any status is the page's text, as
 * the seed's Flask test client gives it (UTF-8, a BOM kept, invalid UTF-8 failing with a `UnicodeDecodeError`).
 * @example
 * const source = miniwebSource({ sitemaps: 'miniweb/sitemaps', split: 'miniweb/split.json',
 *                                baseUrl: 'http://127.0.0.1:8000' });
 */
export function miniwebSource(options: MiniwebSourceOptions): SiteSource {
  const store = options.store ?? nodeStore();
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const origin = options.baseUrl.replace(/\/+$/, '');
  return {
    baseUrl: origin,
    async split() {
      if (!options.split) throw new Error('miniwebSource: no split file given (option "split")');
      return readJsonFile(store, options.split, SplitSchema);
    },
    async sitemap(site) {
      assertPlainName(site, 'site');
      const file = path.join(options.sitemaps, `${site}.json`);
      return parseSitemap(await store.readText(file), file);
    },
    async fetchPage(pagePath) {
      // Always a path on this origin: a leading '/' keeps text such as '@host' out of the URL's authority.
      const url = origin + (pagePath.startsWith('/') ? pagePath : `/${pagePath}`);
      let body: ArrayBuffer;
      try {
        const res = await fetchImpl(url, { redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) });
        body = await res.arrayBuffer();
      } catch (error) {
        const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
        throw new PageFetchError(pagePath, `GET ${url} failed: ${cause}`, { cause: error });
      }
      try {
        return utf8.decode(body);
      } catch (error) {
        throw new PageDecodeError(pagePath, { cause: error });
      }
    },
  };
}
