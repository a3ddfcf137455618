/**
 * A relabeled episode on disk: the parent episode's first `prefix` steps, laid out as any episode dir (the seed's
 * files, the step map, the agent steps, rows rendered under the new task), so the judge, the report and the rows
 * step read it as they read the run's own. Built from the parent's files alone, so building it again gives the
 * same bytes (and the judge's record, bound to it, stays current).
 * @module
 */
import path from 'node:path';
import type { StepEvidence } from '../claims/evidence';
import type { EvidenceSteps } from '../claims/steps';
import { writeStartRows } from '../claims/start-rows';
import type { AgentSteps, Episode, GradeInputs, Row, Task } from '../core/schemas';
import { EPISODE_FILES, episodeFile, stepImageName } from '../files/layout';
import type { FileStore } from '../files/types';
import { relabelRows } from './render';

/** A parent episode as read once for all its relabels. */
export interface ParentEpisode {
  /** `<run>/<task_id>`. */
  readonly dir: string;
  readonly episode: Episode;
  readonly inputs: GradeInputs;
  readonly evidence: StepEvidence;
  readonly agentSteps: AgentSteps | null;
  readonly rows: readonly Row[];
}

/** What {@link writeCutEpisode} needs. */
export interface CutEpisodeInput {
  readonly store: FileStore;
  readonly parent: ParentEpisode;
  /** The new episode dir, `<run>_relabel/<task_id>`. */
  readonly dir: string;
  /** The new task. */
  readonly task: Task;
  /** The steps kept. */
  readonly prefix: number;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 1)}\n`;

/** Writes the cut episode into `dir` (replacing what was there), `episode.json` last; returns its rows. Throws a `RenderError` for rows that cannot be rendered. */
export async function writeCutEpisode(input: CutEpisodeInput): Promise<{ rows: number }> {
  const { store, parent, dir, task, prefix } = input;
  const { evidence, inputs, episode } = parent;
  const rows = relabelRows({ rows: parent.rows, parent: episode.task, task, prefix, agentSteps: parent.agentSteps, seen: inputs.seen ?? [], steps: episode.steps });
  const answerIn = evidence.answerStep !== null && evidence.answerStep <= prefix;
  const kept = <T>(items: readonly T[] | null | undefined, tags: ReadonlyArray<{ step: number }>) => (items ?? []).filter((_, i) => (tags[i]?.step ?? Infinity) <= prefix);
  const actionCount = parent.agentSteps ? parent.agentSteps.steps.filter((s) => s.step < prefix && s.action !== null).length : prefix;
  const gradeInputs: GradeInputs = {
    actions: (inputs.actions ?? []).slice(0, actionCount),
    answer: answerIn ? inputs.answer : null,
    log: kept(inputs.log, evidence.log),
    changes: kept(inputs.changes, evidence.changes),
    seen: kept(inputs.seen, evidence.seen),
  };
  const stepMap: EvidenceSteps = {
    version: 1,
    steps: prefix,
    answer_step: answerIn ? evidence.answerStep : null,
    log: evidence.log.filter((t) => t.step <= prefix).map((t) => t.step),
    changes: evidence.changes.filter((t) => t.step <= prefix).map((t) => t.step),
    seen: evidence.seen.filter((t) => t.step <= prefix).map((t) => t.step),
  };
  const { ok: _ok, checks: _checks, ...rest } = episode as Episode & { ok?: unknown; checks?: unknown };
  const cut: Episode & Record<string, unknown> = {
    ...rest,
    task,
    outcome: answerIn ? 'done' : episode.outcome,
    steps: prefix,
    answer: answerIn ? episode.answer : null,
  };

  await store.remove(dir);
  const file = (name: string) => path.posix.join(dir, name);
  const from = (name: string) => path.posix.join(parent.dir, name);
  const copy = async (src: string, dst: string) => store.writeAtomic(file(dst), await store.readBytes(from(src)));
  const shots = `${EPISODE_FILES.screenshots}/`;
  for (let s = 0; s < prefix; s++) {
    if (await store.exists(from(shots + stepImageName(s)))) await copy(shots + stepImageName(s), shots + stepImageName(s));
  }
  // The final state: the done step's screenshot, the page after the last step kept, or the parent's own final.
  const finalFrom = answerIn ? shots + stepImageName(evidence.answerStep! - 1) : prefix < episode.steps ? shots + stepImageName(prefix) : EPISODE_FILES.final;
  if (await store.exists(from(finalFrom))) await copy(finalFrom, EPISODE_FILES.final);
  for (const image of new Set(rows.flatMap((r) => r.images))) await copy(`${EPISODE_FILES.rows}/${image}`, `${EPISODE_FILES.rows}/${image}`);
  await store.writeAtomic(episodeFile(dir, 'rowsFile'), rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
  await store.writeAtomic(episodeFile(dir, 'rowsEpisode'), json(cut));
  await store.writeAtomic(episodeFile(dir, 'gradeInputs'), json(gradeInputs));
  await store.writeAtomic(episodeFile(dir, 'evidenceSteps'), json(stepMap));
  // The start rows stay the parent's: the cut episode started where it did.
  if (evidence.start) await writeStartRows(store, dir, evidence.start);
  if (parent.agentSteps) await store.writeAtomic(episodeFile(dir, 'agentSteps'), json({ ...parent.agentSteps, steps: parent.agentSteps.steps.filter((s) => s.step < prefix) }));
  await store.writeAtomic(episodeFile(dir, 'episode'), json(cut));
  return { rows: rows.length };
}
