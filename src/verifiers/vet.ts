/**
 * Whether a written claim may be kept as a verifier: it must hold on the episode it was written from, prove
 * something (not vacuous: false on an episode that did nothing and at the episode's start), pin an information
 * task's answer (fail when the answer is another one, or none), pin the values the task's instruction names that
 * its episode's change or request carries (`./pin.ts`), and not pass too many of the run's other tasks' episodes of
 * its site (its looseness, recorded with the verifier).
 * @module
 */
import { checkClaim } from '../claims/check';
import type { StepEvidence } from '../claims/evidence';
import type { Claim } from '../claims/schema';
import type { TaskKind } from '../core/schemas';
import { unpinnedValue } from './pin';

/** The share of the site's other tasks' episodes a kept verifier may pass, by default. */
export const DEFAULT_MAX_LOOSE_SHARE = 0.25;

/** How many of the run's other tasks' episodes of its site a verifier passes. */
export interface Looseness {
  /** Other tasks' episodes of the site it was run on. */
  readonly episodes: number;
  /** Of those, the ones it passes. */
  readonly passes: number;
}

/** What {@link vetClaim} decided. */
export type Vetted =
  | { readonly outcome: 'written'; readonly detail: string; readonly looseness: Looseness }
  | { readonly outcome: 'not-holding' | 'vacuous' | 'loose'; readonly detail: string };

/** What {@link vetClaim} needs. */
export interface VetInput {
  readonly claim: Claim;
  readonly kind: TaskKind;
  /** The task's instruction: an action task's claim must pin the values it names that the episode's evidence carries. */
  readonly instruction?: string;
  /** The evidence of the episode the claim was written from. */
  readonly evidence: StepEvidence;
  /** The evidence of the run's other tasks' episodes on the same site. */
  readonly others: readonly StepEvidence[];
  /** The largest share of `others` the claim may pass. */
  readonly maxLooseShare: number;
}

// Answers no question of a site has: a claim that accepts one accepts any answer. Several shapes, as the answer rule
// fails an answer with competing candidates ("n/a" holds three single characters, so a `\S` pattern needs "x"). A
// one-digit answer can be right, so a claim is loose on digits only when it accepts two different ones.
const OTHER_ANSWERS: ReadonlyArray<ReadonlyArray<string | null>> = [[null], ['n/a'], ['x'], ['987654321'], ['7', '8']];

/** Vets a written claim (see the module notes); the first test it fails decides. */
export function vetClaim(input: VetInput): Vetted {
  const { claim, evidence } = input;
  const question = { question: input.instruction ?? null };
  const result = checkClaim(claim, evidence, question);
  if (!result.holds) return { outcome: 'not-holding', detail: result.detail };
  if (result.vacuous !== null) return { outcome: 'vacuous', detail: `the claim ${result.vacuous}` };
  if (input.kind === 'info') {
    for (const answers of OTHER_ANSWERS) {
      const holds = (answer: string | null) => checkClaim(claim, { ...evidence, answer, answerStep: answer === null ? null : evidence.answerStep ?? evidence.steps }, question).holds;
      if (answers.every(holds)) return { outcome: 'loose', detail: `an information task's claim must pin its answer, but it holds with the answer ${answers.map((a) => JSON.stringify(a)).join(' and with ')}` };
    }
  }
  if (input.kind === 'action' && input.instruction) {
    const unpinned = unpinnedValue(claim, input.instruction, evidence);
    if (unpinned) return { outcome: 'loose', detail: `does not pin ${JSON.stringify(unpinned.value)}, which the task names and the episode's ${unpinned.carrier} carries` };
  }
  const looseness = loosenessOf(claim, input.others, input.instruction);
  if (looseness.episodes > 0 && looseness.passes / looseness.episodes > input.maxLooseShare) {
    return { outcome: 'loose', detail: `it passes ${looseness.passes} of the site's ${looseness.episodes} other tasks' episodes (more than ${input.maxLooseShare})` };
  }
  return { outcome: 'written', detail: result.detail, looseness };
}

/** How many of `others` a claim passes (holds on, and not vacuously), as the answer to `question` (its task's instruction). */
export function loosenessOf(claim: Claim, others: readonly StepEvidence[], question?: string): Looseness {
  let passes = 0;
  for (const ev of others) {
    const r = checkClaim(claim, ev, { question: question ?? null });
    if (r.holds && r.vacuous === null) passes++;
  }
  return { episodes: others.length, passes };
}
