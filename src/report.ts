/**
 * The run report: a static HTML page of a run's episodes, evidence, judge and verifier results. Internals live
 * in `src/report/`.
 * @module
 */
export type * from './report/types';
export { runReport, type ReportEvent, type ReportOptions } from './report/write';
export { readRunForReport, type ReadRunForReportOptions, type ReportRunData } from './report/gather-run';
export { readReportEpisode, type ReadReportEpisodeOptions, type ReportEpisode } from './report/gather-episode';
