/**
 * Step 1, propose: an LLM writes goal-level tasks for each site from its context (the seed's `propose_site` and
 * `cmd_propose`), with the seed's prompts, batches, focus pages, dedup and task ids.
 * @module
 */
import { createHash } from 'node:crypto';
import PQueue from 'p-queue';
import { siteContext, type SiteContext, type SiteContextOptions } from './context';
import { defaultSitePrefix, outsideSite, siteBoundary } from './agent/site-boundary';
import { InputError, describeError } from './errors';
import { StageGuard, StageStoppedError, stopsStage, type CallFailure } from './failures';
import { nodeStore } from './fs/node';
import type { FileStore } from './fs/types';
import type { LanguageModel } from './llm/types';
import { assertPlainName } from './names';
import { parsePyJson, pyDumps, pyErrorName } from './py/json';
import { PyRandom } from './py/random';
import { isDict, pyDictGet, pyOr, pyStr, pyTypeName } from './py/repr';
import { pyRound } from './py/round';
import { cpLength, cpSlice, pyStrip } from './py/text';
import type { Task } from './schemas';
import { PageFetchError, SiteUnreachableError } from './source/errors';
import type { SiteSource } from './source/types';
import { readTasksFile, type TasksFileEvent } from './propose-file';

/** The proposer's system prompt, as the seed's `SYSTEM_PROPOSE`. */
export const SYSTEM_PROPOSE =
  'You write tasks for training a web agent, the way InSTA proposes tasks for real websites: realistic goals ' +
  'that a real user of this website would have. You see one website: its pages, its controls, and the text of its main pages.';

/** The values {@link proposePrompt} fills in (the seed's `PROMPT_PROPOSE.format` arguments). */
export interface ProposePromptInput {
  readonly name: string;
  readonly home: string;
  /** The site context text ({@link SiteContext.text}). */
  readonly context: string;
  /** Tasks asked for. */
  readonly n: number;
  /** Of which information tasks (`round(n * 0.4)` in the seed). */
  readonly nInfo: number;
  /** Of which action tasks (`n - nInfo`). */
  readonly nAct: number;
  /** The focus line. */
  readonly focus: string;
  /** Earlier instructions to avoid, `; `-joined, or `(none yet)`. */
  readonly avoid: string;
}

/** The seed's `PROMPT_PROPOSE.format(...)`, byte for byte. */
export function proposePrompt(p: ProposePromptInput): string {
  return `WEBSITE: ${p.name} (all pages under ${p.home})

${p.context}

Write ${p.n} new tasks for this website. Rules:
- Each task is ONE natural instruction stating the user's goal, the way a person would ask for it ("Find ...", \
"Book ...", "Change my ...", "What is ..."), never click-by-click steps.
- Every task starts on the home page (${p.home}), as a visitor arriving at the site would, and is doable on this \
website alone in about 3 to 10 browser actions from there. Use real names, values and items that appear above; never \
invent items that are not on the site.
- Mix: about ${p.nInfo} information tasks (the answer is a specific fact the site shows; say what to report, e.g. \
"report the price") and ${p.nAct} tasks that do something (search, filter, sort, create, edit, delete, book, buy, send, \
share, save, configure, ...), some of them combining two or three of these.
- ${p.focus}
- The user is already logged in. No passwords, no other websites, no files the user would have to provide.
- Do not repeat these earlier tasks: ${p.avoid}

Return JSON: {"tasks": [{"instruction": "...", "kind": "info" | "action"}]}`;
}

/** What proposing reports, for progress and logs (the library prints nothing). */
export type ProposeEvent =
  | { readonly type: 'site-started'; readonly site: string }
  /** A batch's reply was read; `added` new tasks, `tasks` so far. */
  | { readonly type: 'batch-done'; readonly site: string; readonly batch: number; readonly added: number; readonly tasks: number }
  /** A batch gave nothing: the call failed or the reply was not tasks (the seed prints and goes on). */
  | { readonly type: 'batch-failed'; readonly site: string; readonly batch: number; readonly reason: string }
  /** One entry of a reply was skipped where the seed would crash (not an object, not encodable). */
  | { readonly type: 'task-skipped'; readonly site: string; readonly batch: number; readonly index: number; readonly reason: string }
  /** A site's tasks were written (sites are written in input order). */
  | { readonly type: 'site-done'; readonly site: string; readonly tasks: number; readonly info: number }
  /** A model call failed (its batch fails; a fatal error stops proposing, see {@link StageGuard}). */
  | { readonly type: 'call-failed'; readonly failure: CallFailure }
  /** Proposing stopped before the end: its model calls cannot succeed (the error is thrown next). */
  | { readonly type: 'stopped'; readonly error: StageStoppedError }
  /** Proposing starts: `sites` to propose, `done` already in the file. */
  | { readonly type: 'start'; readonly sites: readonly string[]; readonly done: readonly string[]; readonly perSite: number }
  | TasksFileEvent;

