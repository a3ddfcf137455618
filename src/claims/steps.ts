/**
 * The step map (`<episode>/evidence_steps.json`, beside the seed's files, which stay as they are): for every
 * request of the log, data change and page text of `grade_inputs.json`, the step after which it appeared, so a
 * claim can be decided on the evidence of the first k steps.
 *
 * A step count is a number of the episode's steps (observe, decide, act) taken: `0` is the start page before any
 * action; a request the `k`-th action caused, and the page it led to, are tagged `k`. The attempt step counts the
 * session's evidence after each observation, while the agent decides (before it acts), so a piece of evidence is
 * never tagged earlier than the step that caused it; one that arrives late is tagged later.
 * @module
 */
import { z } from 'zod';
import type { SessionEvidence, EvidenceSession } from '../attempt/types';
import type { FileStore } from '../files/types';
import { episodeFile } from '../files/layout';

/** `<episode>/evidence_steps.json`: step tags parallel to `grade_inputs.json`'s `log`, `changes` and `seen`. */
export const EvidenceStepsSchema = z.looseObject({
  /** The format's version. */
  version: z.literal(1),
  /** The episode's steps (`episode.json`'s `steps`). */
  steps: z.number().int().nonnegative(),
  /** The step of the `done` action (the answer's), `null` when the episode did not end with one. */
  answer_step: z.number().int().positive().nullable(),
  /** `log[i]`: the step after which request `i` of the log appeared. */
  log: z.array(z.number().int().nonnegative()),
  /** `changes[i]`: the step after which data change `i` appeared. */
  changes: z.array(z.number().int().nonnegative()),
  /** `seen[i]`: the step after which page text `i` was observed. */
  seen: z.array(z.number().int().nonnegative()),
});
/** The step map of one episode. */
export type EvidenceSteps = z.infer<typeof EvidenceStepsSchema>;

/** A finished episode, as the step map needs it. */
export interface FinishedRun {
  /** Steps taken. */
  readonly steps: number;
  /** Whether it ended with a `done` action (its last step). */
  readonly done: boolean;
  /** Page texts observed (`grade_inputs.json`'s `seen`). */
  readonly seen: number;
}

interface Counts {
  readonly log: number;
  readonly changes: number;
  readonly seen: number;
}

/**
 * Records the step map while an episode runs: {@link mark} after each observation (it counts the session's
 * evidence in the background), awaited before the step's action; {@link write} at the end.
 */
export class StepMarks {
  private readonly marks: Array<Promise<Counts | null>> = [];

  /** `timeoutMs`: the longest a count may take (then that step's evidence is tagged with a later step). */
  constructor(
    private readonly session: EvidenceSession,
    private readonly timeoutMs = 10_000,
  ) {}

  /**
   * Counts the evidence after `step` steps, `seen` page texts observed; resolves when counted (never rejects:
   * a count that failed tags that step's evidence with a later step).
   */
  mark(step: number, seen: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.timeoutMs);
    });
    const collected = this.session.collect().then(
      (e): Counts => ({ log: e.log.length, changes: e.changes.length, seen }),
      () => null,
    );
    const counted = Promise.race([collected, late]).finally(() => clearTimeout(timer));
    this.marks[step] = counted;
    return counted.then(() => undefined);
  }

  /** Writes the step map of the finished episode into its dir (see {@link stepsOf}). */
  async write(store: FileStore, dir: string, final: SessionEvidence, run: FinishedRun): Promise<void> {
    await store.writeAtomic(episodeFile(dir, 'evidenceSteps'), `${JSON.stringify(await this.stepsOf(final, run))}\n`);
  }

  /** The step map of the finished episode: its final evidence, and what {@link FinishedRun} says. */
  async stepsOf(final: SessionEvidence, run: FinishedRun): Promise<EvidenceSteps> {
    const counts = await Promise.all(this.marks.map((m) => m ?? Promise.resolve(null)));
    const tags = (key: keyof Counts, total: number): number[] => {
      const out: number[] = [];
      counts.forEach((c, step) => {
        if (!c) return;
        while (out.length < Math.min(c[key], total)) out.push(Math.min(step, run.steps));
      });
      while (out.length < total) out.push(run.steps);
      return out;
    };
    return {
      version: 1,
      steps: run.steps,
      answer_step: run.done && run.steps > 0 ? run.steps : null,
      log: tags('log', final.log.length),
      changes: tags('changes', final.changes.length),
      seen: tags('seen', run.seen),
    };
  }
}
