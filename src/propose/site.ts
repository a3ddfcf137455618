/**
 * One site's tasks (the seed's `propose_site`): batches, focus pages, dedup and task ids.
 * @module
 */
import { createHash } from 'node:crypto';
import type { SiteContext } from '../sites/context';
import { defaultSitePrefix, outsideSite, siteBoundary } from '../browser/site-boundary';
import { InputError, describeError } from '../core/errors';
import { stopsStage, type CallFailure, type StageStoppedError } from '../models/failures';
import type { LanguageModel } from '../models/types';
import { parsePyJson, pyErrorName } from '../core/py/json';
import { PyRandom } from '../core/py/random';
import { isDict, pyDictGet, pyOr, pyStr, pyTypeName } from '../core/py/repr';
import { pyRound } from '../core/py/round';
import { cpLength, cpSlice, pyStrip } from '../core/py/text';
import type { Task } from '../core/schemas';
import type { TasksFileEvent } from './file';
import { SYSTEM_PROPOSE, proposePrompt } from './prompt';
import { checkEntry } from '../core/check';

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
  /** A model call failed (its batch fails; a fatal error stops proposing, see `StageGuard`). */
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
  checkEntry('proposeSite', options);
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
