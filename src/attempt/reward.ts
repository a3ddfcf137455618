/**
 * One reward per episode, wherever it is read: the environment server, the attempt step's `results.jsonl`, pass@k,
 * the export's `rollouts` and the run report all decide it here. The task's hand-written verifier where it has one,
 * else its written verifier (a claim), else the judge's verdict; each on the episode's recorded evidence (the answer,
 * the requests, the changes, the start rows with them applied, the site's declared consequences, the question), so
 * the same episode read from its dir gets the reward it got when it was recorded.
 * @module
 */
import path from 'node:path';
import { readJsonFileIfExists, readJsonl } from '../core/io';
import { pyTruthy } from '../core/py/repr';
import { EpisodeSchema, GradeInputsSchema, ResultLineSchema, VerifierSchema, type Task } from '../core/schemas';
import { InputError } from '../core/errors';
import { claimVerdict, type FinalEvidence } from '../claims/grade';
import type { Claim } from '../claims/schema';
import { StartRowsSchema } from '../claims/start-rows';
import { replayState } from '../claims/state';
import { episodeFile, RESULTS_FILES } from '../files/layout';
import type { FileStore } from '../files/types';
import { verifyEpisode, type CheckResult, type EpisodeEvidence } from './verify';
import { gradeMiniwebTask, isMiniwebVerifier, readDecisions, readEpisodeTrail, type EpisodeTrail, type MiniwebDecisionOptions } from '../miniweb/reward';

/** Where an episode's reward can come from: `verifier` (hand-written), `written-verifier` (a claim), `judge`, or `none`. */
export const REWARD_SOURCES = ['verifier', 'written-verifier', 'judge', 'none'] as const;
/** Where an episode's reward came from (see {@link REWARD_SOURCES}). */
export type RewardSource = (typeof REWARD_SOURCES)[number];

/** An episode's reward and its source. */
export interface EpisodeReward {
  /** 1 or 0; `null` where nothing decides it (no verifier and no judge verdict). */
  readonly reward: 0 | 1 | null;
  /** What decided it. */
  readonly source: RewardSource;
  /** The verifier's or claim's checks; `[]` for the judge. */
  readonly checks: readonly CheckResult[];
}

/** What {@link decideReward} reads. */
export interface RewardInput {
  /** The task: its instruction is the question an answer answers; its `verifier`, when it has one, decides. */
  readonly task: Task;
  /** The task's written verifier (`verifiers.jsonl`), for a task without its own. */
  readonly written?: Claim | null;
  /** The episode's evidence. */
  readonly evidence: Omit<FinalEvidence, 'question'>;
  /** The judge's verdict on this very episode, for a task with neither; `null` when it has none. */
  readonly judge?: boolean | null;
  /**
   * For a task with MiniWeb's verifier (`verifier.json`): the episode's trail (pages, last page text, MiniWeb's
   * record, the agent's reasoning), and how its fuzzy checks are decided. Without a trail such a verifier reads an
   * empty one.
   */
  readonly miniweb?: { readonly trail: EpisodeTrail } & MiniwebDecisionOptions;
  /** Checks a hand-written verifier instead of {@link verifyEpisode} (a user's own); `undefined` when it cannot. */
  readonly verify?: (task: Task, evidence: EpisodeEvidence) => Promise<{ ok: boolean; checks: CheckResult[] } | undefined>;
}

/** Decides an episode's reward (see the module notes). */
export async function decideReward(input: RewardInput): Promise<EpisodeReward> {
  const { task, evidence } = input;
  const question = task.instruction;
  if (task.verifier && isMiniwebVerifier(task.verifier)) {
    // MiniWeb's own format: decided on the trail, or undecided (then the written verifier or the judge decides).
    const verdict = await gradeMiniwebTask(task, evidence, input.miniweb?.trail ?? EMPTY_TRAIL, input.miniweb ?? {});
    if (verdict.ok !== null) return { reward: verdict.ok ? 1 : 0, source: 'verifier', checks: verdict.checks };
  } else if (task.verifier) {
    const graded: EpisodeEvidence = {
      answer: evidence.answer,
      log: evidence.log,
      changes: evidence.changes,
      question,
      start: evidence.start ?? null,
      consequences: evidence.consequences ?? [],
      ...(evidence.start ? { state: replayState(evidence.start, evidence.changes) } : {}),
    };
    const parsed = VerifierSchema.safeParse(task.verifier);
    const result = input.verify ? await input.verify(task, graded) : parsed.success ? await verifyEpisode(parsed.data, graded) : undefined;
    if (result) return { reward: result.ok ? 1 : 0, source: 'verifier', checks: result.checks };
  }
  if (input.written) {
    const verdict = claimVerdict(input.written, { ...evidence, question });
    return { reward: verdict.ok ? 1 : 0, source: 'written-verifier', checks: verdict.checks };
  }
  const judge = input.judge ?? null;
  return { reward: judge === null ? null : judge ? 1 : 0, source: judge === null ? 'none' : 'judge', checks: [] };
}

