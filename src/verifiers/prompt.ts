/**
 * The verifier writer's prompt: the task, one successful episode's evidence (formatted as the judge sees it) and the
 * site's context, with the claim language; and the reading of its reply.
 * @module
 */
import { cpSlice } from '../core/py/text';
import type { GradeInputs, Task } from '../core/schemas';
import { formatActions, formatAnswer, formatChanges, formatLog, lastSeen } from '../judge/format';
import { ClaimSchema, type Claim } from '../claims/schema';

/** The system prompt of the verifier writer. */
export const SYSTEM_VERIFIER =
  'You write verifiers for web tasks. A verifier is a claim about what the server recorded during an episode (data ' +
  'changes, requests, the final answer, text the agent saw) that is checked mechanically. It must hold for EVERY correct ' +
  'episode of the task, whatever route the agent takes, and fail for episodes that did not do the task.';

const LANGUAGE = `CLAIM LANGUAGE (JSON; a value is a string, number, boolean, null, {"contains": "text"} or {"pattern": "regex"}):
  {"change": {"table": "orders", "op": "create" | "update" | "delete", "fields": {"status": "shipped"}}}  a row changed so
  {"request": {"method": "GET", "path": {"pattern": "^/sites/shop-01/search"}, "params": {"q": {"contains": "lamp"}}}}
  {"answer": {"contains": "42.50"}}      the agent's final answer
  {"seen": {"contains": "Order placed"}} some page the agent saw shows it
  {"all": [claim, ...]}  {"any": [claim, ...]}  {"not": claim}
  {"only": [{"table": "cart_items", "op": "create", "where": {"product_id": 7}}, {"table": "orders", "op": "update", "where": {"id": 3}, "fields": ["status"]}]}
                                         the episode changed no data but these, each create once unless the entry
                                         gives "count": n ({"only": []}: none at all)
Strings compare after case folding and whitespace collapse; numbers by value ("2" equals 2). A claim holds only where
the episode made no data change but what it asks for: its "change" parts, its "only", and what the site does by itself.`;

const RULES = `RULES:
- Claim the outcome the task asks for, not this episode's route: no click paths, no page ids that another route would not produce.
- An action task: a "change" on the table, with the operation and exactly the field values the task names (all of them).
- A question: an "answer" with the fact asked for, as the site shows it ({"contains": ...} for text, the number for amounts).
- A search, filter or sort that changes no data: a "request" with the parameters the task names.
- When the task's correct episodes change more rows than the claim's "change" parts show (every item of a list), list
  them all in an "only".
- Use "not" for what the task forbids; "all" when the task has several parts.
- The claim must hold on the episode shown.`;

/** The parts of one prompt. */
export interface VerifierPromptInput {
  /** The task the verifier is for. */
  readonly task: Pick<Task, 'instruction' | 'site' | 'task_kind'>;
  /** The successful episode's `grade_inputs.json`. */
  readonly inputs: GradeInputs;
  /** The site's context text (the proposer's), when there is one. */
  readonly siteContext?: string;
}

/** The prompt: the task, the episode's evidence, the site, the language and the rules. */
export function verifierPrompt(input: VerifierPromptInput): string {
  const { task, inputs } = input;
  const actions = formatActions(inputs.actions);
  const site = input.siteContext ? `\n\nTHE SITE:\n${cpSlice(input.siteContext, 0, 4000)}` : '';
  return (
    `TASK (${task.task_kind}) on site ${task.site}: ${task.instruction}\n\n` +
    'A SUCCESSFUL EPISODE OF THE TASK (the judge checked it against screenshots and the server record):\n' +
    `ACTIONS (${actions.length}):\n${actions.join('\n') || '(none)'}\n\nFINAL ANSWER: ${formatAnswer(inputs.answer)}\n\n` +
    `SERVER REQUESTS (method path, parameters):\n${formatLog(inputs.log)}\n\nDATA CHANGES:\n${formatChanges(inputs.changes)}\n\n` +
    `TEXT ON SCREEN AT THE END:\n${cpSlice(lastSeen(inputs.seen), 0, 1200)}${site}\n\n${LANGUAGE}\n\n${RULES}\n\n` +
    'Return JSON: {"claim": <claim>}'
  );
}

/** A reply read: the claim, or why there is none. */
export type ParsedClaim = { readonly claim: Claim } | { readonly problem: string };

/** Reads `{"claim": ...}` (or a bare claim) from a reply, fenced or not. */
export function parseClaimReply(reply: string): ParsedClaim {
  const text = reply.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const start = text.indexOf('{');
    const end = text.lastIndexOf('}');
    try {
      value = start >= 0 && end > start ? JSON.parse(text.slice(start, end + 1)) : undefined;
    } catch {
      value = undefined;
    }
    if (value === undefined) return { problem: 'the reply is not JSON' };
  }
  const candidate = value && typeof value === 'object' && 'claim' in value ? (value as { claim: unknown }).claim : value;
  const parsed = ClaimSchema.safeParse(candidate);
  if (parsed.success) return { claim: parsed.data };
  const issue = parsed.error.issues[0];
  return { problem: `not a claim: ${issue ? `${issue.path.join('.') || '(top)'}: ${issue.message}` : 'invalid'}` };
}
