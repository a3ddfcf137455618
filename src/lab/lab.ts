/**
 * The judge lab: every episode of a run with verifier results judged by each judge variant (records per variant
 * under `<run>_judge/lab/<variant>/`, resumable, the seed's `<run>_judge` untouched), then each variant measured
 * against the verifiers and against a baseline variant on the same episodes.
 * @module
 */
import path from 'node:path';
import { syncRunFiles } from '../attempt/run-dir';
import { InputError } from '../core/errors';
import { nodeStore } from '../files/node';
import type { FileStore } from '../files/types';
import { runJudge, labDirOf, loadInstructions, variantJudgeDir, type JudgeEvent, type JudgeResult } from '../judge/run';
import { resolveVariant, type JudgeVariant, type PresetName, PRESET_NAMES } from '../judge/variant';
import { costOf, DEFAULT_PRICES, priceOf, type PriceTable } from '../models/prices';
import type { LanguageModel } from '../models/types';
import { defaultReportDir } from '../report/write';
import { pyPathStr } from '../core/py/path';
import { JUDGE_FILES } from '../files/layout';
import { pyRound } from '../core/py/round';
import { compareCodePoints } from '../core/py/text';
import type { JudgeRecord, TaskRef } from '../core/schemas';
import { readVerifierResults, scoreJudge, wilsonInterval, type JudgePair } from '../validate';
import { renderLabHtml } from './html';
import { comparePaired } from './stats';
import type { LabComparison, LabDisagreement, LabReport, LabScore, LabUsage, LabVariant } from './types';
import { checkEntry } from '../core/check';

/** What {@link runJudgeLab} reports while it works. */
export type LabEvent =
  | { readonly type: 'variant'; readonly variant: JudgeVariant; readonly index: number; readonly total: number }
  | { readonly type: 'judge'; readonly variant: string; readonly event: JudgeEvent }
  | { readonly type: 'done'; readonly report: LabReport; readonly json: string; readonly html: string };

/** Options of {@link runJudgeLab}. */
export interface JudgeLabOptions {
  /** The human-task run dir: episodes, and the verifiers' `results_regraded.jsonl` or `results.jsonl`. */
  readonly run: string;
  /** The variants: preset names or resolved variants (see `resolveVariant`). Default the four presets. */
  readonly variants?: ReadonlyArray<PresetName | JudgeVariant>;
  /** The variant the others are compared with. Default `seed` (or the first variant when there is no `seed`). */
  readonly baseline?: string;
  /** The judge model of variants that name none. */
  readonly llm?: LanguageModel;
  /** The model for each variant (a variant's own `model` is for this function to honour). Default `llm`. */
  readonly llmFor?: (variant: JudgeVariant) => LanguageModel;
  /** Episodes judged at once per variant. Default 16. */
  readonly workers?: number;
  /** Attempts at a verdict per vote. Default 3. */
  readonly tries?: number;
  /** Another tasks file (see `loadInstructions`). */
  readonly tasks?: string;
  /** Human-task annotations (see `loadInstructions`). */
  readonly humanTasks?: readonly TaskRef[];
  /** Prices merged over the defaults (USD per million tokens), for the cost. */
  readonly prices?: PriceTable;
  /** Default the local disk. */
  readonly store?: FileStore;
  /** Receives each variant as it starts, its judge events, and the finished report. */
  readonly onEvent?: (event: LabEvent) => void;
}

/** What {@link runJudgeLab} returns. */
export interface JudgeLabResult {
  /** The figures, as written to `lab.json`. */
  readonly report: LabReport;
  /** `<run>_judge/lab/lab.json` and `lab.html`. */
  readonly json: string;
  /** `<run>_judge/lab/lab.html`: the figures as a page. */
  readonly html: string;
  /** Each variant's judge pass, by name. */
  readonly judged: ReadonlyMap<string, JudgeResult>;
}

/**
 * Judges every episode of `run` with each variant and measures them: per variant agreement, precision and recall
 * with 95% Wilson intervals, yield, calls, tokens and cost, per site and task kind; against the baseline the
 * paired difference with an exact McNemar test; and the episodes where the variants disagree. Writes `lab.json`
 * and `lab.html` into `<run>_judge/lab/`. Needs the run's `results_regraded.jsonl` or `results.jsonl`.
 * @example
 * const { report } = await runJudgeLab({ run: 'runs/human', llm: gemini(), variants: ['seed', 'no-evidence'] });
 */
