/** The relabel step's set-up, as its dir records it (`src/files/setup.ts`): what makes its tasks what they are. @module */
import type { StageSetup } from '../files/setup';
import { textSha256 } from '../files/setup';
import type { LanguageModel } from '../models/types';
import { SYSTEM_RELABEL, relabelPrompt } from './prompt';

/** `runRelabel`'s defaults: at most 3 tasks per episode, 4 screenshots shown to the relabeler. */
export const RELABEL_DEFAULTS = Object.freeze({ k: 3, screenshots: 4 });

// The prompt with its blanks left in: its hash changes whenever a word of the prompts does.
const PROMPT_SHA256 = textSha256(
  SYSTEM_RELABEL,
  '\n\n',
  relabelPrompt({ name: '{name}', home: '{home}', context: '{context}', instruction: '{instruction}', inputs: {}, k: -1 }),
);

/** The relabel dir's set-up: the relabeler and the judge of its episodes, tasks per episode, screenshots, prompt hash. */
export function relabelSetup(input: { readonly llm: LanguageModel; readonly judge: LanguageModel; readonly k: number; readonly screenshots: number }): StageSetup {
  return {
    stage: 'relabel',
    target: '.',
    fields: { model: input.llm.modelId, judge_model: input.judge.modelId, k: input.k, screenshots: input.screenshots, prompt_sha256: PROMPT_SHA256 },
    where: { provider: input.llm.provider, endpoint: input.llm.endpoint ?? null, judge_endpoint: input.judge.endpoint ?? null },
  };
}
