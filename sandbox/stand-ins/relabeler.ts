/**
 * The stand-in relabeler: a {@link LanguageModel} that answers the relabel prompt from the site's task bank. It is
 * not a model: it reads the episode's evidence off the prompt (the answer, the request and change lines, as the
 * stand-in judge does), writes every bank task of the site's hand-written verifier as a claim, and returns up to K
 * tasks whose claim the evidence shows done at some point of the episode (a task finished on the way to another
 * counts: the library cuts the episode there), the most specific first. At a set rate (seeded, per slot) it is
 * wrong on purpose: it returns a bank task whose claim does not hold (the claim check must catch it).
 * @module
 */
import { LLMError, checkClaim, verifierClaim, type Claim, type CompleteOptions, type Completion, type EpisodeEvidence, type LanguageModel, type StartRows, type StepEvidence, type Verifier } from 'miniweb-taskgen';
import { VerifierSchema } from 'miniweb-taskgen/schemas';
import { ZERO_USAGE } from 'miniweb-taskgen/toolkit';
import { defaultCatalog, type SiteCatalog } from '../catalog';
import { normName } from '../oracle';
import type { SandboxTask } from '../tasks';
import { STAND_IN_IMAGE_TOKENS, evidenceFromPrompt, pristineRows, pristineTables } from './judge';
import { STAND_IN_PROVIDER, siteOfPath, unitHash } from './lookup';

/** Options of {@link sandboxRelabeler}. */
export interface SandboxRelabelerOptions {
  /** The share of tasks written wrong on purpose (a claim that does not hold), 0 to 1. Default 0. */
  readonly errorRate?: number;
  /** Seeds which tasks are wrong. Default 0. */
  readonly seed?: number | string;
  /** The sites' catalog. Default the bundled templates. */
  readonly catalog?: SiteCatalog;
  /** Default `stand-in-relabeler`. */
  readonly modelId?: string;
  /** Report estimated token counts (characters / 4, 1,300 per screenshot, as the stand-in judge) instead of zero. Default false. */
  readonly estimateUsage?: boolean;
}

/** A claim of the library's claim language, as JSON. */
export type ClaimJson = Record<string, unknown>;

// A task done by doing nothing (only requests that must not be made) is not a task the episode completed; a row
// that must be gone is, when the episode deleted it (its claim is that delete).
function doesSomething(verifier: Verifier): boolean {
  return Boolean(verifier.answer) || (verifier.requests ?? []).some((r) => !r.should_not_exist) || (verifier.state ?? []).length > 0;
}

// A removal alone (every state check a row that must be gone) was the goal only when the episode did nothing but
// delete: a checkout empties the cart, but it did not "remove the lamp from my cart".
function sideEffect(verifier: Verifier, evidence: EpisodeEvidence): boolean {
  const removal = !verifier.answer && (verifier.state ?? []).every((s) => s.should_not_exist) && !(verifier.requests ?? []).some((r) => !r.should_not_exist);
  return removal && (evidence.changes ?? []).some((c) => c.op !== 'delete');
}

// The prompt's evidence as step-tagged evidence with every item at the last step: a claim then holds when the
// episode showed it at any point, which is what the relabeler can tell from the prompt (the library finds the step).
function atTheEnd(evidence: EpisodeEvidence, steps: number, pages: readonly string[], start: StartRows): StepEvidence {
  const answer = evidence.answer ? evidence.answer : null;
  return {
    steps,
    answer,
    answerStep: answer === null ? null : steps,
    log: (evidence.log ?? []).map((entry) => ({ entry, step: steps })),
    changes: (evidence.changes ?? []).map((change) => ({ change, step: steps })),
    seen: pages.map((text) => ({ text, step: steps })),
    start,
  };
}

// The item an information task is about: the last link its solution follows (a button or a field names a control
// on every page, not an item).
function itemOf(task: SandboxTask): string | undefined {
  const names = task.oracle.map((step) => ('click' in step && step.click.role === 'link' ? step.click.name : undefined)).filter((n): n is string => Boolean(n));
  return names.at(-1);
}

// The options a task's solution picks (a label, a status filter).
function picked(task: SandboxTask): string[] {
  return task.oracle.flatMap((step) => ('select' in step ? [step.select.option] : []));
}

// The texts a task's solution types.
function typed(task: SandboxTask): string[] {
  return task.oracle.flatMap((step) => ('type' in step ? [step.type.text] : []));
}

// The prompt between two headings (JSON in the request lines unescaped enough for a typed text to be found).
function section(prompt: string, head: string, next: string): string {
  const start = prompt.indexOf(head);
  const end = prompt.indexOf(next, start);
  return start < 0 ? '' : prompt.slice(start, end < 0 ? undefined : end).replace(/\\(.)/g, '$1');
}

// A bank task's verifier as a claim; an information task's also names its item on a page seen.
function claimOf(task: SandboxTask, verifier: Verifier): Claim | null {
  const claim = verifierClaim(verifier);
  const item = task.task_kind === 'info' ? itemOf(task) : undefined;
  return claim && item ? { all: [claim, { seen: { contains: item } }] } : claim;
}

