/**
 * The set-up a stage writes its outputs with, recorded in its output dir: `<dir>/_setup/<digest>.json`, one file
 * per set-up (never one shared file: many processes may write one run dir, and only a rename or an exclusive
 * create is atomic there). A stage compares its set-up with the records before its first paid call; another
 * set-up is refused, the differences named field by field (`old -> new`), unless the caller mixes on purpose.
 *
 * Fields come in two kinds: `fields` shape the outputs (models, prompt hash, max steps...) and make the digest;
 * `where` say where things ran (an endpoint, a base URL: a sandbox or vLLM started again gets a new port), are
 * recorded, and a change of them alone is named but not refused.
 * @module
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { SETUP_DIR, setupRecordFile } from './layout';
import type { FileStore } from './types';

/** A set-up field's value. */
export type SetupValue = string | number | boolean | null;

const SetupValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** `<dir>/_setup/<digest>.json`: one set-up a stage wrote the dir's outputs with. */
export const SetupRecordSchema = z.object({
  /** The stage: `propose`, `attempt`, `judge`. */
  stage: z.string().min(1),
  /** What in the dir the stage writes (`tasks.jsonl` for propose, `.` for the dir itself). */
  target: z.string().min(1),
  /** The fields that shape the outputs; their digest names the file. */
  fields: z.record(z.string(), SetupValueSchema),
  /** Where it ran (endpoint, base URL), as the first writer of this set-up saw it. */
  where: z.record(z.string(), SetupValueSchema),
  digest: z.string().min(1),
  /** When the first writer of this set-up started (ISO). */
  created: z.string(),
});
/** A set-up record. */
export type SetupRecord = z.infer<typeof SetupRecordSchema>;

/** A stage's set-up: what {@link claimSetup} compares and records. */
export interface StageSetup {
  readonly stage: string;
  readonly target: string;
  readonly fields: Readonly<Record<string, SetupValue>>;
  readonly where?: Readonly<Record<string, SetupValue>>;
}

/** One field that differs: the recorded value, and the new one. */
export interface SetupDifference {
  /** The field's name, such as `model` or `max_steps`. */
  readonly field: string;
  /** Its recorded value (`undefined`: the record has no such field). */
  readonly old: SetupValue | undefined;
  /** Its value in the new set-up. */
  readonly new: SetupValue | undefined;
}

/** A dir whose outputs were made with another set-up: refused before any paid call. */
export class SetupMismatchError extends Error {
  /** Always `SetupMismatchError`. */
  override readonly name = 'SetupMismatchError';
  /** What to do about it. */
  readonly hint: string;
  constructor(
    /** The dir refused. */
    readonly dir: string,
    /** The stage that refused it. */
    readonly stage: string,
    /** The differences from each recorded set-up, field by field. */
    readonly differences: readonly SetupDifference[],
    options: { concurrent?: boolean; mixOption?: string } = {},
  ) {
    const who = options.concurrent ? 'another writer started meanwhile with another set-up' : 'it was made with another set-up';
    const hint = `use a new dir, or mix set-ups on purpose with ${options.mixOption ?? 'mix: true (CLI --mix-setup)'}`;
    super(`${stage}: refused ${dir}: ${who}: ${formatDifferences(differences)}; ${hint}`);
    this.hint = hint;
  }
}

/** Options of {@link claimSetup}. */
export interface ClaimSetupOptions {
  readonly store: FileStore;
  /** The stage's output dir (the run dir, the judge dir, the tasks file's dir). */
  readonly dir: string;
  readonly setup: StageSetup;
  /** Go on with another set-up recorded; outputs then count per set-up. Default false. */
  readonly mix?: boolean;
}

/** What {@link claimSetup} found. */
export interface SetupClaim {
  /** This set-up's digest. */
  readonly digest: string;
  /** Every set-up of the stage recorded in the dir, this one included. */
  readonly records: readonly SetupRecord[];
  /** Whether other set-ups are recorded beside this one (allowed by `mix`). */
  readonly mixed: boolean;
  /** `where` fields that changed (an endpoint on another port): named, not refused. */
  readonly moved: readonly SetupDifference[];
}

