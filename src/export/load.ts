/**
 * Reading an exported dataset back, a row group at a time (`hyparquet`, an optional dependency like the writer):
 * `loadSteps` and `loadEpisodes` yield typed rows, so a script can filter them and export again.
 * @module
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Provenance } from '../rows/provenance';
import type { RowMessage } from '../core/schemas';

/** An image as the Hugging Face Image feature stores it. */
export interface ImageValue {
  /** The image file's bytes (PNG). */
  readonly bytes: Uint8Array;
  /** `<task_id>/<file>` in the run. */
  readonly path: string;
}

/** A row of config `steps`. */
export interface StepRow extends Provenance {
  /** The step's chat: the system prompt, the user turn with `<image>`, and the action JSON. */
  readonly messages: readonly RowMessage[];
  /** The step's screenshot, for the user turn's `<image>`. */
  readonly images: readonly ImageValue[];
  /** The row's index in its episode's `rows.jsonl`. */
  readonly step: number;
  /** The episode's try: 1 for the run dir itself, n for `<run>/_tries/<n>/`. */
  readonly try: number;
}

/** A row of config `episodes`. */
export interface EpisodeRow extends Provenance {
  /** The task's instruction. */
  readonly instruction: string;
  /** The task's start page, a path on the site. */
  readonly start_path: string;
  /** How the episode ended: `done`, `max_steps`, `timeout` or `error`. */
  readonly outcome: string;
  /** Steps taken. */
  readonly steps: number;
  /** Each step's action as JSON (`{"click": {"index": 12}}`). */
  readonly actions: readonly string[];
  /** The screenshot before each step, in step order. */
  readonly screenshots: readonly ImageValue[];
  /** The page at the end (`final.png`); `null` when the episode has none. */
  readonly final_screenshot: ImageValue | null;
  /** The agent's `done` answer; `null` when it gave none. */
  readonly answer: string | null;
  /** What ended the episode early (the time limit, a page that died); `null` otherwise. */
  readonly error: string | null;
  /** `METHOD path -> status` of each request of the session. */
  readonly requests: readonly string[];
  /** Each data change of the session as JSON. */
  readonly data_changes: readonly string[];
  /** The judge's reply. */
  readonly judge_reasoning: string | null;
  /** The episode's try: 1 (the config holds the run dir's episodes; every try is in config `rollouts`). */
  readonly try: number;
}

/** Options of {@link loadSteps} and {@link loadEpisodes}. */
export interface LoadOptions {
  /** Default `train` (config `episodes` also has `human` when the run had a human-task run). */
  readonly split?: string;
}

/** The rows of config `steps` of an exported dataset, shard by shard, a row group at a time. */
export function loadSteps(dir: string, options: LoadOptions = {}): AsyncGenerator<StepRow> {
  return loadConfig<StepRow>(dir, 'steps', options.split ?? 'train');
}

/** The rows of config `episodes` of an exported dataset, shard by shard, a row group at a time. */
export function loadEpisodes(dir: string, options: LoadOptions = {}): AsyncGenerator<EpisodeRow> {
  return loadConfig<EpisodeRow>(dir, 'episodes', options.split ?? 'train');
}

/** The shard files of a config's split, in order. */
export async function shardFiles(dir: string, config: string, split: string): Promise<string[]> {
  const folder = path.join(dir, 'data', config);
  const names = await fs.readdir(folder).catch(() => {
    throw new Error(`${folder}: no such config folder (is ${dir} an exported dataset?)`);
  });
  return names
    .filter((n) => n.startsWith(`${split}-`) && n.endsWith('.parquet'))
    .sort()
    .map((n) => path.join(folder, n));
}

async function* loadConfig<T>(dir: string, config: string, split: string): AsyncGenerator<T> {
  const hyparquet = await import('hyparquet').catch((error: unknown) => {
    throw new Error("reading an exported dataset needs the optional dependency 'hyparquet' (npm install hyparquet)", { cause: error });
  });
  for (const name of await shardFiles(dir, config, split)) {
    const file = await hyparquet.asyncBufferFromFile(name);
    const metadata = await hyparquet.parquetMetadataAsync(file);
    let start = 0;
    for (const group of metadata.row_groups) {
      const end = start + Number(group.num_rows);
      const rows = await hyparquet.parquetReadObjects({ file, metadata, rowStart: start, rowEnd: end, utf8: false });
      for (const row of rows) yield fromParquet(row) as T;
      start = end;
    }
  }
}

// int64 comes back as bigint; every other value as it was written.
function fromParquet(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Uint8Array || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(fromParquet);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromParquet(v)]));
}
