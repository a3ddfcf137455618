/** The run report: a static HTML page of a run's episodes, evidence, judge and verifier results. @module */
export type * from './types';
export {
  writeReport,
  defaultReportDir,
  reportTotals,
  reportScores,
  type ReportEvent,
  type WriteReportOptions,
} from './write';
export { readRunForReport, type ReadRunForReportOptions, type ReportRunData } from './gather-run';
export { readReportEpisode, type ReportEpisode, type ReadReportEpisodeOptions } from './gather-episode';
