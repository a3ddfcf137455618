/**
 * Every file format of the pipeline (DESIGN.md §3) as a zod schema, with its type inferred from it.
 * Files are parsed at the boundary with these; the rest of the code works with the inferred types.
 * Objects are loose (unknown keys kept) so files written by the user's Python tools round-trip.
 * @module
 */
import { z } from 'zod';
import { isPlainName } from './names';
import { PyFloat } from './py/float';

// Python's json reads `2.0`, `NaN` and `Infinity` as floats, which the reader keeps as PyFloat (to write `2.0` back);
// where the schema wants a number, it is that float's value, as Python would use it.
const pyFloatValue = (value: unknown): unknown => (value instanceof PyFloat ? value.value : value);
/** A number as Python reads it from JSON (`2.0` too); `check` applies to its value. */
const pyNumber = <T extends z.ZodType<number>>(check: T) => z.preprocess(pyFloatValue, check);

/** A JSON value whose content the pipeline passes through (request bodies, row values, API responses). */
export const JsonValueSchema: z.ZodType<unknown> = z.unknown();

// ── sitemap and split ───────────────────────────────────────────────────────

/** One option of a select, radio group or similar control. `value` may be any scalar, `0` included. */
export const SitemapOptionSchema = z.looseObject({
  text: z.unknown().optional(),
  value: z.unknown().optional(),
});
/** An option of a control. */
export type SitemapOption = z.infer<typeof SitemapOptionSchema>;

/** A control on a page: a form field, button, link group... `qa` and `carry` controls are MiniWeb internals. */
export const SitemapControlSchema = z.looseObject({
  kind: z.string().nullish(),
  label: z.unknown().optional(),
  name: z.unknown().optional(),
  page: z.string().nullish(),
  options: z.array(SitemapOptionSchema).nullish(),
});
/** A control of a sitemap. */
export type SitemapControl = z.infer<typeof SitemapControlSchema>;

/** A page of a sitemap. Pages without a path are ignored, as the seed does. */
export const SitemapPageSchema = z.looseObject({
  path: z.string().nullish(),
  title: z.string().nullish(),
});
/** A page of a sitemap. */
export type SitemapPage = z.infer<typeof SitemapPageSchema>;

/** `<site>.json`: MiniWeb's sitemap. Controls come as a list or as a dict keyed by control id. */
export const SitemapSchema = z.looseObject({
  name: z.string().nullish(),
  pages: z.array(SitemapPageSchema),
  controls: z.union([z.array(SitemapControlSchema), z.record(z.string(), SitemapControlSchema)]),
});
/** A site's sitemap. */
export type Sitemap = z.infer<typeof SitemapSchema>;

/** The split file: which sites are for training and which are held out. */
export const SplitSchema = z.looseObject({
  train: z.array(z.string()),
  test: z.array(z.string()).default([]),
});
/** The split file. */
export type Split = z.infer<typeof SplitSchema>;

// ── verifiers (carried by human tasks) ──────────────────────────────────────

/** A scalar a verifier compares with. */
export const ScalarSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
/** A scalar. */
export type Scalar = z.infer<typeof ScalarSchema>;

/**
 * Checks the agent's final answer: `exact` (after trimming and case-folding), `includes` (every value is in the
 * answer, case-insensitive), or `number` (a number in the answer within `tolerance` of `value`).
 */
export const AnswerCheckSchema = z.looseObject({
  type: z.enum(['exact', 'includes', 'number']),
  value: z.union([z.string(), z.number(), z.array(z.string())]),
  tolerance: z.number().nonnegative().optional(),
});
/** An answer check. */
export type AnswerCheck = z.infer<typeof AnswerCheckSchema>;

/**
 * Checks the session's request log: some request with this method and path whose query or body parameters
 * include `params`; with `should_not_exist`, no such request may exist (a side effect that must not happen).
 */
export const RequestCheckSchema = z.looseObject({
  method: z.string(),
  path: z.string(),
  params: z.record(z.string(), ScalarSchema).optional(),
  should_not_exist: z.boolean().optional(),
});
/** A request check. */
export type RequestCheck = z.infer<typeof RequestCheckSchema>;

