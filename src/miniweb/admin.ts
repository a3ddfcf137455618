/**
 * The client side of MiniWeb's own routes that an evidence session uses: a fresh session, its request log and its
 * recorder's stream, the annotator switch that turns payment codes off, and the reset. Every call carries the
 * session's cookie (it selects the session on the server), has a time limit, and fails naming the route and status.
 * @module
 */
import { MINIWEB_COOKIE, overlaySessionId } from './cookie';

/** A MiniWeb session as the evidence holds it: the cookie value and the overlay session id it names. */
export interface MiniwebSession {
  cookie: string;
  readonly sid: string;
}

/** How the admin client reaches the server. */
export interface AdminClient {
  /** The server's root, `http://127.0.0.1:8099`. */
  readonly root: string;
  readonly fetch: typeof globalThis.fetch;
  /** Each call's time limit in ms. */
  readonly timeoutMs: number;
}

/** A MiniWeb route that did not answer as it should. */
export class MiniwebRouteError extends Error {
  /** Always `MiniwebRouteError`. */
  override readonly name = 'MiniwebRouteError';
  constructor(
    /** `GET /_admin/log`. */
    readonly route: string,
    /** The status, `null` when the server did not answer. */
    readonly status: number | null,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`MiniWeb ${route}${status === null ? '' : ` answered ${status}`}: ${message}`, options);
  }
}

/** One call: the session's cookie sent, a new value of it kept, the JSON reply parsed; `expect` lists good statuses. */
export async function call(
  client: AdminClient,
  session: MiniwebSession | null,
  route: { method: 'GET' | 'POST'; path: string; body?: { form?: Record<string, string>; json?: unknown }; expect?: readonly number[] },
): Promise<{ status: number; json: unknown; cookie: string | null }> {
  const name = `${route.method} ${route.path.split('?')[0]}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (session) headers.cookie = `${MINIWEB_COOKIE}=${session.cookie}`;
  let body: string | undefined;
  if (route.body?.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(route.body.form).toString();
  } else if (route.body && 'json' in route.body) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(route.body.json);
  }
  let response: Response;
  try {
    response = await client.fetch(`${client.root}${route.path}`, {
      method: route.method,
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(client.timeoutMs),
      ...(body === undefined ? {} : { body }),
    });
  } catch (error) {
    throw new MiniwebRouteError(name, null, `${(error as Error).message}${causeOf(error)}`, { cause: error });
  }
  const text = await response.text();
  const cookie = sessionCookieOf(response);
  if (session && cookie) session.cookie = cookie;
  if (!(route.expect ?? [200]).includes(response.status)) throw new MiniwebRouteError(name, response.status, text.slice(0, 200));
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.status, json, cookie };
}

/**
 * A fresh session: MiniWeb names a session's data (`_data_overlay_sid`) on the first request that touches the data,
 * so the session is started with a read of a collection that does not exist (nothing is read, nothing logged: not a
 * `/sites/` path) and the cookie that answer sets is the episode's.
 */
export async function newSession(client: AdminClient, site: string): Promise<MiniwebSession> {
  const got = await call(client, null, { method: 'GET', path: `/_admin/data/${encodeURIComponent(site)}/_taskgen_session_`, expect: [404, 200] });
  const sid = got.cookie ? overlaySessionId(got.cookie) : null;
  if (!got.cookie || !sid) {
    throw new MiniwebRouteError('GET /_admin/data', got.status, 'set no session cookie naming a data session (_data_overlay_sid): is this MiniWeb?');
  }
  return { cookie: got.cookie, sid };
}

/** Turns payment codes off for the session through MiniWeb's annotator switch (its own login, then the toggle). */
export async function disableCodes(client: AdminClient, session: MiniwebSession, login: { username: string; password: string }): Promise<void> {
  await call(client, session, { method: 'POST', path: '/annotate/login', body: { form: login }, expect: [302, 303] }).catch((error: unknown) => {
    throw new MiniwebRouteError('POST /annotate/login', error instanceof MiniwebRouteError ? error.status : null, 'the annotator login was refused: check the credentials', { cause: error });
  });
  const got = await call(client, session, { method: 'POST', path: '/annotate/api/toggle_2fa', body: { json: { disable: true } } });
  if ((got.json as { disabled?: unknown } | null)?.disabled !== true) {
    throw new MiniwebRouteError('POST /annotate/api/toggle_2fa', got.status, 'payment codes were not turned off for the session');
  }
}

/** The `entries` of a `{count, entries}` route for the session (`/_admin/log`, `/_admin/record`, `/_admin/beacon`). */
export async function entriesOf(client: AdminClient, session: MiniwebSession, path: string): Promise<Record<string, unknown>[]> {
  const got = await call(client, session, { method: 'GET', path });
  const entries = (got.json as { entries?: unknown } | null)?.entries;
  if (!Array.isArray(entries)) throw new MiniwebRouteError(`GET ${path}`, got.status, 'no "entries" list in the reply');
  return entries.filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null);
}

/** Drops the session's data changes, log and beacons on the server (`/_reset_data`); checks it was this session. */
export async function resetSession(client: AdminClient, session: MiniwebSession): Promise<void> {
  const got = await call(client, session, { method: 'POST', path: '/_reset_data' });
  const reply = got.json as { status?: unknown; cleared_sid?: unknown } | null;
  if (reply?.status !== 'reset' || reply.cleared_sid !== session.sid) {
    throw new MiniwebRouteError('POST /_reset_data', got.status, `did not reset session ${session.sid}: ${JSON.stringify(reply)?.slice(0, 120)}`);
  }
}

// The `session` cookie a response sets, `null` when it sets none (or deletes it).
function sessionCookieOf(response: Response): string | null {
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(';')[0] ?? '';
    const i = pair.indexOf('=');
    if (i > 0 && pair.slice(0, i).trim() === MINIWEB_COOKIE) {
      const value = pair.slice(i + 1).trim();
      return value ? value : null;
    }
  }
  return null;
}

function causeOf(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof Error ? ` (${cause.message})` : '';
}
