/**
 * The fake MiniWeb's routes outside the sites: the admin API (`/_admin/log`, `/record`, `/beacon`, `/session`,
 * `/data/<site>/<collection>`, `/files/<site>`, `/events`), `/_reset_data`, `/_overlay_stats`, the annotator
 * login and its 2FA switch, the static files and the portal, answered as `app/__init__.py` answers them.
 * @module
 */
import { esc, RECORDER_JS, SITE_CSS } from './html';
import { errorPage, html, json, noContent, redirect, type Ctx, type Reply, type Route } from './http';
import type { Row } from './db';
import { pyStr, utcIsoNow } from './pyjson';
import type { SiteModule } from './site';

/** What the admin routes need to know of the server. */
export interface AdminOptions {
  readonly sites: readonly SiteModule[];
  /** Annotator logins, `{name: password}`. */
  readonly annotators: Readonly<Record<string, string>>;
}

const BEACON_FIELDS = ['action', 'target', 'selector', 'url', 'timestamp', 'x', 'y', 'value', 'text', 'option_text', 'href', 'key', 'checked', 'formData'];

function bodyObject(ctx: Ctx): Row {
  return ctx.json && typeof ctx.json === 'object' && !Array.isArray(ctx.json) ? (ctx.json as Row) : {};
}

function adminLog(ctx: Ctx): Reply {
  let log = ctx.query.get('all') === '1' ? ctx.worker.all('logs') : [...(ctx.worker.logs.get(ctx.logKey()) ?? [])];
  const method = (ctx.query.get('method') ?? '').toUpperCase();
  const path = ctx.query.get('path') ?? '';
  const last = /^\s*[+-]?\d+\s*$/.test(ctx.query.get('last') ?? '') ? Number.parseInt(ctx.query.get('last')!, 10) : 0;
  if (method) log = log.filter((e) => e.method === method);
  if (path) log = log.filter((e) => e.path.includes(path));
  if (last) log = log.slice(-last);
  return json({ count: log.length, entries: log });
}

function beaconPost(ctx: Ctx): Reply {
  const key = ctx.logKey();
  if (!ctx.worker.beacons.has(key)) ctx.worker.beacons.set(key, []);
  const data = bodyObject(ctx);
  if (!data.action) return noContent();
  const entry: Row = {};
  for (const f of BEACON_FIELDS) {
    const v = f in data ? data[f] : ['action', 'target', 'selector', 'url', 'timestamp'].includes(f) ? '' : null;
    if (v !== null && v !== undefined) entry[f] = v;
  }
  ctx.worker.push('beacons', key, entry);
  return noContent();
}

function recordPost(ctx: Ctx): Reply {
  const data = bodyObject(ctx);
  const kind = data.mw;
  if (kind !== 'action' && kind !== 'observation') return noContent();
  const { mw: _mw, ...rest } = data;
  const rec: Row = { ...rest, type: kind };
  if (!('timestamp' in rec)) rec.timestamp = utcIsoNow();
  ctx.worker.push('records', ctx.logKey(), rec);
  return noContent();
}

function recordGet(ctx: Ctx): Reply {
  let entries: Row[];
  if (ctx.query.get('all') === '1') entries = ctx.worker.all('records').sort((a, b) => String(a.timestamp ?? '').localeCompare(String(b.timestamp ?? '')));
  else entries = ctx.worker.records.get(ctx.logKey()) ?? [];
  const answer = json({ count: entries.length, entries });
  if (ctx.query.get('clear') === '1') ctx.worker.records.clear();
  return answer;
}

/** `/_admin/data/<site>/<collection>`: the merged collection for the caller's session, with MiniWeb's filters. */
function adminData(ctx: Ctx): Reply {
  const site = ctx.params.site!;
  const collection = ctx.params.collection!.replace(/\.json$/, '');
  let data = ctx.data.query(site, collection);
  const known = ctx.db.collection(site, collection);
  if (!data.length && !known) return errorPage(404);
  const floats = known?.floats ?? new Set<string>();
  for (const key of new Set(ctx.query.keys())) {
    if (key.startsWith('_')) continue;
    const want = ctx.query.get(key)!;
    data = data.filter((item) => (key in item ? pyStr(item[key], floats.has(key)) : '') === want);
  }
  const id = ctx.query.get('_id');
  if (id) {
    const item = data.find((d) => ('id' in d ? pyStr(d.id) : '') === id);
    return item ? json(item) : errorPage(404);
  }
  const field = ctx.query.get('_field');
  if (field) return json(data.map((d) => d[field] ?? null));
  if (ctx.query.get('_count')) return json({ count: data.length });
  return json(data);
}

/** `/_reset_data`: drops the session's data, log and beacons, and empties the cookie but for annotator state. */
function reset(ctx: Ctx): Reply {
  const sid = String(ctx.session.get('_data_overlay_sid') ?? '');
  if (sid) ctx.db.resetSession(sid);
  const auth = ctx.session.get('annotator_authenticated');
  const name = ctx.session.get('annotator_name');
  const disable2fa = ctx.session.get('_disable_2fa');
  ctx.session.clear();
  if (auth) {
    ctx.session.set('annotator_authenticated', auth);
    ctx.session.set('annotator_name', name ?? null);
  }
  if (disable2fa) ctx.session.set('_disable_2fa', disable2fa);
  if (sid) {
    ctx.worker.logs.delete(sid);
    ctx.worker.beacons.delete(sid);
  }
  if (ctx.query.get('no_autologin') === '1') ctx.session.set('_no_autologin', true);
  return json({ status: 'reset', cleared_sid: sid });
}

