/**
 * The label source of an episode: a relabel (its claim checked, then judged), a hand-written verifier's result, a
 * written verifier's (a claim checked on this episode's evidence), or the judge alone. When a verifier and the judge
 * disagree the verifier's word holds: a judged success its verifier failed is no training row, and the disagreement
 * is listed in `<rows>_labels.json`, never resolved the other way.
 * @module
 */
import PQueue from 'p-queue';
import { readJsonl } from '../core/io';
import { TaskSchema } from '../core/schemas';
import { episodeOutcome } from '../attempt/reward';
import { writtenFor } from '../claims/grade';
import { episodeDirOf, runFile, verifiersFileOf } from '../files/layout';
import type { FileStore } from '../files/types';
import { readVerifierResults } from '../validate';
import { readWrittenVerifiers } from '../verifiers/file';
import type { LabelSource } from './labels-format';

const READ_CONCURRENCY = 16;

/** What a run says about its episodes' labels besides the judge. */
export interface RunLabels {
  /** Hand-written verifiers' results, by task id (tasks whose line carries a `verifier`), as {@link episodeOutcome} decides them. */
  readonly hand: ReadonlyMap<string, boolean>;
  /** Written verifiers' results on the run's episodes, by task id (the claim checked on the episode's evidence, else its recorded result). */
  readonly written: ReadonlyMap<string, boolean>;
  /** The episode each written verifier was written from (its claim held there), by task id. */
  readonly writtenFrom: ReadonlyMap<string, string>;
}

/** Where a run's labels come from: its results, its tasks (which carry hand-written verifiers), the written verifiers. */
export interface ReadRunLabelsInput {
  readonly store: FileStore;
  readonly run: string;
  /** The tasks file; default `<run>/tasks.jsonl`. Its `verifiers.jsonl` holds the written verifiers. */
  readonly tasksFile?: string;
  /** Receives what cannot be read (a bad line, named), which is then not used. */
  readonly onWarning?: (message: string) => void;
}

/** Reads what labels a run's episodes besides the judge (each input optional: a missing file has nothing). */
export async function readRunLabels(input: ReadRunLabelsInput): Promise<RunLabels> {
  const { store, run } = input;
  const tasksFile = input.tasksFile ?? runFile(run, 'tasks');
  const onIssue = (issue: { file?: string; line: number; problem: string }) => input.onWarning?.(`${issue.file ?? tasksFile}:${issue.line}: ${issue.problem}`);
  const [results, runTasks, written] = await Promise.all([
    // A run without results has nothing to say here: only a damaged results file is worth a warning.
    readVerifierResults(store, run, { allowEmpty: true, onEvent: (e) => e.type === 'warning' && !e.message.endsWith('nothing to score') && input.onWarning?.(e.message) }),
    readJsonl(store, runFile(run, 'tasks'), TaskSchema, { missingOk: true, lenient: true, onIssue }),
    readWrittenVerifiers(store, verifiersFileOf(tasksFile)),
  ]);
  for (const issue of written.issues) input.onWarning?.(`${issue.file}:${issue.line}: ${issue.problem}`);
  const claims = writtenFor(runTasks, [...written.byTask.values()], (message) => input.onWarning?.(message));
  const hand = new Map<string, boolean>();
  const byWritten = new Map<string, boolean>();
  // The one reward (episodeOutcome) of each episode a verifier checks: on its evidence, else its recorded result.
  const queue = new PQueue({ concurrency: READ_CONCURRENCY });
  const outcomes = [...new Map(runTasks.map((t) => [t.task_id, t])).values()].map((task) =>
    queue.add(async () => {
      const claim = claims.get(task.task_id) ?? null;
      if (!task.verifier && !claim) return;
      const dir = episodeDirOf(run, task.task_id);
      if (!results.has(task.task_id) && !(await store.exists(dir))) return;
      const { success, source } = await episodeOutcome(store, dir, { task, written: claim, verdict: null, recorded: results.get(task.task_id) });
      if (success !== null) (source === 'written-verifier' ? byWritten : hand).set(task.task_id, success);
    }),
  );
  await Promise.all(outcomes);
  const writtenFrom = new Map([...written.byTask].map(([taskId, v]) => [taskId, v.written_from.episode_id] as const));
  return { hand, written: byWritten, writtenFrom };
}

/** An episode as the label rule sees it. */
export interface LabelledEpisode {
  readonly taskId: string;
  readonly episodeId: string | null;
  /** `relabel` for a task written from another task's episode. */
  readonly origin: 'task' | 'relabel';
}

/** An episode's label source and, for a verifier, its result (null where the judge alone labels it). */
export interface EpisodeLabel {
  readonly source: LabelSource;
  readonly verifier: boolean | null;
}

/**
 * The strongest source that labels an episode: `relabel` for a relabeled task (its claim held and the judge agreed),
 * then a hand-written verifier's result, then a written verifier's (a result on this episode, or the episode it was
 * written from, where its claim held), else the judge alone.
 */
export function labelOf(labels: RunLabels, episode: LabelledEpisode): EpisodeLabel {
  if (episode.origin === 'relabel') return { source: 'relabel', verifier: null };
  const hand = labels.hand.get(episode.taskId);
  if (hand !== undefined) return { source: 'verifier', verifier: hand };
  const written = labels.written.get(episode.taskId);
  if (written !== undefined) return { source: 'written-verifier', verifier: written };
  if (episode.episodeId !== null && labels.writtenFrom.get(episode.taskId) === episode.episodeId) return { source: 'written-verifier', verifier: true };
  return { source: 'judge', verifier: null };
}
