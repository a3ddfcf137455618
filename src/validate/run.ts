/**
 * The seed's `cmd_validate` on a run dir: judge what is not judged yet, read the verifiers' results, score the judge
 * overall, per site and per task kind, and write `validate.json`.
 * @module
 */
import path from 'node:path';
import { syncRunFiles } from '../attempt/run-dir';
import { InputError, formatLocation } from '../core/errors';
import { parseJsonText, parseWith, readJsonFileIfExists } from '../core/io';
import { isDict, pyDictGet } from '../core/py/repr';
import { assertPlainName } from '../core/names';
import { pyDumps } from '../core/py/dumps';
import { pyPathStr } from '../core/py/path';
import { pyIsBlank } from '../core/py/text';
import {
    JudgeRecordSchema,
    ResultLineSchema,
    type ValidateReport
} from '../core/schemas';
import { episodeIdOf, judgeRecordState } from '../files/episode-id';
import { RESULTS_FILES, RUN_FILES, judgeRecordFile, validateFile } from '../files/layout';
import { nodeStore } from '../files/node';
import { readTextIfExists, type FileStore } from '../files/types';
import { runJudge, type JudgeOptions, type JudgeResult } from '../judge/run';
import { FLOAT_KEYS, scoreGroups, scoreJudge } from './score';
import { checkEntry } from '../core/check';

/**
 * Options of {@link runValidate}: those of {@link runJudge}. With a `shard` of more than one, validate judges that shard's
 * episodes only and scores nothing: the figures are over the whole run, so the pass without a shard, run once
 * after every shard has judged its part, scores them (and judges whatever a shard left).
 */
export type ValidateOptions = JudgeOptions;

/** What {@link runValidate} returns. */
export interface ValidateResult {
  /** The report, also written to `<run>_judge/_validate.json`. */
  readonly report: ValidateReport;
  /** The judge pass over the run. */
  readonly judged: JudgeResult;
  /** The pairs scored, in the results file's order. */
  readonly pairs: ReadonlyArray<{ readonly taskId: string; readonly verifier: boolean; readonly judge: boolean }>;
}

/** What a sharded {@link runValidate} returns: its judge pass; no report (the unsharded pass scores). */
export interface ValidateShardResult {
  /** Always `null`: a shard scores nothing. */
  readonly report: null;
  /** The shard's judge pass. */
  readonly judged: JudgeResult;
  /** Always empty: nothing is scored. */
  readonly pairs: readonly [];
}

/**
 * Judges a human-task run (see {@link runJudge}) and scores the judge against the verifiers' results:
 * `results_regraded.jsonl` when present, else `results.jsonl`; a task counts when it has a judge record. Where the
 * seed trusts anything, a clear error instead: `ok` must be a boolean (`file:line: ok: expected boolean`), a task id
 * listed twice must have the same result, the file must hold a result line, and a run without one (nor episodes to
 * derive it from) is refused before any model call. A judge record that holds no verdict (`"predicted_label": NaN`)
 * is named in a `warning` and not scored. Figures overall, per site and per task kind; written to
 * `<run>_judge/_validate.json` atomically.
 */
export async function runValidate(options: ValidateOptions & { readonly shard?: undefined }): Promise<ValidateResult>;
/** With a shard: judges the shard's episodes and scores nothing ({@link ValidateOptions}). */
export async function runValidate(options: ValidateOptions): Promise<ValidateResult | ValidateShardResult>;
export async function runValidate(options: ValidateOptions): Promise<ValidateResult | ValidateShardResult> {
  checkEntry('runValidate', options);
  const { run } = options;
  const store = options.store ?? nodeStore();
  if (options.shard && options.shard.count > 1) return { report: null, judged: await runJudge({ ...options, store }), pairs: [] };
  // The whole run's results, however many processes attempted it; a file that said otherwise is kept and named.
  await syncRunFiles(store, run, (message) => options.onEvent?.({ type: 'warning', message }));
  const results = await readVerifierResults(store, run, { ...options, required: true });
  const judged = await runJudge({ ...options, store });
  const warn = (message: string) => options.onEvent?.({ type: 'warning', message });
  const pairs = (
    await Promise.all(
      [...results].map(async ([taskId, verifier]) => {
        // A record left from an earlier recording of the episode (judged again without a verdict) is not its verdict.
        const episodeId = await episodeIdOf(store, path.posix.join(run, taskId));
        if ((await judgeRecordState(store, judged.judgeDir, taskId, episodeId)) === 'stale') return null;
        const judge = await recordedVerdict(store, judgeRecordFile(judged.judgeDir, taskId), taskId, warn);
        return judge === null ? null : { taskId, verifier, judge };
      }),
    )
  ).filter((p) => p !== null);

  const task = (taskId: string) => judged.tasks.get(taskId);
  const report: ValidateReport = {
    run: pyPathStr(run),
    judge: judged.summary.judge,
    overall: scoreJudge(pairs.map((p) => [p.verifier, p.judge])),
    by_site: scoreGroups(pairs, (p) => task(p.taskId)?.site ?? '(unknown)'),
    by_kind: scoreGroups(pairs, (p) => task(p.taskId)?.task_kind ?? '(unknown)'),
  };
  await store.writeAtomic(
    validateFile(judged.judgeDir),
    pyDumps(report, { indent: 1, ensureAscii: false, floatKeys: FLOAT_KEYS }),
  );
  return { report, judged, pairs };
}

