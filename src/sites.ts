/**
 * Sites and context: where sitemaps, pages and the split come from (`src/source/`), each site's context for the
 * proposer (`src/context.ts`), and mapping any website into a MiniWeb sitemap (`src/crawl.ts`).
 * @module
 */
export type { SiteSource } from './source/types';
export { miniwebSource, type MiniwebSourceOptions } from './source/miniweb';
export { memorySource, type MemorySourceOptions } from './source/memory';
export { PageDecodeError, PageFetchError, PageNotFoundError } from './source/errors';
export { checkSitemap, parseSitemap } from './source/sitemap';
export { siteContext, visibleText, type SiteContext, type SiteContextOptions } from './context';
export { crawlSite, type CrawlOptions } from './crawl';
