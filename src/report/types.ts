/**
 * What the report shows, as plain data: gathered from a run dir (`gather-run.ts`, `gather-episode.ts`), rendered
 * to HTML (`html.ts`) and to the per-episode files the page loads on demand. Every leaf a person reads is a
 * string already formatted for display, so the page only ever sets text, never markup.
 * @module
 */
import type { PassAtKReport } from '../validate/pass-at-k';
import type { JudgeScoreWithIntervals, RowsReport } from '../core/schemas';
import type { LabelsReport } from '../rows/labels-format';

/** A problem met while reading the run that did not stop the report: shown in it and sent as an event. */
export interface ReportIssue {
  /** The file with the problem. */
  readonly file: string;
  /** 1-based line number, for a JSONL file. */
  readonly line?: number;
  /** What is wrong, in words. */
  readonly problem: string;
}

/** The judge's verdict on an episode: `success`, `fail` (NOT SUCCESS), or `none` (not judged, or no verdict). */
export type ReportVerdict = 'success' | 'fail' | 'none';

/** One line of the episode list: what the filters and counts work on. */
export interface ReportEpisodeSummary {
  /** The task id, which names the episode dir. */
  readonly id: string;
  /** The episode's key in the report: the task id for try 1, `<task_id>@<n>` for try n (`@` is in no task id). */
  readonly key: string;
  /** The try (1-based; a run of one try has only 1). */
  readonly try: number;
  /** The task's site; `?` when nothing says. */
  readonly site: string;
  /** `info`, `action`, or `?`. */
  readonly kind: string;
  /** The task's instruction, clipped to 600 characters; `''` when unknown. */
  readonly instruction: string;
  /** The judge's verdict. */
  readonly verdict: ReportVerdict;
  /** The verifier's result (the one reward, `episodeOutcome`); `null` when the task has none. */
  readonly verifier: boolean | null;
  /** Which verifier gave it: the task's hand-written one, or its written verifier (a claim); `null` with `verifier`. */
  readonly verifierSource: 'verifier' | 'written-verifier' | null;
  /** Judged and verified, and the two differ. */
  readonly disagree: boolean;
  /** From `episode.json`; `null` when there is none. */
  readonly outcome: string | null;
  /** Steps taken, from `episode.json`; `null` when there is none or it gives no number. */
  readonly steps: number | null;
  /** How many screenshots the episode has. */
  readonly shots: number;
}

/** A screenshot: its label (`step 3`, `final`) and its path relative to the run dir, URL-encoded. */
export interface ReportShot {
  /** `step 3` or `final`. */
  readonly label: string;
  /** Its path relative to the run dir, URL-encoded (`<id>/screenshots/step_3.png`). */
  readonly href: string;
}

/** One request of the session, formatted. `static` marks what the judge skips (assets, `/_admin`). */
export interface ReportRequest {
  /** The HTTP method. */
  readonly method: string;
  /** The request's path, clipped to 1000 characters. */
  readonly path: string;
  /** The query parameters as JSON; `''` when there are none. */
  readonly query: string;
  /** The request body, as JSON or text; `''` when there is none. */
  readonly body: string;
  /** The response status; `''` when the log does not say. */
  readonly status: string;
  /** Whether the judge skips it (assets, `/_admin`). */
  readonly static: boolean;
}

/** One changed field of a data change: `before` is `null` for a created or set value. */
export interface ReportFieldChange {
  /** The field's name; `''` when the change's `changed` is not an object. */
  readonly field: string;
  /** The value before an update; `null` for a created or set value. */
  readonly before: string | null;
  /** The value after the change (or the value set). */
  readonly after: string;
}

/** One data change of the session. */
export interface ReportChange {
  /** `create`, `update`, `delete` or the change's own op (inferred as the seed does when missing). */
  readonly op: string;
  /** The table (or collection, or kind) changed; `?` when the change names none. */
  readonly table: string;
  /** The item's title, name, subject or id, whichever comes first; `''` when it has none. */
  readonly name: string;
  /** The changed fields, in the change's order. */
  readonly fields: readonly ReportFieldChange[];
}

