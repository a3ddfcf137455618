/** A site source over data in memory, for tests and notebooks. @module */
import { assertPlainName } from '../core/names';
import { parseWith } from '../core/io';
import { SplitSchema, type Sitemap, type Split } from '../core/schemas';
import { notFound } from '../files/types';
import { PageNotFoundError } from './errors';
import { checkSitemap, parseSitemap } from './sitemap';
import type { SiteSource } from './types';

/** Options of {@link memorySource}. */
export interface MemorySourceOptions {
  /**
   * Sitemaps by site: JSON text (parsed as Python parses it, so dict-shaped controls keep their key order) or a
   * parsed value (a JavaScript object literal puts integer-like keys first: give text when that order matters).
   */
  readonly sitemaps: Readonly<Record<string, string | Sitemap>>;
  /** Page HTML by path. A path that is not here fails with {@link PageNotFoundError}. */
  readonly pages?: Readonly<Record<string, string>> | ReadonlyMap<string, string>;
  /** The split. Default: every site of `sitemaps` for training, none held out. */
  readonly split?: Split;
}

/**
 * A {@link SiteSource} over sitemaps and pages in memory. Site names are checked with `assertPlainName`; a sitemap
 * is validated when asked for (errors name `<memory>/<site>.json` and the field).
 * @example
 * const source = memorySource({ sitemaps: { shop: '{"pages": [{"path": "/sites/shop/"}], "controls": []}' },
 *                               pages: { '/sites/shop/': '<h1>Shop</h1>' } });
 */
export function memorySource(options: MemorySourceOptions): SiteSource {
  const { sitemaps } = options;
  const pages = options.pages instanceof Map ? options.pages : new Map(Object.entries(options.pages ?? {}));
  return {
    async split() {
      const split = options.split ?? { train: Object.keys(sitemaps), test: [] };
      return parseWith(SplitSchema, split, { file: '<memory>/split.json' });
    },
    async sitemap(site) {
      assertPlainName(site, 'site');
      const file = `<memory>/${site}.json`;
      if (!Object.hasOwn(sitemaps, site)) throw notFound(file);
      const value = sitemaps[site]!;
      return typeof value === 'string' ? parseSitemap(value, file) : checkSitemap(value, file);
    },
    async fetchPage(path) {
      const html = pages.get(path);
      if (html === undefined) throw new PageNotFoundError(path);
      return html;
    },
  };
}
