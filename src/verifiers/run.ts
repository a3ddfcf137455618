/**
 * Writing verifiers for proposed tasks: for each task with a judged success, the model writes a claim from the task
 * and that episode's evidence; a claim is kept only when it parses and holds on that episode.
 * @module
 */
import path from 'node:path';
import PQueue from 'p-queue';
import { checkClaim } from '../claims/check';
import { loadStepEvidence } from '../claims/evidence';
import type { Claim } from '../claims/schema';
import { describeError } from '../core/errors';
import { readJsonFileIfExists, readJsonl, type JsonlIssue } from '../core/io';
import { assertPlainName } from '../core/names';
import { GradeInputsSchema, JudgeRecordSchema, TaskSchema, type Task } from '../core/schemas';
import { episodeIdOf, judgeRecordState } from '../files/episode-id';
import { episodeDirOf, episodeFile, judgeDirOf, judgeRecordFile, runFile, verifiersFileOf } from '../files/layout';
import { nodeStore } from '../files/node';
import type { FileStore } from '../files/types';
import { StageGuard, stopsStage, type CallFailure, type StageStoppedError } from '../models/failures';
import { addUsage, ZERO_USAGE, type LanguageModel, type Usage } from '../models/types';
import { siteContext } from '../sites/context';
import type { SiteSource } from '../sites/types';
import { appendWrittenVerifiers, mendTornEnd, readWrittenVerifiers, type WrittenVerifier } from './file';
import { SYSTEM_VERIFIER, parseClaimReply, verifierPrompt } from './prompt';
import { verifiersSetup } from './setup';
import { claimSetup } from '../files/setup';

/** Options of {@link runWriteVerifiers}. */
export interface WriteVerifiersOptions {
  /** The run dir: its episodes, and (unless `tasks` is given) its `tasks.jsonl`. */
  readonly run: string;
  /** The writer (the proposer model). */
  readonly llm: LanguageModel;
  /** The tasks file. Default `<run>/tasks.jsonl`. */
  readonly tasks?: string;
  /** Where the verifiers go. Default `verifiers.jsonl` beside the tasks file. */
  readonly out?: string;
  /** The judge records. Default `<run>_judge`. */
  readonly judgeDir?: string;
  /** The sites, for the site context in the prompt. Default none (the prompt shows the episode only). */
  readonly source?: SiteSource;
  /** The model name written into each line. Default `llm.modelId`. */
  readonly model?: string;
  /** Tasks worked on at once. Default 8. */
  readonly workers?: number;
  /** Replies asked for per task until one gives a claim that holds. Default 2. */
  readonly tries?: number;
  /** Stop after this many failed model calls before any succeeded. Default 5; 0 never stops for that. */
  readonly failFast?: number;
  /** Default {@link nodeStore}. */
  readonly store?: FileStore;
  /** Progress; the library never prints. */
  readonly onEvent?: (event: WriteVerifiersEvent) => void;
  /** Stops the run: no new task starts; lines already appended are kept. */
  readonly signal?: AbortSignal;
  /**
   * Append to a verifiers file written with another set-up (another writer model or prompt) on purpose. Default
   * false: such a file is refused before any model call, the differences named (`SetupMismatchError`).
   */
  readonly mixSetup?: boolean;
}

/** What became of one task's attempt. */
export type VerifierOutcome = 'written' | 'unparsed' | 'not-holding' | 'error';

/** Progress of {@link runWriteVerifiers}. */
export type WriteVerifiersEvent =
  | { readonly type: 'start'; readonly file: string; readonly tasks: number; readonly successes: number; readonly kept: number; readonly todo: number }
  | { readonly type: 'task'; readonly taskId: string; readonly outcome: VerifierOutcome; readonly detail: string; readonly done: number; readonly total: number }
  | { readonly type: 'warning'; readonly message: string }
  | { readonly type: 'call-failed'; readonly failure: CallFailure }
  | { readonly type: 'stopped'; readonly error: StageStoppedError };

/** A reply that gave no kept claim, for the summary. */
export interface RejectedReply {
  /** The task the reply was for. */
  readonly taskId: string;
  /** Why: the parse problem, or how the claim failed on its own episode. */
  readonly problem: string;
  /** The reply's first 200 characters (unparsed), or the claim as JSON (not holding). */
  readonly excerpt: string;
}

