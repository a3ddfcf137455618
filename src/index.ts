/**
 * miniweb-taskgen: task-centric web-agent training data. Propose goal-level tasks per site with an LLM, attempt
 * them with a browser agent, judge each episode from screenshots and server evidence, validate the judge
 * against task verifiers, and select the judged successes as training rows.
 *
 * Every name is listed here on purpose, grouped by pipeline step and taken from that step's face module
 * (`src/<step>.ts`); `api/miniweb-taskgen.api.md` records the surface, so a change of it is a reviewed decision.
 * @packageDocumentation
 */

// Sites and context: where sitemaps and pages come from, each site's context for the proposer, crawling.
export {
  miniwebSource,
  memorySource,
  crawlSite,
  miniwebCrawlSession,
  siteContext,
  visibleText,
  parseSitemap,
  type SiteSource,
  type MiniwebSourceOptions,
  type MemorySourceOptions,
  type SiteContext,
  type SiteContextOptions,
  type CrawlOptions,
  type CrawlEvent,
} from './sites';

// Step 1, propose: goal-level tasks per site, written resumably to a tasks JSONL.
export {
  proposePrompt,
  proposeSite,
  runPropose,
  readTasksFile,
  SYSTEM_PROPOSE,
  type ProposePromptInput,
  type ProposeEvent,
  type ProposeSiteOptions,
  type ProposeOptions,
  type ProposeResult,
  type TasksFile,
  type TasksFileEvent,
} from './propose';

// Step 2, attempt: the agent works each task in the browser harness; episodes recorded, verifiers checked.
export {
  runAttempt,
  attemptTask,
  browserEvidence,
  verifyEpisode,
  type AttemptEvent,
  type AttemptOptions,
  type AttemptResult,
  type FinishedTotals,
  type AttemptTaskOptions,
  type AttemptTaskResult,
  type StepInfo,
  type VerifyFunction,
  type BrowserEvidenceOptions,
  type EvidenceProvider,
  type EvidenceSession,
  type SessionEvidence,
  type EpisodeEvidence,
  readEpisodeReward,
  type EpisodeReward,
  type RewardInput,
  type StateReader,
  type CheckResult,
  type VerifyResult,
} from './attempt';
// MiniWeb: each episode's evidence from MiniWeb's own record (its request log, its session overlay, its recorder);
// its annotated tasks and verifiers.
export {
  miniwebEvidence, readMiniwebTasks, MiniwebTasksError, gradeMiniwebVerifier, miniwebJudge,
  type MiniwebEvidenceOptions, type ReadMiniwebTasksOptions, type GradeMiniwebOptions, type MiniwebGradeResult,
  type MiniwebGradeInput, type MiniwebVerifierInput, type MiniwebJudge, type MiniwebJudgeInput, type MiniwebJudgeDecision,
  type MiniwebJudgeOptions,
} from './miniweb';
// Claims over evidence: what a recorded episode's evidence must show (a data change, a request, an answer, a value
// on a page the agent saw, rows of a table at the cut; all / any / not), decided at every step prefix from the
// episode's step map and start rows; the do-nothing episode a claim must fail; the tables replayed from start rows.
export {
  checkClaim, emptyEvidence, loadStepEvidence, replayState, verifierClaim,
  type Claim, type StateClaim, type ChangeClaim, type RequestClaim, type ClaimValue, type StartRows,
  type ClaimResult, type CheckClaimOptions, type StepEvidence, type FootprintEntry, type ConsequenceEntry, type Consequence,
} from './claims';
// The agent: policies, their prompt, action parsing, a vLLM server for Qwen.
export {
  qwenPolicy, qwenModel, scriptedPolicy, serveQwen, parseAction, DEFAULT_QWEN_MODEL,
  type QwenPolicyBaseOptions, type QwenPolicyEndpointOptions, type QwenPolicyModelOptions, type QwenPolicyOptions,
  type QwenModelOptions, type ImagePosition, type QwenServer, type ServeQwenOptions,
  type ScriptFunction, type ScriptedPolicyOptions, type ScriptedStep, type ParsedAction,
  type Policy, type PolicyInput, type PolicyDecision, type Observation, type ObservedElement, type StepRecord,
} from './agent';
// The browser harness: Chromium, one context per episode.
export { browserHost, type BrowserHost, type BrowserOptions, type BrowserRequest } from './browser';

