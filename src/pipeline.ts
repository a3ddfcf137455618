/**
 * The whole pipeline (DESIGN.md §1): propose, attempt, judge, validate, rows and report composed on one work
 * dir, resumable and skippable stage by stage. Split into `src/pipeline/`: contracts, layout, plan, stages, run.
 * @module
 */
export * from './pipeline/types';
export { pipelineLayout, type PipelineLayout } from './pipeline/layout';
export { PipelineConfigError, planPipeline, stagesToRun, type PipelinePlan } from './pipeline/plan';
export { pipeline } from './pipeline/run';