/** Options of {@link proposeSite}. */
export interface ProposeSiteOptions {
  /** The proposer (the seed: Gemini 3.5 Flash). Called with temperature 1.0, JSON mode, 8192 max tokens. */
  readonly llm: LanguageModel;
  /** Tasks wanted for the site. Default 140. */
  readonly perSite?: number;
  /** Tasks asked for per call. Default 20. */
  readonly batch?: number;
  /** Seeds the focus-page draws with `random.Random(f"{seed}:{site}")`. Default 20261008. */
  readonly seed?: number;
  /** Receives `batch-done`, `batch-failed` and `task-skipped` events. */
  readonly onEvent?: (event: ProposeEvent) => void;
  /** The site's path prefix on its server; every sitemap page must be under it. Default `/sites/<site>/`. */
  readonly sitePrefix?: string;
}

/**
 * Refuses a site whose sitemap has a page outside the site (a local file, another site, another server, the
 * evidence API): its home page would be every proposed task's start page. Throws an {@link InputError} naming
 * the sitemap's field.
 */
export function assertSitePages(ctx: Pick<SiteContext, 'site' | 'home' | 'paths'>, prefix = defaultSitePrefix(ctx.site)): void {
  const somewhere = 'http://site.invalid'; // the server is not known here: only the path is checked
  const boundary = siteBoundary(somewhere, prefix);
  const check = (path: string, field: string) => {
    let reason: string | null;
    try {
      reason = outsideSite(new URL(path, somewhere), boundary);
    } catch {
      reason = 'not a URL';
    }
    if (reason !== null) {
      throw new InputError({ file: `sitemap of ${ctx.site}`, field }, `${JSON.stringify(path)} is outside the site ${prefix} (${reason.replace(somewhere, 'the server')}): refused`);
    }
  };
  ctx.paths.forEach((path, i) => check(path, `pages.${i}.path`));
  if (ctx.paths.length === 0) check(ctx.home, 'home');
}

const MAIN_SECTIONS = "Most of these tasks should involve the site's main sections.";

/**
 * Proposes up to `perSite` tasks for one site, as the seed's `propose_site`: `ceil(perSite / batch) + 2` calls at
 * most, every third on the main sections and the others on four pages drawn at random, each asking to avoid the
 * last 40 instructions. Instructions are stripped, those under 15 characters or repeating an earlier one (after
 * normalization) dropped, ids are `tg-<site>-<md5(instruction)[:8]>`, and every task starts on the home page.
 * A failed call or a reply that is not tasks is reported (`batch-failed`) and skipped.
 */
export async function proposeSite(ctx: SiteContext, options: ProposeSiteOptions): Promise<Task[]> {
  const { llm, perSite = 140, batch = 20, seed = 20261008, onEvent } = options;
  if (!(Number.isInteger(batch) && batch >= 1)) throw new RangeError(`proposeSite: batch must be an integer >= 1, got ${batch}`);
  if (!Number.isInteger(perSite)) throw new RangeError(`proposeSite: perSite must be an integer, got ${perSite}`);
  const { site, home } = ctx;
  assertSitePages(ctx, options.sitePrefix);
  const rng = new PyRandom(`${pyStr(seed)}:${site}`);
  const out: Task[] = [];
  const seen = new Set<string>();
  const others = ctx.paths.filter((p) => p !== home);
  const focusPages = others.length ? others : [home];
  const batches = Math.floor((perSite + batch - 1) / batch) + 2; // +2: room for duplicates and invalid rows
  for (let b = 0; b < batches; b++) {
    if (out.length >= perSite) break;
    // Drawn on every batch, main-sections ones included, so later draws match the seed's.
    const pick = rng.sample(focusPages, Math.min(4, focusPages.length));
    const focus = b % 3 ? `Most of these tasks should involve these parts of the site: ${pick.join(', ')}` : MAIN_SECTIONS;
    const avoid = out.slice(-40).map((t) => cpSlice(t.instruction, 0, 90)).join('; ') || '(none yet)';
    const n = Math.min(batch, perSite - out.length + 4);
    const nInfo = pyRound(n * 0.4);
    const prompt = proposePrompt({ name: ctx.name, home, context: ctx.text, n, nInfo, nAct: n - nInfo, focus, avoid });
    let entries: unknown[];
    try {
      const reply = await llm.complete(prompt, { system: SYSTEM_PROPOSE, json: true, maxTokens: 8192, temperature: 1.0 });
      entries = replyTasks(reply.text);
    } catch (error) {
      // A bad key or an unknown model fails every batch alike: proposing stops instead.
      if (stopsStage(error)) throw error;
      onEvent?.({ type: 'batch-failed', site, batch: b, reason: failure(error) });
      continue;
    }
    const before = out.length;
    entries.forEach((t, index) => {
      const skip = (reason: string) => onEvent?.({ type: 'task-skipped', site, batch: b, index, reason });
      if (!isDict(t)) return skip(`not an object (type ${pyTypeName(t)}): ${cpSlice(pyStr(t), 0, 80)}`);
      const ins = pyStrip(pyStr(pyOr(t.instruction, '')));
      if (cpLength(ins) < 15 || seen.has(norm(ins))) return;
      if (LONE_SURROGATE.test(ins)) return skip('instruction is not valid Unicode (a lone surrogate)');
      seen.add(norm(ins));
      out.push(proposedTask(site, home, ins, t.kind));
    });
    onEvent?.({ type: 'batch-done', site, batch: b, added: out.length - before, tasks: out.length });
  }
  return out.slice(0, Math.max(0, perSite));
}