/**
 * A run's verifier results, `task_id -> ok`, as the seed's dict comprehension reads them (the first of
 * `results_regraded.jsonl` and `results.jsonl` found) but strict where the seed trusts anything: `ok` must be a
 * boolean, a task id listed twice must have one result, and a results file must hold one. A run without results
 * gives an empty map and a warning (with `required`, an error naming the missing file and what to do).
 */
export async function readVerifierResults(
  store: FileStore,
  run: string,
  options: {
    readonly onEvent?: ValidateOptions['onEvent'];
    /** A results file without a line gives an empty map (a run with written verifiers none of whose episodes ran yet), not an error. */
    readonly allowEmpty?: boolean;
    /** A run without a results file is an {@link InputError} (what validate scores against), not a warning. */
    readonly required?: boolean;
  } = {},
): Promise<Map<string, boolean>> {
  const results = new Map<string, { ok: boolean; line: number }>();
  for (const name of RESULTS_FILES) {
    const file = path.posix.join(run, name);
    const text = await readTextIfExists(store, file);
    if (text === null) continue;
    const lines = text.split('\n');
    lines.forEach((raw, i) => {
      if (pyIsBlank(raw)) return;
      const where = { file, line: i + 1 };
      let value: unknown;
      try {
        value = parseJsonText(raw, where);
      } catch (error) {
        if (i < lines.length - 1 || !(error instanceof InputError)) throw error;
        options.onEvent?.({ type: 'warning', message: `${file}:${i + 1}: torn last line (no newline, not valid JSON): skipped` });
        return;
      }
      const { task_id: taskId, ok } = parseWith(ResultLineSchema, value, where);
      assertPlainName(taskId, 'task id');
      // A boolean, not Python truthiness, where `"ok": "no"` would count as a pass.
      if (typeof ok !== 'boolean') throw new InputError({ ...where, field: 'ok' }, 'expected boolean');
      const earlier = results.get(taskId);
      if (earlier && earlier.ok !== ok) {
        throw new InputError({ ...where, field: 'ok' }, `${taskId} has ok ${ok} here but ${earlier.ok} on line ${earlier.line}`);
      }
      results.set(taskId, { ok, line: i + 1 });
    });
    if (results.size === 0 && !options.allowEmpty) throw new InputError({ file }, 'no result line: nothing to score the judge against');
    return new Map([...results].map(([id, r]) => [id, r.ok]));
  }
  if (options.required) {
    throw new InputError(
      { file: path.posix.join(run, RUN_FILES.results) },
      `missing (nor ${RUN_FILES.resultsRegraded}), and none could be derived from the run's episodes (no verifier result recorded in them): ` +
        'nothing to score the judge against; attempt the human tasks with their verifiers (taskgen attempt), or put the run\'s ' +
        `${RUN_FILES.results} ({"task_id": ..., "ok": true|false} per line) there`,
    );
  }
  options.onEvent?.({ type: 'warning', message: `${run}: no results_regraded.jsonl or results.jsonl: nothing to score` });
  return new Map();
}

/**
 * A judge record's verdict for validate: `predicted_label == 1`, as the seed reads it; `null` when there is no
 * record, or it holds no verdict (a label that is not 0 or 1, such as the `NaN` Python writes, or a file that does
 * not parse): that one is named through `warn` and not scored, where the seed would count it as NOT SUCCESS.
 */
async function recordedVerdict(store: FileStore, file: string, taskId: string, warn: (message: string) => void): Promise<boolean | null> {
  try {
    const record = await readJsonFileIfExists(store, file, JudgeRecordSchema);
    return record === null ? null : record.predicted_label === 1;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const label = error.field === 'predicted_label' ? await labelText(store, file) : null;
    const problem = label === null ? `${error.message}: no verdict` : `${formatLocation(error)}: ${label} is not a verdict (0 or 1)`;
    warn(
      `${problem}: ${taskId} is not scored (the seed would count it as NOT SUCCESS); ` +
        `${label === null ? 'mend the record' : 'write 0 or 1 there'}, or delete the record and run validate again to have the episode judged again`,
    );
    return null;
  }
}

// The record's label as `json.dumps` writes it (`NaN`, `"yes"`); `null` when the file does not parse.
async function labelText(store: FileStore, file: string): Promise<string | null> {
  try {
    const value = parseJsonText(await store.readText(file), { file });
    return isDict(value) ? pyDumps(pyDictGet(value, 'predicted_label')) : null;
  } catch {
    return null;
  }
}
