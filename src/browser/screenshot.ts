/**
 * The step's screenshot through CDP (`Page.captureScreenshot`) on a session kept per page, instead of
 * `page.screenshot()`. Playwright's screenshot makes four more round trips (hide the caret, wait for fonts, read
 * the layout, restore) and encodes a slow PNG; here the caret is hidden by the page's init script and the fonts are
 * awaited by the observation's page script, and the PNG is encoded for speed. The decoded pixels are the same
 * (test/browser-screenshot.test.ts); only the PNG's compression differs.
 * @module
 */
import type { CDPSession, Page } from 'playwright-core';
import { within } from './page-util';

const sessions = new WeakMap<Page, Promise<CDPSession>>();

/**
 * A CSS rule for the init script: the text caret is never drawn, as `page.screenshot()` hides it (it blinks, so a
 * shown caret would make two screenshots of one page differ).
 */
export const HIDE_CARET_CSS = 'input,textarea,[contenteditable]{caret-color:transparent!important}';

/** A PNG of the page's viewport (1280x800 at scale 1), within `timeoutMs`. */
export async function captureViewport(page: Page, timeoutMs: number): Promise<Buffer> {
  const session = await sessionOf(page);
  try {
    const shot = session.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true, captureBeyondViewport: false, fromSurface: true });
    const { data } = await within(shot, timeoutMs, () => new Error(`the screenshot took longer than ${timeoutMs} ms`));
    return Buffer.from(data, 'base64');
  } catch (error) {
    // A session that broke (its target swapped or closed) is made anew next time.
    sessions.delete(page);
    throw error;
  }
}

function sessionOf(page: Page): Promise<CDPSession> {
  let session = sessions.get(page);
  if (!session) {
    session = page.context().newCDPSession(page);
    sessions.set(page, session);
    session.catch(() => sessions.delete(page));
  }
  return session;
}
