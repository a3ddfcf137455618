/**
 * Grades an episode against a MiniWeb `verifier.json` (`{task_id, macros: {<macro>: tree}}`) by this library's rules,
 * which differ from MiniWeb's own grader wherever its would reward a non-answer (a check passes only what the task
 * asks, as asked):
 *
 * - Every macro's tree must pass; a verifier without macros, a group without checks, a check of an unknown type, a
 *   check that asserts nothing (every parameter open or empty) and a check that throws all fail. MiniWeb passes an
 *   empty AND group, a `qa_answer` or `reasoning_contains` without an expected value, and a missing reasoning.
 * - Three values: a check that needs the LLM judge and has none is undecided (`null`), never passed. AND is false if
 *   a gating check is false, else undecided if one is, else true; OR is true if one is true, else undecided if one
 *   is, else false. Advisory checks are graded and reported but do not gate, unless every check of the group is.
 * - The judge is asked only where the verdict depends on it, and a decision made before (`decided`) is reused.
 * - Answers go by the project's answer rule (`decideAnswer`, src/claims/answer.ts), plus a denial rule: the answer
 *   must state the value, offer no competing candidate, be short, and not deny it.
 * @module
 */
import { z } from 'zod';
import { callable, checkInput } from '../core/check';
import { describeError } from '../core/errors';
import type { CheckResult } from '../attempt/verify';
import { isGroup, MiniwebVerifierSchema, type MiniwebGroup, type MiniwebKnownLeaf, type MiniwebLeafType, type MiniwebNode, type MiniwebVerifierInput } from './verifier-schema';
import { MiniwebGradeInputSchema, show, type LeafContext, type LeafOutcome, type MiniwebGradeInput } from './verifier-input';
import { MiniwebJudgeDecisionSchema, miniwebJudgeKey, type MiniwebJudge, type MiniwebJudgeDecision } from './verifier-judge';
import { arg, candidatesOf, checkAction, checkAnswer, checkGrounded, checkQaAnswer, checkReasoning, checkVisited, given } from './verifier-leaves';
import { checkRequest } from './verifier-request';

export {
  MiniwebVerifierSchema, MiniwebNodeSchema, isMiniwebVerifier,
  type MiniwebVerifier, type MiniwebVerifierInput, type MiniwebNode, type MiniwebGroup, type MiniwebKnownLeaf, type MiniwebUnknownLeaf, type MiniwebLeafType,
} from './verifier-schema';
export { MiniwebGradeInputSchema, type MiniwebGradeInput } from './verifier-input';
export {
  miniwebJudge, miniwebJudgeKey, miniwebJudgePrompt, parseMiniwebJudgeReply, MiniwebJudgeReplyError, MINIWEB_JUDGE_SYSTEM,
  MiniwebDecisionsSchema, miniwebDecisionsToJson, miniwebDecisionsFromJson,
  type MiniwebJudge, type MiniwebJudgeInput, type MiniwebJudgeDecision, type MiniwebJudgeOptions, type MiniwebDecisions,
} from './verifier-judge';

/** Options of {@link gradeMiniwebVerifier}. */
export interface GradeMiniwebOptions {
  /** The LLM decision for fuzzy checks. Without it they are undecided; no network call is ever made without one. */
  readonly judge?: MiniwebJudge;
  /**
   * Decisions already made, keyed by {@link miniwebJudgeKey}: reused instead of asking again, and each new decision
   * is added, so an episode graded again later (kept with its run) gets the same verdict without a second paid call.
   */
  readonly decided?: Map<string, MiniwebJudgeDecision>;
}

/** A verifier's verdict: `ok` null when it depends on a check left undecided. */
export interface MiniwebGradeResult {
  /** Whether every macro's tree passed; null when undecided. */
  readonly ok: boolean | null;
  /** Each macro, group and check in order (a group before its checks); an undecided check reads `ok: false`. */
  readonly checks: CheckResult[];
  /** The names (`check`) of the checks left undecided. */
  readonly undecided: string[];
}

// The parameters that assert something, by check type: a check none of whose is given asserts nothing.
const ASSERTING: Readonly<Record<MiniwebLeafType, readonly string[]>> = {
  answer_matches: ['expected', 'alternatives'],
  qa_answer: ['expected', 'alternatives'],
  reasoning_contains: ['expected', 'alternatives'],
  answer_grounded: ['url', 'text'],
  page_visited: ['url'],
  action_included: ['action', 'target', 'value', 'selector'],
  request_made: ['method', 'url', 'status', 'body_contains', 'body_fields', 'response_fields'],
};