/** What {@link runWriteVerifiers} did. */
export interface WriteVerifiersResult {
  /** The verifiers file. */
  readonly file: string;
  /** Tasks in the tasks file without a verifier of their own (proposed tasks). */
  readonly tasks: number;
  /** Of those, tasks whose episode the judge found successful (record for the episode now in the run). */
  readonly successes: number;
  /** Tasks already in the file, kept as they are. */
  readonly kept: number;
  /** Verifiers written by this call. */
  readonly written: number;
  /** Replies that did not parse as a claim: how many, and the first few. */
  readonly unparsed: { readonly count: number; readonly examples: readonly RejectedReply[] };
  /** Claims that did not hold on their own episode (not kept): how many, and the first few. */
  readonly notHolding: { readonly count: number; readonly examples: readonly RejectedReply[] };
  /** Tasks left without a verifier by an error (unreadable evidence, failed calls); a rerun tries them again. */
  readonly errors: ReadonlyArray<{ readonly taskId: string; readonly error: string }>;
  /** Tasks with no verifier after this call although they had a judged success (unparsed, not holding, errors). */
  readonly missing: number;
  /** The writer's tokens in this call. */
  readonly usage: Usage;
  /** Failed model calls. */
  readonly callErrors: number;
  /** The first failed model calls, with their causes. */
  readonly failures: readonly CallFailure[];
}

const EXAMPLES = 5;

/**
 * Writes a verifier for every proposed task of a run with a judged success, into `verifiers.jsonl` beside the tasks
 * (format in docs/verifiers.md). Resumable: tasks already in the file are kept, each new verifier is appended as one line
 * as soon as it is checked. A claim is kept only when it parses ({@link ClaimSchema}) and holds on the episode it
 * was written from.
 * @example
 * const r = await runWriteVerifiers({ run: 'work/run', llm: gemini({ apiKey }), tasks: 'work/tasks.jsonl' });
 * console.log(`${r.written} written, ${r.notHolding.count} did not hold on their episode`);
 */
export async function runWriteVerifiers(options: WriteVerifiersOptions): Promise<WriteVerifiersResult> {
  const { run, llm } = options;
  if (typeof run !== 'string' || !run) throw new TypeError('runWriteVerifiers: options.run must be a run dir');
  if (!llm || typeof llm.complete !== 'function') throw new TypeError('runWriteVerifiers: options.llm must be a LanguageModel');
  const tries = options.tries ?? 2;
  if (!Number.isInteger(tries) || tries < 1) throw new TypeError('runWriteVerifiers: options.tries must be an integer of at least 1');
  const store = options.store ?? nodeStore();
  const emit = options.onEvent ?? (() => {});
  const tasksFile = options.tasks ?? runFile(run, 'tasks');
  const file = options.out ?? verifiersFileOf(tasksFile);
  const judgeDir = options.judgeDir ?? judgeDirOf(run);
  const model = options.model ?? llm.modelId;
  // Before any model call: a verifiers file written with another writer or prompt is refused (or mixed on purpose).
  await claimSetup({ store, dir: path.posix.dirname(file), setup: verifiersSetup({ out: file, model, provider: llm.provider, ...(llm.endpoint ? { endpoint: llm.endpoint } : {}) }), mix: options.mixSetup });
  const onIssue = (i: JsonlIssue) => emit({ type: 'warning', message: `${i.file}:${i.line}: ${i.problem}` });
  const proposed = (await readJsonl(store, tasksFile, TaskSchema, { lenient: true, onIssue })).filter((t) => t.verifier === null);
  const existing = await readWrittenVerifiers(store, file);
  for (const issue of existing.issues) onIssue(issue);
  const successes: Array<{ task: Task; episodeId: string }> = [];
  for (const task of uniqueTasks(proposed)) {
    const found = await judgedSuccess(store, run, judgeDir, task, (message) => emit({ type: 'warning', message }));
    if (found) successes.push({ task, episodeId: found });
  }
  const todo = successes.filter((s) => !existing.byTask.has(s.task.task_id));
  const kept = successes.length - todo.length;
  emit({ type: 'start', file, tasks: proposed.length, successes: successes.length, kept, todo: todo.length });
  if (todo.length) await mendTornEnd(store, file);

  const guard = new StageGuard('verifiers', { failFast: options.failFast, onFailure: (failure) => emit({ type: 'call-failed', failure }) });
  const unparsed: RejectedReply[] = [];
  const notHolding: RejectedReply[] = [];
  const errors: Array<{ taskId: string; error: string }> = [];
  let unparsedCount = 0;
  let notHoldingCount = 0;
  let written = 0;
  let done = 0;
  let usage = ZERO_USAGE;
  const contexts = new Map<string, Promise<string | undefined>>();
  const contextOf = (site: string) => {
    const source = options.source;
    if (!source) return Promise.resolve(undefined);
    if (!contexts.has(site)) contexts.set(site, siteContext(site, source).then((c) => c.text));
    return contexts.get(site)!;
  };
  const queue = new PQueue({ concurrency: Math.max(1, options.workers ?? 8) });
  const report = (taskId: string, outcome: VerifierOutcome, detail: string) => emit({ type: 'task', taskId, outcome, detail, done: ++done, total: todo.length });
  for (const { task, episodeId } of todo) {
    void queue.add(async () => {
      if (guard.stopped || options.signal?.aborted) return;
      const taskId = task.task_id;
      try {
        const dir = episodeDirOf(run, taskId);
        const inputs = await readJsonFileIfExists(store, episodeFile(dir, 'gradeInputs'), GradeInputsSchema);
        if (!inputs) throw new Error(`no ${episodeFile(dir, 'gradeInputs')}`);
        const evidence = await loadStepEvidence(store, dir);
        const prompt = verifierPrompt({ task, inputs, siteContext: await contextOf(task.site) });
        const wrapped = guard.wrap(llm, taskId);
        let last: { outcome: VerifierOutcome; detail: string } = { outcome: 'unparsed', detail: '' };
        for (let i = 0; i < tries; i++) {
          const reply = await wrapped.complete(prompt, { system: SYSTEM_VERIFIER, json: true, maxTokens: 4096, temperature: i === 0 ? 0 : 0.7 });
          usage = addUsage(usage, reply.usage);
          const parsed = parseClaimReply(reply.text);
          if ('problem' in parsed) {
            if (unparsedCount++ < EXAMPLES) unparsed.push({ taskId, problem: parsed.problem, excerpt: reply.text.slice(0, 200) });
            last = { outcome: 'unparsed', detail: parsed.problem };
            continue;
          }
          const result = checkClaim(parsed.claim, evidence);
          if (!result.holds) {
            if (notHoldingCount++ < EXAMPLES) notHolding.push({ taskId, problem: result.detail, excerpt: JSON.stringify(parsed.claim).slice(0, 300) });
            last = { outcome: 'not-holding', detail: result.detail };
            continue;
          }
          await appendWrittenVerifiers(store, file, [lineOf(task, parsed.claim, { run, episodeId, model, provider: llm.provider })]);
          written++;
          last = { outcome: 'written', detail: result.detail };
          break;
        }
        report(taskId, last.outcome, last.detail);
      } catch (error) {
        if (stopsStage(error)) {
          queue.clear();
          return;
        }
        errors.push({ taskId, error: describeError(error) });
        report(taskId, 'error', describeError(error));
      }
    });
  }
  await queue.onIdle();
  if (guard.stopped) {
    emit({ type: 'stopped', error: guard.stopped });
    throw guard.stopped;
  }
  options.signal?.throwIfAborted();
  return {
    file,
    tasks: proposed.length,
    successes: successes.length,
    kept,
    written,
    unparsed: { count: unparsedCount, examples: unparsed },
    notHolding: { count: notHoldingCount, examples: notHolding },
    errors,
    missing: todo.length - written,
    usage,
    callErrors: guard.failed,
    failures: guard.failures,
  };
}

