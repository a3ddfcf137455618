/**
 * The resumable multi-site runner (the seed's `cmd_propose`): sites in parallel, written to the tasks JSONL in
 * input order, whole sites only.
 * @module
 */
import PQueue from 'p-queue';
import { siteContext, type SiteContextOptions } from '../sites/context';
import { StageGuard, StageStoppedError, type CallFailure } from '../models/failures';
import { nodeStore } from '../files/node';
import type { FileStore } from '../files/types';
import { assertPlainName } from '../core/names';
import { pyDumps } from '../core/py/dumps';
import type { Task } from '../core/schemas';
import { PageFetchError, SiteUnreachableError } from '../sites/errors';
import type { SiteSource } from '../sites/types';
import { readTasksFile } from './file';
import { claimSetup } from '../files/setup';
import { PROPOSE_DEFAULTS, proposeSetup } from './setup';
import path from 'node:path';
import { assertSitePages, proposeSite, type ProposeEvent, type ProposeSiteOptions } from './site';
import { checkEntry } from '../core/check';

/** Options of {@link runPropose}. */
export interface ProposeOptions extends Omit<ProposeSiteOptions, 'onEvent' | 'sitePrefix'>, SiteContextOptions {
  /** The sites, in the order their tasks are written (duplicates are proposed once). */
  readonly sites: readonly string[];
  /** A site's path prefix on its server; every sitemap page must be under it. Default `/sites/<site>/`. */
  readonly sitePrefix?: (site: string) => string;
  /** Where sitemaps and pages come from. */
  readonly source: SiteSource;
  /** The tasks JSONL (the seed's default: `data/webmix/taskgen/tasks.jsonl`). */
  readonly out: string;
  /** Sites proposed at once. Default 8. */
  readonly workers?: number;
  /** Where `out` lives. Default the local disk. */
  readonly store?: FileStore;
  /** Receives every {@link ProposeEvent}: the file's state, each site and batch. */
  readonly onEvent?: (event: ProposeEvent) => void;
  /** Stop after this many failed model calls before any succeeded. Default 5; 0 never stops for that. */
  readonly failFast?: number;
  /**
   * Add sites to a tasks file proposed with another set-up (model, per-site, batch, seed, prompt) on purpose.
   * Default false: such a file is refused before any model call, the differences named (`SetupMismatchError`).
   */
  readonly mixSetup?: boolean;
}

/** What {@link runPropose} did. */
export interface ProposeResult {
  /** Sites already in the file before this run (kept as they were). */
  readonly done: readonly string[];
  /** The sites proposed by this run, in the order written; a site with 0 tasks is not written. */
  readonly sites: ReadonlyArray<{ readonly site: string; readonly tasks: number; readonly info: number }>;
  /** Tasks written by this run, and how many of them are information tasks. */
  readonly tasks: number;
  /** Of `tasks`, the information tasks. */
  readonly info: number;
  /** Batches that gave nothing, and reply entries skipped. */
  readonly failedBatches: number;
  /** Entries of the replies skipped as unusable (not an object, not encodable). */
  readonly skippedTasks: number;
  /** The first failed batches and why (a failed call, or a reply that is not tasks). */
  readonly failures: ReadonlyArray<{ readonly site: string; readonly batch: number; readonly reason: string }>;
  /** Failed model calls in all, and the first of them with their causes (status, model, hint). */
  readonly callErrors: number;
  /** The first failed model calls (at most 5), with status, model and hint. */
  readonly callFailures: readonly CallFailure[];
  /**
   * Sites that got no tasks, or fewer than `perSite` while some of their batches failed: proposing did not fully
   * succeed for them (a site with 0 tasks is not written, so a rerun proposes it again).
   */
  readonly shortSites: ReadonlyArray<{ readonly site: string; readonly tasks: number; readonly failedBatches: number }>;
}

/**
 * Proposes tasks for every site not yet in `out` and writes them there as the seed does (one JSON line per task,
 * `json.dumps(t, ensure_ascii=False)`, sites in the order of `sites`), resumably: sites already in the file are
 * kept, and after each site the whole file is replaced atomically with that site's block appended, so a run killed
 * at any moment leaves only whole sites behind (see `readTasksFile` for files the seed left torn). Site contexts are
 * built first, so a bad sitemap fails the run before any model call.
 */
