/**
 * What the proposer sees of a site (the seed's `_text` and `site_context`), byte for byte: the same text for the
 * same sitemap and pages, so proposer prompts match the seed's.
 * @module
 */
import { assertPlainName } from '../core/names';
import { pyEntries } from '../core/py/json';
import { pyOr, pyStr, pyTruthy } from '../core/py/repr';
import { collapseWhitespace, cpLength, cpSlice, pyStrip } from '../core/py/text';
import { pyUnescape } from '../core/py/html';
import type { SiteSource } from './types';

// The seed strips `(?is)<(script|style|noscript|svg)[^>]*>.*?</\1>`. Python's IGNORECASE lets `s` match `ſ` and
// `i` match `İ` and `ı` (JavaScript's /iu does not), and its backreference compares simple lowercases, so
// `<ſcript>` closes only with `</ſcript>`. The classes and the closing tag are therefore built by hand.
const LETTER: Record<string, string> = { s: '[sS\u017f]', i: '[iI\u0130\u0131]' };
const nameClass = (word: string) => [...word].map((c) => LETTER[c] ?? `[${c}${c.toUpperCase()}]`).join('');
const OPEN_TAG = new RegExp(`<(${['script', 'style', 'noscript', 'svg'].map(nameClass).join('|')})[^>]*>`, 'g');
const TAG = /<[^>]+>/g;

// A character the backreference accepts for `c`: one with the same simple lowercase (ſ and ı are their own).
function sameLowercase(c: string): string {
  if (c === '\u017f' || c === '\u0131') return c;
  const lower = c === '\u0130' ? 'i' : c.toLowerCase();
  return lower === 'i' ? '[iI\u0130]' : `[${lower}${lower.toUpperCase()}]`;
}

const closers = new Map<string, RegExp>();
function closingTag(name: string): RegExp {
  let re = closers.get(name);
  if (!re) {
    re = new RegExp(`</${[...name].map(sameLowercase).join('')}>`, 'g');
    closers.set(name, re);
  }
  return re;
}

// re.sub of the seed's first pattern with " ": leftmost matches, the lazy body ending at the first closing tag.
function dropInvisible(html: string): string {
  let out = '';
  let kept = 0;
  const open = new RegExp(OPEN_TAG);
  for (let m = open.exec(html); m; m = open.exec(html)) {
    const close = closingTag(m[1]!);
    close.lastIndex = open.lastIndex;
    const end = close.exec(html);
    if (!end) {
      open.lastIndex = m.index + 1; // no match at this position: Python moves on by one
      continue;
    }
    out += `${html.slice(kept, m.index)} `;
    kept = end.index + end[0].length;
    open.lastIndex = kept;
  }
  return out + html.slice(kept);
}

/**
 * The visible text of a page (the seed's `_text`): scripts, styles, noscript and svg blocks dropped, every tag a
 * line break, entities decoded, whitespace collapsed per line, empty lines and repeats of the previous line
 * dropped, stopping once the running length (code points plus one per line) passes `cap`, cut to `cap` code points.
 * @example visibleText('<p>Hi &amp; bye</p><p>Hi &amp; bye</p>', 100) === 'Hi & bye'
 */
export function visibleText(html: string, cap: number): string {
  const lines = dropInvisible(html)
    .replace(TAG, '\n')
    .split('\n')
    .map((x) => pyStrip(collapseWhitespace(pyUnescape(x))));
  const out: string[] = [];
  let n = 0;
  for (const x of lines) {
    if (x && (out.length === 0 || out[out.length - 1] !== x)) {
      out.push(x);
      n += cpLength(x) + 1;
      if (n > cap) break;
    }
  }
  return cpSlice(out.join('\n'), 0, cap);
}

/** What the proposer sees of a site ({@link siteContext}). */
export interface SiteContext {
  /** The site name (a plain name). */
  readonly site: string;
  /** The sitemap's `name`, else the site. */
  readonly name: string;
  /** The first page's path, else `/sites/<site>/`: where every task starts. */
  readonly home: string;
  /** Every page path, in sitemap order. */
  readonly paths: readonly string[];
  /** The context text: pages, controls by page, the visible text of the main pages. */
  readonly text: string;
}

