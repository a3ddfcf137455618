/** The proposer's set-up, as the tasks file's dir records it (`src/files/setup.ts`). @module */
import path from 'node:path';
import type { StageSetup } from '../files/setup';
import { textSha256 } from '../files/setup';
import type { LanguageModel } from '../models/types';
import { sitePrefixPattern } from '../attempt/setup';
import { SYSTEM_PROPOSE, proposePrompt } from './prompt';

/** `runPropose`'s defaults: 140 tasks per site, 20 per call, the seed's seed. */
export const PROPOSE_DEFAULTS = Object.freeze({ perSite: 140, batch: 20, seed: 20261008 });

/** What shapes a tasks file: the set-up's inputs (the defaults already applied). */
export interface ProposeSetupInput {
  readonly llm: LanguageModel;
  /** The tasks file. */
  readonly out: string;
  readonly perSite: number;
  readonly batch: number;
  readonly seed: number;
  readonly nPages?: number;
  readonly cap?: number;
  readonly sitePrefix?: (site: string) => string;
}

// The prompt with its blanks left in: its hash changes whenever a word of the prompts does.
const PROMPT_SHA256 = textSha256(
  SYSTEM_PROPOSE,
  '\n\n',
  proposePrompt({ name: '{name}', home: '{home}', context: '{context}', n: -1, nInfo: -2, nAct: -3, focus: '{focus}', avoid: '{avoid}' }),
);

/** The tasks file's set-up: the proposer model, per-site, batch, seed, context sizes, prompt hash, site prefix. */
export function proposeSetup(input: ProposeSetupInput): StageSetup {
  return {
    stage: 'propose',
    target: path.posix.basename(input.out),
    fields: {
      model: input.llm.modelId,
      per_site: input.perSite,
      batch: input.batch,
      seed: input.seed,
      n_pages: input.nPages ?? null,
      cap: input.cap ?? null,
      prompt_sha256: PROMPT_SHA256,
      site_prefix: sitePrefixPattern(input.sitePrefix),
    },
    where: { provider: input.llm.provider, endpoint: input.llm.endpoint ?? null },
  };
}
