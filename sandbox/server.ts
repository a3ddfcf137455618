/**
 * The sandbox server: one node:http server on 127.0.0.1 hosting every site under `/sites/<site>/`, sessions by
 * cookie (created on the first request without one, or through `/_admin/sessions`), a request log per session
 * and the admin endpoints under `/_admin/`.
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { paramsObject, safeDecode } from 'miniweb-taskgen/toolkit';
import type { LogEntry } from 'miniweb-taskgen';
import { adminRouter, type AdminReply } from './admin';
import { SiteCatalog, defaultCatalog, type CatalogOptions } from './catalog';
import { dispatchSite } from './dispatch';
import { html } from './html';
import { HttpProblem, parseBody, readBody } from './http';
import { cookieKey, OverlayFile } from './miniweb-protocol';
import { miniwebRoute, newSession, sessionOf, type MiniwebContext } from './miniweb-routes';
import { bareErrorPage } from './layout';
import { SessionStore, type Session, type SessionStoreOptions } from './sessions';
import type { Reply } from './template';

/** Options of {@link startSandbox}. */
export interface SandboxOptions {
  /** The port; `0` picks a free one. Default 8000. */
  readonly port?: number;
  /** The interface to bind. Default `127.0.0.1`. */
  readonly host?: string;
  /** The sites to serve: a catalog, or options for one. Default every bundled template. */
  readonly catalog?: SiteCatalog | CatalogOptions;
  /** Session limits. */
  readonly sessions?: SessionStoreOptions;
}

/** A running sandbox. */
export interface SandboxServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** The port it listens on (the free one picked when `0` was asked for). */
  readonly port: number;
  /** The sites it serves. */
  readonly catalog: SiteCatalog;
  /** The live sessions, each with its own copy of the sites' data. */
  readonly sessions: SessionStore;
  /** The SQLite file holding the sites' data as MiniWeb's database: base tables and each session's overlay. */
  readonly database: string;
  /** Stops the server and ends every session. */
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

function sendReply(res: ServerResponse, reply: Reply & { allow?: string }): void {
  if (reply.type === 'redirect') return send(res, reply.status, 'text/plain; charset=utf-8', `See ${reply.body}`, { location: reply.body });
  const type = reply.type === 'json' ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8';
  send(res, reply.status, type, reply.body, reply.allow ? { allow: reply.allow } : {});
}

function sendAdmin(res: ServerResponse, reply: AdminReply): void {
  if (reply.text !== undefined) return send(res, reply.status, 'text/plain; charset=utf-8', reply.text);
  send(res, reply.status, 'application/json; charset=utf-8', JSON.stringify(reply.json));
}

function indexPage(catalog: SiteCatalog): string {
  const test = new Set(catalog.split().test);
  const rows = catalog.sites().map((s) => html`<li><a href="/sites/${s}/">${s}</a>${test.has(s) ? ' (held out)' : ''}</li>`);
  return bareErrorPage(200, 'Sandbox sites', '').replace('<p></p>', html`<ul>${rows}</ul>`.value);
}

/** Starts the sandbox server. */
export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxServer> {
  const catalog = options.catalog instanceof SiteCatalog ? options.catalog : options.catalog ? new SiteCatalog(options.catalog) : defaultCatalog();
  const sessions = new SessionStore(options.sessions);
  const admin = adminRouter(catalog, sessions);
  const miniweb: MiniwebContext = { catalog, sessions, overlay: new OverlayFile(), key: cookieKey() };

  const handleSite = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    let session: Session | undefined = sessionOf(req, miniweb);
    if (!session) {
      const made = newSession(miniweb);
      session = made.session;
      res.setHeader('set-cookie', made.cookies);
    }
    const method = (req.method ?? 'GET').toUpperCase();
    const entry: LogEntry = { method, path: safeDecode(url.pathname), query: paramsObject(url.searchParams), body: null, status: 0 };
    session.log.push(entry); // logged before anything can fail, so an error never loses it
    const segments = url.pathname.split('/');
    const site = segments[1] === 'sites' && segments[2] ? catalog.site(safeDecode(segments[2])) : undefined;
    try {
      entry.body = parseBody(req.headers['content-type'], await readBody(req));
      if (url.pathname === '/' || url.pathname === '/sites' || url.pathname === '/sites/') {
        entry.status = 200;
        return send(res, 200, 'text/html; charset=utf-8', indexPage(catalog));
      }
      if (!site) {
        entry.status = 404;
        return send(res, 404, 'text/html; charset=utf-8', bareErrorPage(404, 'Page not found', 'There is no such page or site here.'));
      }
      if (segments.length === 3) {
        entry.status = 301;
        return send(res, 301, 'text/plain; charset=utf-8', 'Moved', { location: `${site.info.home}${url.search}` });
      }
      const path = `/${segments.slice(3).join('/')}`;
      const reply = dispatchSite(site, session, { method, path, query: entry.query as Record<string, string>, body: entry.body });
      entry.status = reply.status;
      sendReply(res, reply);
    } catch (error) {
      const status = error instanceof HttpProblem ? error.status : 500;
      entry.status = status;
      const message = error instanceof HttpProblem ? error.message : 'Something went wrong on our side.';
      send(res, status, 'text/html; charset=utf-8', bareErrorPage(status, status === 500 ? 'Server error' : 'Bad request', message));
    } finally {
      if (site) miniweb.overlay.write(session.id, site, session.drainChanges(site));
    }
  };

  const handleAdmin = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    await readBody(req);
    const mw = miniwebRoute(req, url, miniweb);
    if (mw) return send(res, mw.status, 'application/json; charset=utf-8', JSON.stringify(mw.json), mw.cookies.length ? { 'set-cookie': mw.cookies } : {});
    const path = url.pathname.slice('/_admin'.length) || '/';
    const match = admin.match(req.method ?? 'GET', path);
    if (match.kind === 'found') return sendAdmin(res, match.handler(match.params));
    if (match.kind === 'method') return sendAdmin(res, { status: 405, json: { error: 'method not allowed', allow: match.allowed } });
    sendAdmin(res, { status: 404, json: { error: 'no such admin endpoint' } });
  };

  const server = createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://sandbox.local');
    } catch {
      return send(res, 400, 'text/html; charset=utf-8', bareErrorPage(400, 'Bad request', 'The address is malformed.'));
    }
    const isAdmin = url.pathname === '/_admin' || url.pathname.startsWith('/_admin/') || url.pathname === '/_reset_data';
    (isAdmin ? handleAdmin(req, res, url) : handleSite(req, res, url)).catch((error: unknown) => {
      if (!res.headersSent) send(res, error instanceof HttpProblem ? error.status : 500, 'text/plain; charset=utf-8', 'error');
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 30_000;

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8000, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    catalog,
    sessions,
    database: miniweb.overlay.path,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => {
          sessions.clear();
          miniweb.overlay.close();
          if (err) reject(err);
          else resolve();
        });
        server.closeAllConnections();
      }),
  };
}
