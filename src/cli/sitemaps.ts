/**
 * `taskgen sitemaps`: MiniWeb's sites crawled into the seed's layout, `DIR/<site>.json` sitemaps and `DIR/split.json`
 * (MiniWeb ships neither). Each site is crawled in a session of its own, reset at its end (`--reset miniweb`); logout
 * and destructive links are never requested. One line per site on stdout; warnings, failures and the summary on
 * stderr; exit 1 naming each site that failed.
 * @module
 */
import path from 'node:path';
import type { SingleBar } from 'cli-progress';
import { InvalidArgumentError, type Command } from 'commander';
import { assertPlainName } from '../core/names';
import { describeError } from '../core/errors';
import type { Sitemap } from '../core/schemas';
import { nodeStore } from '../files/node';
import { crawlSite, type CrawlEvent } from '../sites/crawl';
import { loggedOutSites, miniwebCrawlSession } from '../sites/crawl-session';
import { checkoutSites, serverSites, splitSites, type SiteEntry } from '../sites/crawl-sites';
import { DEFAULT_SITE_PREFIX, integer, numberBetween, progressOption, sitePrefixOf, sitePrefixPattern } from './flags';
import { printAbove, progressBar } from './progress';
import { stopOnSignals } from './signals';

interface SitemapsFlags {
  baseUrl: string;
  out: string;
  sites?: string;
  miniwebSites?: string;
  test?: string;
  testFraction?: number;
  seed: number;
  maxPages: number;
  reset: 'miniweb' | 'none';
  pageTimeout: number;
  sitePrefix: string;
  progress: boolean;
}

/** What one site's crawl came to. */
interface SiteOutcome {
  readonly site: string;
  readonly pages: number;
  readonly skipped: number;
  readonly failedPages: number;
  /** Why the site failed (nothing written); `undefined` when its sitemap was written. */
  readonly failure?: string;
}

/** The most refused links printed per site. */
const SKIPS_SHOWN = 3;

function resetMode(value: string): 'miniweb' | 'none' {
  if (value !== 'miniweb' && value !== 'none') throw new InvalidArgumentError(`expected miniweb or none, got "${value}"`);
  return value;
}

/** Registers `taskgen sitemaps`. */
export function register(program: Command): void {
  progressOption(program.command('sitemaps'))
    .description("crawl each site into DIR/<site>.json sitemaps and DIR/split.json (MiniWeb ships neither); logout and destructive links are never requested")
    .requiredOption('--base-url <url>', 'the server the sites are under, such as http://127.0.0.1:8000')
    .requiredOption('--out <dir>', 'where the sitemaps and split.json are written')
    .option('--sites <a,b>', 'comma-separated sites (default: --miniweb-sites, else the sites the server lists)')
    .option('--miniweb-sites <dir>', "a MiniWeb checkout's sites dir: one site per <id>/site.json, named by its \"name\"")
    .option('--test <a,b>', 'the test sites of the split')
    .option('--test-fraction <f>', 'without --test: the share of sites drawn for test', numberBetween(0, 1))
    .option('--seed <n>', 'seeds the test draw', integer(Number.MIN_SAFE_INTEGER), 20261008)
    .option('--max-pages <n>', 'the most pages fetched per site', integer(1), 80)
    .option('--reset <how>', "end each site's crawl session: miniweb (POST /_reset_data, checked) or none", resetMode, 'miniweb')
    .option('--page-timeout <s>', 'time limit of one page request in seconds', numberBetween(0.001, 3600), 30)
    .option('--site-prefix <path>', "a site's path on the server (its home)", sitePrefixPattern, DEFAULT_SITE_PREFIX)
    .action(async (flags: SitemapsFlags) => {
      if (flags.sites && flags.miniwebSites) throw new Error('give --sites or --miniweb-sites, not both');
      if (flags.test !== undefined && flags.testFraction !== undefined) throw new Error('give --test or --test-fraction, not both');
      const store = nodeStore();
      const entries = await siteList(flags, store);
      for (const entry of entries) assertPlainName(entry.id, 'site');
      const split = splitSites(entries.map((e) => e.id), {
        ...(flags.test !== undefined ? { test: flags.test.split(',') } : {}),
        testFraction: flags.testFraction ?? 0,
        seed: flags.seed,
      });
      process.stdout.write(`crawling ${entries.length} sites of ${flags.baseUrl} into ${flags.out}\n`);
      const stop = stopOnSignals('stopping: the site being crawled ends its session, nothing more is crawled (again to quit at once)\n', 'stopped by a signal');
      const bar = progressBar('sitemaps [{bar}] {value}/{total} sites | {site} | {duration_formatted}', flags.progress);
      bar?.start(entries.length, 0, { site: '' });
      const outcomes: SiteOutcome[] = [];
      try {
        for (const entry of entries) {
          if (stop.signal.aborted) break;
          bar?.update(outcomes.length, { site: entry.id });
          outcomes.push(await crawlOne(entry, flags, store, stop.signal, bar));
          bar?.update(outcomes.length);
        }
      } finally {
        bar?.stop();
        stop.dispose();
      }
      await store.writeAtomic(path.join(flags.out, 'split.json'), `${JSON.stringify(split, null, 1)}\n`);
      summarize(outcomes, entries.length, split);
    });
}

