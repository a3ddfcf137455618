/**
 * A crawl session on MiniWeb: a GET can write there (`GET /sites/forums/messages` marks the inbox read, an overlay
 * row of the session), so a crawl runs in a session of its own (it starts with no cookie: MiniWeb makes a new
 * session for it) and ends by resetting it with `POST /_reset_data`, which drops the session's overlay rows, request
 * log and beacons. `crawlSite` stays generic; this is the `session` a caller gives it for MiniWeb.
 * @module
 */
import { MiniwebRouteError, call } from '../miniweb/admin';
import { MINIWEB_COOKIE, decodeSessionCookie, overlaySessionId } from '../miniweb/cookie';
import type { CrawlOptions } from './crawl';

/** The value of cookie `name` in a `Cookie` header, `null` when it has none. */
function cookieValue(header: string, name: string): string | null {
  for (const pair of header.split(';')) {
    const i = pair.indexOf('=');
    if (i > 0 && pair.slice(0, i).trim() === name) return pair.slice(i + 1).trim() || null;
  }
  return null;
}

/**
 * The `session` for `crawlSite` on MiniWeb: it starts with no cookie (a session of the crawl's own) and its `end`
 * resets that session with `POST /_reset_data`, sending the crawl's last cookie. The reset fails loudly (a
 * `MiniwebRouteError` naming the route) unless the server answers `{"status": "reset"}` for the very session the
 * cookie names (`cleared_sid`; `""` when the crawl never touched the data).
 * @example
 * const sitemap = await crawlSite({ baseUrl, home: '/sites/forums/', session: miniwebCrawlSession({ baseUrl }) });
 */
export function miniwebCrawlSession(options: {
  /** The MiniWeb server's origin, `http://127.0.0.1:8000`. */
  readonly baseUrl: string;
  /** The fetch to use. Default the global fetch. */
  readonly fetch?: typeof globalThis.fetch;
  /** Milliseconds before the reset is abandoned. Default 30 000. */
  readonly timeoutMs?: number;
}): NonNullable<CrawlOptions['session']> {
  const client = { root: new URL(options.baseUrl).origin, fetch: options.fetch ?? globalThis.fetch, timeoutMs: options.timeoutMs ?? 30_000 };
  return {
    async end(cookieHeader) {
      const cookie = cookieValue(cookieHeader, MINIWEB_COOKIE);
      const sid = cookie ? (overlaySessionId(cookie) ?? '') : '';
      const got = await call(client, cookie ? { cookie, sid } : null, { method: 'POST', path: '/_reset_data' });
      const reply = got.json as { status?: unknown; cleared_sid?: unknown } | null;
      if (reply?.status !== 'reset' || (reply.cleared_sid ?? '') !== sid) {
        const which = sid ? `session ${sid}` : 'the session';
        throw new MiniwebRouteError('POST /_reset_data', got.status, `did not reset ${which} of the crawl: ${JSON.stringify(reply)?.slice(0, 120)}`);
      }
    },
  };
}

/**
 * The sites a MiniWeb session cookie says are logged out (`_uid_<site>` set to `null`: the session visited the site
 * and was logged out of it, or never logged in where auto-login is off), from a `Cookie` header; `[]` when it holds
 * no MiniWeb session.
 */
export function loggedOutSites(cookieHeader: string): string[] {
  const cookie = cookieValue(cookieHeader, MINIWEB_COOKIE);
  const data = cookie ? decodeSessionCookie(cookie) : null;
  return Object.entries(data ?? {})
    .filter(([key, value]) => key.startsWith('_uid_') && value === null)
    .map(([key]) => key.slice('_uid_'.length))
    .sort();
}
