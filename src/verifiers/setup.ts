/** The verifier writer's set-up, as the verifiers file's dir records it (`src/files/setup.ts`). @module */
import path from 'node:path';
import type { StageSetup } from '../files/setup';
import { textSha256 } from '../files/setup';
import { SYSTEM_VERIFIER, verifierPrompt } from './prompt';

// The prompt with its blanks left in: its hash changes whenever a word of the prompts does.
const PROMPT_SHA256 = textSha256(
  SYSTEM_VERIFIER,
  '\n\n',
  verifierPrompt({ task: { instruction: '{instruction}', site: '{site}', task_kind: 'info' }, inputs: {}, siteContext: '{context}' }),
);

/** The verifiers file's set-up: the writer model and the prompt's hash. */
export function verifiersSetup(input: { readonly out: string; readonly model: string; readonly provider: string; readonly endpoint?: string }): StageSetup {
  return {
    stage: 'verifiers',
    target: path.posix.basename(input.out),
    fields: { model: input.model, prompt_sha256: PROMPT_SHA256 },
    where: { provider: input.provider, endpoint: input.endpoint ?? null },
  };
}