/** The digest of a set-up: sha256 of its stage, target and fields in key order (16 hex digits). */
export function setupDigest(setup: Pick<StageSetup, 'stage' | 'target' | 'fields'>): string {
  const fields = Object.keys(setup.fields).sort().map((k) => [k, setup.fields[k]]);
  return createHash('sha256').update(JSON.stringify([setup.stage, setup.target, fields])).digest('hex').slice(0, 16);
}

/** The set-ups of `stage` (and `target`) recorded in `dir`, oldest first; unreadable files are left out. */
export async function readSetups(store: FileStore, dir: string, stage: string, target: string): Promise<SetupRecord[]> {
  const entries = (await store.list(path.posix.join(dir, SETUP_DIR))).filter((e) => !e.isDirectory && e.name.endsWith('.json'));
  const out: SetupRecord[] = [];
  for (const entry of entries) {
    const text = await store.readText(path.posix.join(dir, SETUP_DIR, entry.name)).catch(() => null);
    const parsed = text === null ? null : SetupRecordSchema.safeParse(safeJson(text));
    if (parsed?.success && parsed.data.stage === stage && parsed.data.target === target) out.push(parsed.data);
  }
  return out.sort((a, b) => a.created.localeCompare(b.created) || a.digest.localeCompare(b.digest));
}

/**
 * Compares `setup` with the set-ups recorded in `dir` without writing anything: throws a
 * {@link SetupMismatchError} when another is recorded and `mix` is not set. Returns the claim it would make.
 */
export async function compareSetup(options: ClaimSetupOptions): Promise<SetupClaim> {
  const { store, dir, setup } = options;
  const digest = setupDigest(setup);
  const records = await readSetups(store, dir, setup.stage, setup.target);
  const others = records.filter((r) => r.digest !== digest);
  if (others.length && !options.mix) throw new SetupMismatchError(dir, setup.stage, others.flatMap((r) => diffFields(r.fields, setup.fields)));
  const own = records.find((r) => r.digest === digest);
  const moved = own ? diffFields(own.where, setup.where ?? {}) : [];
  return { digest, records, mixed: others.length > 0, moved };
}

/**
 * Compares, then records `setup` in `dir` (`_setup/<digest>.json`, created exclusively: two writers of one
 * set-up make one file) and looks again: when a writer with another set-up recorded meanwhile, this one backs
 * out (its record removed if it made it) and is refused, so two set-ups never write one dir unless mixed.
 */
export async function claimSetup(options: ClaimSetupOptions): Promise<SetupClaim> {
  const { store, dir, setup } = options;
  const first = await compareSetup(options);
  const record: SetupRecord = {
    stage: setup.stage,
    target: setup.target,
    fields: { ...setup.fields },
    where: { ...(setup.where ?? {}) },
    digest: first.digest,
    created: new Date().toISOString(),
  };
  const file = setupRecordFile(dir, first.digest);
  const created = await store.createExclusive(file, `${JSON.stringify(record, null, 2)}\n`);
  const records = await readSetups(store, dir, setup.stage, setup.target);
  const others = records.filter((r) => r.digest !== first.digest);
  if (others.length && !options.mix) {
    if (created) await store.remove(file);
    throw new SetupMismatchError(dir, setup.stage, others.flatMap((r) => diffFields(r.fields, setup.fields)), { concurrent: true });
  }
  return { ...first, records, mixed: others.length > 0 };
}

/** The fields that differ between a recorded set-up and a new one, in key order. */
export function diffFields(old: Readonly<Record<string, SetupValue>>, next: Readonly<Record<string, SetupValue>>): SetupDifference[] {
  const keys = [...new Set([...Object.keys(old), ...Object.keys(next)])].sort();
  return keys.filter((k) => old[k] !== next[k]).map((k) => ({ field: k, old: old[k], new: next[k] }));
}

/** `max_steps: 15 -> 30; model: a -> b`. */
export function formatDifferences(differences: readonly SetupDifference[]): string {
  const show = (v: SetupValue | undefined) => (v === undefined ? '(none)' : JSON.stringify(v));
  return differences.map((d) => `${d.field}: ${show(d.old)} -> ${show(d.new)}`).join('; ');
}

/** sha256 of text, hex: a prompt's hash as set-ups record it. */
export function textSha256(...parts: string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
