/** The attempt step's set-up, as the run dir records it (`src/files/setup.ts`). @module */
import type { StageSetup } from '../files/setup';
import type { Policy } from '../agent/types';
import { defaultSitePrefix } from '../browser/site-boundary';

/** What shapes a run's episodes: the set-up's inputs (the defaults already applied). */
export interface AttemptSetupInput {
  readonly policy: Policy;
  readonly maxSteps: number;
  readonly baseUrl: string;
  readonly sitePrefix?: (site: string) => string;
}

const PROBE = 'SITE';

/** `runAttempt`'s default steps per episode. */
export const DEFAULT_MAX_STEPS = 15;

/** Tries in a row that could not run after which a run stops (`stopAfterFailures`): a few, so an outage costs little. */
export const DEFAULT_STOP_AFTER_FAILURES = 3;

/** A site-prefix function as one text, `/sites/<site>/`, from the prefix it gives a probe site name. */
export function sitePrefixPattern(prefixOf: ((site: string) => string) | undefined): string {
  return (prefixOf ?? defaultSitePrefix)(PROBE).split(PROBE).join('<site>');
}

/** The run's set-up: the policy and its model, max steps and site prefix; where the agent and sites ran. */
export function attemptSetup(input: AttemptSetupInput): StageSetup {
  return {
    stage: 'attempt',
    target: '.',
    fields: {
      policy: input.policy.name,
      model: input.policy.model ?? null,
      max_steps: input.maxSteps,
      site_prefix: sitePrefixPattern(input.sitePrefix),
      // A sampling policy's temperature and seed: a greedy run's set-up (and digest) stays what it was.
      ...Object.fromEntries(Object.entries(input.policy.sampling ?? {}).map(([k, v]) => [`sampling_${k}`, v])),
    },
    where: { endpoint: input.policy.endpoint ?? null, base_url: input.baseUrl },
  };
}