/** A stand-in relabeler (provider `sandbox-stand-in`), wrong on purpose on `errorRate` of the tasks it writes. */
export function sandboxRelabeler(options: SandboxRelabelerOptions = {}): LanguageModel {
  const modelId = options.modelId ?? 'stand-in-relabeler';
  const errorRate = options.errorRate ?? 0;
  const seed = String(options.seed ?? 0);
  const rows = new Map<string, (table: string) => Record<string, unknown>[] | undefined>();
  const rowsOf = (catalog: SiteCatalog, site: string) => {
    let get = rows.get(site);
    if (!get) {
      get = pristineRows(catalog, site);
      rows.set(site, get);
    }
    return get;
  };
  const tables = new Map<string, StartRows>();
  const startOf = (catalog: SiteCatalog, site: string) => {
    let got = tables.get(site);
    if (!got) tables.set(site, (got = pristineTables(catalog, site)));
    return got;
  };
  return {
    provider: STAND_IN_PROVIDER,
    modelId,
    async complete(prompt: string, call: CompleteOptions = {}): Promise<Completion> {
      const catalog = options.catalog ?? defaultCatalog();
      const home = /^WEBSITE: .* \(all pages under (\S+)\)$/m.exec(prompt)?.[1];
      const site = home ? siteOfPath(home) : undefined;
      const bank = site ? catalog.tasks(site)?.bank : undefined;
      if (!site || !bank) {
        throw new LLMError(`stand-in relabeler: the prompt names no sandbox site (${home ?? 'no "WEBSITE:" line'})`, { model: modelId, provider: STAND_IN_PROVIDER, isRetryable: false });
      }
      const asked = /^THE AGENT WAS ASKED: (.*)$/m.exec(prompt)?.[1] ?? '';
      const k = Number(/^Write at most (\d+) tasks/m.exec(prompt)?.[1] ?? 3);
      const steps = Math.max(1, Number(/^AGENT'S ACTIONS \((\d+)\):$/m.exec(prompt)?.[1] ?? 1));
      // The prompt's evidence as the judge prompt shows it: the same sections, the same formats.
      const evidence = evidenceFromPrompt(prompt.replace('\n\nPAGES THE AGENT SAW', '\n\nTEXT ON SCREEN'), rowsOf(catalog, site));
      const pages = (/PAGES THE AGENT SAW \(in order\):\n([\s\S]*?)\n\nScreenshots/.exec(prompt)?.[1] ?? '').split(/^--- page \d+$/m);
      const shown = atTheEnd(evidence, steps, pages, startOf(catalog, site));
      const lastPage = normName(pages.at(-1) ?? '');
      const requests = normName(section(prompt, 'SERVER REQUESTS OF THE SESSION', 'PAGES THE AGENT SAW'));
      const everything = `${requests}\n${normName(pages.join('\n'))}`;
      const passing: Array<{ task: SandboxTask; claim: Claim; checks: number }> = [];
      const failing: Array<{ task: SandboxTask; claim: Claim }> = [];
      for (const task of bank) {
        if (task.instruction === asked) continue;
        const verifier = VerifierSchema.safeParse(task.verifier);
        if (!verifier.success || !doesSomething(verifier.data)) continue;
        const claim = claimOf(task, verifier.data);
        if (!claim) continue;
        // An answer alone can match by chance (a count of 3 answers many questions): an information task also needs
        // its item on the page the agent ended on, or, about no item, the options its solution picks (one at least) in
        // the requests;
        // and every task the text its solution types (a search term, a date) in the requests or on the pages.
        const item = itemOf(task);
        const options = picked(task);
        const about = item !== undefined ? lastPage.includes(normName(item)) : options.length > 0 && options.every((o) => requests.includes(normName(o)));
        const there = (task.task_kind !== 'info' || about) && typed(task).every((t) => everything.includes(normName(t)));
        const holds = checkClaim(claim, shown).holds;
        if (holds && there && !sideEffect(verifier.data, evidence)) passing.push({ task, claim, checks: (verifier.data.requests?.length ?? 0) + (verifier.data.state?.length ?? 0) + (verifier.data.answer ? 1 : 0) });
        else if (!holds) failing.push({ task, claim });
      }
      // One answer answers one question: of the information tasks, only the one whose item the last page's title
      // names (a count of 3 or an organizer's name answers many). Then the task that explains most of what the
      // episode did first: a checkout before the cart lines it emptied.
      const title = normName(/^TITLE: (.*)$/m.exec(pages.at(-1) ?? '')?.[1] ?? '');
      const titled = (t: SandboxTask) => (title.includes(normName(itemOf(t) ?? '\u0000')) ? 0 : 1);
      const question = passing.filter((p) => p.task.task_kind === 'info').sort((a, b) => titled(a.task) - titled(b.task))[0];
      const kept = passing.filter((p) => p.task.task_kind !== 'info' || p === question);
      passing.splice(0, passing.length, ...kept.sort((a, b) => b.checks - a.checks));
      const out: Array<{ instruction: string; kind: string; claim: ClaimJson }> = [];
      const slots = Math.min(k, Math.max(1, passing.length));
      for (let i = 0; i < slots; i++) {
        const wrong = unitHash(`${seed}:relabel:${site}:${asked}:${i}`) < errorRate;
        const pick = wrong ? failing[Math.floor(unitHash(`${seed}:pick:${site}:${asked}:${i}`) * failing.length)] : passing[i];
        if (pick) out.push({ instruction: pick.task.instruction, kind: pick.task.task_kind, claim: pick.claim as ClaimJson });
      }
      const text = JSON.stringify({ tasks: out });
      const usage = options.estimateUsage
        ? { inputTokens: Math.ceil((prompt.length + (call.system?.length ?? 0)) / 4) + (call.images?.length ?? 0) * STAND_IN_IMAGE_TOKENS, outputTokens: Math.ceil(text.length / 4) }
        : ZERO_USAGE;
      return { text, usage, model: modelId };
    },
  };
}
