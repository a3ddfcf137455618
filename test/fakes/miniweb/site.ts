/**
 * What one fake MiniWeb site is: its id and name (as `sites/<id>/site.json`), its base tables, and its routes
 * (under `/sites/<id>/`), which may register handlers of cross-site events.
 * @module
 */
import type { TableSpec } from './db';
import type { Ctx, Route } from './http';
import type { Events } from './payments';

/** One site of the fake server. */
export interface SiteModule {
  /** The site id, a plain name (`forums`). */
  readonly id: string;
  /** Its display name (`ForumHub`). */
  readonly name: string;
  readonly description: string;
  /** Its base tables and their rows. */
  readonly tables: readonly TableSpec[];
  /** Its routes; `events` lets it register the handlers of the events it owns. */
  install(events: Events): Route[];
}

/** The logged-in user id of the request's site (Flask's `session["user_id"]` after the per-site swap). */
export function currentUid(ctx: Ctx): number | null {
  const uid = ctx.session.get('user_id');
  return typeof uid === 'number' ? uid : typeof uid === 'string' && /^\d+$/.test(uid) ? Number(uid) : null;
}

/** `int(text)` as a form's `type=int` reads it: `null` when it is not an integer. */
export function intOf(text: string | undefined): number | null {
  return text !== undefined && /^\s*[+-]?\d+\s*$/.test(text) ? Number.parseInt(text, 10) : null;
}

/** `float(text)` as a form's `type=float` reads it: `null` when it is not a number. */
export function floatOf(text: string | undefined): number | null {
  if (text === undefined || !/^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(text)) return null;
  return Number(text);
}

/** Today as `YYYY-MM-DD`, local time (`datetime.now().strftime("%Y-%m-%d")`). */
export function today(d: Date = new Date()): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
