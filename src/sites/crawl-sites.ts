/**
 * Which sites a crawl of MiniWeb maps, and the split file it writes beside the sitemaps. MiniWeb ships neither
 * sitemaps nor a split: its sites are the `sites/<id>/site.json` files of a checkout (`id`, `name`, `description`,
 * `tags`), and its server lists them at `GET /api/sites` (the portal `/` draws them from the same list).
 * @module
 */
import path from 'node:path';
import { z } from 'zod';
import { InputError } from '../core/errors';
import { readJsonFile } from '../core/io';
import { assertPlainName } from '../core/names';
import { PyRandom } from '../core/py/random';
import { pyRound } from '../core/py/round';
import { compareCodePoints } from '../core/py/text';
import type { Split } from '../core/schemas';
import type { FileStore } from '../files/types';
import { parseHtml } from './elements';

/** A site to crawl: its id (the path segment of `/sites/<id>/`) and, when its metadata gives one, its name. */
export interface SiteEntry {
  readonly id: string;
  readonly name?: string;
}

/** `sites/<id>/site.json` of a MiniWeb checkout, the fields read. */
const SiteJsonSchema = z.looseObject({ id: z.string().optional(), name: z.string().optional() });

const bySite = (a: SiteEntry, b: SiteEntry): number => compareCodePoints(a.id, b.id);

/**
 * The sites of a MiniWeb checkout's `sites` dir: each subdirectory with a `site.json` (those starting with `_` or
 * `.` left out, as MiniWeb does), its id the dir's name (a plain name, else an `UnsafeNameError`), its name the
 * file's `name`. A `site.json` whose `id` is not its dir's name is an `InputError`.
 */
export async function checkoutSites(dir: string, store: FileStore): Promise<SiteEntry[]> {
  if (!(await store.exists(dir))) throw new InputError({ file: dir }, 'no such directory (give the sites dir of a MiniWeb checkout)');
  const out: SiteEntry[] = [];
  for (const entry of await store.list(dir)) {
    if (!entry.isDirectory || entry.name.startsWith('_') || entry.name.startsWith('.')) continue;
    const file = path.join(dir, entry.name, 'site.json');
    if (!(await store.exists(file))) continue;
    assertPlainName(entry.name, 'site');
    const meta = await readJsonFile(store, file, SiteJsonSchema);
    if (meta.id !== undefined && meta.id !== entry.name) {
      throw new InputError({ file, field: 'id' }, `is ${JSON.stringify(meta.id)}, not its directory's name ${JSON.stringify(entry.name)}`);
    }
    out.push({ id: entry.name, ...(meta.name ? { name: meta.name } : {}) });
  }
  if (out.length === 0) throw new InputError({ file: dir }, 'holds no <site>/site.json');
  return out.sort(bySite);
}

/** Options of {@link serverSites}. */
export interface ServerSitesOptions {
  /** The server's origin, `http://127.0.0.1:8000`. */
  readonly baseUrl: string;
  /** The fetch to use. Default the global fetch. */
  readonly fetch?: typeof globalThis.fetch;
  /** Milliseconds before each request is abandoned. Default 30 000. */
  readonly timeoutMs?: number;
}

/**
 * The sites a server lists: MiniWeb's `GET /api/sites` (a JSON list of `{id, name, path}`), else the links of its
 * portal page `/` to `/sites/<id>/`. Ids must be plain names (else an `UnsafeNameError`); none found is an error.
 */
export async function serverSites(options: ServerSitesOptions): Promise<SiteEntry[]> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const origin = new URL(options.baseUrl).origin;
  const get = async (p: string): Promise<Response> => {
    try {
      return await doFetch(origin + p, { signal: AbortSignal.timeout(options.timeoutMs ?? 30_000) });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      throw new Error(`GET ${origin}${p} failed: ${cause}`, { cause: error });
    }
  };
  const found = new Map<string, SiteEntry>();
  const listed = await jsonList(await get('/api/sites'));
  if (listed) {
    for (const s of listed as Array<{ id?: unknown; name?: unknown }>) {
      if (typeof s?.id !== 'string') continue;
      assertPlainName(s.id, 'site');
      found.set(s.id, { id: s.id, ...(typeof s.name === 'string' && s.name ? { name: s.name } : {}) });
    }
  } else {
    const portal = await get('/');
    if (!portal.ok) throw new Error(`GET ${origin}/ answered ${portal.status}: give --sites or --miniweb-sites`);
    for (const a of parseHtml(await portal.text()).querySelectorAll('a[href]')) {
      let url: URL;
      try {
        url = new URL(a.getAttribute('href') ?? '', `${origin}/`);
      } catch {
        continue;
      }
      const id = url.origin === origin ? /^\/sites\/([^/]+)\/?$/.exec(url.pathname)?.[1] : undefined;
      if (id === undefined) continue;
      let site: string;
      try {
        site = decodeURIComponent(id);
      } catch {
        site = id;
      }
      assertPlainName(site, 'site');
      found.set(site, { id: site });
    }
  }
  if (found.size === 0) throw new Error(`${origin} lists no sites (neither /api/sites nor links to /sites/<id>/ on /): give --sites or --miniweb-sites`);
  return [...found.values()].sort(bySite);
}

// The reply's JSON list, or null when it is not one (a server without MiniWeb's /api/sites).
async function jsonList(response: Response): Promise<unknown[] | null> {
  if (!response.ok || !(response.headers.get('content-type') ?? '').includes('json')) {
    await response.body?.cancel();
    return null;
  }
  const value: unknown = await response.json().catch(() => null);
  return Array.isArray(value) ? value : null;
}

/** Options of {@link splitSites}: the test sites by name, else a seeded draw of a fraction of them. */
export interface SplitSitesOptions {
  /** The test sites; each must be one of the sites. */
  readonly test?: readonly string[];
  /** The share of sites drawn for test when `test` is not given, 0 to 1. Default 0. */
  readonly testFraction?: number;
  /** Seeds the draw. */
  readonly seed?: number;
}

/**
 * The split file of `sites`: `{train, test}`, each sorted. The test sites are `options.test`, else Python's
 * `random.Random(seed).sample(sorted(sites), round(len(sites) * fraction))`, so the same seed draws the same sites.
 */
export function splitSites(sites: readonly string[], options: SplitSitesOptions = {}): Split {
  const all = [...new Set(sites)].sort(compareCodePoints);
  let test: string[];
  if (options.test) {
    const unknown = options.test.filter((s) => !all.includes(s));
    if (unknown.length) throw new Error(`test sites not among the sites crawled: ${unknown.join(', ')}`);
    test = [...new Set(options.test)];
  } else {
    const k = pyRound(all.length * (options.testFraction ?? 0));
    test = new PyRandom(options.seed ?? 0).sample(all, k);
  }
  const held = new Set(test);
  return { train: all.filter((s) => !held.has(s)), test: test.sort(compareCodePoints) };
}