/** The sites to crawl: `--sites`, else a checkout's `site.json` files, else the server's own list. */
async function siteList(flags: SitemapsFlags, store: ReturnType<typeof nodeStore>): Promise<SiteEntry[]> {
  if (flags.sites) return flags.sites.split(',').map((id) => ({ id }));
  if (flags.miniwebSites) return checkoutSites(flags.miniwebSites, store);
  return serverSites({ baseUrl: flags.baseUrl, timeoutMs: flags.pageTimeout * 1000 });
}

/** Crawls one site in a session of its own and writes its sitemap; a failure is returned, not thrown. */
async function crawlOne(entry: SiteEntry, flags: SitemapsFlags, store: ReturnType<typeof nodeStore>, signal: AbortSignal, bar: SingleBar | undefined): Promise<SiteOutcome> {
  const site = entry.id;
  const say = (stream: NodeJS.WriteStream, line: string) => printAbove(bar, stream, line);
  const home = sitePrefixOf(flags.sitePrefix)(site);
  const reset = flags.reset === 'miniweb' ? miniwebCrawlSession({ baseUrl: flags.baseUrl, timeoutMs: flags.pageTimeout * 1000 }) : undefined;
  let loggedOut: string[] = [];
  const skips: Array<Extract<CrawlEvent, { type: 'skip' }>> = [];
  const fails: Array<Extract<CrawlEvent, { type: 'fail' }>> = [];
  const timeoutMs = flags.pageTimeout * 1000;
  let sitemap: Sitemap;
  try {
    sitemap = await crawlSite({
      baseUrl: flags.baseUrl,
      home,
      maxPages: flags.maxPages,
      signal,
      // Each request its own time limit: a page that hangs fails, the crawl goes on.
      fetch: (url, init) => globalThis.fetch(url, { ...init, signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) }),
      session: {
        end: async (cookie) => {
          loggedOut = loggedOutSites(cookie);
          await reset?.end?.(cookie);
        },
      },
      onEvent: (event) => {
        if (event.type === 'skip') skips.push(event);
        else if (event.type === 'fail') fails.push(event);
      },
    });
  } catch (error) {
    return { site, pages: 0, skipped: skips.length, failedPages: fails.length, failure: describeError(error) };
  }
  const counts = { site, pages: sitemap.pages.length, skipped: skips.length, failedPages: fails.length };
  if (sitemap.pages.length === 0) {
    const why = fails.find((f) => f.path === home)?.reason ?? fails[0]?.reason ?? 'no HTML page';
    return { ...counts, failure: `its home ${home} gave no page: ${why}` };
  }
  if (entry.name) sitemap = { ...sitemap, name: entry.name };
  await store.writeAtomic(path.join(flags.out, `${site}.json`), `${JSON.stringify(sitemap, null, 1)}\n`);
  const refused = skips.slice(0, SKIPS_SHOWN).map((s) => `\n    not requested ${s.path}: ${s.reason}`).join('');
  const more = skips.length > SKIPS_SHOWN ? `\n    and ${skips.length - SKIPS_SHOWN} more` : '';
  say(process.stdout, `  ${site}: ${counts.pages} pages, ${counts.skipped} links not requested, ${counts.failedPages} pages failed${refused}${more}`);
  if (loggedOut.length) say(process.stderr, `warning: ${site}: the crawl's session ended logged out of ${loggedOut.join(', ')}`);
  return counts;
}

/** The summary on stderr; exit code 1 naming each site that failed. */
function summarize(outcomes: readonly SiteOutcome[], listed: number, split: { train: string[]; test: string[] }): void {
  const sum = (f: (o: SiteOutcome) => number) => outcomes.reduce((a, o) => a + f(o), 0);
  const failed = outcomes.filter((o) => o.failure !== undefined);
  const notRun = listed - outcomes.length;
  process.stderr.write(
    `done: ${outcomes.length - failed.length}/${listed} sites written, ${sum((o) => o.pages)} pages, ` +
      `${sum((o) => o.skipped)} links not requested (logout or destructive), ${sum((o) => o.failedPages)} pages failed; ` +
      `split.json: ${split.train.length} train, ${split.test.length} test\n`,
  );
  if (failed.length === 0 && notRun === 0) return;
  for (const o of failed) process.stderr.write(`failed: ${o.site}: ${o.failure}\n`);
  if (notRun) process.stderr.write(`not crawled (stopped): ${notRun} sites\n`);
  process.stderr.write(`${failed.length + notRun} sites have no sitemap: run the same command again\n`);
  process.exitCode = 1;
}
