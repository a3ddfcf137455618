/**
 * The stand-in relabeler: a {@link LanguageModel} that answers the relabel prompt from the site's task bank. It is
 * not a model: it reads the episode's evidence off the prompt (the answer, the request and change lines, as the
 * stand-in judge does), grades every bank task of the site with its hand-written verifier, and returns up to K
 * tasks whose verifier passes, each with the verifier written as a claim. At a set rate (seeded, per slot) it is
 * wrong on purpose: it returns a bank task whose verifier does not pass, with that task's claim, which does not
 * hold (the claim check must catch it).
 * @module
 */
import { LLMError, verifierClaim, verifyEpisode, type CompleteOptions, type Completion, type LanguageModel, type Verifier } from 'miniweb-taskgen';
import { VerifierSchema } from 'miniweb-taskgen/schemas';
import { ZERO_USAGE } from 'miniweb-taskgen/toolkit';
import { defaultCatalog, type SiteCatalog } from '../catalog';
import { normName, stepTarget } from '../oracle';
import type { SandboxTask } from '../tasks';
import { STAND_IN_IMAGE_TOKENS, evidenceFromPrompt, pristineRows } from './judge';
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

// A task done by doing nothing (every check a "must not") is not a task the episode completed.
function positive(verifier: Verifier): boolean {
  return Boolean(verifier.answer) || (verifier.requests ?? []).some((r) => !r.should_not_exist) || (verifier.state ?? []).some((s) => !s.should_not_exist);
}

// The name of the last element the task's oracle solution acts on (the item an information task is about).
function lastTarget(task: SandboxTask): string | undefined {
  const names = task.oracle.map((step) => stepTarget(step)?.name).filter((n): n is string => Boolean(n));
  return names.at(-1);
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
      // The prompt's evidence as the judge prompt shows it: the same sections, the same formats.
      const evidence = evidenceFromPrompt(prompt.replace('\n\nPAGES THE AGENT SAW', '\n\nTEXT ON SCREEN'), rowsOf(catalog, site));
      const pages = (/PAGES THE AGENT SAW \(in order\):\n([\s\S]*?)\n\nScreenshots/.exec(prompt)?.[1] ?? '').split(/^--- page \d+$/m);
      const lastPage = normName(pages.at(-1) ?? '');
      const passing: SandboxTask[] = [];
      const failing: SandboxTask[] = [];
      for (const task of bank) {
        if (task.instruction === asked) continue;
        const verifier = VerifierSchema.safeParse(task.verifier);
        if (!verifier.success || !positive(verifier.data)) continue;
        // An answer alone can match by chance: an information task also needs its item on the page the agent ended on.
        const item = lastTarget(task);
        const there = task.task_kind !== 'info' || item === undefined || lastPage.includes(normName(item));
        ((await verifyEpisode(verifier.data, evidence)).ok && there ? passing : failing).push(task);
      }
      const out: Array<{ instruction: string; kind: string; claim: ClaimJson }> = [];
      const slots = Math.min(k, Math.max(1, passing.length));
      for (let i = 0; i < slots; i++) {
        const wrong = unitHash(`${seed}:relabel:${site}:${asked}:${i}`) < errorRate;
        const pool = wrong || i >= passing.length ? (wrong ? failing : []) : passing;
        const pick = wrong ? pool[Math.floor(unitHash(`${seed}:pick:${site}:${asked}:${i}`) * pool.length)] : passing[i];
        if (!pick) continue;
        const claim = verifierClaim(pick.verifier as Verifier) as ClaimJson | null;
        if (!claim) continue;
        const item = pick.task_kind === 'info' ? lastTarget(pick) : undefined;
        out.push({ instruction: pick.instruction, kind: pick.task_kind, claim: item ? { all: [claim, { seen: { contains: item } }] } : claim });
      }
      const text = JSON.stringify({ tasks: out });
      const usage = options.estimateUsage
        ? { inputTokens: Math.ceil((prompt.length + (call.system?.length ?? 0)) / 4) + (call.images?.length ?? 0) * STAND_IN_IMAGE_TOKENS, outputTokens: Math.ceil(text.length / 4) }
        : ZERO_USAGE;
      return { text, usage, model: modelId };
    },
  };
}
