/**
 * Relabeling a run's failed episodes (`runRelabel`): resumable per parent episode, sharded as `judge` shards,
 * every model call counted. The accepted relabels become `<run>_relabel/tasks.jsonl`, rebuilt from the parents'
 * records at the end of every pass, so the rows step picks them up beside the run's own tasks.
 * @module
 */
import path from 'node:path';
import PQueue from 'p-queue';
import { InputError, describeError } from '../core/errors';
import { readJsonFileIfExists } from '../core/io';
import { assertPlainName } from '../core/names';
import { JudgeRecordSchema, type Task } from '../core/schemas';
import { episodeIdOf } from '../files/episode-id';
import { judgeDirOf, judgeRecordFile, RELABEL_FILES, relabelDirOf, relabelParentFile, runFile } from '../files/layout';
import { nodeStore } from '../files/node';
import type { FileStore } from '../files/types';
import { claimSetup } from '../files/setup';
import { loadInstructions } from '../judge/run';
import { judgeSetup } from '../judge/setup';
import { StageGuard, stopsStage, type CallFailure, type StageStoppedError } from '../models/failures';
import { costOf, DEFAULT_PRICES, priceOf, type PriceTable } from '../models/prices';
import type { LanguageModel } from '../models/types';
import { shardTasks, type Shard } from '../core/shard';
import { siteContext } from '../sites/context';
import type { SiteSource } from '../sites/types';
import { readParent, relabeledTask, relabelEpisode } from './episode';
import { RelabelParentSchema, type RelabelParent, type RelabelStatus } from './record';
import { RELABEL_DEFAULTS, relabelSetup } from './setup';

/** Options of {@link runRelabel}. */
export interface RelabelOptions {
  /** The run dir; its episodes must be judged (`<run>_judge/`). */
  readonly run: string;
  /** The relabeler (the proposer model). */
  readonly llm: LanguageModel;
  /** The judge of the relabeled episodes: the seed's judge prompt, as `runJudge` uses it. */
  readonly judge: LanguageModel;
  /** The most tasks written per episode. Default 3. */
  readonly k?: number;
  /** Relabel every judged episode, successes too. Default: only the episodes judged not successful. */
  readonly all?: boolean;
  /** Where the relabeled episodes go. Default `<run>_relabel` (its judge records in `<run>_relabel_judge`). */
  readonly out?: string;
  /** The sites' source, for the site context in the prompt. Without it the prompt has none. */
  readonly source?: SiteSource;
  /** Screenshots sent to the relabeler per episode. Default 4. */
  readonly screenshots?: number;
  /** Episodes relabeled at once. Default 8. */
  readonly workers?: number;
  /** Tries per call for a reply that does not parse or a judgment without a verdict. Default 3. */
  readonly tries?: number;
  /** Stop after this many failed model calls before any succeeded. Default 5; 0 never stops for that. */
  readonly failFast?: number;
  /** Only this shard's episodes (positions `[index::count]` of the run's task list, as `judge`). Default all. */
  readonly shard?: Shard;
  /** Prices for the cost figures. Default {@link DEFAULT_PRICES}. */
  readonly prices?: PriceTable;
  /** Default the local disk. */
  readonly store?: FileStore;
  /** Receives progress. */
  readonly onEvent?: (event: RelabelEvent) => void;
  /**
   * Relabel into a dir made with another set-up (another relabeler, judge, `k` or prompt) on purpose. Default
   * false: such a dir is refused before any model call, the differences named (`SetupMismatchError`).
   */
  readonly mixSetup?: boolean;
}

