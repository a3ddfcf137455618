/**
 * Outputs counted per set-up: what summaries, the report and the dataset card show when a dir holds the outputs
 * of more than one set-up (mixed on purpose), so no figure mixes two models without saying so. Each output names
 * the set-up that made it (`setup` in `episode.json`, in a judge record's binding); outputs that name none, such
 * as the seed's or an earlier taskgen's, are counted apart and never credited to a recorded set-up.
 * @module
 */
import type { SetupRecord, SetupValue } from './setup';

/** The outputs of one set-up, counted. */
export interface SetupCount {
  /** The set-up's digest (`_setup/<digest>.json`); `null` for outputs that name no set-up. */
  readonly digest: string | null;
  /** Its fields as recorded (model, max steps, prompt hash...); `null` when no record of it was found. */
  readonly fields: Readonly<Record<string, SetupValue>> | null;
  /** Outputs made with it. */
  readonly count: number;
  /** Of them, those that succeeded (a judge record: SUCCESS; an episode: its verifier passed). */
  readonly success: number;
}

/** One output: the set-up that made it, and whether it succeeded. */
export interface SetupItem {
  readonly setup: string | null;
  readonly success: boolean;
}

/**
 * Counts `items` per set-up: recorded set-ups first, in the order recorded (those with no output left out), then
 * digests with no record, then outputs that name no set-up.
 */
export function countBySetup(records: readonly SetupRecord[], items: Iterable<SetupItem>): SetupCount[] {
  const counts = new Map<string | null, { count: number; success: number }>();
  for (const item of items) {
    const c = counts.get(item.setup) ?? { count: 0, success: 0 };
    c.count++;
    if (item.success) c.success++;
    counts.set(item.setup, c);
  }
  const known = new Map(records.map((r) => [r.digest, r.fields]));
  const order = [
    ...records.map((r) => r.digest).filter((d) => counts.has(d)),
    ...[...counts.keys()].filter((d): d is string => d !== null && !known.has(d)).sort(),
    ...(counts.has(null) ? [null] : []),
  ];
  return order.map((digest) => ({ digest, fields: digest === null ? null : (known.get(digest) ?? null), ...counts.get(digest)! }));
}

/** `a1b2c3d4e5f60718 (model gemini-3.5-flash, max_steps 15)`: a set-up in words, its chosen fields only. */
export function describeSetup(count: Pick<SetupCount, 'digest' | 'fields'>, keys: readonly string[] = ['model', 'variant', 'max_steps']): string {
  if (count.digest === null) return 'no set-up recorded (written by the seed or an earlier taskgen)';
  if (count.fields === null) return `${count.digest} (its _setup record is missing)`;
  const shown = keys.filter((k) => k in count.fields!).map((k) => `${k} ${String(count.fields![k])}`);
  return shown.length ? `${count.digest} (${shown.join(', ')})` : count.digest;
}

/**
 * Lines for a summary when outputs of more than one set-up are counted (`[]` otherwise):
 * `judge set-up a1b2c3d4e5f60718 (model judge-a, variant seed): 12 records, 9 success`.
 */
export function formatSetupCounts(stage: string, counts: readonly SetupCount[], what: { noun: string; success: string }): string[] {
  if (counts.length < 2) return [];
  return counts.map((c) => `${stage} set-up ${describeSetup(c)}: ${c.count} ${what.noun}, ${c.success} ${what.success}`);
}
