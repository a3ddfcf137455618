/**
 * Runs a site request: finds the route, builds the handler's context on the session's copy of the data, and
 * runs writes in one transaction so a failing handler leaves no half-done change behind.
 * @module
 */
import { html } from './html';
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
        body: html`<p>${message}</p><p><a href="${info.home}">Back to the home page</a></p>`,
      }),
    badRequest: (message) =>
      render({
        title: 'Bad request',
        status: 400,
        body: html`<p>${message}</p><p><a href="${info.home}">Back to the home page</a></p>`,
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
      body: html`<p>This page does not accept ${req.method} requests.</p><p><a href="${site.info.home}">Back to the home page</a></p>`,
    });
    return { ...reply, allow: match.allowed.join(', ') };
  }
  const ctx = makeCtx(site, session, req, match.params);
  if (req.method === 'GET' || req.method === 'HEAD') return match.handler(ctx);
  return ctx.db.transaction(() => match.handler(ctx))();
}
