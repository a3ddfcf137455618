/** The judge's set-up, as its dir records it (`src/files/setup.ts`): what makes its records what they are. @module */
import type { StageSetup } from '../files/setup';
import { textSha256 } from '../files/setup';
import type { LanguageModel } from '../models/types';
import { PRESETS, type JudgeVariant } from './variant';

/** The judge dir's set-up: the model, the variant with its prompt's hash and sampling, and where the model ran. */
export function judgeSetup(llm: LanguageModel, model: string, variant: JudgeVariant | undefined): StageSetup {
  const v = variant ?? PRESETS.seed;
  return {
    stage: 'judge',
    target: '.',
    fields: {
      model,
      variant: v.name,
      prompt_sha256: textSha256(v.system, '\n\n', v.template),
      screenshots: v.screenshots,
      pick: v.pick,
      votes: v.votes,
      combine: v.combine,
      temperature: v.temperature,
    },
    where: { provider: llm.provider, endpoint: llm.endpoint ?? null },
  };
}
