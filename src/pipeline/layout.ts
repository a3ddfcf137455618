/** Where the pipeline puts everything: one fixed layout under one work dir. @module */
import path from 'node:path';
import { pyPathStr } from '../core/py/path';
import { judgeDirOf, rowsReportFile, runFile, validateFile, verifiersFileOf } from '../files/layout';

/** The paths of a pipeline work dir (POSIX-style, as given). */
export interface PipelineLayout {
  /** The work dir. */
  readonly dir: string;
  /** `<dir>/tasks.jsonl`: the proposed tasks (the seed's `tasks.jsonl`). */
  readonly tasks: string;
  /** `<dir>/verifiers.jsonl`: the verifiers written for the proposed tasks, beside them. */
  readonly verifiers: string;
  /** `<dir>/run`: the agent's episodes of the proposed tasks. */
  readonly run: string;
  /** `<dir>/run_judge`: a judge record per episode. */
  readonly runJudge: string;
  /** `<dir>/human`: the agent's episodes of the human tasks, with `results.jsonl` from their verifiers. */
  readonly human: string;
  /** `<dir>/human_judge`: their judge records. */
  readonly humanJudge: string;
  /** `<dir>/human_judge/_validate.json`: the judge scored against the verifiers. */
  readonly validate: string;
  /** `<dir>/rows`: the training rows, `<task_id>/{rows.jsonl, step_*.png, episode.json}`. */
  readonly rows: string;
  /** `<dir>/rows/_report.json`: the selection's report. */
  readonly rowsReport: string;
  /** `<dir>/run_report/index.html` and `<dir>/human_report/index.html`: the HTML reports. */
  readonly runReport: string;
  /** `<dir>/human_report/index.html`: the human run's report. */
  readonly humanReport: string;
}

/**
 * The layout of a work dir:
 * ```
 * <dir>/tasks.jsonl                 proposed tasks
 * <dir>/run/                        episodes of the proposed tasks
 * <dir>/run_judge/                  judge records
 * <dir>/verifiers.jsonl             verifiers written for the proposed tasks
 * <dir>/human/                      episodes of the human tasks (results.jsonl from their verifiers)
 * <dir>/human_judge/_validate.json  the judge against the verifiers
 * <dir>/rows/                       training rows and _report.json
 * <dir>/run_report/index.html       HTML report of the run (with the rows' figures)
 * <dir>/human_report/index.html     HTML report of the human run (with the validate figures)
 * ```
 */
export function pipelineLayout(dir: string): PipelineLayout {
  const root = pyPathStr(dir);
  const join = (...parts: string[]) => path.posix.join(root, ...parts);
  return {
    dir: root,
    tasks: runFile(root, 'tasks'),
    verifiers: verifiersFileOf(runFile(root, 'tasks')),
    run: join('run'),
    runJudge: judgeDirOf(join('run')),
    human: join('human'),
    humanJudge: judgeDirOf(join('human')),
    validate: validateFile(judgeDirOf(join('human'))),
    rows: join('rows'),
    rowsReport: rowsReportFile(join('rows')),
    runReport: join('run_report', 'index.html'),
    humanReport: join('human_report', 'index.html'),
  };
}
