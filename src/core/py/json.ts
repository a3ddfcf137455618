/**
 * Python's `json.loads`: floats kept apart from ints (`10.0`), big ints exact, `NaN` and `Infinity` accepted, object
 * keys in the file's order (`pyKeys`), and Python's error messages. `json.dumps` is `./dumps`.
 * @module
 */
import { PyFloat } from './float';

// A key JavaScript orders first (an array index): where one appears, the Python order is recorded.
const INDEX_KEY = /^(?:0|[1-9][0-9]{0,9})$/;

/**
 * Where an object's key order differs from JavaScript's (integer-like keys come first in JS), the parsed object
 * carries its Python order under this symbol (non-enumerable). Read it with {@link pyKeys}.
 */
export const KEY_ORDER: unique symbol = Symbol.for('miniweb-taskgen.keyOrder') as never;

/** An object's keys in Python's order: the file's order when {@link parsePyJson} recorded one. */
export function pyKeys(obj: object): string[] {
  return (obj as { [KEY_ORDER]?: string[] })[KEY_ORDER] ?? Object.keys(obj);
}

/** An object's entries in Python's order (see {@link pyKeys}). */
export function pyEntries(obj: object): Array<[string, unknown]> {
  return pyKeys(obj).map((k) => [k, (obj as Record<string, unknown>)[k]]);
}

/**
 * A dict built from entries in Python's insertion order (a later duplicate key replaces the value and keeps
 * the first position), recording that order where JavaScript would change it, so {@link pyDumps} writes the
 * keys as Python does. Use it for the seed's dict comprehensions over parsed objects.
 */
export function pyDict(entries: Iterable<readonly [string, unknown]>): Record<string, unknown> {
  const obj: Record<string, unknown> = {};
  const order: string[] = [];
  let indexKey = false;
  for (const [key, value] of entries) {
    if (!Object.prototype.hasOwnProperty.call(obj, key)) {
      order.push(key);
      indexKey ||= INDEX_KEY.test(key);
    }
    setOwn(obj, key, value);
  }
  if (indexKey && order.join('\0') !== Object.keys(obj).join('\0')) {
    Object.defineProperty(obj, KEY_ORDER, { value: order, enumerable: false });
  }
  return obj;
}

// `obj[key] = value`, except that a `__proto__` key becomes an own property instead of changing the prototype.
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/** A JSON document Python's `json.loads` would reject; `pos` is the 0-based offset. */
export class PyJsonError extends SyntaxError {
  override readonly name = 'PyJsonError';
  constructor(
    readonly problem: string,
    readonly pos: number,
    readonly lineno: number,
    readonly colno: number,
  ) {
    super(`${problem}: line ${lineno} column ${colno} (char ${pos})`);
  }
}

/** `type(e).__name__` as Python would print it: a {@link PyJsonError} is Python's `JSONDecodeError`. */
export function pyErrorName(error: Error): string {
  return error instanceof PyJsonError ? 'JSONDecodeError' : error.name;
}