// Step 3, judge: each episode judged from its screenshots and the server's evidence, the seed's prompt.
export {
  runJudge,
  judgeEpisode,
  judgePrompt,
  buildJudgeRequest,
  pickScreenshots,
  loadInstructions,
  SYSTEM_JUDGE,
  type JudgeOptions,
  type JudgeResult,
  type ModelCount,
  type NoVerdictCause,
  type JudgeEvent,
  type JudgeEpisodeOptions,
  type JudgeOutcome,
  type JudgeRequest,
  type PickScreenshotsOptions,
  type InstructionsOptions,
} from './judge';

// Step 4, validate: the judge scored against task verifiers.
export {
  runValidate,
  scoreJudge,
  scoreGroups,
  type JudgePair,
  type VerifiedJudgment,
  type ValidateOptions,
  type ValidateResult,
  type ValidateShardResult,
  // pass@k of a run with several tries per task
  readPassAtK,
  passAtK,
  type PassAtKReport,
  type PassAtKCurve,
  type PassAtKPoint,
  type TaskTries,
  type TryOutcome,
  type TrySuccessSource,
  type ReadPassAtKOptions,
} from './validate';

// Choosing a judge: judge variants (presets seed, no-evidence, text-only, last-3-shots; template files; votes)
// and the judge lab, which measures them against the verifiers and against each other.
export {
  runJudgeLab,
  resolveVariant,
  loadVariant,
  PRESET_NAMES,
  TemplateError,
  mcnemarExact,
  formatLab,
  wilsonInterval,
  type JudgeVariant,
  type JudgeVariantSpec,
  type PresetName,
  type EvidencePart,
  type ResolveVariantOptions,
  type JudgeLabOptions,
  type JudgeLabResult,
  type LabEvent,
  type PairedComparison,
  type LabReport,
} from './lab';

// Step 5, rows: the judged successes as training rows under a step budget.
export {
  selectRows,
  runRows,
  DEFAULT_BUDGET,
  type RowsTaskRef,
  type SelectRowsInput,
  type RowsSelection,
  type RowsEvent,
  type RowsOptions,
  type RowsResult,
  type LabelSource,
  type LabelsReport,
  type RowsPick,
} from './rows';

// Written verifiers: a claim per proposed task, written from a judged success and checked on it (verifiers.jsonl).
export {
  runWriteVerifiers,
  readWrittenVerifiers,
  verifierPrompt,
  scoreWrittenVerifiers,
  SYSTEM_VERIFIER,
  type WriteVerifiersOptions,
  type WriteVerifiersResult,
  type WriteVerifiersEvent,
  type VerifierOutcome,
  type RejectedReply,
  type WrittenVerifier,
  type WrittenClaim,
  type Looseness,
  type WrittenVerifiers,
  type VerifierPromptInput,
  type ScoreWrittenVerifiersOptions,
  type WrittenVerifierScores,
  type VerifierPair,
} from './verifiers';
// Relabeling failed episodes: the tasks they did complete, each with a claim checked on the server's evidence,
// the episode cut where it holds and judged by the seed's judge; accepted ones become rows beside the run's own.
export {
  runRelabel,
  type RelabelOptions,
  type RelabelResult,
  type RelabelEvent,
  type RelabelSummary,
  type RelabelTokens,
  type RelabelParent,
  type RelabelProposal,
  type RelabelStatus,
} from './relabel';

// The whole pipeline on one work dir, resumable stage by stage.
export {
  runPipeline,
  pipelineLayout,
  type PipelineOptions,
  type PipelineEvent,
  type PipelineLayout,
  type PipelinePlan,
  type PipelineStage,
  type PipelineResult,
  type JudgeModel,
  type JudgeTarget,
  type StageFigures,
  type StageSummaries,
  type StageSummary,
  type ProposeStageSummary,
  type AttemptStageSummary,
  type JudgeStageSummary,
  type ValidateStageSummary,
  type VerifiersStageSummary,
  type RowsStageSummary,
  type RelabelStageSummary,
  type ReportStageSummary,
} from './pipeline';
// Rollouts for RL: the tasks, their verifiers and the harness served as an OpenEnv environment, and its client.
export {
  serveEnv,
  connectEnv,
  EnvServerError,
  ENV_ERROR_CODES,
  type ServeEnvOptions,
  type EnvServer,
  type EnvCloseOptions,
  type EnvEvent,
  type ConnectEnvOptions,
  type EnvClient,
  type EnvAction,
  type EnvErrorCode,
  type EnvObservation,
  type EnvReset,
  type EnvState,
  type EnvStepResult,
  type RewardSource,
} from './env';
// Check before spending: what a run will need (browser, models' servers, sites, out dirs), without a paid call.
export { preflight, type PreflightOptions, type PreflightReport, type PreflightCheck } from './preflight';