function annotatorLogin(ctx: Ctx, options: AdminOptions): Reply {
  let error = '';
  if (ctx.method === 'POST') {
    const user = ctx.field('username');
    if (Object.prototype.hasOwnProperty.call(options.annotators, user) && options.annotators[user] === ctx.field('password')) {
      ctx.session.set('annotator_authenticated', true);
      ctx.session.set('annotator_name', user);
      return redirect('/annotate/');
    }
    error = 'Invalid credentials';
  }
  return html(`<!DOCTYPE html><html><head><title>Annotator Login</title></head><body><h1>Annotator login</h1>
${error ? `<p class="error">${esc(error)}</p>` : ''}<form method="post" action="/annotate/login"><label for="username">Username</label><input id="username" name="username">
<label for="password">Password</label><input id="password" name="password" type="password"><button type="submit">Log in</button></form></body></html>`);
}

/** The annotation tool's gate: its API answers 401 JSON and its pages redirect to the login until logged in. */
function annotatorOnly(handle: (ctx: Ctx) => Reply): (ctx: Ctx) => Reply {
  return (ctx) => {
    if (ctx.session.get('annotator_authenticated')) return handle(ctx);
    return ctx.path.startsWith('/annotate/api/') ? json({ error: 'Not authenticated' }, 401) : redirect('/annotate/login');
  };
}

function portal(sites: readonly SiteModule[]): Reply {
  const list = sites.map((s) => `<li><a href="/sites/${esc(s.id)}/">${esc(s.name)}</a> — ${esc(s.description)}</li>`).join('');
  return html(`<!DOCTYPE html><html><head><meta charset="UTF-8"><title>MiniWeb</title><link rel="stylesheet" href="/static/site.css"></head>
<body><main><h1>MiniWeb</h1><ul>${list}</ul></main></body></html>`);
}

/** Every route outside `/sites/` but `/verify-payment`. */
export function adminRoutes(options: AdminOptions): Route[] {
  const toggle2fa = annotatorOnly((ctx) => {
    if (bodyObject(ctx).disable) ctx.session.set('_disable_2fa', true);
    else ctx.session.pop('_disable_2fa');
    return json({ disabled: Boolean(ctx.session.get('_disable_2fa')) });
  });
  const asset = (body: string, contentType: string): (() => Reply) => () => ({ status: 200, contentType, body });
  return [
    { method: 'GET', path: '/', handle: () => portal(options.sites) },
    { method: 'GET', path: '/static/recorder.js', handle: asset(RECORDER_JS, 'text/javascript; charset=utf-8') },
    { method: 'GET', path: '/static/site.css', handle: asset(SITE_CSS, 'text/css; charset=utf-8') },
    { method: 'GET', path: '/_admin/log', handle: adminLog },
    {
      method: 'POST',
      path: '/_admin/log/clear',
      handle: (ctx) => {
        ctx.worker.logs.delete(ctx.logKey());
        ctx.worker.beacons.delete(ctx.logKey());
        return json({ status: 'cleared' });
      },
    },
    { method: 'POST', path: '/_admin/beacon', handle: beaconPost },
    {
      method: 'GET',
      path: '/_admin/beacon',
      handle: (ctx) => {
        const entries = ctx.query.get('all') === '1' ? ctx.worker.all('beacons') : (ctx.worker.beacons.get(ctx.logKey()) ?? []);
        return json({ count: entries.length, entries });
      },
    },
    { method: 'POST', path: '/_admin/record', handle: recordPost },
    { method: 'GET', path: '/_admin/record', handle: recordGet },
    { method: 'GET', path: '/_admin/session', handle: (ctx) => json(Object.fromEntries(Object.entries(ctx.session.snapshot()).filter(([k]) => !k.startsWith('_')))) },
    { method: 'GET', path: '/_admin/data/:site/:collection', handle: adminData },
    { method: 'GET', path: '/_admin/files/:site', handle: (ctx) => json(ctx.db.collections(ctx.params.site!)) },
    { method: 'GET', path: '/_admin/events', handle: (ctx) => json(ctx.db.events(String(ctx.session.get('_data_overlay_sid') ?? ''))) },
    { method: 'GET', path: '/_reset_data', handle: reset },
    { method: 'POST', path: '/_reset_data', handle: reset },
    { method: 'GET', path: '/_overlay_stats', handle: (ctx) => json(ctx.db.stats()) },
    { method: 'GET', path: '/annotate/login', handle: (ctx) => annotatorLogin(ctx, options) },
    { method: 'POST', path: '/annotate/login', handle: (ctx) => annotatorLogin(ctx, options) },
    { method: 'GET', path: '/annotate/', handle: annotatorOnly((ctx) => html(`<!DOCTYPE html><html><head><title>Annotate</title></head><body><p>Logged in as ${esc(ctx.session.get('annotator_name'))}</p></body></html>`)) },
    {
      method: 'GET',
      path: '/annotate/logout',
      handle: (ctx) => {
        ctx.session.pop('annotator_authenticated');
        ctx.session.pop('annotator_name');
        return redirect('/annotate/login');
      },
    },
    { method: 'POST', path: '/annotate/api/toggle_2fa', handle: toggle2fa },
  ];
}
