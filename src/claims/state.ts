/**
 * A `state` claim decided at every step prefix: the rows of the table at the episode's start (`start_rows.json`)
 * with the session's changes up to the prefix applied, counted where `fields` match. Without start rows for the
 * table the claim cannot be decided: its value is unknown (`null`), which never holds.
 * @module
 */
import { norm } from './values';
import type { Change } from '../core/schemas';
import { changeOp, isRow, rowOf } from './changes';
import type { StepEvidence } from './evidence';
import type { ClaimValue, StateClaim } from './schema';
import type { Row, StartRows } from './start-rows';

const show = (v: unknown): string => JSON.stringify(v) ?? String(v);

// A row's identity across changes: its id when it has one, else its whole content.
const keyOf = (row: Row): string => ('id' in row ? `id:${show(row.id)}` : `row:${show(row)}`);

/** The rows of a table after the given changes (in order) are applied to its start rows. */
export function applyChanges(start: readonly Row[], changes: readonly Change[]): Row[] {
  const rows = new Map<string, Row>(start.map((r) => [keyOf(r), r]));
  for (const change of changes) {
    const op = changeOp(change);
    const before = isRow(change.before) ? change.before : null;
    if (op === 'delete') {
      if (before) rows.delete(keyOf(before));
      continue;
    }
    const after = rowOf(change, op);
    if (op === 'update' && before && keyOf(before) !== keyOf(after)) rows.delete(keyOf(before));
    const old = rows.get(keyOf(after));
    rows.set(keyOf(after), isRow(change.after) ? after : { ...old, ...after });
  }
  return [...rows.values()];
}

/** The table's start rows in `start`, matched by name as the change claims match tables; `undefined` when absent. */
export function startRowsOf(start: StepEvidence['start'] | undefined, table: string): readonly Row[] | undefined {
  if (!start) return undefined;
  const name = Object.keys(start).find((t) => norm(t) === norm(table));
  return name === undefined ? undefined : start[name];
}

/** The changes to `table` with their steps, in step order. */
function changesOf(ev: StepEvidence, table: string): Array<{ change: Change; step: number }> {
  const t = norm(table);
  return ev.changes
    .filter((c) => norm(String(c.change.table ?? c.change.collection ?? c.change.kind ?? '')) === t)
    .map((c, i) => ({ ...c, i }))
    .sort((a, b) => a.step - b.step || a.i - b.i);
}

/** A state claim's value at each prefix (see the module notes), and why, at the last one. */
export function stateTrace(
  claim: StateClaim,
  ev: StepEvidence,
  prefixes: readonly number[],
  match: (actual: unknown, want: ClaimValue) => boolean,
): { at: Array<boolean | null>; detail: string } {
  const want = claim.rows ?? 'some';
  const what = `state ${claim.table}${claim.fields ? ` ${show(claim.fields)}` : ''} rows ${show(want)}`;
  const start = startRowsOf(ev.start, claim.table);
  if (start === undefined) {
    const why = ev.start ? `the episode's start rows have no table ${claim.table}` : 'the episode recorded no start rows';
    return { at: prefixes.map(() => null), detail: `${what}: not checkable, ${why}` };
  }
  const changes = changesOf(ev, claim.table);
  const fields = Object.entries(claim.fields ?? {});
  let counted = 0;
  const at = prefixes.map((k) => {
    const rows = applyChanges(start, changes.filter((c) => c.step <= k).map((c) => c.change));
    counted = rows.filter((r) => fields.every(([f, v]) => match(r[f], v))).length;
    return want === 'none' ? counted === 0 : want === 'some' ? counted > 0 : counted === want;
  });
  return { at, detail: `${what}: ${counted} matching of ${start.length} at the start with ${changes.length} change(s)` };
}

/**
 * A state reader over an episode's start rows with its changes applied: the tables as they were at the end (or at
 * the cut, given the changes up to it). A table without start rows reads as the rows the changes left. What a
 * hand-written verifier's state checks read where the server's own tables are gone (a recorded episode).
 * @example
 * const ev = await loadStepEvidence(store, 'run/t1');
 * await verifyEpisode(verifier, { answer: ev.answer, changes: ev.changes.map((c) => c.change), state: replayState(ev.start ?? {}, ev.changes.map((c) => c.change)) });
 */
export function replayState(start: StartRows, changes: readonly Change[]): (table: string) => Record<string, unknown>[] {
  return (table) => {
    const t = norm(table);
    const mine = changes.filter((c) => norm(String(c.table ?? c.collection ?? c.kind ?? '')) === t);
    return applyChanges(startRowsOf(start, table) ?? [], mine).map((r) => ({ ...r }));
  };
}