const CHECKERS: { [T in MiniwebLeafType]: (leaf: Extract<MiniwebKnownLeaf, { type: T }>, ctx: LeafContext) => LeafOutcome | Promise<LeafOutcome> } = {
  answer_matches: (leaf, ctx) => checkAnswer(leaf, 'includes', ctx),
  qa_answer: checkQaAnswer,
  reasoning_contains: checkReasoning,
  answer_grounded: checkGrounded,
  page_visited: checkVisited,
  action_included: checkAction,
  request_made: checkRequest,
};

type Slot =
  | { readonly kind: 'group'; readonly name: string; readonly node: MiniwebGroup; readonly advisory: boolean; readonly children: Slot[] }
  | { readonly kind: 'leaf'; readonly name: string; readonly node: MiniwebNode; readonly advisory: boolean; outcome: LeafOutcome; wanted: boolean };
type LeafSlot = Extract<Slot, { kind: 'leaf' }>;

const optionsSchema = z.looseObject({ judge: callable.optional(), decided: z.instanceof(Map).optional() });

/**
 * Grades one episode against a MiniWeb verifier (see the module notes). Throws an `InputError` naming the field
 * when the verifier, the input or the options are not of their shape; a check that fails to run fails, with why.
 * @example
 * const graded = await gradeMiniwebVerifier(task.verifier, { answer: 'Priya Sharma', question: task.instruction,
 *   log, urls, lastPageText, records, beacons, reasoning: null }, { judge: miniwebJudge(llm), decided });
 * graded.ok; // true, false, or null (a fuzzy check and no judge)
 */
export async function gradeMiniwebVerifier(verifier: MiniwebVerifierInput, input: MiniwebGradeInput, options: GradeMiniwebOptions = {}): Promise<MiniwebGradeResult> {
  const entry = 'gradeMiniwebVerifier';
  const spec = checkInput(entry, z.object({ verifier: MiniwebVerifierSchema }), { verifier }).verifier;
  const episode = checkInput(entry, z.object({ input: MiniwebGradeInputSchema }), { input }).input as MiniwebGradeInput;
  checkInput(entry, z.object({ options: optionsSchema }), { options });
  const decided = options.decided ?? new Map<string, MiniwebJudgeDecision>();
  const macros = Object.entries(spec.macros).map(([macro, tree]) => slotOf(tree, macro, false, true));
  const leaves = macros.flatMap(leavesOf);

  // First every check with the decisions at hand; then the judge, one check at a time, only while the verdict
  // depends on one it is wanted for.
  for (const slot of leaves) await evaluate(slot, contextFor(episode, decided, slot, null));
  const judge = options.judge;
  if (judge) {
    for (const slot of leaves) {
      if (verdictOf(macros) !== null) break;
      if (!slot.wanted || !matters(macros, slot)) continue;
      await evaluate(slot, contextFor(episode, decided, slot, judge));
    }
  }
  const checks: CheckResult[] = [];
  if (!macros.length) checks.push({ check: 'verifier', ok: false, detail: 'no macros: it asserts nothing' });
  for (const slot of macros) report(slot, checks);
  return { ok: verdictOf(macros), checks, undecided: leaves.filter((s) => s.outcome.ok === null).map((s) => s.name) };
}

function slotOf(node: MiniwebNode, name: string, advisory: boolean, root = false): Slot {
  if (isGroup(node)) {
    const children = node.checks.map((child, i) => {
      const where = isGroup(child) ? ` › ${child.label || `${child.op} ${i + 1}`}` : '';
      return slotOf(child, `${name}${where}`, child.advisory === true);
    });
    return { kind: 'group', name, node, advisory: !root && advisory, children };
  }
  const label = `${name}: ${describeLeaf(node)}${advisory ? ' (advisory)' : ''}`;
  return { kind: 'leaf', name: label, node, advisory: !root && advisory, outcome: { ok: null, detail: 'not graded' }, wanted: false };
}

function leavesOf(slot: Slot): LeafSlot[] {
  return slot.kind === 'leaf' ? [slot] : slot.children.flatMap(leavesOf);
}

function contextFor(input: MiniwebGradeInput, decided: Map<string, MiniwebJudgeDecision>, slot: LeafSlot, judge: MiniwebJudge | null): LeafContext {
  return {
    input,
    async ask(kind, expected, text) {
      const question = { kind, task: input.question, expected, text };
      const key = miniwebJudgeKey(question);
      const known = decided.get(key);
      if (known) return known;
      if (!judge) {
        slot.wanted = true;
        return null;
      }
      const decision = MiniwebJudgeDecisionSchema.safeParse(await judge(question));
      if (!decision.success) throw new Error(`the judge's decision is not {match: boolean, why: string}: ${decision.error.issues[0]?.path.join('.') || 'value'}: ${decision.error.issues[0]?.message}`);
      decided.set(key, decision.data);
      return decision.data;
    },
  };
}

