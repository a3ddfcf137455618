/**
 * Provenance of every episode and training row: which run, task and episode, which models proposed, acted and
 * judged, with which judge variant and prompt template, what the judge and the verifier said, and which version of
 * this library. The rows step keeps it beside the seed's rows dir (`<out>_provenance.jsonl`, one line per selected
 * episode) so the seed's `rows.jsonl`, `_report.json` and judge records stay byte-identical; `export` carries it
 * into every row of the dataset.
 * @module
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { provenanceFileOf } from '../files/layout';
import { z } from 'zod';
import { version } from '../../package.json';
import { episodeIdOf, judgeRecordStanding, judgedEpisodeIdOf } from '../files/episode-id';
import { InputError } from '../core/errors';
import type { FileStore } from '../files/types';
import { readJsonFileIfExists } from '../core/io';
import { SYSTEM_JUDGE, fillJudgePrompt } from '../judge/prompt';
import { assertPlainName } from '../core/names';
import { EpisodeSchema, JudgeRecordSchema, type Episode, type JudgeRecord } from '../core/schemas';
import { LabelSourceSchema, type LabelSource } from './labels-format';
import { labelOf, type RunLabels } from './labels';

/** This library's name and version, as provenance records them. */
export const LIBRARY = Object.freeze({ name: 'miniweb-taskgen', version });

/** The judge variant when none is named: the seed's prompt and evidence (branch `lab` adds others). */
export const DEFAULT_JUDGE_VARIANT = 'seed';

/**
 * sha256 of the seed judge's exact prompt template: the system prompt, a blank line, and `PROMPT_JUDGE` with its
 * `{placeholders}` left in. It changes whenever a byte of either changes, so two datasets judged with the same
 * hash were judged with the same words.
 */
export const JUDGE_PROMPT_SHA256: string = createHash('sha256')
  .update(`${SYSTEM_JUDGE}\n\n`)
  .update(
    fillJudgePrompt({
      task: '{task}',
      n_act: '{n_act}' as unknown as number,
      actions: '{actions}',
      answer: '{answer}',
      log: '{log}',
      changes: '{changes}',
      seen: '{seen}',
    }),
  )
  .digest('hex');

/** Where one episode and its rows came from. One line of `<rows>_provenance.jsonl`; columns of the export. */
export const ProvenanceSchema = z.object({
  /** The run's name (the work dir's name for a pipeline run). */
  run_id: z.string(),
  task_id: z.string(),
  /** The episode's identity (DESIGN.md §9); a verdict belongs to this episode only. */
  episode_id: z.string().nullable(),
  site: z.string(),
  task_kind: z.string().nullable(),
  proposer_model: z.string().nullable(),
  agent_model: z.string().nullable(),
  judge_model: z.string().nullable(),
  judge_variant: z.string(),
  judge_prompt_sha256: z.string(),
  /** The judge's verdict (SUCCESS); null when the episode was not judged. */
  verdict: z.boolean().nullable(),
  /** The task verifier's result (`results.jsonl`); null when unknown. */
  verifier_ok: z.boolean().nullable(),
  library_version: z.string(),
  /** `relabel` for a task written from another task's episode; `task` for the run's own tasks. */
  origin: z.enum(['task', 'relabel']),
  /** A relabeled task's parent task (whose episode it was cut from); null for the run's own tasks. */
  parent_task_id: z.string().nullable(),
  /**
   * The digest of the run's set-up that recorded the episode (`<run>/_setup/<digest>.json`: agent model, max steps,
   * site prefix); null when the episode names none (the seed's, or an earlier taskgen's).
   */
  agent_setup: z.string().nullable().default(null),
  /** The digest of the judge set-up that wrote the verdict (`<run>_judge/_setup/<digest>.json`); null when unknown. */
  judge_setup: z.string().nullable().default(null),
  /**
   * Where the episode's label came from (`<rows>_labels.json` has each source's measured precision): `verifier`,
   * `written-verifier`, `relabel` or `judge`; null when unknown (not judged, or written by an earlier taskgen).
   */
  label_source: LabelSourceSchema.nullable().default(null),
  /**
   * The episode's try past the first: n for `<run>/_tries/<n>/` (a run with several tries per task); absent for try 1,
   * the run dir itself, so a run of one try has the provenance it always had.
   */
  try: z.number().int().min(2).optional(),
});
/** Provenance of an episode. */
export type Provenance = z.infer<typeof ProvenanceSchema>;

/** The column names of {@link ProvenanceSchema}, in order. */
export const PROVENANCE_FIELDS = Object.keys(ProvenanceSchema.shape) as ReadonlyArray<keyof Provenance>;

/** What the run does not record itself: the proposer and the judge variant. */
export interface Recipe {
  /** Default `<run>`'s base name. */
  readonly runId?: string;
  /** The proposer's model; default the tasks' own `proposer_model` or `model` field, else null. */
  readonly proposerModel?: string | null;
  /** Default {@link DEFAULT_JUDGE_VARIANT}. */
  readonly judgeVariant?: string;
}

/** An episode read with its provenance checked. */
export interface ProvenancedEpisode {
  readonly episode: Episode;
  readonly record: JudgeRecord | null;
  readonly provenance: Provenance;
}