function lineOf(task: Task, claim: Claim, from: { run: string; episodeId: string; model: string; provider: string }): WrittenVerifier {
  return {
    task_id: task.task_id,
    site: task.site,
    task_kind: task.task_kind,
    instruction: task.instruction,
    claim,
    written_from: { run: path.posix.normalize(from.run), episode_id: from.episodeId, model: from.model, provider: from.provider },
    written_at: new Date().toISOString(),
  };
}

// A task listed twice is considered once (its first line), as attempt does.
function uniqueTasks(tasks: readonly Task[]): Task[] {
  const seen = new Set<string>();
  return tasks.filter((t) => {
    assertPlainName(t.task_id, 'task id');
    if (seen.has(t.task_id)) return false;
    seen.add(t.task_id);
    return true;
  });
}

// The episode id when the judge's record says SUCCESS for the episode now in the run (a record of an earlier
// recording of it does not count; a record with no binding, written by the seed, does).
async function judgedSuccess(store: FileStore, run: string, judgeDir: string, task: Task, warn: (message: string) => void): Promise<string | null> {
  const file = judgeRecordFile(judgeDir, task.task_id);
  const record = await readJsonFileIfExists(store, file, JudgeRecordSchema).catch((error: unknown) => {
    warn(`${file}: not a judge record (${describeError(error)}): its task gets no verifier`);
    return null;
  });
  if (!record || record.predicted_label !== 1) return null;
  const episodeId = await episodeIdOf(store, episodeDirOf(run, task.task_id));
  if (episodeId === null) return null;
  const state = await judgeRecordState(store, judgeDir, task.task_id, episodeId);
  return state === 'current' || state === 'unbound' ? episodeId : null;
}
