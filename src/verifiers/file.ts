/**
 * `verifiers.jsonl`: a claim per proposed task, written from one judged-successful episode of it, kept beside the
 * tasks file. One line per task; lines are only ever appended whole, so many writers can share the file and a
 * killed writer leaves at most a torn last line, which readers name and skip (its task is written again).
 * @module
 */
import { z } from 'zod';
import { checkClaim, emptyEvidence } from '../claims/check';
import { ClaimSchema } from '../claims/schema';
import type { FileStore } from '../files/types';
import { readTextIfExists } from '../files/types';
import { parseJsonl, type JsonlIssue } from '../core/io';
import { TaskKindSchema } from '../core/schemas';
import { isPlainName } from '../core/names';

/** Where a written verifier came from: the episode it was written from and the model that wrote it. */
export const WrittenFromSchema = z.looseObject({
  /** The run dir of the episode. */
  run: z.string(),
  /** The episode's id (a digest of its `episode.json` and `grade_inputs.json`, see `src/files/episode-id.ts`). */
  episode_id: z.string(),
  /** The model that wrote the claim. */
  model: z.string(),
  /** The provider of that model (`sandbox-stand-in` for the sandbox's stand-in writer). */
  provider: z.string().optional(),
});

/** One line of `verifiers.jsonl`: the claim any correct episode of the task satisfies. */
export const WrittenVerifierSchema = z.looseObject({
  task_id: z.string().refine(isPlainName, 'not a plain name'),
  site: z.string(),
  task_kind: TaskKindSchema,
  /** The instruction the claim is for: a task whose instruction changed is not graded by it. */
  instruction: z.string(),
  claim: ClaimSchema,
  written_from: WrittenFromSchema,
  /** When it was written (ISO 8601). */
  written_at: z.string(),
  /**
   * How many of the run's other tasks' episodes of its site it was run on, and passed, when written (absent in a
   * file written before looseness was measured).
   */
  looseness: z.object({ episodes: z.number().int().nonnegative(), passes: z.number().int().nonnegative() }).optional(),
}).superRefine((line, ctx) => {
  // A claim that holds on an episode that did nothing proves nothing: the line is named and not used.
  const vacuous = checkClaim(line.claim, emptyEvidence()).vacuous;
  if (vacuous !== null) ctx.addIssue({ code: 'custom', path: ['claim'], message: `vacuous: the claim ${vacuous}; not used` });
});

/** A line of `verifiers.jsonl`. */
export type WrittenVerifier = z.infer<typeof WrittenVerifierSchema>;

/** What {@link readWrittenVerifiers} found. */
export interface WrittenVerifiers {
  /** The verifiers by task id (a task's first line wins). */
  readonly byTask: ReadonlyMap<string, WrittenVerifier>;
  /** Lines skipped: not JSON, not of the format, or torn (each named by file and line). */
  readonly issues: readonly JsonlIssue[];
  /** Later lines for a task that already had one (two writers raced): not used. */
  readonly duplicates: number;
}

/** Reads `verifiers.jsonl`; a missing file has none. Bad lines are skipped and named in `issues`, never fatal. */
export async function readWrittenVerifiers(store: FileStore, file: string): Promise<WrittenVerifiers> {
  const text = (await readTextIfExists(store, file)) ?? '';
  const issues: JsonlIssue[] = [];
  const byTask = new Map<string, WrittenVerifier>();
  let duplicates = 0;
  for (const line of parseJsonl(text, file, WrittenVerifierSchema, { lenient: true, onIssue: (i) => issues.push(i) })) {
    if (byTask.has(line.task_id)) duplicates++;
    else byTask.set(line.task_id, line);
  }
  return { byTask, issues, duplicates };
}

/**
 * Appends verifiers as whole lines. A file whose last line is torn (a writer killed mid-line) first gets a newline,
 * so the torn line stays one bad line and never swallows the next.
 */
export async function appendWrittenVerifiers(store: FileStore, file: string, lines: readonly WrittenVerifier[]): Promise<void> {
  if (lines.length === 0) return;
  await store.appendLines(file, lines.map((l) => JSON.stringify(WrittenVerifierSchema.parse(l))));
}

/** Ends a torn last line with a newline (once, before a run appends). */
export async function mendTornEnd(store: FileStore, file: string): Promise<void> {
  const text = await readTextIfExists(store, file);
  if (text && !text.endsWith('\n')) await store.appendLines(file, ['']);
}
