/**
 * Step 5, rows: training rows from the judged successes (the seed's `cmd_rows`): sites interleaved round robin, each
 * site's tasks in file order, whole episodes until the step budget, copied as `<out>/<task_id>/` plus `_report.json`.
 * Split into `src/rows/`: the selection, the writing, and the provenance of every row.
 * @module
 */
export {
  DEFAULT_BUDGET,
  interleaveBySite,
  selectRows,
  siteOfTaskId,
  type RowsSelection,
  type RowsTaskRef,
  type SelectRowsInput,
} from './rows/select';
export { runRows, type RowsEvent, type RowsOptions, type RowsPick, type RowsResult } from './rows/write';
export { LABEL_SOURCES, LabelsReportSchema, BELOW_TARGET, type LabelSource, type LabelsReport, type Precision, type JudgeConfig } from './rows/labels-format';
