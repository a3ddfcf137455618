/**
 * `runExport`: a run as a folder that `datasets.load_dataset(DIR)` and the Hugging Face Hub read as is:
 * configs `steps` and `episodes` (and `tasks`, when the tasks have written verifiers; `rollouts`, one row per try, when
 * the run has several tries per task) as Parquet shards under `data/<config>/`, and a `README.md` dataset card.
 * Everything is checked before anything is written; the folder is built under a temp name and renamed at the end,
 * so an export either is whole or is not there.
 * @module
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { InputError } from '../core/errors';
import { nodeStore } from '../files/node';
import { readTextIfExists, type FileStore } from '../files/types';
import { parseJsonAs, readJsonFileIfExists, readJsonl } from '../core/io';
import { judgeDirOf, labelsFileOf, relabelDirOf, verifiersFileOf } from '../files/layout';
import { readWrittenVerifiers } from '../verifiers/file';
import { LIBRARY, ProvenanceSchema, provenanceFileOf, type Provenance, type Recipe } from '../rows/provenance';
import { LabelsReportSchema } from '../rows/labels-format';
import { RowsReportSchema, TaskSchema, ValidateReportSchema, type ValidateReport } from '../core/schemas';
import { datasetCard, type CardConfig } from './card';
import { EPISODE_FEATURES, STEP_FEATURES, TASK_FEATURES } from './features';
import { planEpisodes, planSteps, tryOf, readEvidence, readStepRows, type PlannedEpisode, type PlannedSteps } from './gather';
import { loadParquetWriter, ShardWriter } from './parquet';
import { checkEntry } from '../core/check';
import { groupCuts, planRollouts, rolloutRow, ROLLOUT_FEATURES } from './rollouts';
import { readPassAtK } from '../validate/pass-at-k';

// A license id as the Hub's card metadata takes it (SPDX-like: `cc-by-4.0`, `apache-2.0`, `other`).
const LICENSE_ID = /^[A-Za-z0-9][A-Za-z0-9.+-]{0,63}$/;

/** Options of {@link runExport}. */
export interface ExportOptions {
  /**
   * A pipeline work dir (it holds `run/` and `tasks.jsonl`: the run, its judge records, `rows/`, the human run and
   * `_validate.json` are found there), or a run dir (then give `rows`).
   */
  readonly run: string;
  /** The dataset folder to write; it must not exist unless `overwrite`. */
  readonly out: string;
  /** The rows dir of `taskgen rows` (config `steps`). Default `<work dir>/rows`. */
  readonly rows?: string;
  /** `_validate.json` for the card's judge figures. Default `<work dir>/human_judge/_validate.json`, if there. */
  readonly validate?: string;
  /** A human-task run exported as split `human` of config `episodes`. Default `<work dir>/human`, if there. */
  readonly humanRun?: string;
  /**
   * The written verifiers (config `tasks`: the tasks that have one). Default `verifiers.jsonl` beside the tasks
   * (`<work dir>/verifiers.jsonl`, or `<run>/verifiers.jsonl`), if there; without one there is no config `tasks`.
   */
  readonly verifiers?: string;
  /** What the files do not record: run id, proposer model, judge variant. */
  readonly recipe?: Recipe;
  /** Rows per Parquet shard. Default 2,000 steps and 200 episodes (a few hundred MB with screenshots). */
  readonly shardRows?: { readonly steps?: number; readonly episodes?: number };
  /** Rows per row group (what memory holds at once). Default 100, as `datasets` writes image datasets. */
  readonly rowGroupRows?: number;
  /** Keeps only the episodes (and their steps) whose provenance passes. Default all. */
  readonly where?: (provenance: Provenance) => boolean;
  /** Replaces an existing folder (only once the new one is complete). Default false. */
  readonly overwrite?: boolean;
  /** The dataset's license for the card, an SPDX or Hub id (`cc-by-4.0`). Default none: the card says none was set. */
  readonly license?: string;
  /** Where the run is read from. Default the local disk (the dataset is always written to the local disk). */
  readonly store?: FileStore;
  /** Receives the plan, then each config's and split's progress. */
  readonly onEvent?: (event: ExportEvent) => void;
}

/** What {@link runExport} reports while it works. */
export type ExportEvent =
  | { readonly type: 'planned'; readonly episodes: number; readonly steps: number; readonly stepEpisodes: number }
  | { readonly type: 'progress'; readonly config: string; readonly split: string; readonly done: number; readonly total: number };