export async function runJudgeLab(options: JudgeLabOptions): Promise<JudgeLabResult> {
  checkEntry('runJudgeLab', options);
  const { run } = options;
  const store = options.store ?? nodeStore();
  const variants = await Promise.all((options.variants ?? PRESET_NAMES).map((v) => (typeof v === 'string' ? resolveVariant(v) : v)));
  const names = variants.map((v) => v.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new Error(`judge variant ${dup} is given twice`);
  const baseline = options.baseline ?? (names.includes('seed') ? 'seed' : names[0]);
  if (baseline === undefined || !names.includes(baseline)) throw new Error(`the baseline ${String(baseline)} is not among the variants (${names.join(', ')})`);
  const warn = (message: string) => options.onEvent?.({ type: 'judge', variant: baseline, event: { type: 'warning', message } });
  await syncRunFiles(store, run, warn); // the whole run's results, however many processes attempted it (as validate)
  const results = await readVerifierResults(store, run, { onEvent: (e) => e.type === 'warning' && warn(e.message) });
  if (results.size === 0) throw new InputError({ file: run }, 'the judge lab needs verifier results (results_regraded.jsonl or results.jsonl)');
  const tasks = await loadInstructions(run, { tasks: options.tasks, humanTasks: options.humanTasks, store });

  const judged = new Map<string, JudgeResult>();
  for (const [index, variant] of variants.entries()) {
    options.onEvent?.({ type: 'variant', variant, index, total: variants.length });
    const llm = options.llmFor?.(variant) ?? options.llm;
    if (!llm) throw new Error(`no judge model for variant ${variant.name}: give llm or llmFor`);
    const bare = (name: string) => name.replace(/^models\//, '');
    if (variant.model && bare(variant.model) !== bare(llm.modelId)) {
      throw new Error(`judge variant ${variant.name} names the model ${variant.model}, but was given ${llm.modelId}: give llmFor a model per variant`);
    }
    const judgeDir = variantJudgeDir(run, variant.name);
    await pinVariant(store, judgeDir, { ...variant, model: llm.modelId });
    judged.set(
      variant.name,
      await runJudge({
        run,
        llm,
        model: llm.modelId,
        variant,
        judgeDir,
        extraFields: true,
        workers: options.workers,
        tries: options.tries,
        tasks: options.tasks,
        humanTasks: options.humanTasks,
        store,
        onEvent: (event) => options.onEvent?.({ type: 'judge', variant: variant.name, event }),
      }),
    );
  }

  const prices = { ...DEFAULT_PRICES, ...options.prices };
  const recordsOf = (name: string) => new Map(judged.get(name)!.records.filter((r) => r.verdict).map((r) => [r.task_id, r]));
  const byVariant = new Map(names.map((n) => [n, recordsOf(n)]));
  const task = (id: string) => tasks.get(id);
  const labDir = labDirOf(run);
  const report: LabReport = {
    run: pyPathStr(run),
    baseline,
    episodes: results.size,
    variants: variants.map((v) => variantFigures(v, byVariant.get(v.name)!, results, task, prices)),
    comparisons: names.filter((n) => n !== baseline).map((n) => compare(n, baseline, byVariant, results)),
    disagreements: disagreements(names, byVariant, results, task),
    report_href: path.posix.relative(labDir, path.posix.join(defaultReportDir(run), 'index.html')),
  };
  const json = path.posix.join(labDir, JUDGE_FILES.labJson);
  const html = path.posix.join(labDir, JUDGE_FILES.labHtml);
  await store.writeAtomic(json, `${JSON.stringify(report, null, 1)}\n`);
  await store.writeAtomic(html, renderLabHtml(report));
  options.onEvent?.({ type: 'done', report, json, html });
  return { report, json, html, judged };
}

// Records of a variant stay valid only for the same set-up and model: a changed one under the same name is refused.
async function pinVariant(store: FileStore, judgeDir: string, variant: JudgeVariant): Promise<void> {
  const file = path.posix.join(judgeDir, JUDGE_FILES.variant);
  const text = `${JSON.stringify(variant, null, 1)}\n`;
  const existing = (await store.exists(file)) ? await store.readText(file) : null;
  if (existing === null) return store.writeAtomic(file, text);
  if (existing !== text) {
    throw new InputError(
      { file },
      `judge variant ${variant.name} (model ${variant.model}) differs from the set-up its records in ${judgeDir} were made with (see _variant.json there): give it a new name, or move that dir away to judge again`,
    );
  }
}

type TaskOf = (id: string) => TaskRef | undefined;

function labScore(pairs: readonly JudgePair[]): LabScore {
  const score = scoreJudge(pairs);
  return { ...score, yield: pyRound(score.judge_pass / Math.max(1, score.episodes), 3), yield_ci: wilsonInterval(score.judge_pass, score.episodes) };
}

function groupScores(items: ReadonlyArray<{ key: string; pair: JudgePair }>): Record<string, LabScore> {
  const groups = new Map<string, JudgePair[]>();
  for (const { key, pair } of items) groups.set(key, [...(groups.get(key) ?? []), pair]);
  return Object.fromEntries([...groups.keys()].sort(compareCodePoints).map((k) => [k, labScore(groups.get(k)!)]));
}

function variantFigures(
  variant: JudgeVariant,
  records: ReadonlyMap<string, JudgeRecord>,
  results: ReadonlyMap<string, boolean>,
  task: TaskOf,
  prices: PriceTable,
): LabVariant {
  const scored = [...results].filter(([id]) => records.has(id)).map(([id, verifier]) => ({ id, pair: [verifier, records.get(id)!.predicted_label === 1] as const }));
  const models = [...new Set([...records.values()].map((r) => r.model))];
  return {
    name: variant.name,
    description: variant.description,
    model: models.join(', ') || (variant.model ?? '-'),
    shows: [...variant.shows],
    screenshots: variant.screenshots,
    pick: variant.pick,
    votes: variant.votes,
    combine: variant.combine,
    judged: records.size,
    missing: results.size - scored.length,
    overall: labScore(scored.map((s) => s.pair)),
    by_site: groupScores(scored.map((s) => ({ key: task(s.id)?.site ?? '(unknown)', pair: s.pair }))),
    by_kind: groupScores(scored.map((s) => ({ key: task(s.id)?.task_kind ?? '(unknown)', pair: s.pair }))),
    usage: usageOf(records.values(), prices),
  };
}

function usageOf(records: Iterable<JudgeRecord>, prices: PriceTable): LabUsage {
  const out = { calls: 0, input_tokens: 0, output_tokens: 0, cost: 0, priced: true };
  for (const r of records) {
    const u = r.usage as { calls?: number; input_tokens?: number; output_tokens?: number } | undefined;
    const calls = u?.calls ?? 0;
    const input = u?.input_tokens ?? 0;
    const output = u?.output_tokens ?? 0;
    out.calls += calls;
    out.input_tokens += input;
    out.output_tokens += output;
    const price = priceOf(r.model, typeof r.provider === 'string' ? r.provider : '', prices);
    if (price) out.cost += costOf(price, input, output);
    else if (calls > 0) out.priced = false;
  }
  return out;
}

function compare(name: string, baseline: string, byVariant: ReadonlyMap<string, ReadonlyMap<string, JudgeRecord>>, results: ReadonlyMap<string, boolean>): LabComparison {
  const a = byVariant.get(baseline)!;
  const b = byVariant.get(name)!;
  const items = [...results].filter(([id]) => a.has(id) && b.has(id)).map(([id, verifier]) => ({
    verifier,
    baseline: a.get(id)!.predicted_label === 1,
    variant: b.get(id)!.predicted_label === 1,
  }));
  const paired = comparePaired(items);
  const base = scoreJudge(items.map((i) => [i.verifier, i.baseline]));
  const other = scoreJudge(items.map((i) => [i.verifier, i.variant]));
  const n = Math.max(1, items.length);
  return {
    variant: name,
    baseline,
    episodes: paired.episodes,
    both_right: paired.bothRight,
    baseline_only: paired.baselineOnly,
    variant_only: paired.variantOnly,
    both_wrong: paired.bothWrong,
    agreement_diff: pyRound(paired.agreementDiff, 3),
    p: paired.p,
    precision_diff: pyRound(other.precision - base.precision, 3),
    yield_diff: pyRound((other.judge_pass - base.judge_pass) / n, 3),
  };
}

function disagreements(
  names: readonly string[],
  byVariant: ReadonlyMap<string, ReadonlyMap<string, JudgeRecord>>,
  results: ReadonlyMap<string, boolean>,
  task: TaskOf,
): LabDisagreement[] {
  const ids = new Set<string>();
  for (const records of byVariant.values()) for (const id of records.keys()) ids.add(id);
  const out: LabDisagreement[] = [];
  for (const id of [...ids].sort(compareCodePoints)) {
    const verdicts = Object.fromEntries(names.map((n) => [n, byVariant.get(n)!.get(id)?.predicted_label ?? null]));
    const labels = new Set(Object.values(verdicts).filter((v) => v !== null));
    if (labels.size < 2) continue;
    const t = task(id);
    out.push({
      task_id: id,
      site: t?.site ?? '(unknown)',
      kind: t?.task_kind ?? '(unknown)',
      instruction: t?.instruction ?? '',
      verifier: results.has(id) ? results.get(id)! : null,
      verdicts,
    });
  }
  return out;
}
