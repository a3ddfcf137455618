/**
 * A relabeled episode's rows: what the agent would have been shown had it been given the new instruction. The
 * same screenshots, page views and actions, the new instruction, rendered by the agent's own prompt code
 * ({@link defaultAgentMessages}) from the steps the attempt recorded (`agent_steps.json`).
 *
 * Rendering is checked first: the recorded steps rendered with the ORIGINAL instruction must give the recorded
 * rows byte for byte; a policy that wrote its own prompt (or an episode without `agent_steps.json`) is
 * re-rendered only where the recorded user text begins with the agent prompt's task line, which is replaced.
 * @module
 */
import { defaultAgentMessages, IMAGE_TAG, type ImagePosition } from '../agent/prompt';
import type { Observation } from '../agent/types';
import type { AgentSteps, Row, Task } from '../core/schemas';

/** A row that cannot be rendered under the new instruction. */
export class RenderError extends Error {
  override readonly name = 'RenderError';
}

/** What {@link relabelRows} needs. */
export interface RelabelRowsInput {
  /** The parent episode's rows (one per step whose reply parsed), in order. */
  readonly rows: readonly Row[];
  /** The parent's task, as its rows were rendered. */
  readonly parent: Task;
  /** The new task. */
  readonly task: Task;
  /** The steps kept: the first `prefix` steps. */
  readonly prefix: number;
  /** The parent's `agent_steps.json`, or `null` when it has none. */
  readonly agentSteps: AgentSteps | null;
  /** The parent's steps (`episode.json`). */
  readonly steps: number;
  /** The page texts the agent saw (`grade_inputs.json`'s `seen`: step `s` is `seen[s]`). */
  readonly seen: readonly unknown[];
}

/** The rows of the first `prefix` steps under the new task. Throws a {@link RenderError} when one cannot be rendered. */
export function relabelRows(input: RelabelRowsInput): Row[] {
  const { agentSteps } = input;
  if (agentSteps === null) {
    // Without the step record, rows map to steps only when every reply parsed (one row per step).
    if (input.rows.length !== input.steps) throw new RenderError(`no agent_steps.json, and ${input.rows.length} rows for ${input.steps} steps: which rows are in the prefix is unknown`);
    return input.rows.slice(0, input.prefix).map((row) => substituted(row, input));
  }
  const parsed = agentSteps.steps.filter((s) => s.action !== null);
  if (parsed.length !== input.rows.length) {
    throw new RenderError(`agent_steps.json has ${parsed.length} parsed steps, rows.jsonl ${input.rows.length} rows: not one recording`);
  }
  const out: Row[] = [];
  parsed.forEach((s, j) => {
    if (s.step >= input.prefix) return;
    const row = input.rows[j]!;
    const page = input.seen[s.step];
    if (typeof page !== 'string') throw new RenderError(`step ${s.step}: no page text recorded`);
    const user = row.messages[1]?.content;
    const position: ImagePosition = typeof user === 'string' && user.startsWith(IMAGE_TAG) ? 'before' : 'after';
    const render = (task: Task) =>
      defaultAgentMessages(
        { task, observation: { prompt: page } as Observation, history: agentSteps.steps.slice(0, s.step), step: s.step, maxSteps: agentSteps.max_steps },
        position,
      );
    const own = render(input.parent);
    if (row.messages[0]?.content !== own.system || user !== own.user) {
      out.push(substituted(row, input));
      return;
    }
    const next = render(input.task);
    out.push({ ...row, messages: [{ ...row.messages[0]!, content: next.system }, { ...row.messages[1]!, content: next.user }, ...row.messages.slice(2)] });
  });
  return out;
}

// The recorded row with its task line (`TASK: <instruction>`, first in the user text) given the new instruction.
function substituted(row: Row, input: RelabelRowsInput): Row {
  const user = row.messages[1];
  const text = typeof user?.content === 'string' ? user.content : null;
  const old = `TASK: ${input.parent.instruction}\n`;
  const at = text === null ? -1 : text.startsWith(old) ? 0 : text.startsWith(IMAGE_TAG + old) ? IMAGE_TAG.length : -1;
  if (text === null || at < 0) throw new RenderError('a row whose user text does not begin with the task line: its prompt is not the agent prompt, so it cannot be rendered under another task');
  const content = text.slice(0, at) + `TASK: ${input.task.instruction}\n` + text.slice(at + old.length);
  return { ...row, messages: [row.messages[0]!, { ...user!, content }, ...row.messages.slice(2)] };
}
