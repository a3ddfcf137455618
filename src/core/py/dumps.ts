/**
 * Python's `json.dumps`: its separators and escapes, `ensure_ascii`, `indent`, `sort_keys`, floats printed as Python
 * prints them (`1.0`), and object keys in the order `parsePyJson` read them.
 * @module
 */
import { PyFloat, jsonFloat, numberRepr } from './float';
import { pyKeys } from './json';
import { compareCodePoints } from './text';

/** Options of {@link pyDumps}, named as in Python. */
export interface PyDumpsOptions {
  /** `ensure_ascii` (Python's default: true). */
  ensureAscii?: boolean;
  /** `indent`: spaces per level; items then separate with `,` and a newline. */
  indent?: number;
  /** `sort_keys`, by code point. */
  sortKeys?: boolean;
  /** Keys whose numbers Python holds as floats (a rate of `1` prints `1.0`). */
  floatKeys?: ReadonlySet<string>;
  /** `default`: turns a value JSON cannot hold into one it can; without it such a value throws. */
  default?: (value: unknown) => unknown;
}

// Python's json escapes exactly these control characters, so the regexes name them.
/* eslint-disable no-control-regex */
const ESCAPE_UNICODE = /[\x00-\x1f\\"]/;
const ESCAPE_ASCII = /[\\"]|[^ -~]/;
const ESCAPE_UNICODE_ALL = /[\x00-\x1f\\"]/g;
const ESCAPE_ASCII_ALL = /[\\"]|[^ -~]/g;
/* eslint-enable no-control-regex */
const SHORT: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

// One UTF-16 unit as json.dumps escapes it (a surrogate pair becomes two \u escapes, as in Python).
function escapeUnit(ch: string): string {
  return SHORT[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** A string as `json.dumps` quotes it. */
export function pyQuote(s: string, ensureAscii = true): string {
  if (!(ensureAscii ? ESCAPE_ASCII : ESCAPE_UNICODE).test(s)) return `"${s}"`;
  return `"${s.replace(ensureAscii ? ESCAPE_ASCII_ALL : ESCAPE_UNICODE_ALL, escapeUnit)}"`;
}

/**
 * Python's `json.dumps(value, ...)`: `", "` and `": "` separators (`","` with an indent), Python's escapes,
 * ints and floats printed as Python prints them, `NaN`/`Infinity`, keys in Python's order.
 * `undefined` object members are skipped, as `JSON.stringify` does.
 */
export function pyDumps(value: unknown, options: PyDumpsOptions = {}): string {
  const ctx: DumpContext = {
    ensureAscii: options.ensureAscii ?? true,
    indent: options.indent,
    sortKeys: options.sortKeys ?? false,
    floatKeys: options.floatKeys,
    default: options.default,
    open: [],
  };
  return encode(ctx, value, 0, false);
}

// The options of one pyDumps call, and the containers being written (for Python's circular-reference check).
interface DumpContext {
  readonly ensureAscii: boolean;
  readonly indent: number | undefined;
  readonly sortKeys: boolean;
  readonly floatKeys: ReadonlySet<string> | undefined;
  readonly default: ((value: unknown) => unknown) | undefined;
  readonly open: object[];
}

function encode(ctx: DumpContext, v: unknown, level: number, asFloat: boolean): string {
  if (v === null || v === undefined) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (typeof v === 'string') return pyQuote(v, ctx.ensureAscii);
  if (typeof v === 'number') return asFloat || !Number.isInteger(v) || !Number.isFinite(v) ? jsonFloat(v) : numberRepr(v);
  if (v instanceof PyFloat) return jsonFloat(v.value);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v !== 'object') return fallback(ctx, v, level);
  if (ctx.open.includes(v)) throw new TypeError('Circular reference detected');
  ctx.open.push(v);
  try {
    if (Array.isArray(v)) {
      const items: string[] = [];
      for (const x of v) items.push(encode(ctx, x, level + 1, false));
      return container(ctx, '[', ']', items, level);
    }
    if (Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null) return fallback(ctx, v, level);
    const obj = v as Record<string, unknown>;
    let keys = pyKeys(obj);
    if (ctx.sortKeys) keys = [...keys].sort(compareCodePoints);
    const items: string[] = [];
    for (const k of keys) {
      const x = obj[k];
      if (x === undefined) continue;
      items.push(`${pyQuote(k, ctx.ensureAscii)}: ${encode(ctx, x, level + 1, ctx.floatKeys?.has(k) ?? false)}`);
    }
    return container(ctx, '{', '}', items, level);
  } finally {
    ctx.open.pop();
  }
}

function fallback(ctx: DumpContext, v: unknown, level: number): string {
  if (!ctx.default) throw new TypeError(`Object of type ${typeof v} is not JSON serializable`);
  return encode(ctx, ctx.default(v), level, false);
}

function container(ctx: DumpContext, open: string, close: string, items: string[], level: number): string {
  if (items.length === 0) return open + close;
  if (ctx.indent === undefined) return open + items.join(', ') + close;
  const pad = `\n${' '.repeat(ctx.indent * (level + 1))}`;
  return `${open}${pad}${items.join(`,${pad}`)}\n${' '.repeat(ctx.indent * level)}${close}`;
}
