/**
 * Grades an episode against a task's verifier from the server's evidence: the answer, the request log, the data
 * changes, and, when the server can tell, the tables' rows at the end. Works for any MiniWeb-like server.
 *
 * Values compare as claims compare them (`src/claims/values.ts`), loosely, as they travel through forms and JSON: strings after whitespace collapse and case
 * folding, numbers by value (`"2"` equals `2`), booleans as `true`/`1`/`on` and `false`/`0`/empty, `null` as
 * absent or empty. Requests the server answered with an error (status 400 or more) did not happen.
 * @module
 */
import type { AnswerCheck, Change, LogEntry, RequestCheck, Scalar, StateCheck, Verifier } from '../core/schemas';
import { matchValue, requestParams, trimSlash } from '../claims/values';
import { unrequestedChanges } from '../claims/footprint';
import { verifierFootprint } from '../claims/verifier';
import type { Consequence } from '../claims/schema';
import { decideAnswer, type AnswerWant } from '../claims/answer';
import type { StartRows } from '../claims/start-rows';

/** A table's rows now. */
export type StateReader = (table: string) => Promise<Record<string, unknown>[]> | Record<string, unknown>[];

/** What an episode left behind. */
export interface EpisodeEvidence {
  /** The agent's final answer. */
  readonly answer?: string | null;
  /** The session's request log, for the `requests` checks. */
  readonly log?: readonly LogEntry[];
  /** The session's data changes; `state` checks use them when there is no `state` reader. */
  readonly changes?: readonly Change[];
  /**
   * A table's rows at the end. Without it, state checks use the changes: rows the session never touched are
   * unknown to them, so `should_not_exist` passes unless the session left a matching row.
   */
  readonly state?: StateReader;
  /** The task's instruction: numbers and values it names are no competing answer (`src/claims/answer.ts`). */
  readonly question?: string | null;
  /** The site's tables at the start (`start_rows.json`): where an answer's competing values are found. */
  readonly start?: StartRows | null;
  /** What the site declares it does by itself as a consequence of a task's changes. */
  readonly consequences?: readonly Consequence[];
}

/** One check's result. */
export interface CheckResult {
  /** What was checked, in words. */
  readonly check: string;
  /** Whether the check passed. */
  readonly ok: boolean;
  /** Why it passed or failed. */
  readonly detail: string;
}

/** The verdict: every check must pass (a verifier with no checks passes). */
export interface VerifyResult {
  /** Whether every check passed. */
  readonly ok: boolean;
  /** Each check's result, in order: answer, requests, state. */
  readonly checks: CheckResult[];
}

const show = (v: unknown): string => JSON.stringify(v) ?? String(v);

function checkAnswer(check: AnswerCheck, evidence: EpisodeEvidence): CheckResult {
  const values = Array.isArray(check.value) ? check.value : [check.value];
  const want: AnswerWant = check.type === 'number'
    ? { kind: 'number', value: Number(values[0]), tolerance: check.tolerance ?? 0 }
    : { kind: check.type === 'exact' ? 'exact' : 'includes', values: values.map(String) };
  const what = want.kind === 'number'
    ? `answer is the number ${want.value}${want.tolerance ? ` ± ${want.tolerance}` : ''}`
    : want.kind === 'exact' ? `answer is ${values.map(show).join(' or ')}` : `answer includes ${values.map(show).join(' and ')}`;
  const decided = decideAnswer(evidence.answer, want, { question: evidence.question ?? null, start: evidence.start ?? null });
  return { check: what, ok: decided.ok, detail: decided.detail };
}

function checkRequest(check: RequestCheck, log: readonly LogEntry[]): CheckResult {
  const method = check.method.toUpperCase();
  const path = trimSlash(check.path);
  const params = check.params ?? {};
  const hits = log.filter((e) => {
    if (String(e.method ?? '').toUpperCase() !== method || trimSlash(String(e.path ?? '')) !== path) return false;
    if (typeof e.status === 'number' && e.status >= 400) return false;
    const got = requestParams(e);
    return Object.entries(params).every(([k, v]) => matchValue(got[k], v));
  });
  const what = `${method} ${check.path}${Object.keys(params).length ? ` with ${show(params)}` : ''}`;
  const same = log.filter((e) => String(e.method ?? '').toUpperCase() === method && trimSlash(String(e.path ?? '')) === path).length;
  if (check.should_not_exist) {
    return { check: `no request ${what}`, ok: hits.length === 0, detail: hits.length ? `${hits.length} such request(s) made` : 'none made' };
  }
  return {
    check: `request ${what}`,
    ok: hits.length > 0,
    detail: hits.length ? `${hits.length} matching request(s)` : same ? `${same} request(s) to that path, none with those parameters` : 'no request to that path',
  };
}

