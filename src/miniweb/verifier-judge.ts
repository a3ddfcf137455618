/**
 * The LLM decision of a MiniWeb verifier's fuzzy checks, injected as a function: `miniwebJudge` asks a
 * {@link LanguageModel} in a prompt of this library's wording, and `miniwebJudgeKey` names a decision so that one made
 * once is reused (an episode graded again gets the same verdict without a second paid call).
 *
 * The judge decides one thing only: whether a text states the expected value in other words. The strict rule has
 * already refused the gaming families (no answer, a page dump, a denial, competing candidates) before any judge is
 * asked, and the prompt refuses them again.
 * @module
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { parseWith } from '../core/io';
import { cpLength, cpSlice } from '../core/py/text';
import type { LanguageModel } from '../models/types';

/** What a fuzzy check asks: does `text` (the agent's `kind`: answer, reasoning, form field) state `expected` for `task`? */
export interface MiniwebJudgeInput {
  /** What the text is: `reported answer`, `final reasoning`, `submitted form field`. */
  readonly kind: string;
  /** The task's instruction. */
  readonly task: string;
  /** The expected value (with its accepted alternatives, when there are several). */
  readonly expected: string;
  /** What the agent wrote or submitted. */
  readonly text: string;
}

/** A judge's decision and its reason. */
export interface MiniwebJudgeDecision {
  /** Whether the text states the expected value. */
  readonly match: boolean;
  /** Why, in a sentence. */
  readonly why: string;
}

/** The LLM decision for fuzzy checks: resolves with a decision, rejects when it cannot give one (never a pass). */
export type MiniwebJudge = (input: MiniwebJudgeInput) => Promise<MiniwebJudgeDecision>;

/** A judge's decision as it must come back from an injected judge or a reply. */
export const MiniwebJudgeDecisionSchema = z.object({ match: z.boolean(), why: z.string() });

/**
 * The stable name of a question to the judge: a SHA-256 of its kind, task, expected value and text. The key of
 * `decided`, so a decision stored with a run is found again when the episode is graded later.
 */
export function miniwebJudgeKey(input: MiniwebJudgeInput): string {
  return createHash('sha256').update(JSON.stringify([input.kind, input.task, input.expected, input.text])).digest('hex');
}

/**
 * The `decided` map as JSON, to be kept in a file beside a run: `[{key, match, why}]`, one entry per question, `key`
 * being {@link miniwebJudgeKey}'s digest.
 */
export const MiniwebDecisionsSchema = z.array(z.strictObject({ key: z.string().regex(/^[0-9a-f]{64}$/, 'expected a SHA-256 digest (64 hex digits)'), match: z.boolean(), why: z.string() }));
/** Stored judge decisions (see {@link MiniwebDecisionsSchema}). */
export type MiniwebDecisions = z.infer<typeof MiniwebDecisionsSchema>;

/** A `decided` map as its JSON form, sorted by key so the same decisions always write the same file. */
export function miniwebDecisionsToJson(decided: ReadonlyMap<string, MiniwebJudgeDecision>): MiniwebDecisions {
  return [...decided].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, d]) => ({ key, match: d.match, why: d.why }));
}

/**
 * The `decided` map of stored decisions (a file's parsed JSON); a value not of {@link MiniwebDecisionsSchema} is an
 * `InputError` naming `file` and the field.
 */
export function miniwebDecisionsFromJson(value: unknown, file = 'judge decisions'): Map<string, MiniwebJudgeDecision> {
  return new Map(parseWith(MiniwebDecisionsSchema, value, { file }).map((d) => [d.key, { match: d.match, why: d.why }]));
}

/** The judge's system prompt. */
export const MINIWEB_JUDGE_SYSTEM =
  'You check one value for the grader of a web agent. You get the TASK the user gave the agent, the EXPECTED value ' +
  'an annotator found, and a TEXT the agent produced (its reported answer, its final reasoning, or a form field it ' +
  'submitted). Say whether the TEXT states the expected value as its answer to the task. The same value put another ' +
  'way counts: a person named by their e-mail address, "none" for 0, a date or an amount in another format, a figure ' +
  'rounded as the task allows, a synonym the task makes unambiguous. It does not count when the TEXT states another ' +
  'value, denies the expected one, hedges between candidates, lists several values of which the expected is only one, ' +
  'says it could not find the answer, or is about something else. ' +
  'Reply with JSON only: {"match": true or false, "why": "<one short sentence>"}.';

/** Options of {@link miniwebJudge}. */
export interface MiniwebJudgeOptions {
  /** The most tokens of the reply. Default 300. */
  readonly maxTokens?: number;
  /** Sampling temperature. Default 0. */
  readonly temperature?: number;
  /** The text is cut to this many characters (code points). Default 4000. */
  readonly maxTextChars?: number;
}

/** The prompt for one question (see {@link MINIWEB_JUDGE_SYSTEM}). */
export function miniwebJudgePrompt(input: MiniwebJudgeInput, maxTextChars = 4000): string {
  const text = cpLength(input.text) > maxTextChars ? `${cpSlice(input.text, 0, maxTextChars)} [cut]` : input.text;
  return `TASK:\n${input.task || '(not given)'}\n\nEXPECTED VALUE:\n${input.expected}\n\nTHE AGENT'S ${input.kind.toUpperCase()} (the TEXT):\n${text}`;
}

/** A judge reply that is not `{"match": bool, "why": str}`: an error, never a pass. */
export class MiniwebJudgeReplyError extends Error {
  /** Always `MiniwebJudgeReplyError`. */
  override readonly name = 'MiniwebJudgeReplyError';
  constructor(
    message: string,
    /** The reply as it came (cut to 300 characters in the message). */
    readonly reply: string,
  ) {
    super(message);
  }
}

/** Reads `{"match": bool, "why": str}` from a reply, fenced or not; anything else throws {@link MiniwebJudgeReplyError}. */
export function parseMiniwebJudgeReply(reply: string): MiniwebJudgeDecision {
  const text = reply.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new MiniwebJudgeReplyError(`the judge's reply is not JSON: ${JSON.stringify(cpSlice(reply, 0, 300))}`, reply);
  }
  const parsed = MiniwebJudgeDecisionSchema.safeParse(value);
  if (!parsed.success) throw new MiniwebJudgeReplyError(`the judge's reply is not {"match": true|false, "why": "..."}: ${JSON.stringify(cpSlice(reply, 0, 300))}`, reply);
  return parsed.data;
}

/**
 * A {@link MiniwebJudge} over a language model: one call per question, temperature 0, a JSON reply. A call that fails
 * or a reply that is not `{"match", "why"}` rejects, and the check that asked fails with the reason.
 * @example
 * const judge = miniwebJudge(gemini());
 * const decided = new Map();
 * const graded = await gradeMiniwebVerifier(verifier, input, { judge, decided });
 */
export function miniwebJudge(llm: LanguageModel, options: MiniwebJudgeOptions = {}): MiniwebJudge {
  return async (input) => {
    const reply = await llm.complete(miniwebJudgePrompt(input, options.maxTextChars), {
      system: MINIWEB_JUDGE_SYSTEM,
      json: true,
      maxTokens: options.maxTokens ?? 300,
      temperature: options.temperature ?? 0,
    });
    return parseMiniwebJudgeReply(reply.text);
  };
}