async function evaluate(slot: LeafSlot, ctx: LeafContext): Promise<void> {
  const node = slot.node as MiniwebKnownLeaf;
  const checker = (CHECKERS as Record<string, ((leaf: MiniwebKnownLeaf, ctx: LeafContext) => LeafOutcome | Promise<LeafOutcome>) | undefined>)[node.type];
  if (!checker) {
    slot.outcome = { ok: false, detail: `unknown check type ${show(node.type)}: it cannot be graded` };
    return;
  }
  const params = node as unknown as Record<string, unknown>;
  if (!ASSERTING[node.type as MiniwebLeafType].some((key) => given(params[key]))) {
    // A check that asserts nothing would pass an episode that does nothing: it fails instead.
    slot.outcome = { ok: false, detail: 'asserts nothing: every parameter it checks is open or empty' };
    return;
  }
  try {
    slot.wanted = false;
    slot.outcome = await checker(node, ctx);
  } catch (error) {
    slot.outcome = { ok: false, detail: `the check failed to run: ${describeError(error)}` };
  }
}

// The gating children: the non-advisory ones, or all when every one is advisory (never a vacuous pass).
function gating(slot: Extract<Slot, { kind: 'group' }>): Slot[] {
  const strict = slot.children.filter((c) => !c.advisory);
  return strict.length ? strict : slot.children;
}

function valueOf(slot: Slot, override?: { slot: LeafSlot; ok: boolean }): boolean | null {
  if (slot.kind === 'leaf') return override?.slot === slot ? override.ok : slot.outcome.ok;
  const values = gating(slot).map((c) => valueOf(c, override));
  if (!values.length) return false;
  return combine(slot.node.op, values);
}

function combine(op: 'AND' | 'OR', values: readonly (boolean | null)[]): boolean | null {
  if (op === 'OR') return values.includes(true) ? true : values.includes(null) ? null : false;
  return values.includes(false) ? false : values.includes(null) ? null : true;
}

function verdictOf(macros: readonly Slot[], override?: { slot: LeafSlot; ok: boolean }): boolean | null {
  return macros.length ? combine('AND', macros.map((m) => valueOf(m, override))) : false;
}

// Whether deciding this check one way or the other changes the verdict: else the judge is not asked for it.
function matters(macros: readonly Slot[], slot: LeafSlot): boolean {
  return verdictOf(macros, { slot, ok: true }) !== verdictOf(macros, { slot, ok: false });
}

function report(slot: Slot, out: CheckResult[]): void {
  if (slot.kind === 'leaf') {
    out.push({ check: slot.name, ok: slot.outcome.ok === true, detail: slot.outcome.detail });
    return;
  }
  const ok = valueOf(slot);
  const gate = gating(slot);
  const counts = (v: boolean | null) => gate.filter((c) => valueOf(c) === v).length;
  const advisory = slot.children.length - gate.length;
  const detail = !slot.children.length
    ? 'no checks: it asserts nothing'
    : `${slot.node.op === 'AND' ? 'all' : 'any'} of ${gate.length}: ${counts(true)} passed, ${counts(false)} failed, ${counts(null)} undecided` +
      (advisory ? `; ${advisory} advisory, not gating` : gate.every((c) => c.advisory) ? '; every check advisory, so all gate' : '') +
      (ok === null ? ' (undecided)' : '');
  out.push({ check: slot.name, ok: ok === true, detail });
  for (const child of slot.children) report(child, out);
}

/** A check in words, for its name: its type and what it asserts (open parameters left out). */
function describeLeaf(node: MiniwebNode): string {
  const leaf = node as MiniwebKnownLeaf;
  const p = leaf as unknown as Record<string, unknown>;
  const some = (key: string, text = (v: unknown) => `${key}=${show(v)}`) => (given(p[key]) ? ` ${text(p[key])}` : '');
  switch (leaf.type) {
    case 'answer_matches':
    case 'qa_answer':
    case 'reasoning_contains': {
      const values = candidatesOf(leaf).map((c) => show(c)).join(' or ');
      const where = leaf.type === 'qa_answer' && leaf.leaf === false ? ' in the reasoning' : '';
      return `${leaf.type} ${values || '(nothing)'}${where}`;
    }
    case 'request_made':
      return `request_made ${arg(leaf.method)?.toUpperCase() ?? 'any'} ${arg(leaf.url) ?? '(any URL)'}${some('status', (v) => `status ${String(v)}`)}${some('body_contains')}${some('body_fields')}${some('response_fields')}`;
    case 'action_included':
      return `action_included ${arg(leaf.action) ?? 'any'}${some('target')}${some('value')}${some('selector')}`;
    case 'answer_grounded':
      return `answer_grounded${some('url')}${some('text')}`;
    case 'page_visited':
      return `page_visited ${arg(leaf.url) !== undefined ? show(arg(leaf.url)) : '(any)'}`;
    default:
      return String((node as { type?: unknown }).type);
  }
}
