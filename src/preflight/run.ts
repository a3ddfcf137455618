/**
 * `preflight`: what a run will need, checked before its first paid call: the browser launches, each model's
 * server answers and serves it, the sites answer under their prefix, the out dirs can be written.
 * @module
 */
import type { BrowserHost, BrowserOptions } from '../browser/host';
import type { LanguageModel } from '../models/types';
import { checkBrowser, checkEvidence, checkModel, checkSites, checkWritable, type PreflightCheck } from './checks';
import type { EvidenceProvider } from '../attempt/types';

/** Options of {@link preflight}: what to check; what is left out is not checked. */
export interface PreflightOptions {
  /** Check that Chromium launches: a shared host (launched, left open) or options for one launched and closed. */
  readonly browser?: BrowserHost | BrowserOptions;
  /** The models by role (`proposer`, `agent`, `judge`): each checked without a paid call. */
  readonly models?: ReadonlyArray<{ readonly role: string; readonly llm: LanguageModel }>;
  /** The sites the browser will visit: each home page fetched at `baseUrl` under its prefix. */
  readonly sites?: { readonly baseUrl: string; readonly sites: readonly string[]; readonly sitePrefix?: (site: string) => string };
  /** The evidence provider, and the server and sites its episodes will be on: its own check (MiniWeb's database, one log). */
  readonly evidence?: { readonly provider: EvidenceProvider; readonly baseUrl: string; readonly sites: readonly string[] };
  /** Dirs the run will write. */
  readonly outDirs?: readonly string[];
  /** Time limit of each network check in ms. Default 10 000. */
  readonly timeoutMs?: number;
}

/** What {@link preflight} found. */
export interface PreflightReport {
  /** Whether every check passed. */
  readonly ok: boolean;
  /** Every check, in the order run. */
  readonly checks: readonly PreflightCheck[];
}

/** A run that would fail: the checks that failed, each with what to do. */
export class PreflightError extends Error {
  /** Always `PreflightError`. */
  override readonly name = 'PreflightError';
  constructor(
    /** The failed checks. */
    readonly failed: readonly PreflightCheck[],
  ) {
    super(`not ready, nothing was spent: ${failed.map((c) => `${c.name}: ${c.detail} (${c.hint})`).join('; ')}`);
  }
}

/**
 * Checks what a run will need before it spends anything (no paid model call is made) and reports each check;
 * it never throws for a failed check (see {@link PreflightError} to turn a report into an error).
 * @example
 * const report = await preflight({ browser: {}, models: [{ role: 'agent', llm: agent }], outDirs: ['data/run'] });
 * if (!report.ok) throw new PreflightError(report.checks.filter((c) => !c.ok));
 */
export async function preflight(options: PreflightOptions): Promise<PreflightReport> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const checks: PreflightCheck[] = [];
  for (const dir of new Set(options.outDirs ?? [])) checks.push(await checkWritable(dir));
  for (const { role, llm } of options.models ?? []) checks.push(await checkModel(role, llm, timeoutMs));
  if (options.sites) checks.push(...(await checkSites({ ...options.sites, timeoutMs })));
  if (options.evidence) checks.push(await checkEvidence(options.evidence.provider, options.evidence));
  if (options.browser !== undefined) checks.push(await checkBrowser(options.browser));
  return { ok: checks.every((c) => c.ok), checks };
}

/** Runs {@link preflight} and throws a {@link PreflightError} naming every failed check. */
export async function assertPreflight(options: PreflightOptions): Promise<PreflightReport> {
  const report = await preflight(options);
  if (!report.ok) throw new PreflightError(report.checks.filter((c) => !c.ok));
  return report;
}