// Tokens JSON.parse would read differently from Python: integer-like keys (order), integral or non-finite
// floats, ints beyond 2^53, NaN/Infinity. Strings are matched whole so digits inside them are skipped.
const SPECIAL =
  /"(?:0|[1-9][0-9]{0,9})"[ \t\n\r]*:|"[^"\\]*(?:\\[\s\S][^"\\]*)*"|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|NaN|-?Infinity/g;

// A marker string stands in for each such token so JSON.parse can still do the parsing; `\u0000` cannot occur
// in the marked text otherwise (the caller checks), so markers are unambiguous.
const MARK = '\\u0000';

// The text with special tokens replaced by markers: `"\u0000f10.0"`, `"\u0000i<digits>"`, `"\u0000k10":`;
// null when nothing needs marking.
function markSpecial(text: string): string | null {
  let out: string[] | null = null;
  let last = 0;
  SPECIAL.lastIndex = 0;
  for (let m = SPECIAL.exec(text); m; m = SPECIAL.exec(text)) {
    const tok = m[0];
    const c = tok.charCodeAt(0);
    let mark: string | undefined;
    if (c === 0x22 /* " */) {
      if (tok.endsWith(':')) mark = `"${MARK}k${tok.slice(1, tok.indexOf('"', 1))}":`;
    } else if (c === 0x4e /* N */ || c === 0x49 /* I */ || tok === '-Infinity') {
      mark = `"${MARK}f${tok}"`;
    } else if (/[.eE]/.test(tok)) {
      const v = Number(tok);
      if (!Number.isFinite(v) || Number.isInteger(v)) mark = `"${MARK}f${tok}"`;
    } else if (tok.length > 15 && !Number.isSafeInteger(Number(tok))) {
      mark = `"${MARK}i${tok}"`;
    }
    if (mark === undefined) continue;
    out ??= [];
    out.push(text.slice(last, m.index), mark);
    last = m.index + tok.length;
  }
  if (!out) return null;
  out.push(text.slice(last));
  return out.join('');
}

// Turns the markers JSON.parse left back into PyFloat, bigint and ordered objects.
function unmark(v: unknown): unknown {
  if (typeof v === 'string') {
    if (v.charCodeAt(0) !== 0) return v;
    const tok = v.slice(2);
    return v[1] === 'f' ? new PyFloat(Number(tok)) : BigInt(tok);
  }
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = unmark(v[i]);
    return v;
  }
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (!keys.some((k) => k.charCodeAt(0) === 0)) {
    for (const k of keys) obj[k] = unmark(obj[k]);
    return obj;
  }
  return pyDict(keys.map((k) => [k.charCodeAt(0) === 0 ? k.slice(2) : k, unmark(obj[k])] as const));
}

/**
 * Parses JSON as Python's `json.loads` does. Integral or non-finite float literals become {@link PyFloat}, ints
 * beyond 2^53 become `bigint`, and objects whose key order JavaScript would change record it (see {@link pyKeys}).
 * Throws {@link PyJsonError} for what Python rejects (a BOM, trailing data, control characters in strings).
 */
export function parsePyJson(text: string): unknown {
  if (text.charCodeAt(0) === 0xfeff) throw errorAt(text, 0, 'Unexpected UTF-8 BOM (decode using utf-8-sig)');
  if (!text.includes(MARK)) {
    const marked = markSpecial(text);
    try {
      const value = JSON.parse(marked ?? text) as unknown;
      return marked === null ? value : unmark(value);
    } catch {
      // fall through: the exact parser reports the error as Python would
    }
  }
  return new ExactParser(text).document();
}

function errorAt(s: string, pos: number, problem: string): PyJsonError {
  const before = s.slice(0, pos);
  const lineno = (before.match(/\n/g)?.length ?? 0) + 1;
  const colno = pos - before.lastIndexOf('\n');
  return new PyJsonError(problem, pos, lineno, colno);
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

class ExactParser {
  private i = 0;
  constructor(private readonly s: string) {}

  document(): unknown {
    this.ws();
    const value = this.value();
    this.ws();
    if (this.i !== this.s.length) throw errorAt(this.s, this.i, 'Extra data');
    return value;
  }

  private ws(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
      this.i++;
    }
  }

  private value(): unknown {
    const s = this.s;
    const c = s[this.i];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c !== undefined && c >= '0' && c <= '9') return this.number();
    for (const [word, v] of LITERALS) {
      if (s.startsWith(word, this.i)) {
        this.i += word.length;
        return v instanceof PyFloat ? new PyFloat(v.value) : v;
      }
    }
    return this.number();
  }

  private number(): unknown {
    const s = this.s;
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(s);
    if (!m) throw errorAt(s, this.i, 'Expecting value');
    this.i += m[0].length;
    if (m[1] !== undefined || m[2] !== undefined) {
      const v = Number(m[0]);
      return Number.isFinite(v) && !Number.isInteger(v) ? v : new PyFloat(v);
    }
    const v = Number(m[0]);
    return Number.isSafeInteger(v) ? v : BigInt(m[0]);
  }

  private object(): Record<string, unknown> {
    const s = this.s;
    const pairs: Array<[string, unknown]> = [];
    this.i++;
    this.ws();
    if (s[this.i] === '}') {
      this.i++;
      return {};
    }
    for (;;) {
      if (s[this.i] !== '"') throw errorAt(s, this.i, 'Expecting property name enclosed in double quotes');
      const key = this.string();
      this.ws();
      if (s[this.i] !== ':') throw errorAt(s, this.i, "Expecting ':' delimiter");
      this.i++;
      this.ws();
      pairs.push([key, this.value()]);
      this.ws();
      if (s[this.i] === '}') {
        this.i++;
        return pyDict(pairs);
      }
      if (s[this.i] !== ',') throw errorAt(s, this.i, "Expecting ',' delimiter");
      this.i++;
      this.ws();
    }
  }

  private array(): unknown[] {
    const s = this.s;
    const out: unknown[] = [];
    this.i++;
    this.ws();
    if (s[this.i] === ']') {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      out.push(this.value());
      this.ws();
      if (s[this.i] === ']') {
        this.i++;
        return out;
      }
      if (s[this.i] !== ',') throw errorAt(s, this.i, "Expecting ',' delimiter");
      this.i++;
    }
  }

  private string(): string {
    const s = this.s;
    const start = ++this.i;
    let out = '';
    let chunk = start;
    for (;;) {
      if (this.i >= s.length) throw errorAt(s, start - 1, 'Unterminated string starting at');
      const c = s.charCodeAt(this.i);
      if (c === 0x22) {
        out += s.slice(chunk, this.i++);
        return out;
      }
      if (c < 0x20) throw errorAt(s, this.i, 'Invalid control character at');
      if (c !== 0x5c) {
        this.i++;
        continue;
      }
      out += s.slice(chunk, this.i);
      const e = s[this.i + 1];
      if (e === 'u') {
        const hex = s.slice(this.i + 2, this.i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw errorAt(s, this.i, 'Invalid \\uXXXX escape');
        out += String.fromCharCode(Number.parseInt(hex, 16));
        this.i += 6;
      } else if (e !== undefined && e in ESCAPES) {
        out += ESCAPES[e];
        this.i += 2;
      } else {
        throw errorAt(s, this.i, 'Invalid \\escape');
      }
      chunk = this.i;
    }
  }
}

const LITERALS: Array<[string, unknown]> = [
  ['null', null],
  ['true', true],
  ['false', false],
  ['NaN', new PyFloat(Number.NaN)],
  ['Infinity', new PyFloat(Number.POSITIVE_INFINITY)],
  ['-Infinity', new PyFloat(Number.NEGATIVE_INFINITY)],
];
