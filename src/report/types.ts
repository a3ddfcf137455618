/**
 * What the report shows, as plain data: gathered from a run dir (`gather-run.ts`, `gather-episode.ts`), rendered
 * to HTML (`html.ts`) and to the per-episode files the page loads on demand. Every leaf a person reads is a
 * string already formatted for display, so the page only ever sets text, never markup.
 * @module
 */
import type { JudgeScoreWithIntervals, RowsReport } from '../core/schemas';

/** A problem met while reading the run that did not stop the report: shown in it and sent as an event. */
export interface ReportIssue {
  readonly file: string;
  readonly line?: number;
  readonly problem: string;
}

/** The judge's verdict on an episode: `success`, `fail` (NOT SUCCESS), or `none` (not judged, or no verdict). */
export type ReportVerdict = 'success' | 'fail' | 'none';

/** One line of the episode list: what the filters and counts work on. */
export interface ReportEpisodeSummary {
  readonly id: string;
  /** The task's site; `?` when nothing says. */
  readonly site: string;
  /** `info`, `action`, or `?`. */
  readonly kind: string;
  readonly instruction: string;
  readonly verdict: ReportVerdict;
  /** The verifier's result; `null` when the task has none. */
  readonly verifier: boolean | null;
  /** Judged and verified, and the two differ. */
  readonly disagree: boolean;
  /** From `episode.json`; `null` when there is none. */
  readonly outcome: string | null;
  readonly steps: number | null;
  /** How many screenshots the episode has. */
  readonly shots: number;
}

/** A screenshot: its label (`step 3`, `final`) and its path relative to the run dir, URL-encoded. */
export interface ReportShot {
  readonly label: string;
  readonly href: string;
}

/** One request of the session, formatted. `static` marks what the judge skips (assets, `/_admin`). */
export interface ReportRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly body: string;
  readonly status: string;
  readonly static: boolean;
}

/** One changed field of a data change: `before` is `null` for a created or set value. */
export interface ReportFieldChange {
  readonly field: string;
  readonly before: string | null;
  readonly after: string;
}

/** One data change of the session. */
export interface ReportChange {
  readonly op: string;
  readonly table: string;
  readonly name: string;
  readonly fields: readonly ReportFieldChange[];
}

/** A part of the task as the judge split it. `done` is `null` when the reply did not say true or false. */
export interface ReportJudgePart {
  readonly part: string;
  readonly done: boolean | null;
  readonly evidence: string;
}

/** The judge record of an episode, its reply parsed tolerantly. */
export interface ReportJudge {
  readonly model: string;
  readonly verdict: ReportVerdict;
  /** The verdict as the reply states it (`SUCCESS`, `NOT SUCCESS`), if it states one. */
  readonly stated: string | null;
  readonly parts: readonly ReportJudgePart[];
  /** The reply as recorded (clipped), for when the parts are not enough. */
  readonly raw: string | null;
  /** Why the reply could not be read (not JSON, an error text...), else `null`. */
  readonly note: string | null;
}

/** Everything the report shows of one episode, loaded by the page when the episode is opened. */
export interface ReportEpisodeDetail {
  readonly id: string;
  readonly task: { readonly instruction: string; readonly site: string; readonly kind: string; readonly startPath: string } | null;
  readonly episode: { readonly outcome: string; readonly steps: string; readonly error: string; readonly model: string } | null;
  readonly shots: readonly ReportShot[];
  readonly actions: ReadonlyArray<{ readonly kind: string; readonly args: string }>;
  readonly answer: string | null;
  readonly log: readonly ReportRequest[];
  readonly changes: readonly ReportChange[];
  readonly judge: ReportJudge | null;
  readonly verifier: { readonly ok: boolean; readonly file: string } | null;
  /** What is missing or could not be read, in words (`no grade_inputs.json`). */
  readonly notes: readonly string[];
}

/** The judge-versus-verifier figures, overall and per site and per task kind, and where they come from. */
export interface ReportScores {
  /** Such as `_validate.json (judge gemini-3.5-flash)` or `computed from 120 judge records and results.jsonl`. */
  readonly source: string;
  readonly overall: JudgeScoreWithIntervals;
  readonly bySite: Readonly<Record<string, JudgeScoreWithIntervals>>;
  readonly byKind: Readonly<Record<string, JudgeScoreWithIntervals>>;
}

/** The header figures of the report. */
export interface ReportTotals {
  readonly episodes: number;
  readonly judged: number;
  readonly judgedSuccesses: number;
  readonly verified: number;
  readonly verifierPasses: number;
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
  readonly totals: ReportTotals;
  /** `null` with `scoresNote` saying why when there is nothing to score. */
  readonly scores: ReportScores | null;
  readonly scoresNote: string | null;
  readonly rowsReport: RowsReport | null;
  readonly rowsDir: string | null;
  readonly issues: readonly ReportIssue[];
  readonly episodes: readonly ReportEpisodeSummary[];
}
