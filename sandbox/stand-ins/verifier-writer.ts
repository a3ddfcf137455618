/**
 * The stand-in verifier writer: a {@link LanguageModel} that answers the verifier prompt (`runWriteVerifiers`) from the
 * site's task bank: it finds the task by site and instruction and converts its hand-written verifier into a claim.
 * It is not a model. With `errorRate` it errs on that share of tasks (seeded, per task), half of them each way:
 * - too loose: a condition dropped (a field of a change, a parameter of a request, a part of an `all`; an answer
 *   claim becomes "any answer"), so the claim still holds on the episode but also passes wrong ones;
 * - not holding: a value changed so the claim fails on the episode it was written from (the writer rejects it).
 *
 * The conversion is the library's `verifierClaim`, not exact in set ways the measurement shows: positive state checks
 * become change claims (a row there from the start, untouched, shows no change), `noRow` a `state` claim of no such
 * row at the cut.
 * @module
 */
import { verifierClaim, type Claim, type CompleteOptions, type Completion, type LanguageModel } from 'miniweb-taskgen';
import { VerifierSchema } from 'miniweb-taskgen/schemas';
import { ZERO_USAGE } from 'miniweb-taskgen/toolkit';
import { defaultCatalog, type SiteCatalog } from '../catalog';
import { STAND_IN_PROVIDER, bankTask, unitHash } from './lookup';

/** Options of {@link sandboxVerifierWriter}. */
export interface SandboxVerifierWriterOptions {
  /** The share of tasks whose claim is wrong on purpose, 0 to 1. Default 0. */
  readonly errorRate?: number;
  /** Seeds which tasks err and how. Default 0. */
  readonly seed?: number | string;
  /** The sites' catalog, for the task bank. Default the bundled templates. */
  readonly catalog?: SiteCatalog;
  /** Default `stand-in-verifier-writer`. */
  readonly modelId?: string;
}

/** How the stand-in errs on a task, if it does. */
export type WriterError = 'none' | 'loose' | 'not-holding';

/** Which way the stand-in errs on a task (the same answer the writer gives it). */
export function writerErrorOf(taskId: string, options: Pick<SandboxVerifierWriterOptions, 'errorRate' | 'seed'> = {}): WriterError {
  const seed = String(options.seed ?? 0);
  if (unitHash(`${seed}:verifier:${taskId}`) >= (options.errorRate ?? 0)) return 'none';
  return unitHash(`${seed}:verifier-how:${taskId}`) < 0.5 ? 'loose' : 'not-holding';
}

/**
 * A stand-in verifier writer (provider `sandbox-stand-in`). Its reply is `{"claim": ...}`: the bank task's verifier as
 * a claim, erring as set. A prompt about a task the bank does not know, or whose verifier has no checks, gets a reply
 * with no claim (counted as a reply that does not parse), saying so.
 */
export function sandboxVerifierWriter(options: SandboxVerifierWriterOptions = {}): LanguageModel {
  const modelId = options.modelId ?? 'stand-in-verifier-writer';
  return {
    provider: STAND_IN_PROVIDER,
    modelId,
    async complete(prompt: string, call?: CompleteOptions): Promise<Completion> {
      call?.signal?.throwIfAborted();
      const head = /^TASK \((\w+)\) on site (\S+): (.*)$/m.exec(prompt);
      const reply = (value: unknown): Completion => ({ text: JSON.stringify(value), usage: ZERO_USAGE, model: modelId });
      if (!head) return reply({ note: 'stand-in verifier writer: the prompt has no TASK line' });
      const [, , site, instruction] = head;
      const task = bankTask(options.catalog ?? defaultCatalog(), site!, instruction!);
      const verifier = VerifierSchema.safeParse(task?.verifier);
      if (!task || !verifier.success) return reply({ note: `stand-in verifier writer: no known task on ${site} reads ${JSON.stringify(instruction)}` });
      const claim = verifierClaim(verifier.data);
      if (!claim) return reply({ note: `stand-in verifier writer: the task ${task.task_id} has a verifier with no checks` });
      // Keyed by the bank task, so the same task errs the same way whatever id a run gave it.
      const how = writerErrorOf(task.task_id, options);
      return reply({ claim: how === 'loose' ? loosen(claim) : how === 'not-holding' ? spoil(claim) : claim });
    },
  };
}

/** The claim with one condition dropped: the last check of an `all` (its `only` kept), else the last field or parameter; an answer claim accepts any answer. */
export function loosen(claim: Claim): Claim {
  if ('all' in claim) {
    // The footprint (`only`) stays: a loosened check still asks for no other change.
    const checks = claim.all.filter((c) => !('only' in c));
    const only = claim.all.filter((c) => 'only' in c);
    const kept = checks.length > 1 ? checks.slice(0, -1) : checks[0] ? [loosen(checks[0])] : [];
    return kept.length + only.length === 1 ? (kept[0] ?? only[0]!) : { all: [...kept, ...only] };
  }
  if ('answer' in claim) return { answer: { pattern: '\\S' } };
  if ('change' in claim) {
    const fields = Object.entries(claim.change.fields ?? {});
    return { change: { ...claim.change, fields: Object.fromEntries(fields.slice(0, -1)) } };
  }
  if ('request' in claim) {
    const params = Object.entries(claim.request.params ?? {});
    return { request: { ...claim.request, params: Object.fromEntries(params.slice(0, -1)) } };
  }
  return claim;
}

const SPOILED = 'zz-not-on-this-site';

/** The claim with a value changed, so it no longer holds where the original did. */
export function spoil(claim: Claim): Claim {
  if ('all' in claim) return { all: claim.all.map((c, i) => (i === 0 ? spoil(c) : c)) };
  if ('any' in claim) return { all: [spoil(claim.any[0]!)] };
  if ('not' in claim) return claim.not;
  if ('answer' in claim) return { answer: { contains: SPOILED } };
  if ('seen' in claim) return { seen: { contains: SPOILED } };
  if ('only' in claim) return { only: [] };
  if ('change' in claim) return { change: { ...claim.change, fields: { ...claim.change.fields, [firstKey(claim.change.fields) ?? 'id']: SPOILED } } };
  if ('state' in claim) return { state: { ...claim.state, fields: { ...claim.state.fields, [firstKey(claim.state.fields) ?? 'id']: SPOILED }, rows: 'some' } };
  return { request: { ...claim.request, path: `${typeof claim.request.path === 'string' ? claim.request.path : ''}/${SPOILED}` } };
}

function firstKey(record: Readonly<Record<string, unknown>> | undefined): string | undefined {
  return record ? Object.keys(record)[0] : undefined;
}