function matches(rowValues: Record<string, unknown>, want: Record<string, Scalar>): boolean {
  return Object.entries(want).every(([k, v]) => matchValue(rowValues[k], v));
}

/** The rows of `table` the changes show at the end (created or updated, not deleted since). */
function rowsFromChanges(changes: readonly Change[], table: string): Record<string, unknown>[] {
  const rows = new Map<string, Record<string, unknown> | null>();
  const key = (r: Record<string, unknown>): string => ('id' in r ? `id:${show(r.id)}` : show(r));
  for (const c of changes) {
    if ((c.table ?? c.collection ?? c.kind) !== table) continue;
    const before = c.before && typeof c.before === 'object' ? (c.before as Record<string, unknown>) : null;
    const after = c.after && typeof c.after === 'object' ? (c.after as Record<string, unknown>) : null;
    if (before) rows.set(key(before), null);
    if (after) rows.set(key(after), after);
  }
  return [...rows.values()].filter((r): r is Record<string, unknown> => r !== null);
}

async function checkState(check: StateCheck, evidence: EpisodeEvidence): Promise<CheckResult> {
  const source = evidence.state ? 'rows' : 'changes';
  const rows = evidence.state ? await evidence.state(check.table) : rowsFromChanges(evidence.changes ?? [], check.table);
  const found = rows.filter((r) => matches(r, check.where));
  const where = `${check.table} where ${show(check.where)}`;
  if (check.should_not_exist) {
    return { check: `no row ${where}`, ok: found.length === 0, detail: found.length ? `${found.length} such row(s) in the ${source}` : `none in the ${source}` };
  }
  const values = check.values ?? {};
  const good = found.filter((r) => matches(r, values));
  const what = `row ${where}${Object.keys(values).length ? ` with ${show(values)}` : ''}`;
  if (good.length) return { check: what, ok: true, detail: `found in the ${source}` };
  if (!found.length) return { check: what, ok: false, detail: `no such row in the ${source}` };
  const sample = found[0] as Record<string, unknown>;
  const diff = Object.fromEntries(Object.keys(values).map((k) => [k, sample[k]]));
  return { check: what, ok: false, detail: `the row has ${show(diff)}` };
}

/**
 * Grades an episode: every check of the verifier, in order (answer, requests, state), then, where the changes are
 * known, that the episode made none but those its state checks ask for and the site's declared consequences
 * (`src/claims/footprint.ts`): an information task's verifier asks for none.
 */
export async function verifyEpisode(verifier: Verifier, evidence: EpisodeEvidence): Promise<VerifyResult> {
  // MiniWeb's verifier.json parses as a verifier of no checks: graded here, it would pass anything
  if (typeof (verifier as { macros?: unknown }).macros === 'object') throw new TypeError("verifyEpisode: this is MiniWeb's verifier.json (macros): decideReward grades it (gradeMiniwebVerifier)");
  const checks: CheckResult[] = [];
  if (verifier.answer) checks.push(checkAnswer(verifier.answer, evidence));
  for (const r of verifier.requests ?? []) checks.push(checkRequest(r, evidence.log ?? []));
  for (const s of verifier.state ?? []) checks.push(await checkState(s, evidence));
  if (evidence.changes) checks.push(checkFootprint(verifier, evidence));
  return { ok: checks.every((c) => c.ok), checks };
}

function checkFootprint(verifier: Verifier, evidence: EpisodeEvidence): CheckResult {
  const changes = evidence.changes ?? [];
  const footprint = verifierFootprint(verifier);
  const bad = unrequestedChanges(changes, footprint, { consequences: evidence.consequences ?? [], log: evidence.log ?? [] });
  const asked = footprint.length ? [...new Set(footprint.map((e) => e.table))].join(', ') : 'nothing';
  return {
    check: `no change but the task's (${asked}) and the site's consequences`,
    ok: bad.length === 0,
    detail: bad.length ? `unrequested: ${bad.slice(0, 3).map((b) => b.what).join('; ')}${bad.length > 3 ? ` and ${bad.length - 3} more` : ''}` : `${changes.length} change(s), all asked for`,
  };
}