/** A part of the task as the judge split it. `done` is `null` when the reply did not say true or false. */
export interface ReportJudgePart {
  /** The part of the task, as the judge wrote it. */
  readonly part: string;
  /** Whether the judge says this part was done. */
  readonly done: boolean | null;
  /** What the judge cites for it. */
  readonly evidence: string;
}

/** The judge record of an episode, its reply parsed tolerantly. */
export interface ReportJudge {
  /** The judge model named in the record. */
  readonly model: string;
  /** The record's verdict (`predicted_label`), the one validate and rows use. */
  readonly verdict: ReportVerdict;
  /** The verdict as the reply states it (`SUCCESS`, `NOT SUCCESS`), if it states one. */
  readonly stated: string | null;
  /** The task's parts as the judge split them (the first 300); `[]` when the reply lists none. */
  readonly parts: readonly ReportJudgePart[];
  /** The reply as recorded (clipped), for when the parts are not enough. */
  readonly raw: string | null;
  /** Why the reply could not be read (not JSON, an error text...), else `null`. */
  readonly note: string | null;
}

/** Everything the report shows of one episode, loaded by the page when the episode is opened. */
export interface ReportEpisodeDetail {
  /** The task id, which names the episode dir. */
  readonly id: string;
  /** Its key in the report (see {@link ReportEpisodeSummary.key}). */
  readonly key: string;
  /** The try (1-based). */
  readonly try: number;
  /** The task's instruction, site, kind and start path; `null` when nothing gives the task. */
  readonly task: { readonly instruction: string; readonly site: string; readonly kind: string; readonly startPath: string } | null;
  /** Fields of `episode.json` as display text; `null` when there is no readable one. */
  readonly episode: { readonly outcome: string; readonly steps: string; readonly error: string; readonly model: string } | null;
  /** The screenshots, step by step, then the final one. */
  readonly shots: readonly ReportShot[];
  /** The actions taken (the first 300), each as its kind and its arguments. */
  readonly actions: ReadonlyArray<{ readonly kind: string; readonly args: string }>;
  /** The agent's final answer; `null` when there is none. */
  readonly answer: string | null;
  /** The session's requests (the first 300). */
  readonly log: readonly ReportRequest[];
  /** The session's data changes (the first 300). */
  readonly changes: readonly ReportChange[];
  /** The judge record; `null` when the episode is not judged. */
  readonly judge: ReportJudge | null;
  /** The verifier's result and what gave it, in words (`written verifier, checked on the episode's evidence`); `null` when there is none. */
  readonly verifier: { readonly ok: boolean; readonly by: string } | null;
  /** What is missing or could not be read, in words (`no grade_inputs.json`). */
  readonly notes: readonly string[];
}

/** The judge-versus-verifier figures, overall and per site and per task kind, and where they come from. */
export interface ReportScores {
  /** Such as `_validate.json (judge gemini-3.5-flash)` or `computed from 120 judge records and results.jsonl`. */
  readonly source: string;
  /** The figures over every episode with both a verdict and a verifier result. */
  readonly overall: JudgeScoreWithIntervals;
  /** The same figures per site. */
  readonly bySite: Readonly<Record<string, JudgeScoreWithIntervals>>;
  /** The same figures per task kind. */
  readonly byKind: Readonly<Record<string, JudgeScoreWithIntervals>>;
}

/** The header figures of the report. */
export interface ReportTotals {
  /** Episodes listed. */
  readonly episodes: number;
  /** Episodes with a verdict. */
  readonly judged: number;
  /** Episodes judged SUCCESS. */
  readonly judgedSuccesses: number;
  /** Tries the run holds (1 for a run of one try). */
  readonly tries: number;
  /** Episodes with a verifier result (a hand-written or a written verifier's). */
  readonly verified: number;
  /** Of them, those a written verifier decided. */
  readonly writtenVerified: number;
  /** Episodes the verifier passed. */
  readonly verifierPasses: number;
  /** Episodes judged and verified whose two results differ. */
  readonly disagreements: number;
  /** Tasks of `tasks.jsonl` with no episode, judge record or result yet. */
  readonly notAttempted: number;
}

