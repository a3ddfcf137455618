/**
 * What a MiniWeb verifier is graded on: one episode's answer, reasoning, request log, pages and recorder stream, and
 * what each check may ask of the LLM judge.
 * @module
 */
import { z } from 'zod';
import { LogEntrySchema } from '../core/schemas';
import type { StartRows } from '../claims/start-rows';
import type { MiniwebJudgeDecision } from './verifier-judge';

/** An episode as a MiniWeb verifier reads it. */
export const MiniwebGradeInputSchema = z.object({
  /** The agent's reported answer; null when it reported none. */
  answer: z.string().nullable(),
  /** The task's instruction: numbers and values it names are no competing answer, and the judge reads it. */
  question: z.string(),
  /** The session's request log (MiniWeb's `/_admin/log` entries: `{method, path, query, status, body?, response?}`). */
  log: z.array(LogEntrySchema),
  /** The pages the agent was on, in order: paths with their query (full URLs are read the same way). */
  urls: z.array(z.string()),
  /** The text of the last page; null when not recorded. */
  lastPageText: z.string().nullable(),
  /** MiniWeb's recorder stream (`/_admin/record`): `{type: "action" | "observation", ...}` entries. */
  records: z.array(z.unknown()),
  /** MiniWeb's action beacons (`/_admin/beacon`), read as actions when the recorder holds none. */
  beacons: z.array(z.unknown()),
  /** The agent's final reasoning; null when none was recorded. */
  reasoning: z.string().nullable(),
  /** The site's rows at the episode's start: where an answer's competing values are found. */
  start: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))).nullish(),
});

/** An episode as a MiniWeb verifier reads it (see {@link MiniwebGradeInputSchema}). */
export interface MiniwebGradeInput {
  /** The agent's reported answer; null when it reported none. */
  readonly answer: string | null;
  /** The task's instruction. */
  readonly question: string;
  /** The session's request log. */
  readonly log: readonly z.infer<typeof LogEntrySchema>[];
  /** The pages the agent was on, in order (paths with query). */
  readonly urls: readonly string[];
  /** The text of the last page; null when not recorded. */
  readonly lastPageText: string | null;
  /** MiniWeb's recorder stream (`/_admin/record`). */
  readonly records: readonly unknown[];
  /** MiniWeb's action beacons (`/_admin/beacon`). */
  readonly beacons: readonly unknown[];
  /** The agent's final reasoning; null when none was recorded. */
  readonly reasoning: string | null;
  /** The site's rows at the episode's start. */
  readonly start?: StartRows | null;
}

/** A check's verdict: `ok` null when it needs the judge's decision and has none. */
export interface LeafOutcome {
  readonly ok: boolean | null;
  readonly detail: string;
}

/** What a check may use: the episode, and the judge (resolving with null when no decision can be had now). */
export interface LeafContext {
  readonly input: MiniwebGradeInput;
  ask(kind: string, expected: string, text: string): Promise<MiniwebJudgeDecision | null>;
}

/** A value as the check's name and details show it. */
export const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v) : (JSON.stringify(v) ?? String(v)));
