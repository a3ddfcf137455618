/**
 * `<run>_relabel/_parents/<task_id>.json`: what relabel decided for one parent episode, every task the relabeler
 * wrote with its fate (a claim that did not hold is kept here, counted, and never judged), and the tokens spent.
 * A parent with a record bound to its current recording is done; a rerun skips it.
 * @module
 */
import { z } from 'zod';

/** What became of one task the relabeler wrote. */
export const RELABEL_STATUSES: readonly RelabelStatus[] = [
  /** Claim held, the judge said SUCCESS: a candidate for rows. */
  'accepted',
  /** Claim held, the judge said NOT SUCCESS. */
  'judged-failure',
  /** The claim does not hold on the episode (or no longer at the prefix cut): never judged. */
  'claim-failed',
  /** The claim holds on an episode that did nothing, or at the episode's start: it proves nothing; never judged. */
  'vacuous',
  /** Not a claim of the language: never judged. */
  'bad-claim',
  /** An information task, but the episode gave no answer: never judged. */
  'no-answer',
  /** Its rows cannot be rendered under the new instruction (the agent's prompt is not the library's). */
  'unrenderable',
];

/** Tokens of one model over one parent. */
export const RelabelUsageSchema = z.object({ calls: z.number().int().nonnegative(), input_tokens: z.number().nonnegative(), output_tokens: z.number().nonnegative() });

/** One parent's record. */
export const RelabelParentSchema = z.looseObject({
  parent_task_id: z.string().min(1),
  /** The parent recording's identity (`src/files/episode-id.ts`): a record of another recording is stale. */
  episode_id: z.string().nullable(),
  site: z.string(),
  instruction: z.string(),
  proposer: z.object({ model: z.string(), provider: z.string() }).extend(RelabelUsageSchema.shape),
  judge: z.object({ model: z.string(), provider: z.string() }).extend(RelabelUsageSchema.shape),
  proposals: z.array(
    z.looseObject({
      instruction: z.string(),
      kind: z.enum(['info', 'action']),
      claim: z.unknown(),
      status: z.enum(['accepted', 'judged-failure', 'claim-failed', 'vacuous', 'bad-claim', 'no-answer', 'unrenderable']),
      detail: z.string(),
      task_id: z.string().nullable(),
      first_step: z.number().int().nullable(),
      prefix_steps: z.number().int().nullable(),
      rows: z.number().int().nonnegative().nullable(),
    }),
  ),
});
/** One parent's record. */
export type RelabelParent = z.infer<typeof RelabelParentSchema>;
/** One task the relabeler wrote, with its fate. */
export type RelabelProposal = RelabelParent['proposals'][number];
/** What became of a task the relabeler wrote (`_parents/<task_id>.json`'s `status`). */
export type RelabelStatus = 'accepted' | 'judged-failure' | 'claim-failed' | 'vacuous' | 'bad-claim' | 'no-answer' | 'unrenderable';
