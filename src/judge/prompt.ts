/**
 * The judge's system prompt and prompt, byte-identical to the seed's `SYSTEM_JUDGE` and
 * `PROMPT_JUDGE.format(...)`: the prompt the user validated against the verifiers.
 * @module
 */
import type { GradeInputs } from '../core/schemas';
import { cpSlice } from '../core/py/text';
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- EvidenceError is named by the TSDoc {@link} below
import { formatActions, formatAnswer, formatChanges, formatLog, lastSeen, type EvidenceError } from './format';

/** The seed's `SYSTEM_JUDGE`, verbatim. */
export const SYSTEM_JUDGE =
  "You judge whether a web agent completed a task on a website. You get the task, the agent's actions and " +
  "final answer, the server's record of what the agent's session did, and screenshots of the episode (the last one is the " +
  'final state). The server record is authoritative: a search, filter or sort happened only if a request carries it; an item ' +
  'was created, edited, deleted, booked, sent or saved only if the data changes show it, with the values the task asks for. ' +
  'For a question, the final answer must state the requested fact correctly and completely, as the site shows it. Judge ' +
  'the outcome the task asks for, not the route: searching instead of browsing a category is fine when the result is the ' +
  'same. A task is successful only if EVERY part of it was done; a partial, wrong or unverifiable result is NOT SUCCESS.';

/** The parts of the seed's `PROMPT_JUDGE`, filled by {@link judgePrompt}. */
export interface JudgePromptParts {
  readonly task: string;
  readonly n_act: number;
  readonly actions: string;
  readonly answer: string;
  readonly log: string;
  readonly changes: string;
  readonly seen: string;
}

/** The seed's `PROMPT_JUDGE.format(**parts)`: the values are put in as they are. */
export function fillJudgePrompt(p: JudgePromptParts): string {
  return (
    `TASK: ${p.task}\n\nAGENT'S ACTIONS (${p.n_act}):\n${p.actions}\n\nAGENT'S FINAL ANSWER: ${p.answer}\n\n` +
    `SERVER REQUESTS OF THE SESSION (method path, parameters):\n${p.log}\n\nDATA CHANGES OF THE SESSION:\n${p.changes}\n\n` +
    `TEXT ON SCREEN AT THE END:\n${p.seen}\n\n` +
    'Screenshots of the episode follow, in order. Split the task into its parts and check each against the evidence. ' +
    'Return JSON: {"parts": [{"part": "...", "done": true | false, "evidence": "..."}], "verdict": "SUCCESS" | ' +
    '"NOT SUCCESS"}'
  );
}

/**
 * The judge prompt for one episode, as the seed's `judge_episode` builds it: the instruction, the formatted
 * actions, the answer (1,500 characters), the request log, the data changes and the last screen text (2,500).
 * Throws an {@link EvidenceError} for evidence the seed would crash on.
 * @example
 * const prompt = judgePrompt('Add the blue lamp to the cart', parseWith(GradeInputsSchema, json, { file }));
 */
export function judgePrompt(instruction: string, inputs: GradeInputs): string {
  return fillJudgePrompt(judgePromptParts(instruction, inputs) as JudgePromptParts);
}

/**
 * The values of the judge prompt's placeholders, formatted as the seed formats them; with `only`, just `task`
 * and those parts (`n_act` with `actions`), so evidence a variant hides is never read.
 */
export function judgePromptParts(instruction: string, inputs: GradeInputs, only?: ReadonlyArray<'actions' | 'answer' | 'log' | 'changes' | 'seen'>): Partial<JudgePromptParts> & { task: string } {
  const wanted = (part: 'actions' | 'answer' | 'log' | 'changes' | 'seen') => only === undefined || only.includes(part);
  const parts: Partial<Record<keyof JudgePromptParts, string | number>> & { task: string } = { task: instruction };
  if (wanted('actions')) {
    const acts = formatActions(inputs.actions);
    parts.n_act = acts.length;
    parts.actions = acts.join('\n') || '(none)';
  }
  if (wanted('answer')) parts.answer = formatAnswer(inputs.answer);
  if (wanted('log')) parts.log = formatLog(inputs.log);
  if (wanted('changes')) parts.changes = formatChanges(inputs.changes);
  if (wanted('seen')) parts.seen = cpSlice(lastSeen(inputs.seen), 0, 2500);
  return parts as Partial<JudgePromptParts> & { task: string };
}