// json.loads(raw or "{}"), then .get("tasks") of a dict or the value itself (a bare list happens too), or [].
function replyTasks(raw: string): unknown[] {
  const got = parsePyJson(raw || '{}');
  const tasks = pyOr(isDict(got) ? pyDictGet(got, 'tasks') : got, []);
  // The seed iterates whatever this is and crashes on anything but a list; here the batch fails instead.
  if (!Array.isArray(tasks)) throw new TypeError(`the reply's tasks are not a list (type ${pyTypeName(tasks)}): ${cpSlice(pyStr(tasks), 0, 80)}`);
  return tasks;
}

function proposedTask(site: string, home: string, instruction: string, kind: unknown): Task {
  const md5 = createHash('md5').update(instruction, 'utf8').digest('hex');
  return {
    kind: 'proposed',
    task_id: `tg-${site}-${md5.slice(0, 8)}`,
    site,
    sites: [site],
    macro: 'proposed',
    macros: [],
    instruction,
    start_path: home, // InSTA's rule: every task starts at the site's front page
    task_kind: kind === 'info' || kind === 'action' ? kind : 'action',
    verifier: null,
  };
}

/** The seed's `_norm`: lower case, runs of anything but `[a-z0-9]` as one space, stripped. */
function norm(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

// As the seed prints it: `<type> <message[:120]>` (a JSON error under Python's name for it).
function failure(error: unknown): string {
  if (!(error instanceof Error)) return cpSlice(describeError(error), 0, 120);
  return `${pyErrorName(error)} ${cpSlice(error.message, 0, 120)}`;
}

/** Options of {@link proposeSites}. */
export interface ProposeSitesOptions extends Omit<ProposeSiteOptions, 'onEvent' | 'sitePrefix'>, SiteContextOptions {
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
}

/** What {@link proposeSites} did. */
export interface ProposeSummary {
  /** Sites already in the file before this run (kept as they were). */
  readonly done: readonly string[];
  /** The sites proposed by this run, in the order written; a site with 0 tasks is not written. */
  readonly sites: ReadonlyArray<{ readonly site: string; readonly tasks: number; readonly info: number }>;
  /** Tasks written by this run, and how many of them are information tasks. */
  readonly tasks: number;
  readonly info: number;
  /** Batches that gave nothing, and reply entries skipped. */
  readonly failedBatches: number;
  readonly skippedTasks: number;
  /** The first failed batches and why (a failed call, or a reply that is not tasks). */
  readonly failures: ReadonlyArray<{ readonly site: string; readonly batch: number; readonly reason: string }>;
  /** Failed model calls in all, and the first of them with their causes (status, model, hint). */
  readonly callErrors: number;
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
export async function proposeSites(options: ProposeSitesOptions): Promise<ProposeSummary> {
  const { source, llm, out, perSite = 140, batch = 20, seed = 20261008, workers = 8, onEvent } = options;
  const store = options.store ?? nodeStore();
  for (const site of options.sites) assertPlainName(site, 'site');
  if (!(Number.isInteger(workers) && workers >= 1)) throw new RangeError(`proposeSites: workers must be an integer >= 1, got ${workers}`);
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
