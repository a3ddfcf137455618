/** `<run>_judge/lab/lab.json`: judge variants measured against the verifiers, and against a baseline. @module */
import { z } from 'zod';
import { IntervalSchema, JudgeScoreWithIntervalsSchema } from '../core/schemas';

/** Calls, tokens and cost a variant spent on the run (from its records, so a resumed lab counts them all). */
export const LabUsageSchema = z.object({
  calls: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  /** US dollars, of the records whose model has a known price. */
  cost: z.number(),
  /** False when some model had no known price (so `cost` is a lower bound). */
  priced: z.boolean(),
});

/** A score with the yield: the share of episodes judged SUCCESS, with its 95% Wilson interval. */
export const LabScoreSchema = JudgeScoreWithIntervalsSchema.extend({
  yield: z.number(),
  yield_ci: IntervalSchema,
});
/** A lab score. */
export type LabScore = z.infer<typeof LabScoreSchema>;

/** One variant's figures. */
export const LabVariantSchema = z.object({
  name: z.string(),
  description: z.string(),
  model: z.string(),
  shows: z.array(z.string()),
  screenshots: z.number().int(),
  pick: z.string(),
  votes: z.number().int(),
  combine: z.string(),
  /** Episodes with a record of this variant. */
  judged: z.number().int(),
  /** Episodes with a verifier result but no record of this variant (errors, no verdict). */
  missing: z.number().int(),
  overall: LabScoreSchema,
  by_site: z.record(z.string(), LabScoreSchema),
  by_kind: z.record(z.string(), LabScoreSchema),
  usage: LabUsageSchema,
});
/** One variant's lab figures. */
export type LabVariant = z.infer<typeof LabVariantSchema>;

/** A variant against the baseline on the episodes both judged: McNemar's table, the differences, the p-value. */
export const LabComparisonSchema = z.object({
  variant: z.string(),
  baseline: z.string(),
  episodes: z.number().int(),
  both_right: z.number().int(),
  baseline_only: z.number().int(),
  variant_only: z.number().int(),
  both_wrong: z.number().int(),
  /** Agreement with the verifiers, variant minus baseline. */
  agreement_diff: z.number(),
  /** The exact McNemar p-value (two-sided). */
  p: z.number(),
  /** Precision on these episodes, variant minus baseline. */
  precision_diff: z.number(),
  /** Yield on these episodes, variant minus baseline. */
  yield_diff: z.number(),
});
/** A comparison with the baseline. */
export type LabComparison = z.infer<typeof LabComparisonSchema>;

/** An episode the variants judged differently. */
export const LabDisagreementSchema = z.object({
  task_id: z.string(),
  site: z.string(),
  kind: z.string(),
  instruction: z.string(),
  /** The verifier's result, or null when it has none. */
  verifier: z.boolean().nullable(),
  /** Each variant's label (1 SUCCESS, 0 NOT SUCCESS), null when it has no record. */
  verdicts: z.record(z.string(), z.union([z.literal(0), z.literal(1)]).nullable()),
});
/** A disagreement between variants. */
export type LabDisagreement = z.infer<typeof LabDisagreementSchema>;

/** The whole `lab.json`. */
export const LabReportSchema = z.object({
  run: z.string(),
  baseline: z.string(),
  /** Episodes with a verifier result. */
  episodes: z.number().int(),
  variants: z.array(LabVariantSchema),
  comparisons: z.array(LabComparisonSchema),
  disagreements: z.array(LabDisagreementSchema),
  /** The run report's page, relative to `lab.html` (its episodes are linked as `#<task_id>`). */
  report_href: z.string(),
});
/** The lab report. */
export type LabReport = z.infer<typeof LabReportSchema>;
/** A variant's calls, tokens and cost. */
export type LabUsage = z.infer<typeof LabUsageSchema>;
