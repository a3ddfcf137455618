/**
 * The agent's prompt: the system prompt (the action space and the JSON format) and the user message (the task,
 * the previous actions with their errors, the current observation). `qwenPolicy` sends it; rows record it.
 * @module
 */
import type { Task } from '../core/schemas';
import { actionJson } from './parse-action';
import type { Observation, StepRecord } from './types';

/** The tag that stands for the screenshot in a row's user message (ms-swift, LLaMA-Factory). */
export const IMAGE_TAG = '<image>';

/** The agent's system prompt. */
export const AGENT_SYSTEM_PROMPT = `You are a web agent. You complete a task on one website by operating a web browser, one action at a time.
At each step you get a screenshot of the browser window and a text view of the page: its URL, title, visible text and its interactive elements, numbered like [12] button "Add to cart".

Reply with exactly one action as JSON and nothing else. The actions:
{"click": {"index": 12}}  click element 12
{"type": {"index": 3, "text": "blue shoes", "enter": true}}  replace the text of field 3 ("enter": true presses Enter afterwards)
{"select": {"index": 5, "option": "Price: low to high"}}  choose an option of dropdown 5 by its text
{"check": {"index": 7}}  tick or untick checkbox 7, or choose radio button 7
{"scroll": {"direction": "down"}}  scroll the page "down" or "up"
{"goto": {"path": "/some/page"}}  open a page of this website by its path
{"back": {}}  go back to the previous page
{"done": {"answer": "..."}}  finish: for a question, the answer states the requested fact; otherwise say briefly what you did

Rules: stay on this website. Use the element numbers of the current page only. When an action fails, the error is shown at the next step; try another way. Finish with done as soon as the task is complete.`;

/** Where the screenshot goes relative to the user text. */
export type ImagePosition = 'before' | 'after';

/** Options of {@link agentUserPrompt}. */
export interface AgentPromptInput {
  readonly task: Task;
  readonly observation: Observation;
  readonly history: readonly StepRecord[];
  readonly step: number;
  readonly maxSteps: number;
  /** The most previous steps listed (the latest). Default 30. */
  readonly historyLimit?: number;
}

/** The user message: task, previous actions (with errors), the current page, and the request for an action. */
export function agentUserPrompt(input: AgentPromptInput): string {
  const limit = input.historyLimit ?? 30;
  const shown = input.history.slice(-limit);
  const skipped = input.history.length - shown.length;
  const past = shown.map((h) => `${h.step + 1}. ${historyLine(h)}`);
  if (skipped > 0) past.unshift(`(${skipped} earlier steps not shown)`);
  return [
    `TASK: ${input.task.instruction}`,
    '',
    'PREVIOUS ACTIONS:',
    ...(past.length ? past : ['(none)']),
    '',
    `CURRENT PAGE (step ${input.step + 1} of ${input.maxSteps}):`,
    input.observation.prompt,
    '',
    'Reply with the next action as JSON.',
  ].join('\n');
}

/** One previous step as the policy sees it: the action (or the unparseable reply) and its error. */
export function historyLine(h: StepRecord): string {
  const what = h.action ? actionJson(h.action) : `(no valid action: ${JSON.stringify(h.raw.trim().slice(0, 120))})`;
  return h.error ? `${what} -> error: ${h.error}` : what;
}

/** The user text with the image tag where the image goes, as a training row records it. */
export function withImageTag(user: string, position: ImagePosition): string {
  return position === 'before' ? `${IMAGE_TAG}${user}` : `${user}${IMAGE_TAG}`;
}

/**
 * The messages of a step as `qwenPolicy` would give them to the model (system, and user with the image
 * tag after the text, where the OpenAI-compatible adapter sends the screenshot), for rows of policies that use
 * no model (scripted, oracle), so that training on them matches the Qwen agent's inference.
 */
export function defaultAgentMessages(input: AgentPromptInput, position: ImagePosition = 'after'): { system: string; user: string } {
  return { system: AGENT_SYSTEM_PROMPT, user: withImageTag(agentUserPrompt(input), position) };
}
