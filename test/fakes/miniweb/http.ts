/**
 * The fake MiniWeb's web layer, shaped like Flask's: a request read whole (its JSON body only when the content
 * type is JSON, its form from url-encoded or multipart bodies, file parts left out), replies as Flask renders
 * them (`jsonify`: compact sorted JSON and a newline; `redirect`; the stock 404 page), and a route table.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import type { Session } from './cookie';
import type { MiniwebDb, QueryOptions, Row } from './db';
import { flaskDumps } from './pyjson';
import type { WorkerStore } from './stores';

/** A parsed request form: each field's values in order (`request.form.getlist`). */
export type Form = ReadonlyMap<string, readonly string[]>;

/** An answer, before the server adds the session cookie. */
export interface Reply {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The session-bound data calls a page makes (`db.query`... with the session's `_data_overlay_sid`). */
export interface SessionDataApi {
  /** The session's overlay id, made (and put in the cookie) on first use, as `_get_session_id` does. */
  sid(): string;
  query(site: string, collection: string, opts?: QueryOptions): Row[];
  getItem(site: string, collection: string, id: unknown): Row | null;
  saveItem(site: string, collection: string, id: unknown, data: Row): void;
  deleteItem(site: string, collection: string, id: unknown): void;
  saveCollection(site: string, collection: string, items: readonly Row[]): void;
  nextId(site: string, collection: string): number;
}

/** One request as a handler sees it. */
export interface Ctx {
  readonly method: string;
  /** The decoded path, as Flask's `request.path`. */
  readonly path: string;
  /** The query string's values. */
  readonly query: URLSearchParams;
  /** `request.get_json(silent=True)`: the parsed body of a JSON request, else `undefined`. */
  readonly json: unknown;
  /** `request.form`: url-encoded or multipart text fields. */
  readonly form: Form;
  readonly session: Session;
  readonly data: SessionDataApi;
  readonly db: MiniwebDb;
  /** The in-memory stores of the worker serving this request. */
  readonly worker: WorkerStore;
  /** The session's key in those stores: its `_data_overlay_sid`, else a key of this request only. */
  logKey(): string;
  /** Route parameters (`:id`). */
  readonly params: Readonly<Record<string, string>>;
  /** The first value of a form field, trimmed, `''` when absent. */
  field(name: string): string;
}

/** A route: method, a path with `:name` segments, and its handler. */
export interface Route {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly handle: (ctx: Ctx) => Reply | Promise<Reply>;
}

/** `text/html` answer. */
export function html(body: string, status = 200): Reply {
  return { status, contentType: 'text/html; charset=utf-8', body };
}

/** `jsonify(value)`: compact, sorted keys, ASCII only, a trailing newline. */
export function json(value: unknown, status = 200): Reply {
  return { status, contentType: 'application/json', body: `${flaskDumps(value)}\n` };
}

/** `return "", 204`. */
export function noContent(): Reply {
  return { status: 204, contentType: 'text/html; charset=utf-8', body: '' };
}

/** werkzeug's `iri_to_uri` of a `Location`: an empty query or fragment dropped, spaces and non-ASCII escaped. */
function locationUri(location: string): string {
  const trimmed = location.replace(/\?(#?)$/, '$1').replace(/#$/, '').replace(/\?(?=#)/, '');
  return trimmed.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
}

/** Flask's `redirect(location)`: 302 with its small HTML body. */
export function redirect(target: string, status = 302): Reply {
  const location = locationUri(target);
  const safe = location.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const body = `<!doctype html>\n<html lang=en>\n<title>Redirecting...</title>\n<h1>Redirecting...</h1>\n<p>You should be redirected automatically to the target URL: <a href="${safe}">${safe}</a>. If not, click the link.\n`;
  return { status, contentType: 'text/html; charset=utf-8', body, headers: { Location: location } };
}

/** Werkzeug's stock error pages (404, 405, 500). */
export function errorPage(status: 404 | 405 | 500): Reply {
  const [title, text] =
    status === 404
      ? ['Not Found', 'The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.']
      : status === 405
        ? ['Method Not Allowed', 'The method is not allowed for the requested URL.']
        : ['Internal Server Error', 'The server encountered an internal error and was unable to complete your request. Either the server is overloaded or there is an error in the application.'];
  return html(`<!doctype html>\n<html lang=en>\n<title>${status} ${title}</title>\n<h1>${title}</h1>\n<p>${text}</p>\n`, status);
}

/** A body as Flask reads it. */
export interface ParsedBody {
  readonly json: unknown;
  readonly form: Form;
}

/** Reads a request body: JSON when the content type says so (bad JSON reads as none), else its form fields. */
export async function readBody(req: IncomingMessage): Promise<ParsedBody> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const type = String(req.headers['content-type'] ?? '');
  const mime = type.split(';')[0]!.trim().toLowerCase();
  const form = new Map<string, string[]>();
  const add = (k: string, v: string): void => void (form.get(k) ?? form.set(k, []).get(k)!).push(v);
  if (mime === 'application/json' || (mime.startsWith('application/') && mime.endsWith('+json'))) {
    try {
      return { json: JSON.parse(raw.toString('utf8')) as unknown, form };
    } catch {
      return { json: undefined, form };
    }
  }
  if (mime === 'application/x-www-form-urlencoded') {
    for (const [k, v] of new URLSearchParams(raw.toString('utf8'))) add(k, v);
  } else if (mime === 'multipart/form-data' && raw.length) {
    try {
      const fd = await new Response(raw, { headers: { 'content-type': type } }).formData();
      // werkzeug puts a part with a filename (even an empty one) in request.files, never in request.form
      fd.forEach((v, k) => {
        if (typeof v === 'string') add(k, v);
      });
    } catch {
      // a broken multipart body reads as no form, as werkzeug's parser gives up
    }
  }
  return { json: undefined, form };
}

interface Compiled {
  readonly route: Route;
  readonly pattern: RegExp;
  readonly names: readonly string[];
}

/** Routes by method and path; a known path with another method is a 405, as werkzeug answers. */
export class Router {
  private readonly compiled: Compiled[] = [];

  /** Adds routes. */
  add(routes: readonly Route[]): this {
    for (const route of routes) {
      const names: string[] = [];
      const source = route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, (_m, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      this.compiled.push({ route, pattern: new RegExp(`^${source}$`), names });
    }
    return this;
  }

  /** The route for a request and its parameters, or the status of the miss. */
  find(method: string, path: string): { route: Route; params: Record<string, string> } | 404 | 405 {
    let pathKnown = false;
    for (const c of this.compiled) {
      const m = c.pattern.exec(path);
      if (!m) continue;
      pathKnown = true;
      if (c.route.method !== method) continue;
      return { route: c.route, params: Object.fromEntries(c.names.map((n, i) => [n, m[i + 1]!])) };
    }
    return pathKnown ? 405 : 404;
  }
}