/** Options of {@link siteContext}. */
export interface SiteContextOptions {
  /** Pages whose text is shown: the home page and the pages with the most controls. Default 6. */
  readonly nPages?: number;
  /** The most code points of text per page. Default 1800. */
  readonly cap?: number;
  /** Told of each page that could not be rendered (its text becomes `(could not render: <error name>)`). */
  readonly onRenderError?: (path: string, error: unknown) => void;
}

type Dict = Record<string, unknown>;
const get = (o: unknown, key: string): unknown => (o as Dict)[key];

/**
 * The seed's `site_context`: the site's pages (path and title, the first 90), its controls grouped by page (kind,
 * label, up to four option texts; `qa` and `carry` controls skipped; the first 40 pages), and the visible text of
 * its home page and the `nPages - 1` pages with the most controls. A page that cannot be fetched shows
 * `(could not render: <error name>)`. Dict-shaped controls are read in the file's key order, so the source must
 * return the sitemap as parsed (see {@link SiteSource.sitemap}).
 */
export async function siteContext(site: string, source: SiteSource, options: SiteContextOptions = {}): Promise<SiteContext> {
  const { nPages = 6, cap = 1800 } = options;
  assertPlainName(site, 'site');
  const sm: unknown = await source.sitemap(site);
  const pages = (get(sm, 'pages') as unknown[]).filter((p) => pyTruthy(get(p, 'path')));
  const rawControls = get(sm, 'controls') as unknown[] | Dict;
  const controls = Array.isArray(rawControls) ? rawControls : pyEntries(rawControls).map(([, c]) => c);
  const byPage = groupControls(controls);

  const home = pages.length ? pyStr(get(pages[0], 'path')) : `/sites/${site}/`;
  const rich = [...byPage.keys()].sort((a, b) => byPage.get(b)!.length - byPage.get(a)!.length);
  const show = [home, ...rich.filter((p): p is string => !!p && p !== home).slice(0, nPages - 1)];
  const texts = await Promise.all(show.map((path) => pageText(source, path, cap, options.onRenderError)));

  const pageLines = pages.slice(0, 90).map((p) => `${pyStr(get(p, 'path'))} ${pyStr(pyOr(get(p, 'title'), ''))}`);
  const ctrlLines = [...byPage]
    .slice(0, 40)
    .filter(([p]) => p)
    .map(([p, v]) => `${p}: ${v.slice(0, 8).join('; ')}`);
  return {
    site,
    name: pyStr(pyOr(get(sm, 'name'), site)),
    home,
    paths: pages.map((p) => pyStr(get(p, 'path'))),
    text: `PAGES\n${pageLines.join('\n')}\n\nCONTROLS BY PAGE\n${ctrlLines.join('\n')}\n\nPAGE TEXT\n${texts.join('\n\n')}`,
  };
}

// page (null for none) -> "kind 'label' [opt, opt]" lines, pages in first-seen order as the seed's dict.
function groupControls(controls: readonly unknown[]): Map<string | null, string[]> {
  const byPage = new Map<string | null, string[]>();
  for (const c of controls) {
    const kind = get(c, 'kind');
    if (kind === 'qa' || kind === 'carry') continue;
    const options = (pyOr(get(c, 'options'), []) as unknown[]).slice(0, 4);
    const opts = options.map((o) => cpSlice(pyStr(pyOr(get(o, 'text'), get(o, 'value'), '')), 0, 40));
    const label = cpSlice(pyStr(pyOr(get(c, 'label'), get(c, 'name'), '')), 0, 40);
    const shown = opts.filter((o) => o);
    const line = `${pyStr(kind)} '${label}'${shown.length ? ` [${shown.join(', ')}]` : ''}`;
    const page = (get(c, 'page') ?? null) as string | null;
    const list = byPage.get(page);
    if (list) list.push(line);
    else byPage.set(page, [line]);
  }
  return byPage;
}

async function pageText(source: SiteSource, path: string, cap: number, onError?: (path: string, error: unknown) => void): Promise<string> {
  try {
    return `--- ${path}\n${visibleText(await source.fetchPage(path), cap)}`;
  } catch (error) {
    onError?.(path, error);
    const name = error instanceof Error ? error.name : typeof error;
    return `--- ${path}\n(could not render: ${name})`;
  }
}
