/**
 * The whole pipeline's contracts: its stages, its configuration (the adapters of every step), the events it
 * reports and the summary it returns.
 * @module
 */
import type { PassAtKReport } from '../validate/pass-at-k';
import type { CallFailure } from '../models/failures';
import type { AttemptEvent } from '../attempt/run';
import type { BrowserHost, BrowserOptions } from '../browser/host';
import type { Policy } from '../agent/types';
import type { EvidenceProvider } from '../attempt/types';
import type { FileStore } from '../files/types';
import type { JudgeEvent, NoVerdictCause } from '../judge/run';
import type { LanguageModel } from '../models/types';
import type { UsageMeter, UsageSummary, UsageTotals } from '../models/usage';
import type { ProposeEvent } from '../propose';
import type { ReportEvent } from '../report/write';
import type { LabelsReport, RowsEvent } from '../rows';
import type { WriteVerifiersEvent } from '../verifiers/run';
import type { RelabelEvent, RelabelSummary } from '../relabel/run';
import type { JudgeScoreWithIntervals, Outcome, RowsReport, Task } from '../core/schemas';
import type { SetupCount } from '../files/setup-counts';
import type { Shard } from '../core/shard';
import type { SiteSource } from '../sites/types';
import type { PipelineLayout } from './layout';

/** The stages, in the order they run. */
export const PIPELINE_STAGES = ['propose', 'attempt', 'judge', 'verifiers', 'validate', 'relabel', 'rows', 'report'] as const;

/** A stage of the pipeline. */
export type PipelineStage = (typeof PIPELINE_STAGES)[number];

/** Which run a judge model is asked to judge: the proposed tasks' run (`judge`) or the human tasks' (`validate`). */
export interface JudgeTarget {
  /** The run dir being judged. */
  readonly run: string;
  /** The stage asking: `judge` for the proposed tasks' run, `validate` for the human tasks' run. */
  readonly stage: 'judge' | 'validate';
}

/**
 * The judge: one model for both runs, or a function giving the model for a run (for judges that read the run
 * dir, such as the sandbox's stand-in judge).
 */
export type JudgeModel = LanguageModel | ((target: JudgeTarget) => LanguageModel);

