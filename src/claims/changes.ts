/**
 * A recorded data change read the same way by every claim: its operation (named, or told by which of before/after
 * it gives), the row it leaves and the fields it changed.
 * @module
 */
import type { Change } from '../core/schemas';
import { norm } from './values';

const show = (v: unknown): string => JSON.stringify(v) ?? String(v);

const OPS: Record<string, 'create' | 'update' | 'delete'> = {
  create: 'create', created: 'create', insert: 'create', inserted: 'create', add: 'create', added: 'create',
  update: 'update', updated: 'update', modify: 'update', modified: 'update', edit: 'update',
  delete: 'delete', deleted: 'delete', remove: 'delete', removed: 'delete',
};

/** The change's operation; a server that does not name it tells it by which of before/after it gives. */
export function changeOp(change: Change): 'create' | 'update' | 'delete' {
  const named = typeof change.op === 'string' ? OPS[norm(change.op)] : undefined;
  if (named) return named;
  if (!isRow(change.before)) return 'create';
  return isRow(change.after) ? 'update' : 'delete';
}

/** Whether a value is a row (a plain object). */
export function isRow(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The row a change leaves (the one it removed, for a delete); `changed` fills in for a server that gives no rows. */
export function rowOf(change: Change, op: string): Record<string, unknown> {
  const before = isRow(change.before) ? change.before : {};
  const after = isRow(change.after) ? change.after : {};
  if (op === 'delete') return before;
  if (isRow(change.after)) return after;
  const changed = isRow(change.changed) ? change.changed : {};
  const news = Object.fromEntries(Object.entries(changed).map(([k, v]) => [k, op === 'update' && Array.isArray(v) && v.length === 2 ? v[1] : v]));
  return { ...before, ...news };
}

/** The fields a change changed. */
export function changedFields(change: Change, op: string): Set<string> {
  if (isRow(change.changed)) return new Set(Object.keys(change.changed));
  const before = isRow(change.before) ? change.before : {};
  const after = isRow(change.after) ? change.after : {};
  if (op === 'delete') return new Set(Object.keys(before));
  return new Set(Object.keys(after).filter((k) => show(after[k]) !== show(before[k])));
}

