/**
 * Episode evidence (actions, requests, data changes, the judge's reply) turned into display strings for the
 * report. Values are shown as JSON in the file's key order; long texts are clipped so that one huge request body
 * cannot make a report of thousands of episodes unusable.
 * @module
 */
import { parsePyJson, pyEntries } from '../core/py/json';
import { pyDumps } from '../core/py/dumps';
import { pyTruthy } from '../core/py/repr';
import type { Change, JudgeRecord, LogEntry } from '../core/schemas';
import type { ReportChange, ReportFieldChange, ReportJudgePart, ReportJudge, ReportRequest } from './types';

/** Longest text shown for one value; the rest is counted, not shown. */
export const MAX_TEXT = 4000;
/** Most entries shown per list (actions, requests, changes, parts). */
export const MAX_ITEMS = 300;

// The paths the seed's judge leaves out of the request log (assets, admin endpoints).
const SKIP_PATH = /^\/(_admin|static|favicon)|\.(css|js|png|jpg|svg|ico|woff2?)$/;

/** `text` cut to `max` characters, saying how many were left out. */
export function clip(text: string, max = MAX_TEXT): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** A value as a person reads it: a string as it is, anything else as JSON. */
export function showValue(value: unknown, max = MAX_TEXT): string {
  if (typeof value === 'string') return clip(value, max);
  if (value === undefined) return '';
  return clip(pyDumps(value, { ensureAscii: false, default: (v) => String(v) }), max);
}

/** A value shown only when it says something: `''` for null, empty strings, `{}` and `[]`. */
function showIfAny(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'object' && pyEntries(value).length === 0) return '';
  return showValue(value);
}

/** An action `{kind: {args}}` as its kind and its arguments. */
export function actionView(action: unknown): { kind: string; args: string } {
  if (isRecord(action)) {
    const entries = pyEntries(action);
    if (entries.length === 1) {
      const [kind, args] = entries[0]!;
      return { kind, args: showIfAny(args) };
    }
  }
  return { kind: '?', args: showValue(action) };
}

/** A request of the session's log. */
export function requestView(entry: LogEntry): ReportRequest {
  const path = typeof entry.path === 'string' ? entry.path : showIfAny(entry.path);
  return {
    method: showIfAny(entry.method),
    path: clip(path, 1000),
    query: showIfAny(entry.query),
    body: showIfAny(entry.body),
    status: showIfAny(entry.status),
    static: SKIP_PATH.test(path),
  };
}

/**
 * A data change: its op (inferred as the seed does when missing), table, the item's name, and the changed fields,
 * `[before, after]` pairs for an update, set values otherwise.
 */
export function changeView(change: Change): ReportChange {
  const before = isRecord(change.before) ? change.before : null;
  const after = isRecord(change.after) ? change.after : null;
  const op = showIfAny(change.op) || (!pyTruthy(change.before) ? 'create' : !pyTruthy(change.after) ? 'delete' : 'update');
  const table = showIfAny(change.collection) || showIfAny(change.table) || showIfAny(change.kind) || '?';
  const item = after ?? before ?? {};
  const name = ['title', 'name', 'subject', 'id'].map((k) => showIfAny(item[k])).find((s) => s !== '') ?? '';
  const fields: ReportFieldChange[] = [];
  if (isRecord(change.changed)) {
    for (const [field, value] of pyEntries(change.changed)) {
      if (op === 'update' && Array.isArray(value) && value.length === 2) {
        fields.push({ field, before: showValue(value[0], 1000), after: showValue(value[1], 1000) });
      } else {
        fields.push({ field, before: null, after: showValue(value, 1000) });
      }
    }
  } else if (change.changed !== undefined && change.changed !== null) {
    fields.push({ field: '', before: null, after: showValue(change.changed) });
  }
  return { op, table, name, fields };
}

/**
 * A judge record with its reply read tolerantly: JSON, JSON in a code fence or among prose, or an error text. The
 * verdict is the record's (`predicted_label`), which is what validate and rows use.
 */
export function judgeView(record: JudgeRecord): ReportJudge {
  const verdict = !record.verdict ? 'none' : record.predicted_label === 1 ? 'success' : 'fail';
  const raw = record.response;
  const base = { model: record.model, verdict, raw: raw === null ? null : clip(raw) } as const;
  if (raw === null) return { ...base, stated: null, parts: [], note: 'no reply recorded' };
  const reply = parseReply(raw);
  if (reply === undefined) return { ...base, stated: null, parts: [], note: 'the reply is not JSON' };
  if (!isRecord(reply)) return { ...base, stated: null, parts: [], note: 'the reply is not a JSON object' };
  const parts: ReportJudgePart[] = Array.isArray(reply.parts)
    ? reply.parts.slice(0, MAX_ITEMS).map((p) =>
        isRecord(p)
          ? { part: showValue(p.part ?? ''), done: doneOf(p.done), evidence: showValue(p.evidence ?? '') }
          : { part: showValue(p), done: null, evidence: '' },
      )
    : [];
  const stated = typeof reply.verdict === 'string' ? clip(reply.verdict, 200) : null;
  const note = Array.isArray(reply.parts) ? null : 'the reply lists no parts';
  return { ...base, stated, parts, note };
}

function doneOf(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  return null;
}

/** The reply's JSON value, also from inside a code fence or prose; `undefined` when there is none. */
function parseReply(text: string): unknown {
  const tryParse = (s: string) => {
    try {
      return parsePyJson(s.trim());
    } catch {
      return undefined;
    }
  };
  const whole = tryParse(text);
  if (whole !== undefined) return whole;
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  return start >= 0 && end > start ? tryParse(text.slice(start, end + 1)) : undefined;
}

/** A plain object (not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
