/**
 * `request_made`: a request of the session's log (MiniWeb's `/_admin/log`) with the method, URL, status, body and
 * response the check asks for, its fields compared by MiniWeb's `_field_match` rules. A request the server answered
 * with an error (status 400 or more) did not happen, unless the check asks for that status.
 * @module
 */
import type { LogEntry } from '../core/schemas';
import { pyStr } from '../core/py/repr';
import { isOpen, type MiniwebFieldWant, type MiniwebLeafOf } from './verifier-schema';
import { show, type LeafContext, type LeafOutcome } from './verifier-input';
import { arg } from './verifier-leaves';
import { containsWords, loggedUrl, mwCompact, numClose, numericValue, textOf } from './verifier-text';

type Tri = boolean | null;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A body or response as fields: a JSON object as it is, a text as JSON or as a form (`a=1&b=2`), else none. */
export function bodyFields(raw: unknown): Record<string, unknown> {
  if (isRecord(raw)) return raw;
  const s = typeof raw === 'string' ? raw.trim() : '';
  if (!s) return {};
  if (s[0] === '{' || s[0] === '[') {
    try {
      const value: unknown = JSON.parse(s);
      return isRecord(value) ? value : {};
    } catch {
      // not JSON: perhaps a form
    }
  }
  if (!s.includes('=')) return {};
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(s)) {
    if (v === '') continue; // Python's parse_qs drops blank values
    const had = out[k];
    out[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return out;
}

// A field value as the rules read it: missing is empty, scalars as Python's str(), the rest as JSON.
const asText = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'object' ? textOf(v) : pyStr(v));

/**
 * One field by MiniWeb's `_field_match`: `{open: true}` always; `{value, mode}` by its mode; two numbers within 1% or
 * equal once rounded; a text of several words contained (compact), a single token equal (compact); `fuzzy` equal or
 * contained, else the judge (null without one). A list received (a form's repeated field) matches when an item does.
 */
export async function fieldMatch(want: MiniwebFieldWant, got: unknown, ctx: LeafContext): Promise<Tri> {
  if (isOpen(want)) return true;
  let mode = 'auto';
  let value: unknown = want;
  if (isRecord(want) && 'value' in want) {
    mode = (want.mode as string | undefined) ?? 'auto';
    value = want.value;
  }
  if (Array.isArray(got)) {
    let sawNull = false;
    for (const item of got) {
      const r = await fieldMatch(want, item, ctx);
      if (r === true) return true;
      if (r === null) sawNull = true;
    }
    return sawNull ? null : got.length === 0 && asText(value) === '';
  }
  const nw = mwCompact(asText(value));
  const ng = mwCompact(asText(got));
  if (mode === 'fuzzy') {
    if (nw && (nw === ng || ng.includes(nw))) return true;
    if (!ng) return false;
    const decision = await ctx.ask('submitted form field', asText(value), asText(got));
    return decision ? decision.match : null;
  }
  const wn = numericValue(typeof value === 'number' ? value : asText(value));
  const gn = numericValue(typeof got === 'number' ? got : asText(got));
  if (mode === 'numeric' || (mode === 'auto' && wn !== null && gn !== null)) return wn !== null && gn !== null && numClose(wn, gn);
  if (mode === 'equals') return nw === ng;
  if (mode === 'contains') return nw ? ng.includes(nw) : nw === ng;
  if (/\s/.test(asText(value).trim())) return nw !== '' && ng.includes(nw);
  return nw === ng;
}

