/**
 * Written verifiers measured against hand-written ones: on a run whose `results.jsonl` holds the hand-written
 * verifiers' results (a human-task run), each episode is graded again with the claim written for its task, and the
 * two are compared as validate compares the judge: agreement, precision (hand-written passes when the written one
 * does) and recall, with 95% Wilson intervals, overall, per site and per task kind.
 * @module
 */
import { checkClaim } from '../claims/check';
import { loadStepEvidence } from '../claims/evidence';
import { episodeIdOf } from '../files/episode-id';
import { episodeDirOf } from '../files/layout';
import { nodeStore } from '../files/node';
import type { FileStore } from '../files/types';
import type { JudgeScoreWithIntervals } from '../core/schemas';
import { readVerifierResults } from '../validate/run';
import { scoreGroups, scoreJudge } from '../validate/score';
import type { WrittenVerifier } from './file';

/** Options of {@link scoreWrittenVerifiers}. */
export interface ScoreWrittenVerifiersOptions {
  /** A run with hand-written verifier results (`results.jsonl`). */
  readonly run: string;
  /** The written verifiers, by task id (see `readWrittenVerifiers`). */
  readonly verifiers: ReadonlyMap<string, WrittenVerifier>;
  /** Default {@link nodeStore}. */
  readonly store?: FileStore;
}

/** One episode graded both ways. */
export interface VerifierPair {
  /** The episode's task. */
  readonly taskId: string;
  /** Its site. */
  readonly site: string;
  /** Its task kind. */
  readonly kind: string;
  /** The hand-written verifier's result (the reference). */
  readonly hand: boolean;
  /** Whether the written claim holds. */
  readonly written: boolean;
}

/** What {@link scoreWrittenVerifiers} found. */
export interface WrittenVerifierScores {
  /** Every episode graded both ways, in the results file's order. */
  readonly pairs: readonly VerifierPair[];
  /**
   * The figures with the hand-written verifier as truth and the written one as the prediction: `verifier_pass` counts
   * hand-written passes, `judge_pass` written passes (the fields are validate's).
   */
  readonly overall: JudgeScoreWithIntervals;
  /** The same figures per site. */
  readonly bySite: Readonly<Record<string, JudgeScoreWithIntervals>>;
  /** The same figures per task kind. */
  readonly byKind: Readonly<Record<string, JudgeScoreWithIntervals>>;
  /** Episodes with a hand-written result but no written verifier for their task (not scored). */
  readonly unverified: number;
  /** Episodes a verifier was written from (not scored: its claim holds on them by construction). */
  readonly writtenFrom: number;
}

/**
 * Grades every episode of `run` that has a hand-written result with its task's written verifier, and scores the
 * written verifiers against the hand-written ones.
 * @example
 * const { byTask } = await readWrittenVerifiers(store, 'oracle/verifiers.jsonl');
 * const s = await scoreWrittenVerifiers({ run: 'agent-run', verifiers: byTask });
 * console.log(s.overall.precision, s.overall.precision_ci);
 */
export async function scoreWrittenVerifiers(options: ScoreWrittenVerifiersOptions): Promise<WrittenVerifierScores> {
  const store = options.store ?? nodeStore();
  const results = await readVerifierResults(store, options.run);
  const pairs: VerifierPair[] = [];
  let unverified = 0;
  let writtenFrom = 0;
  for (const [taskId, hand] of results) {
    const verifier = options.verifiers.get(taskId);
    if (!verifier) {
      unverified++;
      continue;
    }
    const dir = episodeDirOf(options.run, taskId);
    if ((await episodeIdOf(store, dir)) === verifier.written_from.episode_id) {
      writtenFrom++;
      continue;
    }
    // A vacuous claim passes nothing: grading never uses one.
    // the question its answer answers: the assertion rule reads "7.4 out of 10" as one rating only where it asks one
    const result = checkClaim(verifier.claim, await loadStepEvidence(store, dir), { question: verifier.instruction });
    const written = result.holds && result.vacuous === null;
    pairs.push({ taskId, site: verifier.site, kind: verifier.task_kind, hand, written });
  }
  const judged = pairs.map((p) => ({ ...p, verifier: p.hand, judge: p.written }));
  return {
    pairs,
    overall: scoreJudge(judged.map((p) => [p.verifier, p.judge])),
    bySite: scoreGroups(judged, (p) => p.site),
    byKind: scoreGroups(judged, (p) => p.kind),
    unverified,
    writtenFrom,
  };
}