/** Options of {@link runPipeline}: the work dir, the adapters of every step, and the sizes. */
export interface PipelineOptions {
  /** The work dir; every output goes under it (see {@link pipelineLayout}). */
  readonly dir: string;
  /** Where the sites are: sitemaps and pages for proposing, `baseUrl` for the browser, the split. */
  readonly source: SiteSource;
  /** The training sites. Default the split's `train` list. */
  readonly sites?: readonly string[];
  /** The proposer (Gemini in the user's setup). Needed by `propose`. */
  readonly proposer?: LanguageModel;
  /** Writes the verifiers of the `verifiers` stage. Default the proposer; with neither, that stage is skipped. */
  readonly verifierWriter?: LanguageModel;
  /** The judge (Gemini in the user's setup). Needed by `judge` and `validate`. */
  readonly judge?: JudgeModel;
  /**
   * The agent's model (Qwen VL behind an OpenAI-compatible server), run as `qwenPolicy({llm})`; its calls are
   * metered and priced as that adapter's. Needed by `attempt` and `validate` unless `policy` is given.
   */
  readonly agent?: LanguageModel;
  /**
   * The `agent` thinks before it answers (its adapter switches Qwen's `enable_thinking` on), so it gets 4096
   * tokens per reply instead of 512, as `qwenPolicy({ thinking: true })` does. Default false.
   */
  readonly agentThinking?: boolean;
  /** The `agent`'s sampling temperature (`qwenPolicy`'s `temperature`). Default 0, or 1 with `attempts` above 1. */
  readonly agentTemperature?: number;
  /** The `agent`'s sampling seed of try 1; try n uses seed + n - 1 (`qwenPolicy`'s `seed`). Default none. */
  readonly agentSeed?: number;
  /**
   * Tries per task of `attempt` (and of `validate`'s human tasks): each its own episode, try n in `<dir>/run/_tries/<n>/`;
   * `judge`, `validate` and `relabel` then run on every try, `rows` picks among them (`pick`), the report shows
   * pass@k. Default 1: the work dir is what it always was.
   */
  readonly attempts?: number;
  /** Which successful tries of a task become rows (`runRows`'s `pick`). Default `shortest`. */
  readonly pick?: 'shortest' | 'first' | 'all';
  /**
   * A precision target for judge-only rows, 0 to 1 (`runRows`'s `minPrecision`): the judge configuration the records
   * allow with the most rows whose lower 95% bound on precision on the scored sets (the run and `<dir>/human`) is at
   * least this; judge-only episodes it does not accept are left out. Default none.
   */
  readonly minPrecision?: number;
  /**
   * Any policy instead of `agent`. The tokens it reports are counted under provider `policy` (priced only if
   * the meter's price table names its model).
   */
  readonly policy?: Policy;
  /** The server's record of each episode. Default `browserEvidence()` (requests only, no data changes). */
  readonly evidence?: EvidenceProvider;
  /**
   * Human tasks with verifiers (a JSONL file, a directory of MiniWeb's annotated tasks, or the tasks): those of the training sites are attempted, judged
   * and scored against their verifiers by `validate`. Needed by `validate`.
   */
  readonly humanTasks?: string | readonly Task[];
  /** The most human tasks per site (the first ones, in file order). Default all. */
  readonly humanPerSite?: number;
  /** Tasks proposed per site. Default 140. */
  readonly perSite?: number;
  /** Tasks asked for per proposer call. Default 20. */
  readonly batch?: number;
  /** Seeds the proposer's focus-page draws. Default 20261008. */
  readonly seed?: number;
  /** Sites proposed at once. Default 8. */
  readonly proposeWorkers?: number;
  /** Episodes in parallel. Default 4. */
  readonly concurrency?: number;
  /** Steps per episode. Default 15. */
  readonly maxSteps?: number;
  /** Time limit of one episode in ms. Default 300 000. */
  readonly episodeTimeoutMs?: number;
  /** Time limit of one element action in ms. Default the attempt step's (10 000). */
  readonly actionTimeoutMs?: number;
  /**
   * `attempt` and `validate` stop after this many episodes in a row could not run (the agent's model or the sites'
   * server failing), naming the first causes; a rerun redoes them. Default the attempt step's (3); 0 never stops.
   */
  readonly stopAfterFailures?: number;
  /** Episodes judged at once. Default 16. */
  readonly judgeWorkers?: number;
  /**
   * The relabeler (the proposer's model in the user's setup): the `relabel` stage writes, for each episode judged
   * not successful, the tasks it did complete (see `runRelabel`). Without it the stage is skipped.
   */
  readonly relabeler?: LanguageModel;
  /** The judge of relabeled episodes. Default `judge` when it is a model; needed when `judge` is a function. */
  readonly relabelJudge?: LanguageModel;
  /** The most tasks written per relabeled episode. Default 3. */
  readonly relabelK?: number;
  /** The rows' step budget. Default 27 644. */
  readonly budget?: number;
  /** A browser to share (its owner closes it), or options for the one the pipeline launches and closes. */
  readonly browser?: BrowserHost | BrowserOptions;
  /** Stages not to run. */
  readonly skip?: readonly PipelineStage[];
  /** The only stages to run (then minus `skip`). */
  readonly only?: readonly PipelineStage[];
  /** Default the local disk. */
  readonly store?: FileStore;
  /** Counts every model call, under the stage's name. Default a new meter. */
  readonly meter?: UsageMeter;
  /** Progress: stage events and every step's own events. The library never prints. */
  readonly onEvent?: (event: PipelineEvent) => void;
  /** Stops the run: no new episode or stage starts, and the call rejects; a rerun goes on from there. */
  readonly signal?: AbortSignal;
  /**
   * Run one shard (DESIGN.md §8): `attempt`, `judge` and `validate` take the tasks at positions `[index::count]`
   * (validate attempts and judges its share of the human tasks and scores nothing); `propose`, `rows` and
   * `report` are whole-run stages, skipped here: run them once without a shard (before the shards for
   * `propose`, after them for the rest, which also scores `validate`). Default the whole run.
   */
  readonly shard?: Shard;
  /**
   * Write into dirs recorded with another set-up (another model, per-site, max steps...) on purpose; summaries
   * then count per set-up. Default false: every stage's set-up is compared with its dir's record before the
   * first stage, and another one is refused with the differences named (`SetupMismatchError`).
   */
  readonly mixSetup?: boolean;
  /**
   * Check what the stages will need before the first paid call (`preflight`: the browser, the models' servers,
   * the sites, the work dir) and stop with a `PreflightError` naming each failure. Default true.
   */
  readonly preflight?: boolean;
}

/** What the pipeline reports as it goes. */
export type PipelineEvent =
  /** The plan: the stages that will run, the sites, the layout. */
  | { readonly type: 'plan'; readonly stages: readonly PipelineStage[]; readonly layout: PipelineLayout }
  | { readonly type: 'stage-start'; readonly stage: PipelineStage }
  | { readonly type: 'stage-end'; readonly stage: PipelineStage; readonly summary: StageSummary }
  | { readonly type: 'stage-skipped'; readonly stage: PipelineStage; readonly reason: string }
  | { readonly type: 'propose'; readonly event: ProposeEvent }
  | { readonly type: 'attempt'; readonly stage: 'attempt' | 'validate'; readonly event: AttemptEvent }
  | { readonly type: 'judge'; readonly stage: 'judge' | 'validate'; readonly event: JudgeEvent }
  | { readonly type: 'verifiers'; readonly event: WriteVerifiersEvent }
  | { readonly type: 'relabel'; readonly event: RelabelEvent }
  | { readonly type: 'rows'; readonly event: RowsEvent }
  | { readonly type: 'report'; readonly run: 'run' | 'human'; readonly event: ReportEvent }
  | { readonly type: 'warning'; readonly stage: PipelineStage; readonly message: string };

