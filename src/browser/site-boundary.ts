/**
 * The site boundary (DESIGN.md §5): an episode's browser stays inside its site, which is an origin and a path
 * prefix (`/sites/<site>/` on MiniWeb and the sandbox), over http(s), never the server's evidence API
 * (`/_admin/`) and never a local file. The start page included: a task that starts elsewhere is refused.
 * @module
 */

/** Where a site's pages live on its server: MiniWeb's and the sandbox's layout, `/sites/<site>/`. */
export function defaultSitePrefix(site: string): string {
  return `/sites/${site}/`;
}

/** The server's evidence API, never open to the agent whatever the prefix. */
export const EVIDENCE_PREFIX = '/_admin/';

/**
 * A site's boundary: its origin (`http://127.0.0.1:8000`), path prefix (`/sites/shop/`), and the paths outside the
 * prefix that the server declares open to the site's episodes (`reachable`: exact paths such as `/verify-payment`,
 * or prefixes ending in `/`).
 */
export interface SiteBoundary {
  readonly origin: string;
  readonly prefix: string;
  readonly reachable?: readonly string[];
}

/**
 * The boundary of a site served at `baseUrl` under `prefix` (default `/`), with the `reachable` paths outside it;
 * the prefix must start and end with `/`, a reachable path start with `/` (the evidence API never is one).
 */
export function siteBoundary(baseUrl: string, prefix = '/', reachable: readonly string[] = []): SiteBoundary {
  if (!prefix.startsWith('/') || !prefix.endsWith('/')) throw new RangeError(`a site prefix starts and ends with "/", got ${JSON.stringify(prefix)}`);
  for (const p of reachable) {
    if (!p.startsWith('/') || p.startsWith(EVIDENCE_PREFIX) || p === '/') throw new RangeError(`a reachable path is a path outside the site other than / and ${EVIDENCE_PREFIX}, got ${JSON.stringify(p)}`);
  }
  return { origin: new URL(baseUrl).origin, prefix, ...(reachable.length ? { reachable: [...reachable] } : {}) };
}

/**
 * The boundary as the agent is told it: `http://127.0.0.1:8000/sites/shop/` (the bare origin for prefix `/`), and
 * its reachable paths: `http://127.0.0.1:8000/sites/shop/ (and /verify-payment, /sites/email/)`.
 */
export function describeBoundary(boundary: SiteBoundary): string {
  const site = boundary.prefix === '/' ? boundary.origin : `${boundary.origin}${boundary.prefix}`;
  return boundary.reachable?.length ? `${site} (and ${boundary.reachable.join(', ')})` : site;
}

/** Why `url` is outside the site, or `null` when it is inside. `/sites/shop` counts as `/sites/shop/`. */
export function outsideSite(url: string | URL, boundary: SiteBoundary): string | null {
  let u: URL;
  try {
    u = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return 'not a URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `${u.protocol.replace(/:$/, '')}: is not http(s)`;
  if (u.origin !== boundary.origin) return `${u.origin} is another server`;
  const path = u.pathname;
  if (path.startsWith(EVIDENCE_PREFIX) || `${path}/` === EVIDENCE_PREFIX) return 'the evidence API is not part of the site';
  if (under(path, boundary.prefix) || boundary.reachable?.some((p) => under(path, p))) return null;
  return `${path} is outside ${boundary.prefix}`;
}

// Whether a path is `entry` (an exact path) or under it (a prefix ending in `/`; `/sites/shop` counts as `/sites/shop/`).
function under(path: string, entry: string): boolean {
  if (!entry.endsWith('/')) return path === entry;
  return path.startsWith(entry) || `${path}/` === entry;
}

/** A task whose start page is outside its site. */
export class OutsideSiteError extends Error {
  /** Always `OutsideSiteError`. */
  override readonly name = 'OutsideSiteError';
  constructor(
    /** The task whose page is refused. */
    readonly taskId: string,
    /** The task field that names the page, `start_path`. */
    readonly field: string,
    /** That field's value, as the task gives it. */
    readonly value: string,
    reason: string,
    boundary: SiteBoundary,
  ) {
    super(`task ${taskId}: ${field}: ${JSON.stringify(value)} is outside the site ${describeBoundary(boundary)} (${reason}): refused`);
  }
}

/**
 * The start page of a task (`start_path` resolved against `baseUrl`), checked to be inside `boundary`; throws an
 * {@link OutsideSiteError} naming the task and the field otherwise, before any browser moves.
 */
export function startUrlOf(task: { readonly task_id: string; readonly start_path: string }, baseUrl: string, boundary: SiteBoundary): string {
  let url: URL;
  try {
    url = new URL(task.start_path, baseUrl);
  } catch {
    throw new OutsideSiteError(task.task_id, 'start_path', task.start_path, 'not a URL', boundary);
  }
  const reason = outsideSite(url, boundary);
  if (reason !== null) throw new OutsideSiteError(task.task_id, 'start_path', task.start_path, reason, boundary);
  return url.href;
}
