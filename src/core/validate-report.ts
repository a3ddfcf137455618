/**
 * `<run>_judge/_validate.json`: the seed's validate figures, with 95% Wilson intervals, overall, per site and per
 * task kind.
 * @module
 */
import { z } from 'zod';

/** A 95% Wilson score interval `[low, high]`; `null` when there are no observations. */
export const IntervalSchema = z.tuple([z.number(), z.number()]).nullable();
/** A confidence interval. */
export type Interval = z.infer<typeof IntervalSchema>;

/** The seed's validate figures, in the seed's key order. */
export const JudgeScoreSchema = z.object({
  episodes: z.number().int(),
  agreement: z.number(),
  verifier_pass: z.number().int(),
  judge_pass: z.number().int(),
  precision: z.number(),
  recall: z.number(),
  tp: z.number().int(),
  fp: z.number().int(),
  fn: z.number().int(),
  tn: z.number().int(),
});
/** The seed's validate figures. */
export type JudgeScore = z.infer<typeof JudgeScoreSchema>;

/** The seed's figures with 95% Wilson intervals for precision, recall and agreement. */
export const JudgeScoreWithIntervalsSchema = JudgeScoreSchema.extend({
  precision_ci: IntervalSchema,
  recall_ci: IntervalSchema,
  agreement_ci: IntervalSchema,
});
/** Judge figures with intervals. */
export type JudgeScoreWithIntervals = z.infer<typeof JudgeScoreWithIntervalsSchema>;

/** `<run>_judge/_validate.json`: the judge measured against the verifiers, overall, per site and per task kind. */
export const ValidateReportSchema = z.object({
  run: z.string(),
  judge: z.string(),
  overall: JudgeScoreWithIntervalsSchema,
  by_site: z.record(z.string(), JudgeScoreWithIntervalsSchema),
  by_kind: z.record(z.string(), JudgeScoreWithIntervalsSchema),
});
/** The validate report. */
export type ValidateReport = z.infer<typeof ValidateReportSchema>;
