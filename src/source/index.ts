/** Site sources: where sitemaps, pages and the split come from. @module */
export type * from './types';
export * from './errors';
export * from './sitemap';
export * from './memory';
export * from './miniweb';
