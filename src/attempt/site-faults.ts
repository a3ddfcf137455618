/**
 * Watches an episode's browser for its site's server failing (a refused or dropped connection, a 5xx page): what
 * the agent sees then is an outage, not the site, so the episode is not recorded (the caller throws). Also names a
 * server that stopped answering a request made from Node (the evidence endpoint, a stand-in that replays on the site),
 * where `fetch` says only `TypeError: fetch failed`.
 * @module
 */
import type { Page, Request, Response } from 'playwright-core';
import type { Listeners } from '../browser/page-util';

// Chromium's network errors that mean the server is down or dropped the connection; a request the harness blocked
// (`ERR_BLOCKED_BY_CLIENT`) or the page cancelled (`ERR_ABORTED`) is not one.
const SERVER_DOWN = /net::ERR_(CONNECTION_(REFUSED|RESET|CLOSED|FAILED|TIMED_OUT)|EMPTY_RESPONSE|ADDRESS_UNREACHABLE|TIMED_OUT|INCOMPLETE_CHUNKED_ENCODING)\b/;

/** The first failure of the site's server seen by an episode's pages; `null` while there is none. */
export interface SiteFaults {
  readonly first: string | null;
}

/** Starts watching the requests of `page`'s context to `origin`, its listeners added through `listeners`. */
export function watchSiteFaults(page: Page, origin: string, listeners: Listeners): SiteFaults {
  const faults: { first: string | null } = { first: null };
  const note = (text: string) => {
    faults.first ??= text;
  };
  const context = page.context();
  listeners.on(context, 'requestfailed', (request: Request) => {
    const text = request.failure()?.errorText ?? '';
    if (SERVER_DOWN.test(text) && sameOrigin(request.url(), origin)) note(`${text} on ${request.method()} ${request.url().slice(0, 200)}`);
  });
  // A page of the site that the server could not make (5xx); a failed fetch of a page is the page's own business.
  listeners.on(context, 'response', (response: Response) => {
    const request = response.request();
    if (response.status() >= 500 && request.isNavigationRequest() && sameOrigin(response.url(), origin)) {
      note(`HTTP ${response.status()} on ${request.method()} ${response.url().slice(0, 200)}`);
    }
  });
  return faults;
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

// Node's socket errors that mean the server is gone or unreachable (undici gives them as a failed fetch's cause).
const NOT_ANSWERING = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_CLOSED']);

/** A server that stopped answering, as a failed request from Node tells it. */
export interface ServerDown {
  /** Where: `127.0.0.1:8000`; `null` when the error does not say. */
  readonly at: string | null;
  /** The error's code: `ECONNREFUSED`, `ECONNRESET`, `UND_ERR_SOCKET`... */
  readonly code: string;
}

/** The server that stopped answering, when `error` (or a cause of it) is a refused, reset or unreachable connection; `null` for any other error. */
export function serverDownIn(error: unknown): ServerDown | null {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    const { code, address, port } = e as Error & { code?: unknown; address?: unknown; port?: unknown };
    if (typeof code !== 'string' || !NOT_ANSWERING.has(code)) continue;
    return { at: typeof address === 'string' ? `${address}${typeof port === 'number' ? `:${port}` : ''}` : null, code };
  }
  return null;
}

/**
 * The server that stopped answering, when `error` (or a cause of it) is a refused, reset or unreachable connection:
 * `the server at 127.0.0.1:8000 does not answer (ECONNREFUSED)`; `null` for any other error.
 */
export function serverDownOf(error: unknown): string | null {
  const down = serverDownIn(error);
  return down && `the server${down.at === null ? '' : ` at ${down.at}`} does not answer (${down.code})`;
}

/**
 * What to do when the server at `down.at` stopped answering while the harness worked on `during` (`evidence`,
 * `start page`...), the server named as the site's when it is the one at `baseUrl`: the message a user reads for
 * that episode, and the hint alone.
 */
export function describeServerDown(down: ServerDown, during: string, baseUrl: string): { readonly message: string; readonly hint: string } {
  const site = new URL(baseUrl).host;
  const which = down.at === null ? 'a server' : down.at === site ? `the site server at ${down.at}` : `the server at ${down.at}`;
  const hint = `start it again (the sites' server is at ${baseUrl}), then run the same command again: finished episodes are kept`;
  return { message: `${which} stopped answering (${down.code}) during ${during}: ${hint}`, hint };
}
