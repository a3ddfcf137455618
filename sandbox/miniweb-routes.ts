/**
 * MiniWeb's routes on the sandbox: the caller's session chosen by its `session` cookie (MiniWeb's, signed) or the
 * sandbox's own `sandbox_session`, `/_admin/log` in MiniWeb's format, the recorder's (empty) streams,
 * `/_admin/data/<site>/<collection>` (which starts a session, as MiniWeb's first data read does), `/_reset_data`, and
 * `/_admin/database`, where the sandbox says which file holds its data as MiniWeb's database.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import type { LogEntry } from 'miniweb-taskgen';
import type { SiteCatalog } from './catalog';
import { tableRows } from './database';
import { parseCookies } from './http';
import { MINIWEB_SESSION_COOKIE, sessionCookieValue, sessionOfCookie, type OverlayFile } from './miniweb-protocol';
import { SESSION_COOKIE, type Session, type SessionStore } from './sessions';

/** What the routes need of the server. */
export interface MiniwebContext {
  readonly catalog: SiteCatalog;
  readonly sessions: SessionStore;
  readonly overlay: OverlayFile;
  /** The key the server signs its `session` cookies with. */
  readonly key: Buffer;
}

/** A route's answer: JSON, and the cookies to set. */
export interface MiniwebReply {
  readonly status: number;
  readonly json: unknown;
  readonly cookies: string[];
}

/** The caller's session (its cookie's), or `undefined`. */
export function sessionOf(req: IncomingMessage, ctx: MiniwebContext): Session | undefined {
  const cookies = parseCookies(req.headers.cookie);
  const sid = cookies[MINIWEB_SESSION_COOKIE] ? sessionOfCookie(cookies[MINIWEB_SESSION_COOKIE], ctx.key) : null;
  return (sid ? ctx.sessions.get(sid) : undefined) ?? (cookies[SESSION_COOKIE] ? ctx.sessions.get(cookies[SESSION_COOKIE]) : undefined);
}

/** A new session and the cookies that join it: MiniWeb's `session`, and the sandbox's own. */
export function newSession(ctx: MiniwebContext): { session: Session; cookies: string[] } {
  const session = ctx.sessions.create();
  return {
    session,
    cookies: [
      `${MINIWEB_SESSION_COOKIE}=${sessionCookieValue(session.id, ctx.key)}; Path=/; HttpOnly; SameSite=Lax`,
      `${SESSION_COOKIE}=${session.id}; Path=/; HttpOnly; SameSite=Lax`,
    ],
  };
}

const CLEARED = [`${MINIWEB_SESSION_COOKIE}=; Path=/; Max-Age=0`, `${SESSION_COOKIE}=; Path=/; Max-Age=0`];

/** MiniWeb's answer for `method path`, or `null` when the path is none of its routes. */
export function miniwebRoute(req: IncomingMessage, url: URL, ctx: MiniwebContext): MiniwebReply | null {
  const method = (req.method ?? 'GET').toUpperCase();
  const path = url.pathname;
  const ok = (json: unknown, cookies: string[] = []): MiniwebReply => ({ status: 200, json, cookies });
  if (path === '/_reset_data' && (method === 'GET' || method === 'POST')) {
    const session = sessionOf(req, ctx);
    if (session) {
      ctx.overlay.reset(session.id);
      ctx.sessions.delete(session.id);
    }
    return ok({ status: 'reset', cleared_sid: session?.id ?? '' }, CLEARED);
  }
  if (path === '/_admin/database' && method === 'GET') return ok({ path: ctx.overlay.path });
  if ((path === '/_admin/log' || path === '/_admin/record' || path === '/_admin/beacon') && method === 'GET') {
    const entries = path === '/_admin/log' ? (sessionOf(req, ctx)?.log ?? []).filter((e) => String(e.path).startsWith('/sites/')).map(miniwebEntry) : [];
    return ok({ count: entries.length, entries });
  }
  if (path === '/_admin/log/clear' && method === 'POST') {
    const session = sessionOf(req, ctx);
    if (session) session.log.length = 0;
    return ok({ status: 'cleared' });
  }
  const data = /^\/_admin\/data\/([^/]+)\/([^/]+)$/.exec(path);
  if (data && method === 'GET') {
    const found = sessionOf(req, ctx);
    const { session, cookies } = found ? { session: found, cookies: [] } : newSession(ctx);
    const site = ctx.catalog.site(decodeURIComponent(data[1]!));
    if (site) ctx.overlay.register(site);
    ctx.overlay.touch(session.id);
    const rows = site ? tableRows(session.db(site), decodeURIComponent(data[2]!)) : undefined;
    return rows ? ok(rows, cookies) : { status: 404, json: { error: 'no such collection' }, cookies };
  }
  return null;
}

// A sandbox log entry as MiniWeb's log gives it: `body` only when the request had one.
function miniwebEntry(e: LogEntry): Record<string, unknown> {
  return { method: e.method, path: e.path, query: e.query, status: e.status, ...(e.body === null || e.body === undefined ? {} : { body: e.body }) };
}