/** The figures of a relabel pass (over every parent with a record, this pass's and earlier ones'). */
export interface RelabelSummary {
  /** Episodes eligible (judged, not successful unless `all`), in this shard. */
  readonly episodes: number;
  /** Of which relabeled on this pass. */
  readonly relabeled: number;
  /** Of which found done by an earlier pass (or another shard). */
  readonly resumed: number;
  /** Episodes left without a judge record (not eligible until judged). */
  readonly unjudged: number;
  /** Tasks written by the relabeler. */
  readonly proposed: number;
  /** What became of them, by status. */
  readonly statuses: Readonly<Record<RelabelStatus, number>>;
  /** Claim-checked, judged successes: candidates for rows. */
  readonly accepted: number;
  /** Their rows. */
  readonly acceptedRows: number;
  /** Episodes that failed, with why (a rerun tries them again). */
  readonly errors: number;
  /** Tokens and cost of the relabeler and the judge, at the prices given. */
  readonly tokens: { readonly proposer: RelabelTokens; readonly judge: RelabelTokens };
  /** Proposer and judge cost in USD; `null` for a model without a price. */
  readonly cost: number | null;
  /** Cost per accepted relabel; `null` when none was accepted or a model has no price. */
  readonly costPerAccepted: number | null;
}

/** Calls and tokens of one model. */
export interface RelabelTokens {
  /** The model's name. */
  readonly model: string;
  /** Its calls. */
  readonly calls: number;
  /** Input tokens, as the provider reported them. */
  readonly inputTokens: number;
  /** Output tokens. */
  readonly outputTokens: number;
}

/** What {@link runRelabel} reports. */
export type RelabelEvent =
  | { readonly type: 'start'; readonly run: string; readonly out: string; readonly episodes: number; readonly resumed: number }
  | { readonly type: 'episode'; readonly taskId: string; readonly accepted: number; readonly proposed: number; readonly done: number; readonly total: number }
  | { readonly type: 'error'; readonly taskId: string; readonly error: string; readonly done: number; readonly total: number }
  | { readonly type: 'call-failed'; readonly failure: CallFailure }
  | { readonly type: 'stopped'; readonly error: StageStoppedError }
  | { readonly type: 'done'; readonly summary: RelabelSummary };

/** What {@link runRelabel} returns. */
export interface RelabelResult {
  /** The figures. */
  readonly summary: RelabelSummary;
  /** The relabel dir. */
  readonly out: string;
  /** Every parent's record, in the run's task order. */
  readonly parents: readonly RelabelParent[];
  /** The accepted tasks (`<out>/tasks.jsonl`), in the run's task order. */
  readonly tasks: readonly Task[];
  /** Episodes that failed, with why. */
  readonly errors: ReadonlyArray<{ readonly taskId: string; readonly error: string }>;
  /** The first failed model calls. */
  readonly failures: readonly CallFailure[];
}

/**
 * Relabels a run's episodes judged not successful (or all, with `all`): for each, the relabeler writes up to `k`
 * tasks the episode did complete, each with a claim; a claim that holds cuts the episode at its first step (an
 * information task at its answer), and the seed's judge judges the cut episode against the new instruction. The
 * judged successes go to `<run>_relabel/` as episodes of new tasks (`origin: "relabel"`), which `runRows` selects
 * beside the run's own. Resumable: a parent whose record (`_parents/<task_id>.json`) belongs to its current
 * recording is not relabeled again.
 * @example
 * const { summary } = await runRelabel({ run: 'runs/r1', llm: gemini({ apiKey }), judge: gemini({ apiKey }) });
 */
