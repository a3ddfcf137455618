/**
 * The fake MiniWeb's Python text formats: `json.dumps` as MiniWeb's db layer writes the overlay (default separators
 * `", "` / `": "`, non-ASCII kept), Flask's JSON (compact, sorted keys, non-ASCII escaped: `jsonify` bodies and the
 * session cookie), `str()` of a value, and the clock as Python prints it. A JavaScript number does not say whether
 * Python held an int or a float, so a float is named by its key (a `REAL` column, `amount`...).
 * @module
 */
import { performance } from 'node:perf_hooks';

/** Keys whose numbers Python holds as floats wherever they appear (`60` is written `60.0`). */
export const FLOAT_KEYS: ReadonlySet<string> = new Set(['amount', 'balance', 'created', 'date_sort', 'interest_rate', 'price', 'total']);

/** How to write JSON: Python's `json.dumps` arguments. */
export interface PyJsonStyle {
  /** `(item, key)` separators. */
  readonly separators: readonly [string, string];
  /** Escape every character outside printable ASCII as `\uXXXX`. */
  readonly ensureAscii: boolean;
  /** Sort object keys. */
  readonly sortKeys: boolean;
  /** Keys whose numbers are floats. */
  readonly floatKeys: ReadonlySet<string>;
}

/** MiniWeb's `json.dumps(data, ensure_ascii=False)`: the overlay's `data` and the seeded JSON columns. */
export function pyDumps(value: unknown, floatKeys: ReadonlySet<string> = FLOAT_KEYS): string {
  return write(value, { separators: [', ', ': '], ensureAscii: false, sortKeys: false, floatKeys }, false);
}

/** Python's `json.dumps(value)` with its defaults (non-ASCII escaped): the event log's payload. */
export function pyDumpsAscii(value: unknown): string {
  return write(value, { separators: [', ', ': '], ensureAscii: true, sortKeys: false, floatKeys: FLOAT_KEYS }, false);
}

/** Flask's JSON: compact, sorted keys, ASCII only (the session cookie's payload; `jsonify` adds a newline). */
export function flaskDumps(value: unknown): string {
  return write(value, { separators: [',', ':'], ensureAscii: true, sortKeys: true, floatKeys: FLOAT_KEYS }, false);
}

function write(value: unknown, style: PyJsonStyle, isFloat: boolean): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return pyNumber(value, isFloat);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return pyString(value, style.ensureAscii);
  const [item, key] = style.separators;
  if (Array.isArray(value)) return `[${value.map((v) => write(v, style, isFloat)).join(item)}]`;
  let entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (style.sortKeys) entries = entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${pyString(k, style.ensureAscii)}${key}${write(v, style, style.floatKeys.has(k))}`).join(item)}}`;
}

function pyString(s: string, ensureAscii: boolean): string {
  const json = JSON.stringify(s);
  if (!ensureAscii) return json;
  return json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A number as Python's `json` writes it: an int as digits, a float as `repr(float)`. */
export function pyNumber(n: number, isFloat = false): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  if (Number.isInteger(n) && !isFloat) return Math.abs(n) < 1e21 ? n.toFixed(0) : floatRepr(n);
  return floatRepr(n);
}

/** Python's `repr(float)`: the shortest digits, fixed notation for exponents -4 to 15, else `1e+16` style. */
export function floatRepr(n: number): string {
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const [mantissa, expText] = n.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const frac = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${frac}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${whole}.${frac || '0'}`;
}

/** Python's `str()` of a JSON value (`True`, `None`, `3`, `31.0` for a float key), as MiniWeb's filters compare. */
export function pyStr(value: unknown, isFloat = false): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return pyNumber(value, isFloat);
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Python's `round(x, 2)` for money (both round the exact binary value; exact ties, rare, may differ). */
export function round2(x: number): number {
  return Number(x.toFixed(2));
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** `time.strftime("%Y-%m-%dT%H:%M:%S")`: local time, to the second (the `sessions` and `event_log` stamps). */
export function localStamp(d: Date = new Date()): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** `datetime.now().isoformat()`: local time with microseconds, none written when they are 0 (the request log). */
export function localIsoNow(): string {
  const d = new Date();
  const micro = d.getMilliseconds() * 1000 + Math.floor((performance.now() * 1000) % 1000);
  return micro ? `${localStamp(d)}.${pad(micro, 6)}` : localStamp(d);
}

/** `datetime.now(timezone.utc).isoformat()`: `2026-12-07T06:12:07.123456+00:00` (the recorder's default stamp). */
export function utcIsoNow(): string {
  const iso = new Date().toISOString();
  const micro = Math.floor((performance.now() * 1000) % 1000);
  return `${iso.slice(0, 23)}${pad(micro, 3)}+00:00`;
}

/** `strftime("%b %d, %Y %I:%M %p")` in local time (an email's `date_display`). */
export function displayDate(d: Date): string {
  const month = d.toLocaleString('en-US', { month: 'short' });
  const h = d.getHours() % 12 || 12;
  return `${month} ${pad(d.getDate())}, ${d.getFullYear()} ${pad(h)}:${pad(d.getMinutes())} ${d.getHours() < 12 ? 'AM' : 'PM'}`;
}
