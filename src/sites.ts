/**
 * Sites and context: where sitemaps, pages and the split come from (`src/sites/`), each site's context for the
 * proposer (`src/sites/context.ts`), and mapping any website into a MiniWeb sitemap (`src/sites/crawl.ts`; on
 * MiniWeb in a session of its own, reset at its end: `src/sites/crawl-session.ts`).
 * @module
 */
export type { SiteSource } from './sites/types';
export { miniwebSource, type MiniwebSourceOptions } from './sites/miniweb';
export { memorySource, type MemorySourceOptions } from './sites/memory';
export { PageDecodeError, PageFetchError, PageNotFoundError } from './sites/errors';
export { checkSitemap, parseSitemap } from './sites/sitemap';
export { siteContext, visibleText, type SiteContext, type SiteContextOptions } from './sites/context';
export { crawlSite, type CrawlOptions, type CrawlEvent } from './sites/crawl';
export { miniwebCrawlSession } from './sites/crawl-session';
