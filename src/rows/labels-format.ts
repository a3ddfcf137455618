/**
 * `<rows>_labels.json`: where each selected row's label came from (a hand-written verifier, a written verifier, a
 * relabel, or the judge alone), how precise each source measured on the run's scored sets, which judge
 * configuration a precision target chose, the disagreements between verifier and judge, the episodes left out, and
 * the dataset's estimated label precision. Written by the rows step; read by the export's card and the rows page.
 * @module
 */
import { z } from 'zod';

/** Where a row's label came from, strongest first. */
export const LABEL_SOURCES = ['verifier', 'written-verifier', 'relabel', 'judge'] as const;
/** A label source: `verifier` (hand-written), `written-verifier` (a written claim checked on the evidence), `relabel` (claim-checked, then judged), `judge` (the LLM judge alone). */
export const LabelSourceSchema = z.enum(LABEL_SOURCES);
/** A label source. */
export type LabelSource = z.infer<typeof LabelSourceSchema>;

/** A measured precision: right labels out of labels, with its 95% Wilson interval, and the set it was measured on. */
export const PrecisionSchema = z.object({
  right: z.number().int().nonnegative(),
  n: z.number().int().positive(),
  /** `right / n`, rounded to 3 places. */
  precision: z.number(),
  /** 95% Wilson interval, rounded to 3 places. */
  interval: z.tuple([z.number(), z.number()]),
  /** The set it was measured on, in words. */
  set: z.string(),
});
/** A measured precision. */
export type Precision = z.infer<typeof PrecisionSchema>;

/** One label source among the selected rows. */
export const SourceFiguresSchema = z.object({
  source: LabelSourceSchema,
  /** Selected episodes and their rows (steps) with this source. */
  episodes: z.number().int().nonnegative(),
  rows: z.number().int().nonnegative(),
  /** Its measured precision; null when the run has nothing to measure it on (`unmeasured` says why). */
  measured: PrecisionSchema.nullable(),
  unmeasured: z.string().nullable(),
});
/** A source's figures. */
export type SourceFigures = z.infer<typeof SourceFiguresSchema>;

/** A judge configuration the run has records for, measured on the scored sets and counted on the run. */
export const JudgeConfigSchema = z.object({
  /** `<variant> <a>/<k>`: SUCCESS when at least `a` of `k` votes say so; fewer abstains. */
  name: z.string(),
  /** `judge`: the run's own records (`<run>_judge/`); `lab`: the judge lab's (`<run>_judge/lab/<variant>/`). */
  records: z.enum(['judge', 'lab']),
  variant: z.string(),
  votes: z.number().int().positive(),
  threshold: z.number().int().positive(),
  /** On the scored sets: SUCCESS and verifier passed, SUCCESS and verifier failed, abstained (votes split). */
  tp: z.number().int().nonnegative(),
  fp: z.number().int().nonnegative(),
  abstained: z.number().int().nonnegative(),
  /** Precision on the scored sets; null when it said SUCCESS on none of them. */
  precision: PrecisionSchema.nullable(),
  /** The judge-only candidates of the run it accepts, and their rows. */
  episodes: z.number().int().nonnegative(),
  rows: z.number().int().nonnegative(),
});
/** A judge configuration's figures. */
export type JudgeConfig = z.infer<typeof JudgeConfigSchema>;

/** A judged success whose verifier said otherwise: the verifier's word holds (the episode is left out). */
export const DisagreementSchema = z.object({
  task_id: z.string(),
  source: LabelSourceSchema,
  verifier: z.boolean(),
  judge: z.boolean(),
  resolution: z.string(),
});

/** A candidate left out by the labels: its verifier disagreed, or its judge-only label is below the precision target. */
export const LeftOutSchema = z.object({
  task_id: z.string(),
  rows: z.number().int().nonnegative(),
  reason: z.string(),
});

/** The whole `<rows>_labels.json`. */
export const LabelsReportSchema = z.object({
  /** The precision target (`--min-precision`), or null for none. */
  min_precision: z.number().nullable(),
  /** The scored sets: runs with verifier results, and how many of their episodes had one. */
  scored: z.array(z.object({ run: z.string(), episodes: z.number().int().nonnegative() })),
  /** One entry per source, in {@link LABEL_SOURCES} order. */
  sources: z.array(SourceFiguresSchema),
  /** The judge configurations measured. */
  configs: z.array(JudgeConfigSchema),
  /** The configuration whose precision labels the judge-only rows (the target's choice, else the run's own judge). */
  judge: z.string().nullable(),
  /** Why no judge-only rows were selected for the target, when none were. */
  target: z.string().nullable(),
  /**
   * The dataset's estimated label precision over the rows of measured sources: the row-weighted mean of their
   * precisions, and of their intervals' ends, each widened for the chance in which episodes were kept (see
   * `estimateOf`); null when no row's source is measured.
   */
  estimate: z
    .object({ precision: z.number(), interval: z.tuple([z.number(), z.number()]), rows: z.number().int(), of: z.number().int() })
    .nullable(),
  disagreements: z.array(DisagreementSchema),
  left_out: z.array(LeftOutSchema),
});
/** The labels report. */
export type LabelsReport = z.infer<typeof LabelsReportSchema>;

/** The reason named for a judge-only episode the target left out. */
export const BELOW_TARGET = 'left out: below the precision target';