export async function runPropose(options: ProposeOptions): Promise<ProposeResult> {
  checkEntry('runPropose', options);
  const { source, llm, out, perSite = PROPOSE_DEFAULTS.perSite, batch = PROPOSE_DEFAULTS.batch, seed = PROPOSE_DEFAULTS.seed, workers = 8, onEvent } = options;
  const store = options.store ?? nodeStore();
  for (const site of options.sites) assertPlainName(site, 'site');
  if (!(Number.isInteger(workers) && workers >= 1)) throw new RangeError(`runPropose: workers must be an integer >= 1, got ${workers}`);
  const setup = proposeSetup({ llm, out, perSite, batch, seed, nPages: options.nPages, cap: options.cap, sitePrefix: options.sitePrefix });
  // Before any model call: a tasks file proposed with another set-up is refused (or mixed on purpose).
  await claimSetup({ store, dir: path.posix.dirname(out), setup, mix: options.mixSetup });
  let failedBatches = 0;
  let skippedTasks = 0;
  const failures: Array<{ site: string; batch: number; reason: string }> = [];
  const failedBySite = new Map<string, number>();
  const report = (event: ProposeEvent) => {
    if (event.type === 'batch-failed') {
      failedBatches++;
      failedBySite.set(event.site, (failedBySite.get(event.site) ?? 0) + 1);
      if (failures.length < 5) failures.push({ site: event.site, batch: event.batch, reason: event.reason });
    }
    if (event.type === 'task-skipped') skippedTasks++;
    onEvent?.(event);
  };

  const guard = new StageGuard('propose', {
    failFast: options.failFast,
    onFailure: (failure) => report({ type: 'call-failed', failure }),
  });

  const file = await readTasksFile(store, out, report);
  let text = file.text;
  const pending = [...new Set(options.sites)].filter((site) => !file.sites.includes(site));
  const contextQueue = new PQueue({ concurrency: workers });
  const contexts = await Promise.all(
    pending.map((site) => contextQueue.add(() => siteContext(site, source, {
      nPages: options.nPages,
      cap: options.cap,
      onRenderError: (path, error) => {
        if (error instanceof PageFetchError) throw new SiteUnreachableError(site, path, error);
      },
    }))),
  );
  // Every site's pages are checked before any model call.
  for (const ctx of contexts) assertSitePages(ctx, options.sitePrefix?.(ctx.site));
  report({ type: 'start', sites: pending, done: file.sites, perSite });

  const queue = new PQueue({ concurrency: workers });
  const jobs = contexts.map((ctx) =>
    queue.add(() => {
      report({ type: 'site-started', site: ctx.site });
      return proposeSite(ctx, { llm: guard.wrap(llm, ctx.site), perSite, batch, seed, onEvent: report, sitePrefix: options.sitePrefix?.(ctx.site) });
    }),
  );
  for (const job of jobs) job.catch(() => undefined); // awaited in order below; a later failure waits its turn

  const written: Array<{ site: string; tasks: number; info: number }> = [];
  for (const [i, job] of jobs.entries()) {
    let tasks: Task[];
    try {
      tasks = await job;
    } catch (error) {
      queue.clear();
      await queue.onIdle();
      if (error instanceof StageStoppedError) report({ type: 'stopped', error });
      throw error;
    }
    const site = contexts[i]!.site;
    const info = tasks.filter((t) => t.task_kind === 'info').length;
    if (tasks.length) {
      // The whole file is replaced, not appended to: an append killed midway leaves part of a site, which the
      // next run would take for done (the seed's resume looks only at which sites appear). Rewriting costs a few
      // MB of writes per run of 52 sites and keeps the seed's file format unchanged.
      text += tasks.map((t) => `${pyDumps(t, { ensureAscii: false })}\n`).join('');
      await store.writeAtomic(out, text);
    }
    written.push({ site, tasks: tasks.length, info });
    report({ type: 'site-done', site, tasks: tasks.length, info });
  }
  return {
    done: file.sites,
    sites: written,
    tasks: written.reduce((n, s) => n + s.tasks, 0),
    info: written.reduce((n, s) => n + s.info, 0),
    failedBatches,
    skippedTasks,
    failures,
    callErrors: guard.failed,
    callFailures: guard.failures,
    shortSites: written
      .filter((w) => w.tasks < perSite && (failedBySite.has(w.site) || w.tasks === 0))
      .map((w) => ({ site: w.site, tasks: w.tasks, failedBatches: failedBySite.get(w.site) ?? 0 })),
  };
}