/** Everything the page itself holds (the episode details live in their own files). */
export interface ReportPageModel {
  /** The run dir as given. */
  readonly run: string;
  /** The run dir relative to the report dir, URL-encoded (`../run`), for screenshot links. */
  readonly runHref: string;
  /** The header figures. */
  readonly totals: ReportTotals;
  /** `null` with `scoresNote` saying why when there is nothing to score. */
  readonly scores: ReportScores | null;
  /** Why there are no scores; `null` when there are. */
  readonly scoresNote: string | null;
  /** The rows dir's `_report.json`, for the header; `null` without one. */
  readonly rowsReport: RowsReport | null;
  /** The rows dir as given; `null` when none was. */
  readonly rowsDir: string | null;
  /** The problems met while reading the run. */
  readonly issues: readonly ReportIssue[];
  /** Every episode's line, in `tasks.jsonl` order, then the others by task id. */
  readonly episodes: readonly ReportEpisodeSummary[];
  /** Tokens and cost per stage and model, for the chart; `[]` when nothing recorded any. */
  readonly usage: readonly ReportUsageLine[];
  /** Where the token figures come from, in words. */
  readonly usageSource: string;
  /** The rows page's file name beside `index.html`; `null` without a rows dir. */
  readonly rowsPage: string | null;
  /** Episodes and verdicts per set-up, for a run of mixed set-ups; `[]` when each stage had one. */
  readonly setups: readonly ReportSetupLine[];
  /** pass@k of the run's tries (`<run>/_tries/<n>/`); `null` for a run of one try. */
  readonly passAtK?: PassAtKReport | null;
}

/** One set-up's share of a stage's outputs. */
export interface ReportSetupLine {
  /** `attempt` (the run's episodes) or `judge` (its judge records). */
  readonly stage: 'attempt' | 'judge';
  /** The set-up in words: its digest and model (`a1b2… (model x, max_steps 15)`), or that none was recorded. */
  readonly setup: string;
  /** Its digest; `null` for outputs that name no set-up. */
  readonly digest: string | null;
  /** Episodes it recorded, or records it wrote. */
  readonly episodes: number;
  /** Of them: verifier passes (attempt), SUCCESS verdicts (judge). */
  readonly success: number;
}

/** Tokens and cost of one stage's calls to one model. */
export interface ReportUsageLine {
  /** The stage (`propose`, `attempt`, `judge`...). */
  readonly stage: string;
  /** The model. */
  readonly model: string;
  /** Calls counted; `null` when the source does not say. */
  readonly calls: number | null;
  /** Prompt tokens. */
  readonly inputTokens: number;
  /** Reply tokens. */
  readonly outputTokens: number;
  /** US dollars; `null` when the model has no known price. */
  readonly cost: number | null;
}

/** Why an episode of the run is not in the training rows (or that it is). */
export type RowsFate = 'selected' | 'relabeled' | 'success-not-selected' | 'relabel-not-selected' | 'judged-fail' | 'not-judged';

/** What the rows page shows: the selection against the budget, per site, and what was left out and why. */
export interface RowsPageModel {
  /** The run dir as given. */
  readonly run: string;
  /** The rows dir as given. */
  readonly rowsDir: string;
  /** The rows dir's `_report.json`; `null` when unreadable. */
  readonly report: RowsReport | null;
  /** Judged successes the rows step left out as unusable (`skipped` of `_report.json`); 0 when it says none. */
  readonly skipped: number;
  /** The rows step's `<rows>_labels.json` (label sources, their precision, what the labels left out); null when none. */
  readonly labels?: LabelsReport | null;
  /**
   * Per site (sorted): the selected steps of the run's episodes (`steps`) and of its accepted relabels
   * (`relabeledSteps`), and the fate of every episode and accepted relabel.
   */
  readonly sites: ReadonlyArray<{ readonly site: string; readonly steps: number; readonly relabeledSteps: number; readonly fates: Readonly<Record<RowsFate, number>> }>;
}
