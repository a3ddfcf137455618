/**
 * The claim language (zod): what an episode's evidence must show. A claim is JSON, so a model can write one and a
 * file can keep one; {@link checkClaim} decides it on a recorded episode at every step prefix.
 * @module
 */
import { z } from 'zod';

/** A `{pattern}` must compile as a JavaScript regular expression (flag `i`). */
const patternSource = z.string().min(1).refine((source) => {
  try {
    new RegExp(source, 'i');
    return true;
  } catch {
    return false;
  }
}, 'not a valid regular expression');

/**
 * A value a field, a path, an answer or a page must show. A plain scalar compares loosely, like the sandbox's
 * verifiers (strings case-folded with whitespace collapsed, `"2"` equal to `2`, booleans as `true`/`1`/`on`,
 * `null` as absent or empty); on a page's text (`seen`) it must appear in the text. `{contains}` is a case-folded,
 * whitespace-collapsed substring; `{pattern}` a JavaScript regular expression source, matched case-insensitively;
 * `{number, tolerance}` a number within `tolerance` (default 0) of `number`, also when written in a text
 * (`$1,234.50` shows `{number: 1234.5}`).
 */
export type ClaimValue =
  | string
  | number
  | boolean
  | null
  | { contains: string }
  | { pattern: string }
  | { number: number; tolerance?: number };

const MATCHERS = ['contains', 'pattern', 'number'] as const;

/** The zod schema of a {@link ClaimValue}; a matcher object has exactly one of `contains`, `pattern`, `number`. */
export const ClaimValueSchema = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z
    .strictObject({
      contains: z.string().min(1).optional(),
      pattern: patternSource.optional(),
      number: z.number().optional(),
      tolerance: z.number().nonnegative().optional(),
    })
    .superRefine((v, ctx) => {
      const keys = MATCHERS.filter((k) => k in v);
      if (keys.length !== 1) ctx.addIssue({ code: 'custom', message: `a value object has exactly one of ${MATCHERS.join(', ')}; got ${keys.join(', ') || 'none'}` });
      else if ('tolerance' in v && keys[0] !== 'number') ctx.addIssue({ code: 'custom', path: ['tolerance'], message: 'tolerance goes with number only' });
    }),
]) as unknown as z.ZodType<ClaimValue>;

/** The operations of a data change. */
export const CHANGE_OPS = ['create', 'update', 'delete'] as const;

/**
 * A data change the session made: a row of `table` created, updated or deleted (`op`; any when absent) whose
 * `fields` have these values (the row after the change; before it for a delete). `changed` lists fields the change
 * must have changed (an update that left them alone does not count).
 */
export const ChangeClaimSchema = z.strictObject({
  table: z.string().min(1),
  op: z.enum(CHANGE_OPS).optional(),
  fields: z.record(z.string(), ClaimValueSchema).optional(),
  changed: z.array(z.string().min(1)).optional(),
});
/** A data change claim's body. */
export type ChangeClaim = z.infer<typeof ChangeClaimSchema>;

/**
 * A request the session made that the server did not refuse (status under 400): its `method` (any when absent,
 * case-insensitive), its `path` (without the query; a trailing slash ignored) and `params` among its query and body
 * parameters.
 */
export const RequestClaimSchema = z.strictObject({
  method: z.string().min(1).optional(),
  path: ClaimValueSchema,
  params: z.record(z.string(), ClaimValueSchema).optional(),
});
/** A request claim's body. */
export type RequestClaim = z.infer<typeof RequestClaimSchema>;

/**
 * How many rows of a table match, in the state at the cut (the rows at the episode's start with its changes up to
 * the cut applied): `"none"`, `"some"` (at least one; the default) or exactly that many.
 */
export const StateCountSchema = z.union([z.literal('none'), z.literal('some'), z.number().int().nonnegative()]);

/**
 * The rows of `table` whose `fields` have these values, counted in the state at the cut (`rows`, see
 * {@link StateCountSchema}). Decidable only on an episode that recorded its tables' start rows
 * (`start_rows.json`); elsewhere it is not checkable and never holds, nor does its `not`.
 */
export const StateClaimSchema = z.strictObject({
  table: z.string().min(1),
  fields: z.record(z.string(), ClaimValueSchema).optional(),
  rows: StateCountSchema.optional(),
});
/** A state claim's body. */
export type StateClaim = z.infer<typeof StateClaimSchema>;

/**
 * A data change a task may make: a row of `table` by `op` (create or update when absent) whose row (after the change;
 * before it for a delete) matches `where`, whose row before an update or a delete matches `before`, and, for an
 * update, that changes only `fields` (any when absent). `opened` (a path such as `/messages/{id}`, `{field}` filled
 * from the row) admits the change only where the session opened that page (a successful GET whose path ends so):
 * what a read receipt needs. What `{only}` lists, and what a site declares as the consequences of a task's changes.
 *
 * A task is done once: an entry of a task's footprint admits `count` creates (default 1), so the same review posted
 * twice is one write the task did not ask for. A site's consequences admit any number (a checkout's order lines).
 */
