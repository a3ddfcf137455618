/**
 * The fake MiniWeb's request pipeline, in the order of Flask's hooks in `app/__init__.py`: the signed session
 * cookie is read (a bad signature reads as an empty session); under `/sites/<site>/` the site's own login is
 * swapped into `user_id` (`_uid_<site>`, `null` when logged out there) and a visitor with none is logged in as
 * user 1; the route answers; an HTML page under `/sites/` gets the recorder; the request is logged under the
 * session's `_data_overlay_sid` as it stands at the end; the site's login is saved back; and a modified session is
 * sent as a new cookie. With two workers, requests alternate between two sets of in-memory stores.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { cookieFromHeader, Session, sessionCookieHeader, verifySession } from './cookie';
import type { MiniwebDb } from './db';
import { injectRecorder } from './html';
import { errorPage, readBody, redirect, type Router, type Ctx, type ParsedBody, type Reply, type SessionDataApi } from './http';
import { localIsoNow } from './pyjson';
import { WorkerStore, type LogEntry } from './stores';

/** One request the server answered (any path). */
export interface ServedRequest {
  readonly method: string;
  /** The decoded path, without the query. */
  readonly path: string;
  readonly status: number;
}

/** What the pipeline serves with. */
export interface AppOptions {
  readonly db: MiniwebDb;
  readonly router: Router;
  /** The key that signs the session cookie. */
  readonly secret: string;
  /** Worker processes simulated (each with its own in-memory stores). */
  readonly workers: number;
  /** Log every `/sites/` visitor in as user 1 (MiniWeb's default; `MINIWEB_NO_AUTOLOGIN=1` turns it off). */
  readonly autologin: boolean;
}

/** The session-bound `db` calls: the first one makes the session's `_data_overlay_sid`, as `_get_session_id` does. */
function sessionData(db: MiniwebDb, session: Session): SessionDataApi {
  const sid = (): string => {
    const current = session.get('_data_overlay_sid');
    if (typeof current === 'string' && current) return current;
    const made = randomUUID().slice(0, 12);
    session.set('_data_overlay_sid', made);
    return made;
  };
  return {
    sid,
    query: (site, collection, opts) => db.query(sid(), site, collection, opts),
    getItem: (site, collection, id) => db.getItem(sid(), site, collection, id),
    saveItem: (site, collection, id, data) => db.saveItem(sid(), site, collection, id, data),
    deleteItem: (site, collection, id) => db.deleteItem(sid(), site, collection, id),
    saveCollection: (site, collection, items) => db.saveCollection(sid(), site, collection, items),
    nextId: (site, collection) => db.nextId(sid(), site, collection),
  };
}

/** `_site_of`: the `<site>` of `/sites/<site>/...`. */
function siteOf(path: string): string | null {
  const parts = path.split('/');
  return parts[1] === 'sites' && parts[2] ? parts[2] : null;
}

/** `_load_site_session` then `_auto_login`. */
function loadSiteSession(session: Session, site: string, autologin: boolean): void {
  const key = `_uid_${site}`;
  if (session.has(key)) {
    const uid = session.get(key);
    if (uid === null || uid === undefined) session.pop('user_id');
    else session.set('user_id', uid);
  } else session.pop('user_id');
  if (autologin && !session.get('_no_autologin') && !session.has(key) && !session.has('user_id')) session.set('user_id', 1);
}

function decodePath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Python's truthiness of a parsed JSON body (`{}`, `[]`, `0`, `""` and `false` are falsy). */
function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (v && typeof v === 'object') return Object.keys(v).length > 0;
  return Boolean(v);
}

function logEntry(ctx: Ctx, body: ParsedBody, reply: Reply, query: URLSearchParams, startedAt: number): LogEntry {
  const entry: Record<string, unknown> = { method: ctx.method, path: ctx.path, query: Object.fromEntries([...new Set(query.keys())].map((k) => [k, query.get(k)!])), status: reply.status, timestamp: localIsoNow() };
  if (['POST', 'PUT', 'DELETE'].includes(ctx.method)) {
    if (truthy(body.json)) entry.body = body.json;
    else if (body.form.size) entry.body = Object.fromEntries([...body.form].map(([k, v]) => [k, v.length > 1 ? [...v] : v[0]]));
  }
  if (ctx.path.includes('/api/') && reply.contentType === 'application/json') {
    try {
      if (reply.body.length < 500) entry.response = JSON.parse(reply.body) as unknown;
      else entry.response_preview = `${reply.body.slice(0, 200)}...`;
    } catch {
      // not JSON after all: MiniWeb logs no response
    }
  }
  entry.duration_ms = Math.round(performance.now() - startedAt);
  return entry as unknown as LogEntry;
}

/** The server's request handler and the list of requests it answered. */
export function createApp(options: AppOptions): { handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>; requests: ServedRequest[] } {
  const workers = Array.from({ length: Math.max(1, options.workers) }, () => new WorkerStore());
  const requests: ServedRequest[] = [];
  let turn = 0;
  let anonymous = 0;

  const dispatch = async (ctx: Ctx, origin: string, search: string): Promise<Reply> => {
    // werkzeug answers HEAD with the GET route
    const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
    const found = options.router.find(method, ctx.path);
    if (found === 404 && !ctx.path.endsWith('/') && typeof options.router.find(method, `${ctx.path}/`) === 'object') return redirect(`${origin}${ctx.path}/${search}`, 308);
    if (found === 404 || found === 405) return errorPage(found);
    return found.route.handle({ ...ctx, params: found.params });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const worker = workers[turn++ % workers.length]!;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = decodePath(url.pathname);
    const method = req.method ?? 'GET';
    const body = await readBody(req);
    const cookie = cookieFromHeader(req.headers.cookie);
    const session = new Session(cookie ? verifySession(cookie, options.secret) : null);
    const throwaway = `_request_${++anonymous}`;
    const ctx: Ctx = {
      method,
      path,
      query: url.searchParams,
      json: body.json,
      form: body.form,
      session,
      data: sessionData(options.db, session),
      db: options.db,
      worker,
      params: {},
      logKey: () => {
        const sid = session.get('_data_overlay_sid');
        return typeof sid === 'string' && sid ? sid : throwaway;
      },
      field: (name) => (body.form.get(name)?.[0] ?? '').trim(),
    };
    const site = siteOf(path);
    if (site) loadSiteSession(session, site, options.autologin);
    const startedAt = performance.now();
    let reply: Reply;
    try {
      // werkzeug's slash redirect names the whole URL
      reply = await dispatch(ctx, `http://${req.headers.host ?? '127.0.0.1'}`, url.search);
    } catch {
      reply = errorPage(500);
    }
    if (path.startsWith('/sites/')) {
      if (reply.status === 200 && reply.contentType.includes('text/html')) reply = { ...reply, body: injectRecorder(reply.body) };
      worker.push('logs', ctx.logKey(), logEntry(ctx, body, reply, url.searchParams, startedAt));
    }
    if (site) session.set(`_uid_${site}`, session.get('user_id') ?? null);
    const headers: Record<string, string | number> = { 'Content-Type': reply.contentType, 'Content-Length': Buffer.byteLength(reply.body), ...reply.headers };
    if (session.modified) {
      headers['Set-Cookie'] = sessionCookieHeader(session, options.secret);
      headers.Vary = 'Cookie';
    }
    res.writeHead(reply.status, headers);
    res.end(method === 'HEAD' ? undefined : reply.body);
    requests.push({ method, path, status: reply.status });
  };
  return { handle, requests };
}
