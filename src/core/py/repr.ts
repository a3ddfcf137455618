/** Python's `str()`, `repr()`, truthiness and `==` on JSON-like values. @module */
import { PyFloat, floatRepr, numberRepr, pyNumber } from './float';
import { pyEntries } from './json';

const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function hex(c: number, width: number): string {
  return c.toString(16).padStart(width, '0');
}

/** `repr(s)` of a Python str: single quotes unless the text has `'` and no `"`, Python's escapes. */
export function strRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || c === 0x7f) out += `\\x${hex(c, 2)}`;
    else if (c < 0x7f || !NON_PRINTABLE.test(ch)) out += ch;
    else if (c <= 0xff) out += `\\x${hex(c, 2)}`;
    else if (c <= 0xffff) out += `\\u${hex(c, 4)}`;
    else out += `\\U${hex(c, 8)}`;
  }
  return out + quote;
}

/** Python's `repr(v)` for JSON-like values (`None`, `True`, `10.0`, `'a'`, `[1, 'b']`, `{'k': None}`). */
export function pyRepr(v: unknown): string {
  if (typeof v === 'string') return strRepr(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (v !== null && typeof v === 'object' && !(v instanceof PyFloat)) {
    return `{${pyEntries(v).map(([k, x]) => `${strRepr(k)}: ${pyRepr(x)}`).join(', ')}}`;
  }
  return pyStr(v);
}

/** Python's `str(v)` (and `f"{v}"`) for JSON-like values: strings as they are, `None`, `True`, `10.0`... */
export function pyStr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return numberRepr(v);
  if (v instanceof PyFloat) return floatRepr(v.value);
  if (typeof v === 'bigint') return v.toString();
  return pyRepr(v);
}

/** Python's truthiness: `None`, `False`, `0`, `0.0`, `''`, `[]`, `{}` are false. */
export function pyTruthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false) return false;
  if (typeof v === 'string') return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  const n = pyNumber(v);
  if (n !== undefined) return n !== 0;
  if (typeof v === 'object') return pyEntries(v).length > 0;
  return true;
}

/** `a or b or ...`: the first truthy value, else the last. */
export function pyOr(...values: unknown[]): unknown {
  for (const v of values) if (pyTruthy(v)) return v;
  return values[values.length - 1];
}

/** Python's `a == b` on JSON-like values: `0 == False == 0.0`, lists element-wise, dicts ignoring order. */
export function pyEquals(a: unknown, b: unknown): boolean {
  const x = pyNumber(a);
  const y = pyNumber(b);
  if (x !== undefined || y !== undefined) return x !== undefined && y !== undefined && x === y;
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => pyEquals(v, b[i]));
  }
  if (typeof a === 'object' && typeof b === 'object') {
    const ea = pyEntries(a);
    const rb = b as Record<string, unknown>;
    return ea.length === pyEntries(b).length && ea.every(([k, v]) => Object.hasOwn(rb, k) && pyEquals(v, rb[k]));
  }
  return a === b;
}

/** Python's `v in (a, b, ...)` on a tuple of values. */
export function pyIn(v: unknown, values: readonly unknown[]): boolean {
  return values.some((x) => pyEquals(v, x));
}

/** `type(v).__name__` of a JSON-like value: `dict`, `list`, `str`, `int`, `float`, `bool`, `NoneType`. */
export function pyTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'str';
  if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))) return 'int';
  if (typeof v === 'number' || v instanceof PyFloat) return 'float';
  if (Array.isArray(v)) return 'list';
  return 'dict';
}

/** Whether a parsed JSON value is an object (Python's dict): not null, a list or a {@link PyFloat}. */
export function isDict(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof PyFloat);
}

/** Python's `d.get(key)`: own keys only, so `name` or `constructor` never come from the prototype. */
export function pyDictGet(d: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(d, key) ? d[key] : undefined;
}
