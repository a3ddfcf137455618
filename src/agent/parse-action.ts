/**
 * A tolerant parser for the model's reply: it finds the action JSON in code fences, after a `<think>` block,
 * among prose, in flat (`{"action": "click", "index": 3}`) or tool-call shapes, with numbers as strings and
 * similar slips, and returns the canonical `{<kind>: {...}}` action or an error to feed back.
 * @module
 */
import {
  ACTION_KINDS,
  BackActionSchema,
  CheckActionSchema,
  ClickActionSchema,
  DoneActionSchema,
  GotoActionSchema,
  ScrollActionSchema,
  SelectActionSchema,
  TypeActionSchema,
  type Action,
  type ActionKind,
} from '../core/schemas';

/** The result of {@link parseAction}: an action, or an error message for the policy. */
export type ParsedAction = { readonly action: Action; readonly error?: undefined } | { readonly action?: undefined; readonly error: string };

const EXAMPLE = '{"click": {"index": 3}}';
const KINDS = new Set<string>(ACTION_KINDS);
const SYNONYMS: Record<string, ActionKind> = {
  finish: 'done',
  stop: 'done',
  answer: 'done',
  navigate: 'goto',
  go_to: 'goto',
  open: 'goto',
  go_back: 'back',
  input: 'type',
  fill: 'type',
  type_text: 'type',
  select_option: 'select',
  toggle: 'check',
};
const SCHEMAS = {
  click: ClickActionSchema,
  type: TypeActionSchema,
  select: SelectActionSchema,
  check: CheckActionSchema,
  scroll: ScrollActionSchema,
  goto: GotoActionSchema,
  back: BackActionSchema,
  done: DoneActionSchema,
} as const;
const WRAPPERS = ['args', 'arguments', 'params', 'parameters', 'input'];

/**
 * Parses a policy's reply into one action. The last JSON object in the reply that is a valid action wins (a
 * model that explains first ends with its decision); a `<think>...</think>` block is ignored.
 */
export function parseAction(text: string): ParsedAction {
  const body = stripThinking(text);
  const candidates = jsonCandidates(body);
  if (candidates.length === 0) {
    return { error: `the reply has no JSON action; reply with exactly one action as JSON, e.g. ${EXAMPLE}` };
  }
  let firstError = '';
  for (let i = candidates.length - 1; i >= 0; i--) {
    const value = parseLenient(candidates[i]!);
    if (value === undefined) {
      firstError ||= 'the reply is not valid JSON';
      continue;
    }
    const result = normalize(value);
    if (result.action) return result;
    firstError ||= result.error;
  }
  return { error: `${firstError}; reply with exactly one action as JSON, e.g. ${EXAMPLE}` };
}

/** The canonical JSON of an action, as the model is asked to write it and as rows record it. */
export function actionJson(action: Action): string {
  return JSON.stringify(action);
}

// What follows the last `</think>` (vLLM may leave the opening tag in the prompt), else the text without
// complete think blocks.
function stripThinking(text: string): string {
  const end = text.lastIndexOf('</think>');
  if (end >= 0) return text.slice(end + '</think>'.length);
  return text.replace(/<think>[\s\S]*$/i, '');
}

// Fenced blocks first, then every balanced {...} or [...] at top level of the prose.
function jsonCandidates(text: string): string[] {
  const out: string[] = [];
  const fence = /```[a-zA-Z]*\s*\n?([\s\S]*?)```/g;
  let rest = text;
  for (const m of text.matchAll(fence)) {
    out.push(...balanced(m[1]!));
    rest = rest.replace(m[0], ' ');
  }
  return [...balanced(rest), ...out];
}

function balanced(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const open = text[i];
    if (open !== '{' && open !== '[') continue;
    const end = matchClose(text, i);
    if (end < 0) continue;
    out.push(text.slice(i, end + 1));
    i = end;
  }
  return out;
}

// The index of the bracket closing the one at `start`, skipping strings; -1 when unbalanced.
function matchClose(text: string, start: number): number {
  const stack: string[] = [];
  let quote = '';
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '{' || c === '[') stack.push(c === '{' ? '}' : ']');
    else if (c === '}' || c === ']') {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

// JSON, else JSON after common repairs: single quotes, Python literals, trailing commas, unquoted keys.
function parseLenient(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const fixed = text
      .replace(/'([^'"\\]*)'/g, '"$1"')
      .replace(/\bTrue\b/g, 'true')
      .replace(/\bFalse\b/g, 'false')
      .replace(/\bNone\b/g, 'null')
      .replace(/,\s*([}\]])/g, '$1')
      .replace(/([{,]\s*)([A-Za-z_][A-Za-z0-9_]*)\s*:/g, '$1"$2":');
    try {
      return JSON.parse(fixed);
    } catch {
      return undefined;
    }
  }
}

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);