/**
 * Checks the session's data at the end: a row of `table` matching `where` exists and has `values`;
 * with `should_not_exist`, no row matches `where` (something deleted, or never created).
 */
export const StateCheckSchema = z.looseObject({
  table: z.string(),
  where: z.record(z.string(), ScalarSchema),
  values: z.record(z.string(), ScalarSchema).optional(),
  should_not_exist: z.boolean().optional(),
});
/** A state check. */
export type StateCheck = z.infer<typeof StateCheckSchema>;

/** A task's verifier: every check it lists must pass. */
export const VerifierSchema = z.looseObject({
  answer: AnswerCheckSchema.optional(),
  requests: z.array(RequestCheckSchema).optional(),
  state: z.array(StateCheckSchema).optional(),
});
/** A task's verifier. */
export type Verifier = z.infer<typeof VerifierSchema>;

// ── tasks ───────────────────────────────────────────────────────────────────

/** What kind of task: a question (`info`) or something to do (`action`). */
export const TaskKindSchema = z.enum(['info', 'action']);
/** A task kind. */
export type TaskKind = z.infer<typeof TaskKindSchema>;

/**
 * One line of a tasks JSONL file, as the seed writes proposed tasks. Human tasks have the same shape with a
 * verifier (and, in the sandbox, an oracle solution); verifiers of other shapes are kept as they are.
 */
export const TaskSchema = z.looseObject({
  kind: z.string(),
  task_id: z.string().min(1),
  site: z.string().min(1),
  sites: z.array(z.string()).default([]),
  macro: z.string().default('proposed'),
  macros: z.array(z.unknown()).default([]),
  instruction: z.string(),
  start_path: z.string(),
  task_kind: TaskKindSchema.default('action'),
  verifier: z.union([VerifierSchema, z.record(z.string(), z.unknown())]).nullable().default(null),
  /** `relabel` for a task written from an episode of another task (absent for proposed and human tasks). */
  origin: z.literal('relabel').optional(),
  /** A relabeled task's parent: the task whose episode it was written from. */
  parent_task_id: z.string().min(1).optional(),
  /** A relabeled task's episode: the parent episode's first `prefix_steps` steps. */
  prefix_steps: z.number().int().positive().optional(),
});
/** A task. */
export type Task = z.infer<typeof TaskSchema>;

// ── agent actions (DESIGN.md §5) ────────────────────────────────────────────

const index = z.number().int().nonnegative();
/** `{click: {index}}` */
export const ClickActionSchema = z.strictObject({ click: z.strictObject({ index }) });
/** `{type: {index, text, enter?}}` */
export const TypeActionSchema = z.strictObject({
  type: z.strictObject({ index, text: z.string(), enter: z.boolean().optional() }),
});
/** `{select: {index, option}}`: the option's visible text or value. */
export const SelectActionSchema = z.strictObject({ select: z.strictObject({ index, option: z.string() }) });
/** `{check: {index}}`: toggles a checkbox or picks a radio button. */
export const CheckActionSchema = z.strictObject({ check: z.strictObject({ index }) });
/** `{scroll: {direction}}` */
export const ScrollActionSchema = z.strictObject({
  scroll: z.strictObject({ direction: z.enum(['up', 'down']) }),
});
/** `{goto: {path}}`: a path on the same site. */
export const GotoActionSchema = z.strictObject({ goto: z.strictObject({ path: z.string() }) });
/** `{back: {}}` */
export const BackActionSchema = z.strictObject({ back: z.strictObject({}) });
/** `{done: {answer?}}` ends the episode. */
export const DoneActionSchema = z.strictObject({ done: z.strictObject({ answer: z.string().optional() }) });

