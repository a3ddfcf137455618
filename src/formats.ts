/**
 * `miniweb-taskgen/schemas`: the zod schema of every on-disk format (tasks, sitemaps, episodes, judge records,
 * rows, reports, the lab's report, provenance, claims and episodes' step maps; the environment server's messages), to validate files in your own
 * code. The types, their `z.infer`, come from the main entry too.
 * @example
 * import { TaskSchema } from 'miniweb-taskgen/schemas';
 * const task = TaskSchema.parse(JSON.parse(line));
 * @module
 */
export {
  TaskSchema,
  VerifierSchema,
  SitemapSchema,
  SplitSchema,
  ActionSchema,
  LogEntrySchema,
  ChangeSchema,
  GradeInputsSchema,
  EpisodeSchema,
  AgentStepsSchema,
  RowSchema,
  ResultLineSchema,
  JudgeRecordSchema,
  JudgeSummarySchema,
  RowsReportSchema,
  ValidateReportSchema,
} from './core/schemas';
export { LabReportSchema } from './lab';
export { ClaimSchema, ClaimValueSchema, ConsequenceEntrySchema, ConsequenceSchema, EvidenceStepsSchema, FootprintEntrySchema, StartRowsSchema } from './claims';
export { ProvenanceSchema } from './rows/provenance';
export { LabelsReportSchema } from './rows/labels-format';
export { WrittenVerifierSchema } from './verifiers';
export { RelabelParentSchema } from './relabel/record';
export { EnvActionSchema, EnvObservationSchema, EnvResetSchema, EnvStateSchema } from './env/protocol';
