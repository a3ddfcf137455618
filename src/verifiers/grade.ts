/**
 * Grading an episode with a written verifier: the claim checked on the whole episode's evidence, as a verifier
 * result (`ok`, `checks`) like a hand-written verifier's, so `results.jsonl` reads the same for both.
 * @module
 */
import { checkClaim } from '../claims/check';
import type { StepEvidence } from '../claims/evidence';
import type { Claim } from '../claims/schema';
import type { StartRows } from '../claims/start-rows';
import type { Change, LogEntry } from '../core/schemas';
import type { VerifyResult } from '../attempt/verify';

/** A finished episode's evidence, as the attempt step has it at the end (no step tags needed for a verdict). */
export interface FinalEvidence {
  /** Steps taken. */
  readonly steps: number;
  /** The agent's final answer, `null` when none. */
  readonly answer: string | null;
  /** The session's request log. */
  readonly log: readonly LogEntry[];
  /** The session's data changes. */
  readonly changes: readonly Change[];
  /** The page texts the agent saw, in order. */
  readonly seen: readonly unknown[];
  /** The tables' rows at the start (`start_rows.json`); `null` or absent when not recorded (state claims not checkable). */
  readonly start?: StartRows | null;
}

/** The evidence with everything tagged at the last step: enough for whether a claim holds at the end. */
export function finalStepEvidence(evidence: FinalEvidence): StepEvidence {
  const last = Math.max(1, evidence.steps);
  return {
    steps: evidence.steps,
    answer: evidence.answer,
    answerStep: evidence.answer === null ? null : last,
    log: evidence.log.map((entry) => ({ entry, step: last })),
    changes: evidence.changes.map((change) => ({ change, step: last })),
    seen: evidence.seen.map((text) => ({ text: typeof text === 'string' ? text : String(text ?? ''), step: last })),
    start: evidence.start ?? null,
  };
}

/**
 * The written verifier's verdict on an episode: one check, the claim, with the checker's detail. A vacuous claim
 * (it holds on an episode that did nothing) never passes an episode: its verdict is a failure saying so.
 */
export function claimVerdict(claim: Claim, evidence: FinalEvidence): VerifyResult {
  const result = checkClaim(claim, finalStepEvidence(evidence));
  const check = `written verifier ${JSON.stringify(claim).slice(0, 200)}`;
  if (result.vacuous !== null) return { ok: false, checks: [{ check, ok: false, detail: `vacuous, not used: it ${result.vacuous}` }] };
  return { ok: result.holds, checks: [{ check, ok: result.holds, detail: result.detail }] };
}
