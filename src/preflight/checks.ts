/**
 * The checks {@link preflight} runs, one function each: each resolves with a pass or a failure that says what to
 * do (`hint`), never throws, and waits at most its time limit.
 * @module
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { describeError } from '../core/errors';
import { browserHost, chromiumPath, isBrowserHost, type BrowserHost, type BrowserOptions } from '../browser/host';
import { defaultSitePrefix } from '../browser/site-boundary';
import { LLMError, type LanguageModel } from '../models/types';
import type { EvidenceProvider } from '../attempt/types';

/** One check's result. */
export interface PreflightCheck {
  /** What was checked: `browser`, `model judge`, `site shop`, `out dir data/x`. */
  readonly name: string;
  /** Whether it passed. */
  readonly ok: boolean;
  /** What was found. */
  readonly detail: string;
  /** What to do, for a failure. */
  readonly hint?: string;
}

const pass = (name: string, detail: string): PreflightCheck => ({ name, ok: true, detail });
const fail = (name: string, detail: string, hint: string): PreflightCheck => ({ name, ok: false, detail, hint });

/** Chromium launches (a shared host is launched and left open for the run; options get a browser closed after). */
export async function checkBrowser(browser: BrowserHost | BrowserOptions | undefined): Promise<PreflightCheck> {
  const host = isBrowserHost(browser) ? browser : browserHost(browser);
  // a shared host's own options are not seen here: its binary is taken to be the default one
  const binary = chromiumPath(isBrowserHost(browser) ? undefined : browser?.executablePath);
  try {
    const b = await host.browser();
    return pass('browser', `Chromium ${b.version()} launches (${binary})`);
  } catch (error) {
    return fail('browser', `Chromium does not launch from ${binary}: ${firstLine(describeError(error))}`,
      'install Chromium (apt-get install chromium-headless-shell, or chromium) or set CHROMIUM_PATH to its binary');
  } finally {
    if (!isBrowserHost(browser)) await host.close().catch(() => {});
  }
}

/** A model can be reached without a paid call: its adapter's own check (an OpenAI-compatible server's model list). */
export async function checkModel(role: string, llm: LanguageModel, timeoutMs: number): Promise<PreflightCheck> {
  const name = `${role} model`;
  const what = `${llm.provider} ${llm.modelId}${llm.endpoint ? ` at ${llm.endpoint}` : ''}`;
  if (!llm.check) return pass(name, `${what}: not called (a call is paid)`);
  try {
    return pass(name, `${what}: ${await llm.check({ signal: AbortSignal.timeout(timeoutMs) })}`);
  } catch (error) {
    const hint = error instanceof LLMError && error.hint ? error.hint : `start its server, or fix its endpoint and model name`;
    return fail(name, `${what}: ${firstLine(describeError(error))}`, hint);
  }
}

/** Options of {@link checkSites}. */
export interface SiteCheckOptions {
  /** The server the browser visits. */
  readonly baseUrl: string;
  readonly sites: readonly string[];
  /** A site's path prefix. Default `/sites/<site>/`. */
  readonly sitePrefix?: (site: string) => string;
  readonly timeoutMs: number;
}

/** Every site's home answers at the base URL under its prefix (a status below 400), 8 at a time. */
export async function checkSites(options: SiteCheckOptions): Promise<PreflightCheck[]> {
  const prefixOf = options.sitePrefix ?? defaultSitePrefix;
  const out: PreflightCheck[] = [];
  const sites = [...new Set(options.sites)];
  for (let i = 0; i < sites.length; i += 8) {
    out.push(...(await Promise.all(sites.slice(i, i + 8).map((site) => checkSite(site, new URL(prefixOf(site), options.baseUrl).href, options.timeoutMs)))));
  }
  return out;
}

async function checkSite(site: string, url: string, timeoutMs: number): Promise<PreflightCheck> {
  const name = `site ${site}`;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
    await response.body?.cancel();
    if (response.status < 400) return pass(name, `${url} answers ${response.status}`);
    return fail(name, `${url} answers ${response.status}`, 'check the base URL (--base-url) and that the server serves this site under its prefix');
  } catch (error) {
    return fail(name, `${url} does not answer: ${firstLine(describeError(error))}`, 'start the sites\' server, or fix the base URL (--base-url)');
  }
}

/**
 * The evidence provider can give each episode's evidence for these sites (its own `check`: MiniWeb's database is the
 * server's, one request log per session); passes with nothing to check for a provider without one.
 */
export async function checkEvidence(evidence: EvidenceProvider, input: { readonly baseUrl: string; readonly sites: readonly string[] }): Promise<PreflightCheck> {
  if (!evidence.check) return pass('evidence', 'nothing to check');
  try {
    return pass('evidence', await evidence.check(input));
  } catch (error) {
    const hint = typeof (error as { hint?: unknown }).hint === 'string' ? (error as { hint: string }).hint : "check the server's evidence routes and database";
    return fail('evidence', firstLine(error instanceof Error ? error.message : String(error)), hint);
  }
}

/** An out dir can be written: it is a dir (or can be made in its nearest existing parent) the process may write. */
export async function checkWritable(dir: string): Promise<PreflightCheck> {
  const name = `out dir ${dir}`;
  let at = path.resolve(dir);
  for (let bound = 0; bound < 256; bound++) {
    const found = await stat(at).catch(() => null);
    if (found) {
      if (!found.isDirectory()) return fail(name, `${at} is not a directory`, 'choose another out dir, or move that file away');
      try {
        await access(at, constants.W_OK);
        return pass(name, at === path.resolve(dir) ? 'writable' : `can be made in ${at}`);
      } catch {
        return fail(name, `${at} cannot be written by this user`, `choose another out dir, or fix the permissions of ${at}`);
      }
    }
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  return fail(name, 'no existing parent', 'choose another out dir');
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim()) ?? text;
  return line.length > 300 ? `${line.slice(0, 300)}...` : line;
}
