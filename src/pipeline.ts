/**
 * The whole pipeline (DESIGN.md §1): propose, attempt, judge, validate, rows and report composed on one work
 * dir, resumable and skippable stage by stage. Split into `src/pipeline/`: contracts, layout, plan, stages, run.
 * @module
 */
export {
  PIPELINE_STAGES,
  type AttemptStageSummary,
  type JudgeModel,
  type JudgeStageSummary,
  type JudgeTarget,
  type PipelineOptions,
  type PipelineEvent,
  type PipelineStage,
  type PipelineResult,
  type ProposeStageSummary,
  type ReportStageSummary,
  type RowsStageSummary,
  type RelabelStageSummary,
  type StageFigures,
  type StageSummaries,
  type StageSummary,
  type ValidateStageSummary,
  type VerifiersStageSummary,
} from './pipeline/types';
export { pipelineLayout, type PipelineLayout } from './pipeline/layout';
export { PipelineConfigError, planPipeline, type PipelinePlan } from './pipeline/plan';
export { runPipeline } from './pipeline/run';