export const FootprintEntrySchema = z.strictObject({
  table: z.string().min(1),
  op: z.enum(CHANGE_OPS).optional(),
  where: z.record(z.string(), ClaimValueSchema).optional(),
  before: z.record(z.string(), ClaimValueSchema).optional(),
  fields: z.array(z.string().min(1)).optional(),
  opened: z.string().min(1).optional(),
  count: z.number().int().positive().optional(),
});
/** A data change a task may make (see {@link FootprintEntrySchema}). */
export type FootprintEntry = z.infer<typeof FootprintEntrySchema>;

/**
 * A change a consequence allows: a footprint entry, and `pin`, which ties it to the change that triggered it: each
 * key is a field of the allowed row that must equal that field (or one of those fields) of the `when` change's row
 * (`{"order_id": "id"}`: an order's own lines, not another order's). A pinned entry admits nothing without `when`.
 */
export const ConsequenceEntrySchema = FootprintEntrySchema.extend({
  pin: z.record(z.string().min(1), z.union([z.string().min(1), z.array(z.string().min(1)).min(1)])).optional(),
});
/** A change a consequence allows (see {@link ConsequenceEntrySchema}). */
export type ConsequenceEntry = z.infer<typeof ConsequenceEntrySchema>;

/**
 * What a site does by itself as the consequence of a change (a timestamp, a counter, a derived row): when the task's
 * own changes, or the consequences already admitted, include one matching `when` (always, when absent: what any
 * visit does, such as a read receipt), changes matching `allow` are the site's, not unrequested; a `pin`ned entry
 * only those of the triggering row. An allowed update with `fields` and no `where` names bookkeeping fields
 * (`updated`, `edited`): the task's own update of the row may change them too. Declared per site; recorded in each
 * episode's `start_rows.json` (`consequences`).
 */
export const ConsequenceSchema = z.strictObject({
  when: FootprintEntrySchema.optional(),
  allow: z.array(ConsequenceEntrySchema).min(1),
});
/** A site's declared consequence (see {@link ConsequenceSchema}). */
export type Consequence = z.infer<typeof ConsequenceSchema>;

/**
 * What an episode's evidence must show:
 * - `{change}`: a data change ({@link ChangeClaimSchema});
 * - `{request}`: a request ({@link RequestClaimSchema});
 * - `{answer}`: the agent's final answer (its `done` action) is the value;
 * - `{seen}`: some page the agent saw shows the value in its text;
 * - `{state}`: how many rows of a table match in the state at the cut ({@link StateClaimSchema});
 * - `{all}`, `{any}`: every one, or at least one, of the claims holds (lists of 1 or more); `{not}`: the claim
 *   does not hold;
 * - `{only}`: the episode made no data change but these ({@link FootprintEntrySchema}) and the site's declared
 *   consequences of them; `{"only": []}`: no change at all. A claim without `{only}` is held to the changes its
 *   own `change` and `state` parts ask for (see `footprintOf`), so an unrequested write fails every claim.
 */
export type Claim =
  | { change: ChangeClaim }
  | { request: RequestClaim }
  | { answer: ClaimValue }
  | { seen: ClaimValue }
  | { state: StateClaim }
  | { all: Claim[] }
  | { any: Claim[] }
  | { not: Claim }
  | { only: FootprintEntry[] };

const KINDS = ['change', 'request', 'answer', 'seen', 'state', 'all', 'any', 'not', 'only'] as const;

/**
 * The zod schema of a {@link Claim}: a strict object with exactly one of the keys above (a problem is reported at
 * its field, `all.1.change.op`).
 */
export const ClaimSchema: z.ZodType<Claim> = z.lazy(() =>
  z
    .strictObject({
      change: ChangeClaimSchema.optional(),
      request: RequestClaimSchema.optional(),
      answer: ClaimValueSchema.optional(),
      seen: ClaimValueSchema.optional(),
      state: StateClaimSchema.optional(),
      all: z.array(ClaimSchema).min(1).optional(),
      any: z.array(ClaimSchema).min(1).optional(),
      not: ClaimSchema.optional(),
      only: z.array(FootprintEntrySchema).optional(),
    })
    .superRefine((v, ctx) => {
      const keys = KINDS.filter((k) => k in v);
      if (keys.length !== 1) ctx.addIssue({ code: 'custom', message: `a claim has exactly one of ${KINDS.join(', ')}; got ${keys.join(', ') || 'none'}` });
    }),
) as unknown as z.ZodType<Claim>;
