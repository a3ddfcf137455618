/**
 * The contract of a site template (see `sandbox/TEMPLATES.md`): its schema, deterministic seeding, routes and
 * task generators. The framework turns a template into sites `<id>-01` ... `<id>-08`, one data variant each.
 * @module
 */
import type { Database } from 'better-sqlite3';
import type { Faker } from '@faker-js/faker';
import type { SafeHtml } from './html';
import type { OracleStep } from './oracle';
import type { Router } from './router';
import type { Consequence, TaskKind, Verifier } from 'miniweb-taskgen';

/** A site as its pages and tasks see it. */
export interface SiteInfo {
  /** The site name, `shop-03`. */
  readonly name: string;
  /** The template id, `shop`. */
  readonly template: string;
  /** The data variant, 1-based. */
  readonly variant: number;
  /** The display name the seed chose, `Hearth & Home`. */
  readonly title: string;
  /** `/sites/shop-03` (no trailing slash). */
  readonly base: string;
  /** The home page, `/sites/shop-03/`. */
  readonly home: string;
  /** The site's fixed "today" (`YYYY-MM-DD`), so data and tasks never depend on the wall clock. */
  readonly today: string;
}

/** What a template's `seed` gets. */
export interface SeedInput {
  /** The site's fresh database, its schema applied. Seeding runs in one transaction. */
  readonly db: Database;
  /** A faker seeded for this site (its reference date is the site's today). */
  readonly faker: Faker;
  /** The site name, `shop-03`. */
  readonly name: string;
  /** The data variant, 1-based. */
  readonly variant: number;
  /** The site's fixed today, `YYYY-MM-DD`. */
  readonly today: string;
}

/** What `seed` returns. */
export interface SeedResult {
  /** The site's display name. */
  readonly title: string;
}

/** A request's parsed form fields or query parameters: repeated keys become lists. */
export type FormFields = Record<string, string | string[]>;

/** The response of a handler: build it with the `ctx` helpers. */
export interface Reply {
  /** The HTTP status. */
  readonly status: number;
  /** How `body` is sent: as an HTML page, as JSON, or as a redirect's location. */
  readonly type: 'html' | 'json' | 'redirect';
  /** HTML or JSON text, or the redirect's location. */
  readonly body: string;
}

/** A page to render in the site's layout. */
export interface PageSpec {
  /** The page title (the document title is `<title> · <site title>`). */
  readonly title: string;
  /** The page's content, placed in the site's layout. */
  readonly body: SafeHtml;
  /** Default 200. 422 for a form shown again with errors, 404 for a missing item. */
  readonly status?: number;
}

/** What a route handler gets: the request, the session's own copy of the site's data, and reply helpers. */
export interface RequestCtx {
  /** The site requested. */
  readonly site: SiteInfo;
  /** The session's copy of the site's database (writes are recorded as changes). */
  readonly db: Database;
  /** The HTTP method, `GET`, `POST`... */
  readonly method: string;
  /** The path relative to the site, `/products/3`. */
  readonly path: string;
  /** The route's parameters (`id` of `/products/:id`), decoded. */
  readonly params: Record<string, string>;
  /** The query string's parameters. */
  readonly query: FormFields;
  /** Form bodies as {@link FormFields}, JSON bodies parsed, otherwise the text; `null` when empty. */
  readonly body: unknown;
  /** An absolute path on the site with an optional query (empty values dropped): `href('/cart')`. */
  href(path: string, query?: Record<string, string | number | undefined | null>): string;
  /** A query parameter's first value, trimmed; `''` when absent. */
  q(name: string): string;
  /** A form field's first value, trimmed; `''` when absent or when the body is not a form. */
  field(name: string): string;
  /** Every value of a form field. */
  fields(name: string): string[];
  /** A message shown once on the next page this session renders on this site. */
  flash(message: string): void;
  /** A page in the site's layout. */
  render(page: PageSpec): Reply;
  /** A 303 redirect to a site path (Post/Redirect/Get). */
  redirect(path: string, query?: Record<string, string | number | undefined | null>): Reply;
  /** A JSON reply. */
  json(data: unknown, status?: number): Reply;
  /** A 404 page. */
  notFound(message?: string): Reply;
  /** A 400 page for a malformed request. */
  badRequest(message: string): Reply;
}

/** A route handler. It must not throw for bad input: answer 400/404/422 instead. */
export type Handler = (ctx: RequestCtx) => Reply;

/** A link of the site's main navigation. */
export interface NavLink {
  /** The link's text. */
  readonly label: string;
  /** Site-relative path, `/orders`. */
  readonly path: string;
}

/** The site-wide search box in the header. */
export interface SearchBox {
  /** Site-relative path the GET form submits to. */
  readonly action: string;
  /** The query parameter, `q`. */
  readonly param: string;
  /** The box's accessible name (its `aria-label`), `Search products`. */
  readonly label: string;
}

/** What task generators get: the site's pristine data. */
export interface TaskInput {
  /** The site the tasks are for. */
  readonly site: SiteInfo;
  /** A read-only view of the site's data as a fresh session sees it. */
  readonly db: Database;
  /** A faker seeded for this site's tasks (texts to type, picks among items). */
  readonly faker: Faker;
  /** An absolute site path, as in {@link RequestCtx.href}. */
  href(path: string, query?: Record<string, string | number | undefined | null>): string;
}

/** One task of a site: a goal-level instruction with its verifier and oracle solution. */
export interface TaskSpec {
  /** Unique within the site, a plain name (`price-p12`); the task id is `<prefix>-<site>-<slug>`. */
  readonly slug: string;
  /** The goal, as a user of the site would state it. */
  readonly instruction: string;
  /** `info` (find something out and answer) or `action` (change something on the site). */
  readonly kind: TaskKind;
  /** How an episode is graded: the answer, requests and rows it must leave behind. */
  readonly verifier: Verifier;
  /** A solution in the agent's action space, replayed by the stand-in agent and by `replayOracle`. */
  readonly oracle: readonly OracleStep[];
  /** Part of the site's human task set (the rest is the proposer's bank only). */
  readonly human?: boolean;
}

/** A site template. */
export interface SiteTemplate {
  /** A plain lower-case name; sites are `<id>-01`... */
  readonly id: string;
  /** What kind of site, for listings: `online shop`. */
  readonly kind: string;
  /** SQL DDL of the site's tables (names starting with `_` are internal and not recorded as changes). */
  readonly schema: string;
  /** Fills the database deterministically from `faker`. */
  seed(input: SeedInput): SeedResult;
  /** The header's main navigation links, in order. */
  readonly nav: readonly NavLink[];
  /** The header's search box, if the site has one. */
  readonly search?: SearchBox;
  /** Registers the site's pages and form handlers (site-relative patterns). */
  routes(router: Router<Handler>): void;
  /** The site's tasks (bank and human tasks), deterministic for the site. */
  tasks(input: TaskInput): TaskSpec[];
  /**
   * What the site does by itself as a consequence of a task's changes (a checkout's order items, a timestamp, a
   * cascade): a change outside a task's footprint and these fails the task. Served at `/_admin/sites/<site>/consequences`.
   */
  readonly consequences?: readonly Consequence[];
}