/** What {@link runExport} wrote. */
export interface ExportResult {
  /** The dataset folder. */
  readonly dir: string;
  /** Every file written, relative to `dir`. */
  readonly files: readonly string[];
  /** Rows per config and split. */
  readonly counts: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

interface Sources {
  readonly runId: string;
  readonly run: string;
  readonly rows: string;
  readonly validate: string | null;
  readonly human: string | null;
  readonly tasks: string;
  readonly verifiers: string | null;
}

/**
 * Exports a run as a Hugging Face dataset folder (see {@link ExportOptions}). Throws an `InputError` naming the
 * episode and file when a row's provenance does not hold: a verdict for another episode, a missing screenshot, a
 * torn `rows.jsonl`, rows copied from an older recording. Needs the optional dependency `hyparquet-writer`.
 * @example
 * await runExport({ run: 'demo', out: 'demo-hf' }); // then: datasets.load_dataset('demo-hf', 'steps')
 */
export async function runExport(options: ExportOptions): Promise<ExportResult> {
  checkEntry('runExport', options);
  const store = options.store ?? nodeStore();
  if (options.license !== undefined && !LICENSE_ID.test(options.license)) {
    throw new InputError({ file: 'options', field: 'license' }, `expected a license id such as cc-by-4.0 or mit, got ${JSON.stringify(options.license.slice(0, 80))}`);
  }
  const lib = await loadParquetWriter();
  const sources = await findSources(store, options);
  const recipe = await recipeOf(store, sources, options.recipe ?? {});
  const where = options.where ?? (() => true);

  const relabeled = relabelDirOf(sources.run);
  // Relabeled episodes (cut from the run's own, `origin: "relabel"`) are the run's too, under its run id.
  const all = [
    ...(await planEpisodes(store, { run: sources.run, judgeDir: judgeDirOf(sources.run), tasksFile: sources.tasks }, recipe)),
    ...((await store.exists(relabeled)) ? await planEpisodes(store, { run: relabeled, judgeDir: judgeDirOf(relabeled) }, recipe) : []),
  ];
  const episodes = all.filter((e) => where(e.provenance));
  const human = sources.human ? (await planEpisodes(store, { run: sources.human, judgeDir: judgeDirOf(sources.human) }, recipe)).filter((e) => where(e.provenance)) : [];
  const rollouts = await planRollouts(store, sources.run, recipe, sources.tasks);
  const byKey = new Map([...all.map((e) => [e.provenance.task_id, e] as const), ...rollouts.filter((r) => r.n > 1).map((r) => [`${r.planned.provenance.task_id}#${r.n}`, { ...r.planned, provenance: { ...r.planned.provenance, try: r.n } }] as const)]);
  const steps = await planSteps(store, sources.rows, byKey, where);
  const stepCount = steps.reduce((n, s) => n + s.rows, 0);
  options.onEvent?.({ type: 'planned', episodes: episodes.length + human.length, steps: stepCount, stepEpisodes: steps.length });
  const [rowsReport, validate, labels] = await Promise.all([
    readJsonFileIfExists(store, path.posix.join(sources.rows, '_report.json'), RowsReportSchema),
    sources.validate ? readValidate(store, sources.validate) : null,
    readJsonFileIfExists(store, labelsFileOf(sources.rows), LabelsReportSchema),
  ]);

  const out = path.resolve(options.out);
  if (!options.overwrite && (await exists(out))) throw new Error(`${options.out} exists: choose another folder or overwrite it`);
  const tmp = `${out}.partial-${process.pid}-${Date.now()}`;
  try {
    const common = {
      dir: tmp,
      rowGroupRows: Math.max(1, options.rowGroupRows ?? 100),
      createdBy: `${LIBRARY.name} version ${LIBRARY.version} (hyparquet-writer)`,
    };
    await fs.mkdir(path.join(tmp, 'data', 'steps'), { recursive: true });
    await fs.mkdir(path.join(tmp, 'data', 'episodes'), { recursive: true });
    const stepShards = Math.max(1, options.shardRows?.steps ?? 2000);
    const episodeShards = Math.max(1, options.shardRows?.episodes ?? 200);
    const emit = (config: string, split: string, total: number) => (done: number) =>
      options.onEvent?.({ type: 'progress', config, split, done, total });

    const stepWriter = new ShardWriter(lib, { ...common, config: 'steps', split: 'train', features: STEP_FEATURES, rows: stepCount, shardRows: stepShards });
    await writeSteps(store, steps, stepWriter, emit('steps', 'train', stepCount));
    const configs: CardConfig[] = [
      { name: 'steps', features: STEP_FEATURES, splits: [{ name: 'train', rows: stepCount, files: stepWriter.finish() }] },
    ];
    const episodeSplits = [{ name: 'train', planned: episodes }, ...(sources.human ? [{ name: 'human', planned: human }] : [])];
    const splits = [];
    for (const { name, planned } of episodeSplits) {
      const writer = new ShardWriter(lib, { ...common, config: 'episodes', split: name, features: EPISODE_FEATURES, rows: planned.length, shardRows: episodeShards });
      await writeEpisodes(store, planned, writer, emit('episodes', name, planned.length));
      splits.push({ name, rows: planned.length, files: writer.finish() });
    }
    configs.push({ name: 'episodes', features: EPISODE_FEATURES, splits });
    if (sources.verifiers) {
      const rows = await taskRows(store, sources, recipe.runId!);
      const writer = new ShardWriter(lib, { ...common, config: 'tasks', split: 'train', features: TASK_FEATURES, rows: rows.length, shardRows: episodeShards });
      await fs.mkdir(path.join(tmp, 'data', 'tasks'), { recursive: true });
      for (const row of rows) writer.add(row);
      configs.push({ name: 'tasks', features: TASK_FEATURES, splits: [{ name: 'train', rows: rows.length, files: writer.finish() }] });
    }
    if (rollouts.length) {
      // Shards end between groups: every try of a task in one file.
      const writer = new ShardWriter(lib, { ...common, config: 'rollouts', split: 'train', features: ROLLOUT_FEATURES, rows: rollouts.length, shardRows: episodeShards, cuts: groupCuts(rollouts, episodeShards) });
      await fs.mkdir(path.join(tmp, 'data', 'rollouts'), { recursive: true });
      const progress = emit('rollouts', 'train', rollouts.length);
      for (const [i, r] of rollouts.entries()) {
        writer.add(await rolloutRow(store, r));
        progress(i + 1);
      }
      configs.push({ name: 'rollouts', features: ROLLOUT_FEATURES, splits: [{ name: 'train', rows: rollouts.length, files: writer.finish() }] });
    }

    const card = datasetCard({
      runId: recipe.runId!,
      configs,
      episodes: episodes.map((e) => e.provenance),
      steps: steps.map((s) => ({ provenance: s.provenance, rows: s.rows })),
      rowsReport,
      validate,
      labels,
      ...(rollouts.length ? { passAtK: await readPassAtK({ run: sources.run, store, tasksFile: sources.tasks }) } : {}),
      ...(options.license ? { license: options.license } : {}),
    });
    await fs.writeFile(path.join(tmp, 'README.md'), card.text);
    await replace(tmp, out);
    const files = [...configs.flatMap((c) => c.splits.flatMap((s) => s.files)), 'README.md'];
    const counts = Object.fromEntries(configs.map((c) => [c.name, Object.fromEntries(c.splits.map((s) => [s.name, s.rows]))]));
    return { dir: out, files, counts };
  } catch (error) {
    await fs.rm(tmp, { recursive: true, force: true });
    throw error;
  }
}

async function writeSteps(store: FileStore, steps: readonly PlannedSteps[], writer: ShardWriter, progress: (done: number) => void): Promise<void> {
  let done = 0;
  for (const planned of steps) {
    const rows = await readStepRows(store, planned.dir, planned.taskId);
    if (rows.length !== planned.rows) throw new InputError({ file: path.posix.join(planned.dir, 'rows.jsonl') }, `episode ${planned.taskId}: changed while exporting`);
    for (const [step, row] of rows.entries()) {
      const images = [];
      for (const image of row.images) {
        images.push({ bytes: await store.readBytes(path.posix.join(planned.dir, image)), path: `${planned.taskId}/${image}` });
      }
      const messages = row.messages.map((m) => ({ role: m.role, content: m.content }));
      writer.add({ messages, images, step, ...planned.provenance, try: tryOf(planned.provenance) });
      progress(++done);
    }
  }
}

async function writeEpisodes(store: FileStore, episodes: readonly PlannedEpisode[], writer: ShardWriter, progress: (done: number) => void): Promise<void> {
  let done = 0;
  for (const planned of episodes) {
    const { episode, record, provenance } = planned;
    const taskId = provenance.task_id;
    const evidence = await readEvidence(store, planned.dir);
    const image = async (file: string) => ({ bytes: await store.readBytes(file), path: `${taskId}/${path.posix.relative(planned.dir, file)}` });
    const screenshots = [];
    for (const file of planned.screenshots) screenshots.push(await image(file));
    writer.add({
      instruction: episode.task.instruction,
      start_path: episode.task.start_path,
      outcome: episode.outcome,
      steps: episode.steps,
      actions: evidence.actions,
      screenshots,
      final_screenshot: planned.final ? await image(planned.final) : null,
      answer: episode.answer,
      error: episode.error,
      requests: evidence.requests,
      data_changes: evidence.changes,
      judge_reasoning: record?.response ?? null,
      ...provenance,
      try: tryOf(provenance),
    });
    progress(++done);
  }
}

async function findSources(store: FileStore, options: ExportOptions): Promise<Sources> {
  const root = path.posix.normalize(options.run).replace(/(.)\/+$/, '$1');
  const workDir = (await store.exists(path.posix.join(root, 'run'))) && (await store.exists(path.posix.join(root, 'tasks.jsonl')));
  const ifThere = async (file: string) => ((await store.exists(file)) ? file : null);
  if (workDir) {
    const tasks = path.posix.join(root, 'tasks.jsonl');
    return {
      tasks,
      verifiers: options.verifiers ?? (await ifThere(verifiersFileOf(tasks))),
      runId: path.posix.basename(path.resolve(root)),
      run: path.posix.join(root, 'run'),
      rows: options.rows ?? path.posix.join(root, 'rows'),
      validate: options.validate ?? (await ifThere(path.posix.join(root, 'human_judge', '_validate.json'))),
      human: options.humanRun ?? (await ifThere(path.posix.join(root, 'human'))),
    };
  }
  if (!(await store.exists(root))) throw new InputError({ file: options.run }, 'no such run dir');
  if (!options.rows) throw new InputError({ file: options.run }, 'a run dir, not a pipeline work dir: give its rows dir (--rows)');
  const tasks = path.posix.join(root, 'tasks.jsonl');
  const verifiers = options.verifiers ?? (await ifThere(verifiersFileOf(tasks)));
  return { runId: path.posix.basename(path.resolve(root)), run: root, rows: options.rows, validate: options.validate ?? null, human: options.humanRun ?? null, tasks, verifiers };
}

// The recipe: what the caller says, else what the rows step recorded beside the rows dir, else the dir's name.
async function recipeOf(store: FileStore, sources: Sources, given: Recipe): Promise<Recipe> {
  const file = provenanceFileOf(sources.rows);
  const lines = await readJsonl(store, file, ProvenanceSchema, { missingOk: true });
  const only = <T>(values: T[]): T | undefined => (new Set(values).size === 1 ? values[0] : undefined);
  return {
    runId: given.runId ?? sources.runId,
    proposerModel: given.proposerModel !== undefined ? given.proposerModel : only(lines.map((l) => l.proposer_model)),
    judgeVariant: given.judgeVariant ?? only(lines.map((l) => l.judge_variant)),
  };
}

// Config `tasks`: each task of the tasks file with a written verifier for its instruction, in task order.
async function taskRows(store: FileStore, sources: Sources, runId: string): Promise<Array<Record<string, unknown>>> {
  const { byTask } = await readWrittenVerifiers(store, sources.verifiers!);
  const tasks = await readJsonl(store, sources.tasks, TaskSchema, { missingOk: true });
  return tasks.flatMap((task) => {
    const v = byTask.get(task.task_id);
    if (!v || v.instruction !== task.instruction) return [];
    return [{
      task_id: task.task_id,
      site: task.site,
      task_kind: task.task_kind,
      instruction: task.instruction,
      start_path: task.start_path,
      verifier: JSON.stringify(v.claim),
      written_from_episode_id: v.written_from.episode_id,
      writer_model: v.written_from.model,
      run_id: runId,
    }];
  });
}

async function readValidate(store: FileStore, file: string): Promise<ValidateReport | null> {
  const text = await readTextIfExists(store, file);
  if (text === null) return null;
  return parseJsonAs(ValidateReportSchema, text, { file });
}

// The new folder takes the old one's place only once it is complete.
async function replace(tmp: string, out: string): Promise<void> {
  if (!(await exists(out))) {
    await fs.rename(tmp, out);
    return;
  }
  const old = `${tmp}.old`;
  await fs.rename(out, old);
  await fs.rename(tmp, out);
  await fs.rm(old, { recursive: true, force: true });
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
