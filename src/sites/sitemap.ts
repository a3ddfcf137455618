/** Reading a sitemap as the seed reads it, for every site source. @module */
import { parseJsonText, parseWith } from '../core/io';
import { SitemapSchema, type Sitemap } from '../core/schemas';

/**
 * Parses a sitemap's JSON text as Python's `json.loads` does and validates it with {@link SitemapSchema}. The value
 * returned is the parsed one, not zod's rebuilt copy: dict-shaped controls keep the file's key order (integer-like
 * keys included, see `pyEntries`) and `10.0` stays a float, as `site_context` needs them.
 * A sitemap without `pages` or `controls` throws an `InputError` naming `file` and the field.
 */
export function parseSitemap(text: string, file: string): Sitemap {
  const value = parseJsonText(text, { file });
  return checkSitemap(value, file);
}

/** Validates an already parsed sitemap and returns it unchanged (see {@link parseSitemap}). */
export function checkSitemap(value: unknown, file: string): Sitemap {
  parseWith(SitemapSchema, value, { file });
  return value as Sitemap;
}
