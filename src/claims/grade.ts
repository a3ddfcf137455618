/**
 * Grading an episode with a claim (a written verifier, a reward): the claim checked on the whole episode's evidence,
 * as a verifier result (`ok`, `checks`) like a hand-written verifier's, so `results.jsonl` reads the same for both;
 * and which written verifiers apply to which tasks.
 * @module
 */
import { checkClaim } from './check';
import type { StepEvidence } from './evidence';
import type { Claim, Consequence } from './schema';
import type { StartRows } from './start-rows';
import type { Change, LogEntry, Task } from '../core/schemas';

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
  /** What the site declares it does by itself as a consequence of a task's changes (`start_rows.json`). */
  readonly consequences?: readonly Consequence[];
  /** The instruction of the task graded: numbers and values it names are no competing answer. */
  readonly question?: string | null;
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
    consequences: evidence.consequences ?? [],
  };
}

/** A claim's verdict, shaped as a verifier's result (`ok`, and one check with its detail). */
export interface ClaimVerdict {
  /** Whether the claim holds, and proves something. */
  readonly ok: boolean;
  /** The one check: the claim, whether it passed, and why. */
  readonly checks: Array<{ readonly check: string; readonly ok: boolean; readonly detail: string }>;
}

/**
 * The written verifier's verdict on an episode: one check, the claim, with the checker's detail. A vacuous claim
 * (it holds on an episode that did nothing) never passes an episode: its verdict is a failure saying so.
 */
export function claimVerdict(claim: Claim, evidence: FinalEvidence): ClaimVerdict {
  const result = checkClaim(claim, finalStepEvidence(evidence), { question: evidence.question ?? null });
  const check = `written verifier ${JSON.stringify(claim).slice(0, 200)}`;
  if (result.vacuous !== null) return { ok: false, checks: [{ check, ok: false, detail: `vacuous, not used: it ${result.vacuous}` }] };
  return { ok: result.holds, checks: [{ check, ok: result.holds, detail: result.detail }] };
}

/** A written verifier as grading needs it (a line of `verifiers.jsonl` is one). */
export interface WrittenClaim {
  /** The task it grades. */
  readonly task_id: string;
  /** The instruction it was written for. */
  readonly instruction: string;
  /** The claim. */
  readonly claim: Claim;
}

/** The written verifiers that apply: for a task without its own verifier, with the instruction they were written for. */
export function writtenFor(tasks: readonly Task[], verifiers: readonly WrittenClaim[], warn: (message: string) => void): Map<string, Claim> {
  const byId = new Map(tasks.map((t) => [t.task_id, t]));
  const out = new Map<string, Claim>();
  let stale = 0;
  for (const v of verifiers) {
    const task = byId.get(v.task_id);
    if (!task || task.verifier || out.has(v.task_id)) continue;
    if (task.instruction !== v.instruction) stale++;
    else out.set(v.task_id, v.claim);
  }
  if (stale) warn(`${stale} written verifiers were written for another instruction of their task: not used`);
  return out;
}
