/**
 * The relabeler's prompt: one episode's evidence, formatted as the judge reads it (the seed's formatters), the
 * site context, and the task style of the seed's propose prompt; the reply is up to K goal-level tasks the episode
 * did complete, each with a kind and a claim over the evidence.
 * @module
 */
import { formatActions, formatAnswer, formatChanges, formatLog } from '../judge/format';
import { cpSlice } from '../core/py/text';
import type { GradeInputs } from '../core/schemas';

/** The relabeler's system prompt. */
export const SYSTEM_RELABEL =
  'You write tasks for training a web agent, the way InSTA proposes tasks for real websites: realistic goals ' +
  'that a real user of this website would have. You see one episode of an agent on one website, which may not have ' +
  "done what it was asked, and the server's record of it; you write the goals the episode DID complete, each with a " +
  'claim that the record proves it.';

/** What {@link relabelPrompt} fills in. */
export interface RelabelPromptInput {
  /** The site's name, on the `WEBSITE:` line. */
  readonly name: string;
  /** The site's home path. */
  readonly home: string;
  /** The site context text, or `''` when the site's sitemap is not at hand. */
  readonly context: string;
  /** The instruction the agent was given. */
  readonly instruction: string;
  /** The episode's evidence (`grade_inputs.json`). */
  readonly inputs: GradeInputs;
  /** The most tasks asked for. */
  readonly k: number;
}

/** The most page texts shown, and code points of each. */
const PAGES = 8;
const PAGE_CAP = 700;

/** The relabel prompt for one episode. */
export function relabelPrompt(p: RelabelPromptInput): string {
  const actions = formatActions(p.inputs.actions);
  const numbered = actions.map((a, i) => `${i + 1}. ${a}`).join('\n') || '(none)';
  return `WEBSITE: ${p.name} (all pages under ${p.home})

${p.context || '(no site context)'}

THE AGENT WAS ASKED: ${p.instruction}

AGENT'S ACTIONS (${actions.length}):
${numbered}

AGENT'S FINAL ANSWER: ${formatAnswer(p.inputs.answer)}

SERVER REQUESTS OF THE SESSION (method path, parameters):
${formatLog(p.inputs.log)}

DATA CHANGES OF THE SESSION:
${formatChanges(p.inputs.changes)}

PAGES THE AGENT SAW (in order):
${pagesSeen(p.inputs.seen)}

Screenshots of the episode follow, in order.

Write at most ${p.k} tasks that this episode DID complete, whatever it was asked. Rules:
- Each task is ONE natural instruction stating the user's goal, the way a person would ask for it ("Find ...", \
"Book ...", "Change my ...", "What is ..."), never click-by-click steps. It starts on the home page (${p.home}).
- An information task ("kind": "info") asks for a fact that the agent's final answer states correctly; an action \
task ("kind": "action") asks for something the server's requests or data changes show was done, with those values. \
A task the episode only started, or did with other values, is not complete: leave it out.
- Each task has a "claim": JSON that the evidence above must show for the task to be done, built from
  {"answer": V}  the final answer shows V
  {"request": {"method": "GET", "path": V, "params": {"name": V}}}  a request of the session (answered below 400)
  {"change": {"table": "...", "op": "create" | "update" | "delete", "fields": {"name": V}}}  a data change
  {"seen": V}  a page the agent saw shows V
  {"all": [claims]}, {"any": [claims]}, {"not": claim}
  {"only": [{"table": "...", "op": "create" | "update" | "delete", "where": {"name": V}}]}  no data change but these
  where V is a string, number, boolean or null (compared loosely), {"contains": "text"} or {"pattern": "regex"}. A claim \
holds only where the episode made no data change but what it asks for ("change" parts, "only"): list in "only" the \
changes a task's correct episode makes besides them.
- When the episode completed nothing a user would ask for, return no tasks.

Return JSON: {"tasks": [{"instruction": "...", "kind": "info" | "action", "claim": {...}}]}`;
}

// Each distinct page text once, in order, cut short: what the agent saw on its way.
function pagesSeen(seen: GradeInputs['seen']): string {
  const texts: string[] = [];
  for (const page of seen ?? []) {
    const text = typeof page === 'string' ? page : JSON.stringify(page);
    if (text && texts.at(-1) !== text) texts.push(text);
  }
  const shown = texts.slice(-PAGES).map((t, i) => `--- page ${i + 1}\n${cpSlice(t, 0, PAGE_CAP)}`);
  return shown.join('\n') || '(none)';
}