export async function runRelabel(options: RelabelOptions): Promise<RelabelResult> {
  const store = options.store ?? nodeStore();
  const { run } = options;
  const k = options.k ?? RELABEL_DEFAULTS.k;
  if (!Number.isInteger(k) || k < 1) throw new InputError({ file: '(options)', field: 'k' }, `must be a whole number >= 1, got ${k}`);
  if (!(await store.exists(run))) throw new InputError({ file: run }, 'no such run dir');
  const judgeDir = judgeDirOf(run);
  if (!(await store.exists(judgeDir))) throw new InputError({ file: judgeDir }, 'no such judge dir: judge the run first');
  const out = options.out ?? relabelDirOf(run);
  const instructions = await loadInstructions(run, { store });
  const order = [...instructions.keys()];
  const ids = new Set((await store.list(run)).filter((e) => e.isDirectory && instructions.has(e.name)).map((e) => e.name));
  const mine = shardTasks(order, options.shard).filter((id) => ids.has(id));
  const eligible: string[] = [];
  let unjudged = 0;
  for (const id of mine) {
    assertPlainName(id, 'task id');
    const record = await readJsonFileIfExists(store, judgeRecordFile(judgeDir, id), JudgeRecordSchema);
    if (record === null || !record.verdict) unjudged++;
    else if (options.all || record.predicted_label !== 1) eligible.push(id);
  }
  // Before any model call: a dir made with another relabeler or judge is refused (or mixed on purpose).
  const screenshots = options.screenshots ?? RELABEL_DEFAULTS.screenshots;
  await claimSetup({ store, dir: out, setup: relabelSetup({ llm: options.llm, judge: options.judge, k, screenshots }), mix: options.mixSetup });
  const judged = await claimSetup({ store, dir: judgeDirOf(out), setup: judgeSetup(options.judge, options.judge.modelId, undefined), mix: options.mixSetup });
  await store.mkdir(path.posix.join(out, RELABEL_FILES.parents));
  const done = new Map<string, RelabelParent>();
  for (const id of eligible) {
    const record = await readJsonFileIfExists(store, relabelParentFile(out, id), RelabelParentSchema).catch(() => null);
    if (record && record.episode_id === (await episodeIdOf(store, path.posix.join(run, id)))) done.set(id, record);
  }
  options.onEvent?.({ type: 'start', run, out, episodes: eligible.length, resumed: done.size });

  const contexts = new Map<string, Promise<{ name: string; home: string; text: string }>>();
  const context = (site: string) => {
    let c = contexts.get(site);
    if (!c) {
      c = options.source ? siteContext(site, options.source).then((x) => ({ name: x.name, home: x.home, text: x.text })) : Promise.resolve({ name: site, home: `/sites/${site}/`, text: '' });
      contexts.set(site, c);
    }
    return c;
  };
  const guard = new StageGuard('relabel', { failFast: options.failFast, onFailure: (failure) => options.onEvent?.({ type: 'call-failed', failure }) });
  const queue = new PQueue({ concurrency: Math.max(1, options.workers ?? 8) });
  const errors: Array<{ taskId: string; error: string }> = [];
  const todo = eligible.filter((id) => !done.has(id));
  let finished = 0;
  let relabeled = 0;
  for (const taskId of todo) {
    void queue.add(async () => {
      if (guard.stopped) return;
      try {
        const { record, complete } = await relabelEpisode({
          store, run, taskId, relabelDir: out, context,
          llm: guard.wrap(options.llm, taskId), judge: guard.wrap(options.judge, taskId),
          k, tries: options.tries ?? 3, screenshots, judgeSetup: judged.digest,
        });
        if (!complete) throw new Error('a relabeled episode got no verdict from the judge: relabeled again on the next pass');
        await store.writeAtomic(relabelParentFile(out, taskId), `${JSON.stringify(record, null, 1)}\n`);
        done.set(taskId, record);
        relabeled++;
        const accepted = record.proposals.filter((p) => p.status === 'accepted').length;
        options.onEvent?.({ type: 'episode', taskId, accepted, proposed: record.proposals.length, done: ++finished, total: todo.length });
      } catch (error) {
        if (stopsStage(error)) {
          queue.clear();
          return;
        }
        errors.push({ taskId, error: describeError(error) });
        options.onEvent?.({ type: 'error', taskId, error: describeError(error), done: ++finished, total: todo.length });
      }
    });
  }
  await queue.onIdle();
  if (guard.stopped) {
    options.onEvent?.({ type: 'stopped', error: guard.stopped });
    throw guard.stopped;
  }
  // tasks.jsonl from every parent's record on disk (other shards' too), in the run's task order.
  const parents = await allParents(store, out, order, done);
  const tasks = await acceptedTasks(store, run, parents);
  await store.writeAtomic(runFile(out, 'tasks'), tasks.map((t) => `${JSON.stringify(t)}\n`).join(''));
  const mineParents = eligible.map((id) => done.get(id)).filter((r): r is RelabelParent => r !== undefined);
  const summary = summarize(mineParents, { episodes: eligible.length, relabeled, resumed: eligible.length - todo.length, unjudged, errors: errors.length, prices: options.prices ?? DEFAULT_PRICES, llm: options.llm, judge: options.judge });
  options.onEvent?.({ type: 'done', summary });
  return { summary, out, parents, tasks, errors, failures: guard.failures };
}

