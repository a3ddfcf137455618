/** Where sites come from: their sitemaps, their pages and the split. @module */
import type { Sitemap, Split } from '../core/schemas';

/**
 * A site source: MiniWeb's layout (a sitemap dir, a split file, a base URL), the bundled sandbox, a crawled
 * website, or data in memory.
 */
export interface SiteSource {
  /** The origin pages are served from (`http://127.0.0.1:8000`), for the browser; absent for in-memory data. */
  readonly baseUrl?: string;
  /** The split: training and held-out sites. */
  split(): Promise<Split>;
  /** A site's sitemap. Dict-shaped controls keep the file's key order (see `pyEntries`). */
  sitemap(site: string): Promise<Sitemap>;
  /**
   * A page's HTML, following redirects, whatever its status (an error page is still text the seed shows).
   * Rejects when the page cannot be fetched at all.
   */
  fetchPage(path: string): Promise<string>;
}