/** What every stage summary has. */
export interface StageFigures {
  /** Wall time of the stage in ms. */
  readonly ms: number;
  /** The stage's model calls (those counted under its name by the meter during this call). */
  readonly usage: UsageTotals;
}

/** `propose`: the tasks file. */
export interface ProposeStageSummary extends StageFigures {
  /** Training sites, and how many were already in the tasks file. */
  readonly sites: number;
  /** Of `sites`, those already in the tasks file before this call (kept as they were). */
  readonly resumedSites: number;
  /** Tasks proposed by this call, of which information tasks. */
  readonly proposed: number;
  /** Of `proposed`, the information tasks. */
  readonly info: number;
  /** Tasks in the tasks file (all sites). */
  readonly tasks: number;
  /** Sites that got no task (proposed again by the next run). */
  readonly emptySites: readonly string[];
  /** Proposer batches that failed: the call failed, or the reply was not tasks. */
  readonly failedBatches: number;
  /** Entries of the replies skipped as unusable (not an object, not encodable). */
  readonly skippedTasks: number;
  /** Failed model calls, and the first of them with their causes (status, model, hint). */
  readonly callErrors: number;
  /** The first failed calls (at most 5), with status, model and hint. */
  readonly failures: readonly CallFailure[];
}

/** `attempt` (and the attempt half of `validate`): a run dir. */
export interface AttemptStageSummary extends StageFigures {
  /** Tasks to attempt. */
  readonly tasks: number;
  /** Finished episodes in the run dir (of these tasks), their steps and outcomes. */
  readonly episodes: number;
  /** Steps of those finished episodes. */
  readonly steps: number;
  /** Those finished episodes by outcome (`done`, `max_steps`, `timeout`, `error`). */
  readonly outcomes: Readonly<Record<Outcome, number>>;
  /** Episodes run by this call, and their steps. */
  readonly ran: number;
  /** Steps taken in the episodes run by this call. */
  readonly ranSteps: number;
  /** Episodes that could not run in this call (model or server failures; a rerun retries them). */
  readonly failed: number;
  /** Verified episodes of the run and how many passed (human tasks); `null` for a run without verifiers. */
  readonly verified: { readonly total: number; readonly passed: number; readonly rate: number } | null;
  /** The finished episodes per set-up that recorded them: more than one only when set-ups were mixed. */
  readonly bySetup: readonly SetupCount[];
}

/** `judge` (and the judge half of `validate`): the judge records of a run. */
export interface JudgeStageSummary extends StageFigures {
  /** Episodes with a record, of which judged SUCCESS, and the rate (the seed's summary). */
  readonly episodes: number;
  /** Of `episodes`, those judged SUCCESS. */
  readonly success: number;
  /** `success / episodes` rounded to 4 places (0 with no episodes), as in the seed's summary. */
  readonly rate: number;
  /** Episodes judged by this call (the rest had a record already). */
  readonly judged: number;
  /** Episodes left without a record: no verdict after the tries, or an error (a rerun judges them). */
  readonly noVerdict: number;
  /** Episodes whose judging failed with an error in this call (a rerun judges them). */
  readonly errors: number;
  /** The judge model's name, as written in its records. */
  readonly model: string;
  /** Failed model calls, and the first of them with their causes (status, model, hint). */
  readonly callErrors: number;
  /** The first failed calls (at most 5), with status, model and hint. */
  readonly failures: readonly CallFailure[];
  /**
   * The first episodes (at most 5) this call left without a verdict, with why: the reply did not parse (with a short
   * excerpt of it, keys removed), or the call failed.
   */
  readonly noVerdictCauses: readonly NoVerdictCause[];
  /** The records per judge set-up that made them: more than one only when set-ups were mixed. */
  readonly bySetup: readonly SetupCount[];
}