// Sharing the data: a run as a Hugging Face dataset (Parquet configs `steps` and `episodes`, a dataset card), with
// the provenance of every row, and readers that load it back.
export {
  runExport,
  loadSteps,
  loadEpisodes,
  type Provenance,
  type Recipe,
  type EpisodeRow,
  type StepRow,
  type ExportEvent,
  type ExportOptions,
  type ExportResult,
  type LoadOptions,
  type ImageValue,
} from './export';

// The run report: a static HTML page of a run (its page model stays internal).
export {
  runReport,
  type ReportOptions,
  type ReportEvent,
  type ReportIssue,
} from './report';

// Models: adapters, retries, a shared limiter, usage and cost.
export {
  gemini,
  openaiCompatible,
  fakeLLM,
  createLimiter,
  UsageMeter,
  withUsage,
  formatUsage,
  DEFAULT_GEMINI_MODEL,
  DEFAULT_PRICES,
  type LanguageModel,
  type CompleteOptions,
  type Completion,
  type ImageInput,
  type Usage,
  type ErrorContext,
  type AdapterOptions,
  type GeminiOptions,
  type OpenAICompatibleOptions,
  type FakeLLM,
  type FakeLLMOptions,
  type FakeCall,
  type FakeReply,
  type FakeResponder,
  type CallContext,
  type RetryEvent,
  type RetryOptions,
  type Limiter,
  type LimiterEvent,
  type LimiterOptions,
  type UsageEntry,
  type UsageLine,
  type UsageMeterOptions,
  type UsageSummary,
  type UsageTotals,
  type WithUsageOptions,
  type ModelPrice,
  type PriceTable,
} from './models';

// Files: the store every step reads and writes through, readers that name the bad line, the on-disk layout.
export {
  nodeStore,
  memoryStore,
  readJsonl,
  parseJsonl,
  runLayout,
  type RunLayout,
  runTries,
  type RunTry,
  episodeIdOf,
  judgedEpisodeIdOf,
  type FileStore,
  type MemoryStore,
  type DirEntry,
  type CopyMode,
  type JsonlIssue,
  type ReadJsonlOptions,
} from './files';

// Past one machine: shards of a run (Slurm arrays, Kubernetes Indexed Jobs, RANK/WORLD_SIZE), their progress,
// and the whole run as sbatch scripts chained with afterok.
export {
  shardTasks,
  shardFromEnv,
  parseShard,
  runStatus,
  slurmPlan,
  writeSlurmScripts,
  submitSlurm,
  type SlurmAgent,
  type SlurmPlan,
  type SlurmPlanOptions,
  type SlurmScript,
  type SlurmStage,
  type SlurmJob,
  type SubmitSlurmOptions,
  type Shard,
  type ShardFromEnvOptions,
  type ShardSource,
  type RunStatus,
  type RunStatusOptions,
  type ShardStatus,
  type RunningEpisode,
} from './shards';

// Errors: each names what failed and where.
export { InputError, type InputLocation } from './core/errors';
export { ShardError, SlurmSubmitError } from './shards';
export { LLMError, MalformedReplyError, StageStoppedError, isFatalLLMError, type CallFailure, type ReplyProblem } from './models';
export { PageNotFoundError, PageFetchError, PageDecodeError } from './sites';
export { OutsideSiteError } from './browser';
export { EvidenceError } from './judge';
export { PipelineConfigError } from './pipeline';
export { PreflightError } from './preflight';
export { SetupMismatchError, type SetupCount, type SetupDifference, type SetupValue } from './files';
export { UnsafeNameError, isPlainName, assertPlainName } from './core/names';

// Types of every file format: `z.infer` of the zod schemas, which `miniweb-taskgen/schemas` exports.
export type {
  // tasks, their verifiers and sitemaps
  Task, TaskKind, Verifier, AnswerCheck, RequestCheck, StateCheck, Scalar, Split,
  Sitemap, SitemapPage, SitemapControl, SitemapOption,
  // episodes
  Action, ActionKind, LogEntry, Change, GradeInputs, Outcome, Episode, AgentSteps,
  // judge records, rows and the reports
  Row, RowMessage, ResultLine, JudgeRecord, JudgeSummary, TaskRef, RowsTask, RowsReport,
  Interval, JudgeScore, JudgeScoreWithIntervals, ValidateReport,
} from './core/schemas';
export type { EvidenceSteps } from './claims';