/** One agent action, written as `{<kind>: {...args}}` as in `grade_inputs.json`. */
export const ActionSchema = z.union([
  ClickActionSchema,
  TypeActionSchema,
  SelectActionSchema,
  CheckActionSchema,
  ScrollActionSchema,
  GotoActionSchema,
  BackActionSchema,
  DoneActionSchema,
]);
/** One agent action. */
export type Action = z.infer<typeof ActionSchema>;
/** The kinds of action. */
export const ACTION_KINDS = ['click', 'type', 'select', 'check', 'scroll', 'goto', 'back', 'done'] as const;
/** An action kind. */
export type ActionKind = (typeof ACTION_KINDS)[number];

// ── episode evidence ────────────────────────────────────────────────────────

/** One request of the session as the server saw it. Form and JSON bodies are parsed; others are strings. */
export const LogEntrySchema = z.looseObject({
  method: z.unknown().optional(),
  path: z.unknown().optional(),
  query: z.unknown().optional(),
  body: z.unknown().optional(),
  status: z.unknown().optional(),
});
/** A request log entry. */
export type LogEntry = z.infer<typeof LogEntrySchema>;

/**
 * One data change of the session. `changed` is `{field: [before, after]}` for an update and the set fields for a
 * create. MiniWeb names the table `table`, `collection` or `kind`.
 */
export const ChangeSchema = z.looseObject({
  table: z.unknown().optional(),
  collection: z.unknown().optional(),
  kind: z.unknown().optional(),
  op: z.unknown().optional(),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
  changed: z.unknown().optional(),
});
/** A data change. */
export type Change = z.infer<typeof ChangeSchema>;

/**
 * `<run>/<task_id>/grade_inputs.json`: what the judge reads. Written by the attempt step; the judge reads
 * files of the user's Python harness too, so every field is optional and entries are loose.
 */
export const GradeInputsSchema = z.looseObject({
  actions: z.array(z.unknown()).nullish(),
  answer: z.unknown().optional(),
  log: z.array(LogEntrySchema).nullish(),
  changes: z.array(ChangeSchema).nullish(),
  seen: z.array(z.unknown()).nullish(),
});
/** Grade inputs of one episode. */
export type GradeInputs = z.infer<typeof GradeInputsSchema>;

/** How an episode ended. */
export const OutcomeSchema = z.enum(['done', 'max_steps', 'timeout', 'error']);
/** An episode outcome. */
export type Outcome = z.infer<typeof OutcomeSchema>;

/** `<run>/<task_id>/episode.json` (and `rows/episode.json`): the episode's summary. */
export const EpisodeSchema = z.looseObject({
  task: TaskSchema,
  outcome: OutcomeSchema,
  steps: pyNumber(z.number().int().nonnegative()),
  answer: z.string().nullable().default(null),
  // A duration: Python may write NaN or Infinity there (a clock it could not read), and reads them back.
  timings: z.looseObject({
    started: z.string(),
    ended: z.string(),
    ms: pyNumber(z.custom<number>((v) => typeof v === 'number' && !(v < 0), 'expected a duration in ms (a number >= 0, NaN or Infinity)')),
  }),
  model: z.string().nullable().default(null),
  error: z.string().nullable().default(null),
});
/** An episode summary. */
export type Episode = z.infer<typeof EpisodeSchema>;

/**
 * `<run>/<task_id>/agent_steps.json` (beside the seed's files): each step as the agent's prompt lists it in the
 * history of the next (its page, its reply, the parsed action and its error), and the step limit the prompt shows.
 */
export const AgentStepsSchema = z.looseObject({
  max_steps: z.number().int().positive(),
  steps: z.array(
    z.looseObject({
      step: z.number().int().nonnegative(),
      url: z.string(),
      raw: z.string(),
      action: ActionSchema.nullable(),
      error: z.string().nullable(),
    }),
  ),
});
/** An episode's agent steps. */
export type AgentSteps = z.infer<typeof AgentStepsSchema>;

/** One chat message of a training row. */
export const RowMessageSchema = z.looseObject({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.string(),
});
/** A message of a row. */
export type RowMessage = z.infer<typeof RowMessageSchema>;