/** Every expected field matches the received ones (extra fields, a CSRF token, a timestamp, are ignored). */
async function fieldsMatch(want: Readonly<Record<string, MiniwebFieldWant>>, got: Record<string, unknown>, ctx: LeafContext): Promise<Tri> {
  // Fields without the judge first, so a strict mismatch costs no judge call.
  const fuzzy = (w: MiniwebFieldWant) => isRecord(w) && 'value' in w && w.mode === 'fuzzy';
  const keys = Object.keys(want).sort((a, b) => Number(fuzzy(want[a]!)) - Number(fuzzy(want[b]!)));
  let sawNull = false;
  for (const key of keys) {
    const r = await fieldMatch(want[key]!, got[key], ctx);
    if (r === false) return false;
    if (r === null) sawNull = true;
  }
  return sawNull ? null : true;
}

/** A URL test: a substring of the logged path and query (encoded as MiniWeb writes it, or decoded), or `re:` a regex. */
function urlTest(want: string): ((entry: LogEntry) => boolean) | string {
  if (want.startsWith('re:')) {
    // Python's named groups read as JavaScript's; a pattern JavaScript cannot compile fails the check.
    const source = want.slice(3).replace(/\(\?P</g, '(?<').replace(/\(\?P=(\w+)\)/g, '\\k<$1>');
    let regex: RegExp;
    try {
      regex = new RegExp(source);
    } catch (error) {
      return `the URL pattern ${show(want)} is not a valid regular expression (${(error as Error).message})`;
    }
    return (e) => regex.test(loggedUrl(e.path, e.query)) || regex.test(loggedUrl(e.path, e.query, false));
  }
  // A full URL from a recording on another host reads as its path.
  const fragment = want.replace(/^https?:\/\/[^/]+/i, '');
  return (e) => loggedUrl(e.path, e.query).includes(fragment) || loggedUrl(e.path, e.query, false).includes(fragment);
}

/** `request_made` over the session's log (see the module notes). */
export async function checkRequest(leaf: MiniwebLeafOf<'request_made'>, ctx: LeafContext): Promise<LeafOutcome> {
  const method = arg(leaf.method)?.toUpperCase();
  const url = arg(leaf.url);
  const status = arg(leaf.status);
  const contains = arg(leaf.body_contains);
  const body = arg(leaf.body_fields);
  const response = arg(leaf.response_fields);
  const test = url === undefined ? () => true : urlTest(url);
  if (typeof test === 'string') return { ok: false, detail: test };
  if (contains !== undefined && containsWords('', contains) === null) return { ok: false, detail: `asserts nothing: body_contains ${show(contains)} has no letter or digit` };
  let refused = 0;
  let near = 0;
  let sawNull = false;
  for (const entry of ctx.input.log) {
    if (method !== undefined && asText(entry.method).toUpperCase() !== method) continue;
    if (!test(entry)) continue;
    const code = Number(entry.status);
    if (status !== undefined ? code !== status : code >= 400) {
      if (code >= 400) refused++;
      else near++;
      continue;
    }
    near++;
    if (contains !== undefined && containsWords(textOf(entry.body), contains) !== true) continue;
    const fields = body === undefined ? true : await fieldsMatch(body, bodyFields(entry.body), ctx);
    if (fields === false) continue;
    const answered = response === undefined ? true : await fieldsMatch(response, bodyFields(entry.response), ctx);
    if (answered === false) continue;
    if (fields === true && answered === true) return { ok: true, detail: `${asText(entry.method)} ${loggedUrl(entry.path, entry.query)} → ${asText(entry.status)}` };
    sawNull = true;
  }
  const what = `${method ?? 'request'}${url !== undefined ? ` to ${show(url)}` : ''}${status !== undefined ? ` answered ${status}` : ''}`;
  const why = [
    near ? `${near} matched the method and URL but not the rest` : '',
    refused ? `${refused} on it answered with an error status (a refused request did not happen)` : '',
  ].filter(Boolean).join('; ');
  if (sawNull) return { ok: null, detail: `undecided: a ${what} has a fuzzy field the judge must read, and no judge was given${why ? ` (${why})` : ''}` };
  return { ok: false, detail: `no ${what} matches among ${ctx.input.log.length} logged${why ? `: ${why}` : ''}` };
}

