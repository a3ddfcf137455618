/**
 * The evidence of an episode as the judge reads it, formatted exactly as the seed's `_fmt_log`, `_fmt_changes`,
 * `_fmt_actions` and `_last_seen` do (DESIGN.md §4): Python's json.dumps, code-point slices, `or` chains,
 * `in` tests with `0 == False`.
 * @module
 */
import { pyDict, pyEntries, pyKeys } from '../core/py/json';
import { pyDumps } from '../core/py/dumps';
import { isDict, pyDictGet, pyIn, pyOr, pyStr, pyTruthy, pyTypeName } from '../core/py/repr';
import { cpSlice } from '../core/py/text';

/** The seed's `SKIP_PATH`: static files and admin endpoints are not evidence. Python's `$` also matches before a final newline. */
export const SKIP_PATH = /^\/(_admin|static|favicon)|\.(css|js|png|jpg|svg|ico|woff2?)(?=\n?$)/;

/**
 * Evidence the seed would crash on (a query that is a list, a change whose `after` is a string...), with the
 * field's path (`log.3.query`) so the caller can name the file.
 */
export class EvidenceError extends TypeError {
  /** Always `EvidenceError`. */
  override readonly name = 'EvidenceError';
  constructor(
    /** The bad value's path in the evidence, such as `log.3.query`. */
    readonly field: string,
    /** What is wrong with it, such as `expected a JSON object, got list`. */
    readonly problem: string,
  ) {
    super(`${field}: ${problem}`);
  }
}

function dict(v: unknown, field: string): Record<string, unknown> {
  if (!isDict(v)) throw new EvidenceError(field, `expected a JSON object, got ${pyTypeName(v)}`);
  return v;
}

// `x or {}` followed by `.items()` / `.get()`: anything falsy reads as empty, a truthy non-dict is an error.
function dictOrEmpty(v: unknown, field: string): Record<string, unknown> {
  return pyTruthy(v) ? dict(v, field) : {};
}

const dumps = (v: unknown) => pyDumps(v, { ensureAscii: false });
const dumpsDefaultStr = (v: unknown) => pyDumps(v, { ensureAscii: false, default: pyStr });

/**
 * The seed's `_fmt_log`: one line per request of the session (`METHOD path ?{query} body {body} -> status`),
 * static and admin paths skipped, empty parameters and `csrf_token` dropped, the last `cap` lines, or `(none)`.
 */
export function formatLog(log: readonly unknown[] | null | undefined, cap = 60): string {
  const lines: string[] = [];
  (log ?? []).forEach((e, i) => {
    const entry = dict(e, `log.${i}`);
    const p = pyStr(pyOr(pyDictGet(entry, 'path'), ''));
    if (SKIP_PATH.test(p)) return;
    const query = dictOrEmpty(pyDictGet(entry, 'query'), `log.${i}.query`);
    const q = pyEntries(query).filter(([, v]) => !pyIn(v, ['', null]));
    const rawBody = pyDictGet(entry, 'body');
    // A dict body is filtered; a string or list body is dumped as it is.
    const body = isDict(rawBody)
      ? pyDict(pyEntries(rawBody).filter(([k, v]) => !pyIn(v, ['', null]) && k !== 'csrf_token'))
      : rawBody;
    let line = `${pyStr(pyDictGet(entry, 'method'))} ${p}`;
    if (q.length > 0) line += ` ?${cpSlice(dumps(pyDict(q)), 0, 200)}`;
    if (pyTruthy(body)) line += ` body ${cpSlice(dumps(body), 0, 300)}`;
    lines.push(`${line} -> ${pyStr(pyDictGet(entry, 'status'))}`);
  });
  return lines.slice(-cap).join('\n') || '(none)';
}

/**
 * The seed's `_fmt_changes`: `op table (item name): {changed}` per data change, the first `cap` lines, or
 * `(none)`. The op is inferred from `before`/`after` when missing.
 */
export function formatChanges(changes: readonly unknown[] | null | undefined, cap = 30): string {
  const lines: string[] = [];
  (changes ?? []).forEach((c, i) => {
    const change = dict(c, `changes.${i}`);
    const what = pyOr(pyDictGet(change, 'collection'), pyDictGet(change, 'table'), pyDictGet(change, 'kind'), '?');
    const inferred = !pyTruthy(pyDictGet(change, 'before')) ? 'create' : !pyTruthy(pyDictGet(change, 'after')) ? 'delete' : 'update';
    const op = pyOr(pyDictGet(change, 'op'), inferred);
    const changed = dictOrEmpty(pyDictGet(change, 'changed'), `changes.${i}.changed`);
    const itemField = pyTruthy(pyDictGet(change, 'after')) ? 'after' : 'before';
    const item = dictOrEmpty(pyOr(pyDictGet(change, 'after'), pyDictGet(change, 'before'), {}), `changes.${i}.${itemField}`);
    const name = pyOr(pyDictGet(item, 'title'), pyDictGet(item, 'name'), pyDictGet(item, 'subject'), pyDictGet(item, 'id'));
    lines.push(`${pyStr(op)} ${pyStr(what)} (${pyStr(name)}): ${cpSlice(dumpsDefaultStr(changed), 0, 400)}`);
  });
  return lines.slice(0, cap).join('\n') || '(none)';
}

/**
 * The seed's `_fmt_actions`: `kind {args}` per action, `done` dropped, arguments that are `None`, `""` or
 * `False` dropped (and so `0` and `0.0`, which equal `False` in Python), the last `cap` actions.
 */
export function formatActions(actions: readonly unknown[] | null | undefined, cap = 40): string[] {
  const out: string[] = [];
  for (const a of actions ?? []) {
    if (!isDict(a)) continue;
    const kind = pyKeys(a)[0];
    if (kind === undefined || kind === 'done' || kind === 'macro_done') continue;
    const args = pyOr(a[kind], {});
    const kept = isDict(args) ? pyEntries(args).filter(([, v]) => !pyIn(v, [null, '', false])) : [];
    out.push(`${kind} ${cpSlice(dumps(pyDict(kept)), 0, 160)}`);
  }
  return out.slice(-cap);
}

/**
 * The seed's `_last_seen`: the text of the last page the agent saw; a JSON page (an API response) is kept as
 * JSON text. Not yet cut to the prompt's 2,500 characters.
 */
export function lastSeen(seen: readonly unknown[] | null | undefined): string {
  const pages = seen && seen.length > 0 ? seen : [''];
  const last = pyOr(pages[pages.length - 1], '');
  return typeof last === 'string' ? last : dumpsDefaultStr(last);
}

/** `(g.get("answer") or "(none)")[:1500]`: a list answer is sliced and printed as Python prints a list. */
export function formatAnswer(answer: unknown, cap = 1500): string {
  const value = pyOr(answer, '(none)');
  if (typeof value === 'string') return cpSlice(value, 0, cap);
  if (Array.isArray(value)) return pyStr(value.slice(0, cap));
  throw new EvidenceError('answer', `expected a string, got ${pyTypeName(value)}`);
}