async function allParents(store: FileStore, out: string, order: readonly string[], done: ReadonlyMap<string, RelabelParent>): Promise<RelabelParent[]> {
  const parents: RelabelParent[] = [];
  const names = new Set((await store.list(path.posix.join(out, RELABEL_FILES.parents))).map((e) => e.name));
  for (const id of order) {
    const mine = done.get(id);
    if (mine) parents.push(mine);
    else if (names.has(`${id}.json`)) {
      const record = await readJsonFileIfExists(store, relabelParentFile(out, id), RelabelParentSchema).catch(() => null);
      if (record) parents.push(record);
    }
  }
  return parents;
}

// The accepted relabels as task lines (from the parent episode's task, as the cut episode was made).
async function acceptedTasks(store: FileStore, run: string, parents: readonly RelabelParent[]): Promise<Task[]> {
  const tasks: Task[] = [];
  for (const parent of parents) {
    const accepted = parent.proposals.filter((p) => p.status === 'accepted');
    if (accepted.length === 0) continue;
    const { episode } = await readParent(store, path.posix.join(run, parent.parent_task_id));
    for (const p of accepted) tasks.push(relabeledTask(episode.task, p, p.prefix_steps!));
  }
  return tasks;
}

function summarize(
  parents: readonly RelabelParent[],
  c: { episodes: number; relabeled: number; resumed: number; unjudged: number; errors: number; prices: PriceTable; llm: LanguageModel; judge: LanguageModel },
): RelabelSummary {
  const statuses = { accepted: 0, 'judged-failure': 0, 'claim-failed': 0, vacuous: 0, 'bad-claim': 0, 'no-answer': 0, unrenderable: 0 } as Record<RelabelStatus, number>;
  let acceptedRows = 0;
  for (const p of parents.flatMap((x) => x.proposals)) {
    statuses[p.status]++;
    if (p.status === 'accepted') acceptedRows += p.rows ?? 0;
  }
  const figures = (who: 'proposer' | 'judge', llm: LanguageModel): RelabelTokens & { cost: number | null } => {
    const lines = parents.map((x) => x[who]);
    const inputTokens = lines.reduce((n, l) => n + l.input_tokens, 0);
    const outputTokens = lines.reduce((n, l) => n + l.output_tokens, 0);
    const price = priceOf(llm.modelId, llm.provider, c.prices);
    return { model: llm.modelId, calls: lines.reduce((n, l) => n + l.calls, 0), inputTokens, outputTokens, cost: price ? costOf(price, inputTokens, outputTokens) : null };
  };
  const { cost: pc, ...proposer } = figures('proposer', c.llm);
  const { cost: jc, ...judge } = figures('judge', c.judge);
  const cost = pc === null || jc === null ? null : pc + jc;
  const accepted = statuses.accepted;
  return {
    episodes: c.episodes,
    relabeled: c.relabeled,
    resumed: c.resumed,
    unjudged: c.unjudged,
    proposed: parents.reduce((n, p) => n + p.proposals.length, 0),
    statuses,
    accepted,
    acceptedRows,
    errors: c.errors,
    tokens: { proposer, judge },
    cost,
    costPerAccepted: cost === null || accepted === 0 ? null : cost / accepted,
  };
}