/**
 * Reads an episode dir's evidence (`grade_inputs.json`, `start_rows.json`, `episode.json`'s steps) and decides its
 * reward with {@link decideReward}. A missing or bad `grade_inputs.json` is an `InputError` naming it.
 */
export async function readEpisodeReward(store: FileStore, episodeDir: string, input: Omit<RewardInput, 'evidence'>): Promise<EpisodeReward> {
  const file = episodeFile(episodeDir, 'gradeInputs');
  const [inputs, startFile, episode] = await Promise.all([
    readJsonFileIfExists(store, file, GradeInputsSchema),
    readJsonFileIfExists(store, episodeFile(episodeDir, 'startRows'), StartRowsSchema),
    readJsonFileIfExists(store, episodeFile(episodeDir, 'episode'), EpisodeSchema),
  ]);
  if (inputs === null) throw new InputError({ file }, 'missing: the episode has no evidence to reward');
  const miniweb = isMiniwebVerifier(input.task.verifier)
    ? { trail: await readEpisodeTrail(store, episodeDir, inputs.seen ?? []), decided: await readDecisions(store, episodeDir), ...input.miniweb }
    : undefined;
  const evidence = {
    steps: episode?.steps ?? inputs.actions?.length ?? 0,
    answer: typeof inputs.answer === 'string' ? inputs.answer : null,
    log: inputs.log ?? [],
    changes: inputs.changes ?? [],
    seen: inputs.seen ?? [],
    start: startFile?.tables ?? null,
    consequences: startFile?.consequences ?? [],
  };
  return decideReward({ ...input, evidence, ...(miniweb ? { miniweb } : {}) });
}

const EMPTY_TRAIL: EpisodeTrail = { urls: [], lastPageText: null, records: [], beacons: [], reasoning: null };

/** Where an episode's outcome came from: a reward source that decided it, never `none`. */
export type OutcomeSource = Exclude<RewardSource, 'none'>;

/** An episode's success as every reader of a run counts it ({@link episodeOutcome}). */
export interface EpisodeOutcome {
  /** Whether it succeeded; `null` when nothing decides it. */
  readonly success: boolean | null;
  /** What decided it; `null` with `success`. */
  readonly source: OutcomeSource | null;
  /** `evidence`: decided now on the episode's evidence; `recorded`: the run's results file; `null` otherwise (the judge, or nothing). */
  readonly from: 'evidence' | 'recorded' | null;
}

/**
 * An episode's outcome as pass@k, the run report and the label sources count it: {@link readEpisodeReward} where a
 * verifier (hand-written or written) can check the episode's evidence; else the result the run recorded for it (a
 * seed-made run, whose episodes have no `grade_inputs.json`), named after the verifier the task has; else the judge.
 */
export async function episodeOutcome(
  store: FileStore,
  episodeDir: string,
  input: { readonly task: Task; readonly written?: Claim | null; readonly verdict: boolean | null; readonly recorded?: boolean },
): Promise<EpisodeOutcome> {
  const { task, verdict, recorded } = input;
  const written = input.written ?? null;
  if ((task.verifier || written) && (await store.exists(episodeFile(episodeDir, 'gradeInputs')))) {
    const reward = await readEpisodeReward(store, episodeDir, { task, written, judge: verdict });
    if (reward.source === 'verifier' || reward.source === 'written-verifier') return { success: reward.reward === 1, source: reward.source, from: 'evidence' };
  }
  return recordedOutcome(task, written, recorded) ?? { success: verdict, source: verdict === null ? null : 'judge', from: null };
}

/** The result a run recorded for an episode, named after the verifier its task has; `null` when it recorded none. */
export function recordedOutcome(task: Task, written: Claim | null, recorded: boolean | undefined): EpisodeOutcome | null {
  return recorded === undefined ? null : { success: recorded, source: !task.verifier && written ? 'written-verifier' : 'verifier', from: 'recorded' };
}

/** `{task_id: ok}` of a run dir's results file (`results_regraded.jsonl` wins, as in the seed), ok as Python's truth; a later line wins. */
export async function recordedResults(store: FileStore, runDir: string): Promise<Map<string, boolean>> {
  for (const name of RESULTS_FILES) {
    const file = path.posix.join(runDir, name);
    if (!(await store.exists(file))) continue;
    const lines = await readJsonl(store, file, ResultLineSchema);
    return new Map(lines.map((l) => [l.task_id, pyTruthy(l.ok)]));
  }
  return new Map();
}
