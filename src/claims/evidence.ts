/**
 * One recorded episode's evidence with each piece tagged by its step: `grade_inputs.json` (what the judge reads),
 * `episode.json` (the step count), the step map `evidence_steps.json` and the start rows `start_rows.json` beside them. An episode without a step
 * map (recorded by the Python original, or before step maps) has everything tagged with its last step.
 * @module
 */
import { z } from 'zod';
import { InputError } from '../core/errors';
import { readJsonFileIfExists } from '../core/io';
import { GradeInputsSchema, type Change, type LogEntry } from '../core/schemas';
import { episodeFile } from '../files/layout';
import type { FileStore } from '../files/types';
import { EvidenceStepsSchema, type EvidenceSteps } from './steps';
import { StartRowsSchema, type StartRows } from './start-rows';
import type { Consequence } from './schema';

/** One recorded episode's evidence, each item tagged with the step after which it appeared (0: the start page). */
export interface StepEvidence {
  /** Steps taken (`episode.json`'s `steps`). */
  readonly steps: number;
  /** The agent's final answer (its `done` action's), `null` when none. */
  readonly answer: string | null;
  /** The step of the `done` action that gave the answer; `null` when the episode did not end with one. */
  readonly answerStep: number | null;
  /** The session's requests, in order. */
  readonly log: ReadonlyArray<{ readonly entry: LogEntry; readonly step: number }>;
  /** The session's data changes, in order. */
  readonly changes: ReadonlyArray<{ readonly change: Change; readonly step: number }>;
  /** The page texts the agent observed (as its prompt showed them), in order; `step` actions had been taken. */
  readonly seen: ReadonlyArray<{ readonly text: string; readonly step: number }>;
  /**
   * The rows of the site's tables at the start (`start_rows.json`), `null` when the episode recorded none (a Python
   * episode, a provider without a state reader; also when absent): its `state` claims are not checkable.
   */
  readonly start?: StartRows | null;
  /** What the site declares it does by itself as a consequence of a task's changes (`start_rows.json`'s `consequences`). */
  readonly consequences?: readonly Consequence[];
}

// The summary's step count; the rest of episode.json is not needed here (and Python's may differ).
const StepCountSchema = z.looseObject({ steps: z.number().int().nonnegative().optional() });

/**
 * Reads an episode dir's evidence with its step map. Throws an {@link InputError} naming the file and field when
 * `grade_inputs.json` is missing or bad, or when the step map does not fit the evidence (a changed episode).
 */
export async function loadStepEvidence(store: FileStore, episodeDir: string): Promise<StepEvidence> {
  const inputsFile = episodeFile(episodeDir, 'gradeInputs');
  const stepsFile = episodeFile(episodeDir, 'evidenceSteps');
  const [inputs, summary, map, startFile] = await Promise.all([
    readJsonFileIfExists(store, inputsFile, GradeInputsSchema),
    readJsonFileIfExists(store, episodeFile(episodeDir, 'episode'), StepCountSchema),
    readJsonFileIfExists(store, stepsFile, EvidenceStepsSchema),
    readJsonFileIfExists(store, episodeFile(episodeDir, 'startRows'), StartRowsSchema),
  ]);
  const start = startFile?.tables ?? null;
  const consequences = startFile?.consequences ?? [];
  if (inputs === null) throw new InputError({ file: inputsFile }, 'missing: the episode has no evidence');
  const log = inputs.log ?? [];
  const changes = inputs.changes ?? [];
  const seen = (inputs.seen ?? []).map(seenText);
  const answer = typeof inputs.answer === 'string' ? inputs.answer : null;
  if (map === null) {
    const steps = summary?.steps ?? inputs.actions?.length ?? 0;
    return {
      steps,
      answer,
      answerStep: answer !== null && steps > 0 ? steps : null,
      log: log.map((entry) => ({ entry, step: steps })),
      changes: changes.map((change) => ({ change, step: steps })),
      seen: seen.map((text) => ({ text, step: steps })),
      start,
      consequences,
    };
  }
  checkFits(map, { log: log.length, changes: changes.length, seen: seen.length, steps: summary?.steps }, stepsFile);
  return {
    steps: map.steps,
    answer,
    answerStep: map.answer_step,
    log: log.map((entry, i) => ({ entry, step: map.log[i]! })),
    changes: changes.map((change, i) => ({ change, step: map.changes[i]! })),
    seen: seen.map((text, i) => ({ text, step: map.seen[i]! })),
    start,
    consequences,
  };
}

// A step map belongs to its episode: one tag per item, none past the last step.
function checkFits(map: EvidenceSteps, counts: { log: number; changes: number; seen: number; steps: number | undefined }, file: string): void {
  if (counts.steps !== undefined && counts.steps !== map.steps) {
    throw new InputError({ file, field: 'steps' }, `${map.steps} steps, but episode.json has ${counts.steps}: the episode changed after it was recorded`);
  }
  if (map.answer_step !== null && map.answer_step > map.steps) throw new InputError({ file, field: 'answer_step' }, `step ${map.answer_step} is past the last step (${map.steps})`);
  for (const key of ['log', 'changes', 'seen'] as const) {
    if (map[key].length !== counts[key]) {
      throw new InputError({ file, field: key }, `${map[key].length} step tags for ${counts[key]} items of grade_inputs.json's ${key}: the episode changed after it was recorded`);
    }
    const past = map[key].findIndex((step) => step > map.steps);
    if (past >= 0) throw new InputError({ file, field: `${key}.${past}` }, `step ${map[key][past]} is past the last step (${map.steps})`);
  }
}

// The seed shows a non-string seen entry as its JSON.
function seenText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}