function kindOf(name: unknown): ActionKind | undefined {
  if (typeof name !== 'string') return undefined;
  const k = name.trim().toLowerCase().replace(/[\s-]+/g, '_');
  if (KINDS.has(k)) return k as ActionKind;
  return SYNONYMS[k];
}

// Finds the kind and the arguments in the shapes models write, then coerces the arguments.
function normalize(value: unknown): ParsedAction {
  if (Array.isArray(value)) {
    if (value.length === 0) return { error: 'the reply is an empty list' };
    return normalize(value[0]);
  }
  if (!isDict(value)) return { error: 'the reply is not a JSON object' };
  const found = findKind(value);
  if (!found) {
    return { error: `the reply names no action (one of ${ACTION_KINDS.join(', ')})` };
  }
  const args = coerceArgs(found.kind, found.args);
  const action = { [found.kind]: args };
  const parsed = SCHEMAS[found.kind].safeParse(action);
  if (parsed.success) return { action: parsed.data as Action };
  const issue = parsed.error.issues[0];
  const where = issue?.path.join('.') || found.kind;
  return { error: `invalid ${found.kind} action (${where}: ${issue?.message ?? 'invalid'})` };
}

function findKind(value: Dict): { kind: ActionKind; args: unknown } | undefined {
  const keys = Object.keys(value);
  // {"click": {...}} or {"click": 3}
  if (keys.length === 1) {
    const kind = kindOf(keys[0]);
    if (kind && !(kind === 'type' && typeof value[keys[0]!] === 'string' && kindOf(value[keys[0]!]))) {
      return { kind, args: value[keys[0]!] };
    }
  }
  // {"action": "click", "index": 3}, {"name": "click", "arguments": {...}}, {"action": {"click": {...}}}
  for (const key of ['action', 'action_type', 'name', 'type', 'kind', 'function', 'tool']) {
    const v = value[key];
    if (isDict(v)) {
      const inner = findKind(v);
      if (inner) return inner;
    }
    const kind = kindOf(v);
    if (!kind) continue;
    const rest: Dict = { ...value };
    delete rest[key];
    for (const w of WRAPPERS) {
      if (isDict(rest[w])) return { kind, args: rest[w] };
      if (typeof rest[w] === 'string') {
        const inner = parseLenient(rest[w] as string);
        if (isDict(inner)) return { kind, args: inner };
      }
    }
    return { kind, args: rest };
  }
  // {"click": {...}, "thought": "..."}: one action key among others
  const kinds = keys.filter((k) => kindOf(k) && (isDict(value[k]) || k !== 'type'));
  if (kinds.length === 1) return { kind: kindOf(kinds[0])!, args: value[kinds[0]!] };
  return undefined;
}

function coerceArgs(kind: ActionKind, raw: unknown): Dict {
  const a: Dict = isDict(raw) ? { ...raw } : {};
  const scalar = isDict(raw) || raw === null || raw === undefined || raw === true ? undefined : raw;
  switch (kind) {
    case 'click':
    case 'check':
      return { index: toIndex(pick(a, ['index', 'element', 'element_id', 'id', 'idx', 'number']) ?? scalar) };
    case 'type': {
      const out: Dict = {
        index: toIndex(pick(a, ['index', 'element', 'element_id', 'id', 'idx'])),
        text: toText(pick(a, ['text', 'value', 'content', 'query', 'input'])),
      };
      const enter = toBool(pick(a, ['enter', 'submit', 'press_enter']));
      if (enter !== undefined) out.enter = enter;
      return out;
    }
    case 'select':
      return {
        index: toIndex(pick(a, ['index', 'element', 'element_id', 'id', 'idx'])),
        option: toText(pick(a, ['option', 'value', 'text', 'label', 'choice'])),
      };
    case 'scroll': {
      const d = pick(a, ['direction', 'dir']) ?? scalar ?? 'down';
      return { direction: typeof d === 'string' ? d.trim().toLowerCase() : d };
    }
    case 'goto':
      return { path: toText(pick(a, ['path', 'url', 'href', 'page']) ?? scalar) };
    case 'back':
      return {};
    case 'done': {
      const answer = pick(a, ['answer', 'text', 'result', 'response', 'message']) ?? scalar;
      return answer === undefined || answer === null ? {} : { answer: toText(answer) };
    }
  }
}

function pick(a: Dict, keys: readonly string[]): unknown {
  for (const k of keys) if (a[k] !== undefined) return a[k];
  return undefined;
}

function toIndex(v: unknown): unknown {
  if (typeof v === 'string') {
    const m = /^\s*\[?\s*(\d+)\s*\]?\s*$/.exec(v);
    return m ? Number(m[1]) : v;
  }
  if (typeof v === 'number' && Number.isFinite(v) && Number.isInteger(v)) return v;
  return v;
}

function toText(v: unknown): unknown {
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return v;
}

function toBool(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (['true', 'yes', '1'].includes(s)) return true;
    if (['false', 'no', '0', ''].includes(s)) return false;
  }
  return undefined;
}
