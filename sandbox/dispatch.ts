/**
 * Runs a site request: finds the route, builds the handler's context on the session's copy of the data, and
 * runs writes in one transaction so a failing handler leaves no half-done change behind.
 * @module
 */
import { html, type HtmlValue, type SafeHtml } from './html';
import { allValues, firstValue } from './http';
import { siteHref } from './href';
import { layout } from './layout';
import type { SiteRuntime } from './catalog';
import type { Session } from './sessions';
import type { FormFields, PageSpec, Reply, RequestCtx } from './template';

/** A site request, parsed. */
export interface SiteRequest {
  readonly method: string;
  /** Site-relative path, `/products/3`. */
  readonly path: string;
  readonly query: FormFields;
  readonly body: unknown;
}

// An error page's body: the message, then the way back home.
function errorBody(message: HtmlValue, home: string): SafeHtml {
  return html`<p>${message}</p><p><a href="${home}">Back to the home page</a></p>`;
}

function makeCtx(site: SiteRuntime, session: Session, req: SiteRequest, params: Record<string, string>): RequestCtx {
  const { info, template } = site;
  const href: RequestCtx['href'] = (path, query) => siteHref(info.base, path, query);
  const render = (page: PageSpec): Reply => {
    const searchValue = template.search && req.path === template.search.action ? firstValue(req.query, template.search.param) : '';
    const body = layout({
      site: info,
      nav: template.nav,
      search: template.search,
      searchValue,
      title: page.title,
      body: page.body,
      flashes: session.takeFlashes(site),
    });
    return { status: page.status ?? 200, type: 'html', body };
  };
  return {
    site: info,
    db: session.db(site),
    method: req.method,
    path: req.path,
    params,
    query: req.query,
    body: req.body,
    href,
    q: (name) => firstValue(req.query, name),
    field: (name) => firstValue(req.body, name),
    fields: (name) => allValues(req.body, name),
    flash: (message) => session.flash(site, message),
    render,
    redirect: (path, query) => ({ status: 303, type: 'redirect', body: href(path, query) }),
    json: (data, status = 200) => ({ status, type: 'json', body: JSON.stringify(data) }),
    notFound: (message = 'We could not find that page.') =>
      render({
        title: 'Page not found',
        status: 404,
        body: errorBody(message, info.home),
      }),
    badRequest: (message) =>
      render({
        title: 'Bad request',
        status: 400,
        body: errorBody(message, info.home),
      }),
  };
}

/** Handles one request of a session on a site. Handler errors propagate (the server answers 500). */
export function dispatchSite(site: SiteRuntime, session: Session, req: SiteRequest): Reply & { allow?: string } {
  const match = site.router.match(req.method, req.path);
  if (match.kind === 'none') return makeCtx(site, session, req, {}).notFound();
  if (match.kind === 'method') {
    const ctx = makeCtx(site, session, req, {});
    const reply = ctx.render({
      title: 'Method not allowed',
      status: 405,
      body: errorBody(`This page does not accept ${req.method} requests.`, site.info.home),
    });
    return { ...reply, allow: match.allowed.join(', ') };
  }
  const ctx = makeCtx(site, session, req, match.params);
  if (req.method === 'GET' || req.method === 'HEAD') return match.handler(ctx);
  return ctx.db.transaction(() => match.handler(ctx))();
}
