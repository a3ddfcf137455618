/**
 * Writing verifiers for proposed tasks: for each task with a judged success, the model writes a claim from the task
 * and that episode's evidence; a claim is kept only when it parses and holds on that episode.
 * @module
 */
import path from 'node:path';
import PQueue from 'p-queue';
import { loadStepEvidence, type StepEvidence } from '../claims/evidence';
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
import { DEFAULT_MAX_LOOSE_SHARE, vetClaim, type Looseness } from './vet';
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
  /** Replies asked for per task until one gives a claim that holds, proves something and is not loose. Default 2. */
  readonly tries?: number;
  /**
   * The largest share of the run's other tasks' episodes of its site a kept verifier may pass (its looseness,
   * recorded with it). Default {@link DEFAULT_MAX_LOOSE_SHARE}.
   */
  readonly maxLooseShare?: number;
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

/**
 * What became of one task's attempt: `vacuous`, the last claim held on an episode that did nothing or at its start;
 * `loose`, it passed more than `maxLooseShare` of the site's other tasks' episodes, or an information task's claim
 * did not pin its answer.
 */
export type VerifierOutcome = 'written' | 'unparsed' | 'not-holding' | 'vacuous' | 'loose' | 'error';

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
  /** Claims that held on an episode that did nothing, or at their episode's start (not kept). */
  readonly vacuous: { readonly count: number; readonly examples: readonly RejectedReply[] };
  /** Claims too loose: passing too many other tasks' episodes, or an information claim not pinning its answer (not kept). */
  readonly loose: { readonly count: number; readonly examples: readonly RejectedReply[] };
  /** The verifiers written by this call, run on their site's other tasks' episodes: episodes, and passes. */
  readonly looseness: Looseness;
  /** Tasks left without a verifier by an error (unreadable evidence, failed calls); a rerun tries them again. */
  readonly errors: ReadonlyArray<{ readonly taskId: string; readonly error: string }>;
  /** Tasks with no verifier after this call although they had a judged success (unparsed, rejected, errors). */
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
 * as soon as it is checked. A claim is kept only when it parses ({@link ClaimSchema}), holds on the episode it
 * was written from, proves something (false on an episode that did nothing and at the episode's start), pins an
 * information task's answer, and passes at most `maxLooseShare` of the run's other tasks' episodes of its site.
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
  const maxLooseShare = options.maxLooseShare ?? DEFAULT_MAX_LOOSE_SHARE;
  if (!(maxLooseShare >= 0 && maxLooseShare <= 1)) throw new TypeError('runWriteVerifiers: options.maxLooseShare must be a number from 0 to 1');
  const store = options.store ?? nodeStore();
  const emit = options.onEvent ?? (() => {});
  const tasksFile = options.tasks ?? runFile(run, 'tasks');
  const file = options.out ?? verifiersFileOf(tasksFile);
  const judgeDir = options.judgeDir ?? judgeDirOf(run);
  const model = options.model ?? llm.modelId;
  // Before any model call: a verifiers file written with another writer or prompt is refused (or mixed on purpose).
  await claimSetup({ store, dir: path.posix.dirname(file), setup: verifiersSetup({ out: file, model, provider: llm.provider, ...(llm.endpoint ? { endpoint: llm.endpoint } : {}) }), mix: options.mixSetup });
  const onIssue = (i: JsonlIssue) => emit({ type: 'warning', message: `${i.file}:${i.line}: ${i.problem}` });
  const allTasks = await readJsonl(store, tasksFile, TaskSchema, { lenient: true, onIssue });
  const proposed = allTasks.filter((t) => t.verifier === null);
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
  const rejected = { vacuous: { count: 0, examples: [] as RejectedReply[] }, loose: { count: 0, examples: [] as RejectedReply[] } };
  let looseness: Looseness = { episodes: 0, passes: 0 };
  const othersOf = siteEpisodes(store, run, uniqueTasks(allTasks));
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
          const vetted = vetClaim({ claim: parsed.claim, kind: task.task_kind, instruction: task.instruction, evidence, others: await othersOf(task), maxLooseShare });
          if (vetted.outcome !== 'written') {
            const excerpt = JSON.stringify(parsed.claim).slice(0, 300);
            if (vetted.outcome === 'not-holding') {
              if (notHoldingCount++ < EXAMPLES) notHolding.push({ taskId, problem: vetted.detail, excerpt });
            } else if (rejected[vetted.outcome].count++ < EXAMPLES) rejected[vetted.outcome].examples.push({ taskId, problem: vetted.detail, excerpt });
            last = { outcome: vetted.outcome, detail: vetted.detail };
            continue;
          }
          await appendWrittenVerifiers(store, file, [lineOf(task, parsed.claim, vetted.looseness, { run, episodeId, model, provider: llm.provider })]);
          looseness = { episodes: looseness.episodes + vetted.looseness.episodes, passes: looseness.passes + vetted.looseness.passes };
          written++;
          last = { outcome: 'written', detail: vetted.detail };
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
    vacuous: rejected.vacuous,
    loose: rejected.loose,
    looseness,
    errors,
    missing: todo.length - written,
    usage,
    callErrors: guard.failed,
    failures: guard.failures,
  };
}

function lineOf(task: Task, claim: Claim, looseness: Looseness, from: { run: string; episodeId: string; model: string; provider: string }): WrittenVerifier {
  return {
    looseness,
    task_id: task.task_id,
    site: task.site,
    task_kind: task.task_kind,
    instruction: task.instruction,
    claim,
    written_from: { run: path.posix.normalize(from.run), episode_id: from.episodeId, model: from.model, provider: from.provider },
    written_at: new Date().toISOString(),
  };
}

// The evidence of the run's episodes of other tasks of a task's site (read once per site; an episode not recorded,
// or unreadable, is left out).
function siteEpisodes(store: FileStore, run: string, tasks: readonly Task[]): (task: Task) => Promise<StepEvidence[]> {
  const bySite = new Map<string, Promise<Array<{ taskId: string; evidence: StepEvidence }>>>();
  return async (task) => {
    let got = bySite.get(task.site);
    if (!got) {
      got = Promise.all(
        tasks.filter((t) => t.site === task.site).map(async (t) => {
          const evidence = await loadStepEvidence(store, episodeDirOf(run, t.task_id)).catch(() => null);
          return evidence ? [{ taskId: t.task_id, evidence }] : [];
        }),
      ).then((lists) => lists.flat());
      bySite.set(task.site, got);
    }
    return (await got).filter((e) => e.taskId !== task.task_id).map((e) => e.evidence);
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
