/**
 * The stand-in proposer: a {@link LanguageModel} that answers the seed's propose prompt from the site's task bank,
 * for running the pipeline offline. It is not a model: it reads the site (`all pages under /sites/<site>/`), the
 * number of tasks asked for and the tasks to avoid, and serves the bank in order after the last avoided one.
 * @module
 */
import { LLMError, type Completion, type LanguageModel } from 'miniweb-taskgen';
import { ZERO_USAGE, cpSlice } from 'miniweb-taskgen/toolkit';
import { defaultCatalog, type SiteCatalog } from '../catalog';
import { STAND_IN_PROVIDER, siteOfPath } from './lookup';

/** Options of {@link sandboxProposer}. */
export interface SandboxProposerOptions {
  /** The sites' catalog. Default the bundled templates. */
  readonly catalog?: SiteCatalog;
  /** Default `stand-in-proposer`. */
  readonly modelId?: string;
}

/**
 * A stand-in proposer (provider `sandbox-stand-in`). Each reply is `{"tasks": [{instruction, kind}]}` with the
 * next `n` bank tasks after the last one named in the prompt's "Do not repeat" list (the seed shows the first
 * 90 characters of the last 40 tasks), so successive batches never repeat and the same prompt gets the same
 * reply.
 */
export function sandboxProposer(options: SandboxProposerOptions = {}): LanguageModel {
  const modelId = options.modelId ?? 'stand-in-proposer';
  const fail = (message: string): never => {
    throw new LLMError(`stand-in proposer: ${message}`, { model: modelId, provider: STAND_IN_PROVIDER, isRetryable: false });
  };
  return {
    provider: STAND_IN_PROVIDER,
    modelId,
    async complete(prompt: string): Promise<Completion> {
      const catalog = options.catalog ?? defaultCatalog();
      const home = /^WEBSITE: .* \(all pages under (\S+)\)$/m.exec(prompt)?.[1];
      const site = home ? siteOfPath(home) : undefined;
      const bank = site ? catalog.tasks(site)?.bank : undefined;
      if (!bank) return fail(`the prompt names no sandbox site (${home ?? 'no "WEBSITE:" line'})`);
      const n = Number(/^Write (\d+) new tasks/m.exec(prompt)?.[1] ?? 20);
      const avoid = /Do not repeat these earlier tasks: ([^\n]*)/.exec(prompt)?.[1] ?? '';
      let start = 0;
      bank.forEach((t, i) => {
        if (avoid.includes(cpSlice(t.instruction, 0, 90))) start = Math.max(start, i + 1);
      });
      const tasks = bank.slice(start, start + n).map((t) => ({ instruction: t.instruction, kind: t.task_kind }));
      return { text: JSON.stringify({ tasks }), usage: ZERO_USAGE, model: modelId };
    },
  };
}