/** `verifiers`: a verifier written for each proposed task with a judged success (`<dir>/verifiers.jsonl`). */
export interface VerifiersStageSummary extends StageFigures {
  /** Proposed tasks, those with a judged success, and their verifiers: kept from before, written now. */
  readonly tasks: number;
  /** Tasks whose episode was judged SUCCESS. */
  readonly successes: number;
  /** Verifiers already in the file. */
  readonly kept: number;
  /** Verifiers written by this call. */
  readonly written: number;
  /** Replies that were not a claim. */
  readonly unparsed: number;
  /** Claims that did not hold on their own episode (not kept). */
  readonly notHolding: number;
  /** Claims that held on an episode that did nothing or at their episode's start (not kept). */
  readonly vacuous: number;
  /** Claims too loose: passing too many other tasks' episodes, or an information claim not pinning its answer (not kept). */
  readonly loose: number;
  /** The verifiers written now, run on their site's other tasks' episodes: episodes, and passes. */
  readonly looseness: { readonly episodes: number; readonly passes: number };
  /** Tasks that failed with an error (a rerun tries them). */
  readonly errors: number;
  /** The writer model. */
  readonly model: string;
}

/** `validate`: the human tasks attempted, judged and scored against their verifiers. */
export interface ValidateStageSummary extends StageFigures {
  /** Human tasks to attempt: those of the training sites, at most `humanPerSite` per site. */
  readonly humanTasks: number;
  /** The attempt half: the human tasks' episodes in `<dir>/human/`. */
  readonly attempt: AttemptStageSummary;
  /** The judge half: the judge records in `<dir>/human_judge/`. */
  readonly judge: JudgeStageSummary;
  /** The judge against the verifiers (agreement, precision, recall, with 95% intervals); `null` for a shard. */
  readonly score: JudgeScoreWithIntervals | null;
  /** The same figures per task kind (`info`, `action`); `null` for a shard. */
  readonly byKind: Readonly<Record<string, JudgeScoreWithIntervals>> | null;
  /** `<dir>/human_judge/_validate.json`; `null` for a shard (the unsharded pass writes it). */
  readonly file: string | null;
}

/** `relabel`: the failed episodes relabeled into `<dir>/run_relabel/`. */
export interface RelabelStageSummary extends StageFigures {
  /** `runRelabel`'s figures. */
  readonly summary: RelabelSummary;
}

/** `rows`: the training rows dir. */
export interface RowsStageSummary extends StageFigures {
  /** Of the picked, the relabeled tasks' episodes and their rows. */
  readonly relabeled: { readonly picked: number; readonly rows: number };
  /** The seed's `_report.json`. */
  readonly report: RowsReport;
  /** The selected task ids, in selection order. */
  readonly picked: readonly string[];
  /** Episode dirs of earlier selections removed from the rows dir (it holds exactly the selection). */
  readonly pruned: number;
  /** pass@k of the run's tries (`readPassAtK`); `null` for a run of one try. */
  readonly passAtK: PassAtKReport | null;
  /** Where the rows' labels came from, the judge configuration chosen, and why none reached the target (`<dir>/rows_labels.json`). */
  readonly labels: LabelsReport;
}

/** `report`: the HTML reports. */
export interface ReportStageSummary extends StageFigures {
  /** `index.html` of the run's report and of the human run's, where there was a run to report. */
  readonly run: string | null;
  /** `index.html` of the human run's report; `null` when there was no human run. */
  readonly human: string | null;
}

/** The summary of each stage, by stage. */
export interface StageSummaries {
  /** The `propose` stage's summary. */
  readonly propose: ProposeStageSummary;
  /** The `attempt` stage's summary. */
  readonly attempt: AttemptStageSummary;
  /** The `judge` stage's summary. */
  readonly judge: JudgeStageSummary;
  /** The `verifiers` stage's summary. */
  readonly verifiers: VerifiersStageSummary;
  /** The `validate` stage's summary. */
  readonly validate: ValidateStageSummary;
  /** The `relabel` stage's summary. */
  readonly relabel: RelabelStageSummary;
  /** The `rows` stage's summary. */
  readonly rows: RowsStageSummary;
  /** The `report` stage's summary. */
  readonly report: ReportStageSummary;
}

/** One stage's summary. */
export type StageSummary = StageSummaries[PipelineStage];

/** What {@link runPipeline} returns. */
export interface PipelineResult {
  /** The work dir's paths: where each stage wrote its output. */
  readonly layout: PipelineLayout;
  /** The stages that ran, with their figures. */
  readonly stages: Partial<StageSummaries>;
  /** The stages that did not run, and why. */
  readonly skipped: ReadonlyArray<{ readonly stage: PipelineStage; readonly reason: string }>;
  /**
   * Whether everything is done. False when episodes could not run or were left unjudged, or sites got no task:
   * run the pipeline again (same config) to finish; what is done is kept.
   */
  readonly complete: boolean;
  /** Why it is not complete, in words. */
  readonly incomplete: readonly string[];
  /** The meter's figures: tokens and cost per stage and model. */
  readonly usage: UsageSummary;
  /** Wall time in ms. */
  readonly ms: number;
}