/** One line of `rows/rows.jsonl`: a step in the format ms-swift and LLaMA-Factory read. */
export const RowSchema = z.looseObject({
  messages: z.array(RowMessageSchema).min(1),
  images: z.array(z.string()).default([]),
});
/** A training row. */
export type Row = z.infer<typeof RowSchema>;

/** One line of `<run>/results.jsonl` or `results_regraded.jsonl`: the verifier's result. */
export const ResultLineSchema = z.looseObject({
  task_id: z.string().min(1),
  ok: z.unknown(),
});
/** A verifier result line. */
export type ResultLine = z.infer<typeof ResultLineSchema>;

// ── judge, validate, rows ───────────────────────────────────────────────────

/** `<run>_judge/<task_id>.json`: written only when the judge gave a verdict. */
export const JudgeRecordSchema = z.looseObject({
  task_id: z.string().min(1),
  predicted_label: pyNumber(z.union([z.literal(0), z.literal(1)], { error: 'expected the number 0 or 1' })),
  verdict: z.boolean(),
  response: z.string().nullable(),
  model: z.string(),
});
/** A judge record. */
export type JudgeRecord = z.infer<typeof JudgeRecordSchema>;

/**
 * `<run>_judge/_episodes/<task_id>.json`: which episode a judge record was made from (DESIGN.md §9), kept beside
 * the seed's record so that record stays byte-identical. `record` is the digest of the record file it belongs to,
 * so a record and a binding written by different passes (a crash between the two writes) never pair up.
 */
export const EpisodeBindingSchema = z.object({
  task_id: z.string().min(1),
  episode_id: z.string().min(1),
  record: z.string().min(1),
  /** The digest of the judge set-up that wrote the record (`_setup/<digest>.json`); absent when it is not known. */
  setup: z.string().min(1).optional(),
});
/** A judge record's episode binding. */
export type EpisodeBinding = z.infer<typeof EpisodeBindingSchema>;

/**
 * What the judge and validate need of a task line: its id and instruction (site and kind, when present, group
 * the validate figures). Any tasks file qualifies: proposed tasks, human tasks, the user's annotations.
 */
export const TaskRefSchema = z.looseObject({
  task_id: z.string().min(1),
  instruction: z.string(),
  site: z.string().nullish(),
  task_kind: z.string().nullish(),
});
/** A task as the judge reads it. */
export type TaskRef = z.infer<typeof TaskRefSchema>;

/** What the rows step needs of a task line: a plain task id (it becomes a directory name) and its site. */
export const RowsTaskSchema = z.looseObject({
  task_id: z.string().min(1).refine(isPlainName, {
    message: "not a plain name (letters, digits, '.', '_', '-'): refused before building any path",
  }),
  site: z.string(),
});
/** A task as the rows step reads it. */
export type RowsTask = z.infer<typeof RowsTaskSchema>;

/** The judge's summary line, key for key as the seed prints it (`rate` is a float). */
export const JudgeSummarySchema = z.object({
  episodes: z.number().int(),
  success: z.number().int(),
  rate: z.number(),
  no_verdict: z.number().int(),
  errors: z.number().int(),
  judge: z.string(),
});
/** The judge's summary. */
export type JudgeSummary = z.infer<typeof JudgeSummarySchema>;

/** `<out>/_report.json` of the rows step, key for key as the seed writes it. */
export const RowsReportSchema = z.object({
  run: z.string(),
  candidates: z.number().int(),
  selected_trajectories: z.number().int(),
  selected_rows: z.number().int(),
  budget: z.number().int(),
  short_by: z.number().int(),
  sites: z.number().int(),
});
/** The rows report. */
export type RowsReport = z.infer<typeof RowsReportSchema>;

// The validate report's format: its own module, re-exported here so every format keeps one import path.
export {
  IntervalSchema, JudgeScoreSchema, JudgeScoreWithIntervalsSchema, ValidateReportSchema,
  type Interval, type JudgeScore, type JudgeScoreWithIntervals, type ValidateReport,
} from './validate-report';
