/**
 * `/_admin/`: the sandbox's own endpoints (JSON), never part of a session's log: sessions and their evidence
 * (request log, data changes, a table's rows), the sites, the split, and each site's tasks.
 *
 * - `POST /_admin/sessions` → `{id, cookie: {name, value}}`: a fresh session
 * - `GET /_admin/sessions/<id>` → `{id, log, changes}`; `/log`, `/changes` alone
 * - `GET /_admin/sessions/<id>/state/<site>/<table>` → the table's rows as the session sees them
 * - `GET /_admin/sessions/<id>/state/<site>` → every table's rows as the session sees them, `{<table>: rows}`
 * - `DELETE /_admin/sessions/<id>`
 * - `GET /_admin/split`, `GET /_admin/sites`, `GET /_admin/sites/<site>/tasks` (human), `/bank`, `/consequences` (what
 *   the site does by itself as a consequence of a task's changes)
 * - `GET /_admin/ping` → `ok`
 * @module
 */
import { Router } from './router';
import { SESSION_COOKIE, type SessionStore } from './sessions';
import { allTableRows, tableRows } from './database';
import type { SiteCatalog } from './catalog';

/** An admin reply: JSON unless `text` is set. */
export interface AdminReply {
  readonly status: number;
  readonly json?: unknown;
  readonly text?: string;
}

type AdminHandler = (params: Record<string, string>) => AdminReply;

const ok = (json: unknown): AdminReply => ({ status: 200, json });
const missing = (what: string): AdminReply => ({ status: 404, json: { error: `no such ${what}` } });

/** The admin router over a catalog and a session store. */
export function adminRouter(catalog: SiteCatalog, sessions: SessionStore): Router<AdminHandler> {
  const r = new Router<AdminHandler>();
  r.get('/', () =>
    ok({
      sites: catalog.sites().length,
      sessions: sessions.size,
      endpoints: ['POST sessions', 'GET sessions/<id>', 'GET sessions/<id>/state/<site>/<table>', 'GET sessions/<id>/state/<site>', 'GET split', 'GET sites'],
    }),
  );
  r.get('/ping', () => ({ status: 200, text: 'ok' }));
  r.get('/split', () => ok(catalog.split()));
  r.get('/sites', () => {
    const test = new Set(catalog.split().test);
    return ok(
      catalog.sites().map((name) => {
        const parsed = catalog.parse(name);
        return { name, template: parsed?.template.id, variant: parsed?.variant, home: `/sites/${name}/`, split: test.has(name) ? 'test' : 'train' };
      }),
    );
  });
  r.get('/sites/:site', ({ site }) => {
    const rt = catalog.site(site ?? '');
    return rt ? ok(rt.info) : missing('site');
  });
  r.get('/sites/:site/tasks', ({ site }) => {
    const tasks = catalog.tasks(site ?? '');
    return tasks ? ok(tasks.human) : missing('site');
  });
  r.get('/sites/:site/bank', ({ site }) => {
    const tasks = catalog.tasks(site ?? '');
    return tasks ? ok(tasks.bank) : missing('site');
  });
  r.get('/sites/:site/consequences', ({ site }) => {
    const rt = catalog.site(site ?? '');
    return rt ? ok(rt.template.consequences ?? []) : missing('site');
  });
  r.post('/sessions', () => {
    const s = sessions.create();
    return { status: 201, json: { id: s.id, cookie: { name: SESSION_COOKIE, value: s.id } } };
  });
  r.get('/sessions/:id', ({ id }) => {
    const s = sessions.get(id ?? '');
    return s ? ok({ id: s.id, log: s.log, changes: s.changes }) : missing('session');
  });
  r.get('/sessions/:id/log', ({ id }) => {
    const s = sessions.get(id ?? '');
    return s ? ok(s.log) : missing('session');
  });
  r.get('/sessions/:id/changes', ({ id }) => {
    const s = sessions.get(id ?? '');
    return s ? ok(s.changes) : missing('session');
  });
  r.get('/sessions/:id/state/:site', ({ id, site }) => {
    const s = sessions.get(id ?? '');
    if (!s) return missing('session');
    const rt = catalog.site(site ?? '');
    return rt ? ok(allTableRows(s.db(rt))) : missing('site');
  });
  r.get('/sessions/:id/state/:site/:table', ({ id, site, table }) => {
    const s = sessions.get(id ?? '');
    if (!s) return missing('session');
    const rt = catalog.site(site ?? '');
    if (!rt) return missing('site');
    const rows = tableRows(s.db(rt), table ?? '');
    return rows ? ok(rows) : missing('table');
  });
  r.add('DELETE', '/sessions/:id', ({ id }) => (sessions.delete(id ?? '') ? ok({ deleted: id }) : missing('session')));
  return r;
}