/** Options of {@link readEpisodeProvenance}. */
export interface EpisodeProvenanceInput {
  readonly store: FileStore;
  /** The run dir. */
  readonly run: string;
  /** The judge records' dir (`<run>_judge`). */
  readonly judgeDir: string;
  readonly taskId: string;
  readonly recipe?: Recipe;
  /** Verifier results by task id, where known. */
  readonly results?: ReadonlyMap<string, boolean>;
  /** What labels the run's episodes besides the judge (see `readRunLabels`): gives `label_source`. Default unknown. */
  readonly labels?: RunLabels;
  /** The episode's try (`run` is then that try's run dir). Default 1. */
  readonly try?: number;
}

/**
 * Reads an episode, its judge record and their identities, and returns its provenance. Throws an
 * {@link InputError} naming the file when the episode is missing or the record was made from another episode
 * (a stale verdict), so no verdict is ever paired with an episode it did not judge.
 */
export async function readEpisodeProvenance(input: EpisodeProvenanceInput): Promise<ProvenancedEpisode> {
  const { store, run, judgeDir, taskId } = input;
  assertPlainName(taskId, 'task id');
  const dir = path.posix.join(run, taskId);
  const episodeFile = path.posix.join(dir, 'episode.json');
  const recordFile = path.posix.join(judgeDir, `${taskId}.json`);
  const [episode, record, episodeId] = await Promise.all([
    readJsonFileIfExists(store, episodeFile, EpisodeSchema),
    readJsonFileIfExists(store, recordFile, JudgeRecordSchema),
    episodeIdOf(store, dir),
  ]);
  if (episode === null) throw new InputError({ file: episodeFile }, `episode ${taskId}: no episode.json (not recorded or unfinished)`);
  const standing = await judgeRecordStanding(store, judgeDir, taskId, episodeId);
  if (standing.state === 'stale') {
    const judged = (await judgedEpisodeIdOf(store, judgeDir, taskId)) ?? 'another episode (its binding is for another record)';
    throw new InputError(
      { file: recordFile },
      `episode ${taskId}: stale verdict: the record judged episode ${judged}, but ${dir} now holds episode ${episodeId}; judge the run again`,
    );
  }
  if (record && record.task_id !== taskId) {
    throw new InputError({ file: recordFile, field: 'task_id' }, `episode ${taskId}: the record is for ${record.task_id}`);
  }
  const origin = (episode.task as Record<string, unknown>).origin === 'relabel' ? 'relabel' : 'task';
  const labelSource = input.labels && (record || origin === 'relabel') ? labelOf(input.labels, { taskId, episodeId, origin }).source : null;
  const provenance = assembleProvenance({ run, taskId, site: episode.task.site, episode, record, episodeId, judgeSetup: standing.setup, recipe: input.recipe, results: input.results, labelSource, try: input.try });
  return { episode, record, provenance };
}

/** What {@link assembleProvenance} puts together. */
export interface ProvenanceParts {
  readonly run: string;
  readonly taskId: string;
  readonly site: string;
  /** The episode, when recorded. */
  readonly episode: Episode | null;
  readonly record: JudgeRecord | null;
  readonly episodeId: string | null;
  /** The episode's try. Default 1. */
  readonly try?: number;
  /** The judge set-up that wrote the record, from its binding; default null (unknown). */
  readonly judgeSetup?: string | null;
  readonly recipe?: Recipe;
  readonly results?: ReadonlyMap<string, boolean>;
  /** The episode's label source; default null (unknown). */
  readonly labelSource?: LabelSource | null;
}

/** Provenance from parts already read (what is unknown is null); {@link readEpisodeProvenance} reads and checks them. */
export function assembleProvenance(parts: ProvenanceParts): Provenance {
  const { episode, record, taskId } = parts;
  const task = (episode?.task ?? {}) as Record<string, unknown>;
  const recipe = parts.recipe ?? {};
  const proposer = recipe.proposerModel !== undefined ? recipe.proposerModel : (stringOr(task.proposer_model) ?? stringOr(task.model));
  return {
    run_id: recipe.runId ?? path.posix.basename(path.posix.normalize(parts.run).replace(/(.)\/+$/, '$1')),
    task_id: taskId,
    episode_id: parts.episodeId,
    site: parts.site,
    task_kind: episode?.task.task_kind ?? null,
    proposer_model: proposer ?? null,
    agent_model: episode?.model ?? null,
    judge_model: record?.model ?? null,
    judge_variant: recipe.judgeVariant ?? DEFAULT_JUDGE_VARIANT,
    judge_prompt_sha256: JUDGE_PROMPT_SHA256,
    verdict: record ? record.predicted_label === 1 : null,
    verifier_ok: parts.results?.get(taskId) ?? null,
    library_version: LIBRARY.version,
    origin: task.origin === 'relabel' ? 'relabel' : 'task',
    parent_task_id: stringOr(task.parent_task_id) ?? null,
    agent_setup: stringOr(episode?.setup) ?? null,
    judge_setup: record ? (parts.judgeSetup ?? null) : null,
    label_source: parts.labelSource ?? null,
    ...(parts.try !== undefined && parts.try > 1 ? { try: parts.try } : {}),
  };
}

export { provenanceFileOf };

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}
