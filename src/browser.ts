/**
 * The browser harness (DESIGN.md §5): Chromium through playwright-core, one context per episode, the page's
 * observation, the actions, the site boundary and the episode recorder. Internals live in `src/browser/`.
 * @module
 */
export { browserHost, type BrowserHost, type BrowserOptions } from './browser/host';
export type { BrowserRequest } from './browser/types';
export { OutsideSiteError } from './browser/site-boundary';
