/**
 * Parquet shards written as they go: `data/<config>/<split>-00000-of-0000N.parquet`, each a row group at a time,
 * so memory holds one row group, never the dataset. The writer is `hyparquet-writer` (an optional dependency,
 * loaded here only, when an export runs; docs/export.md says why this library).
 * @module
 */
import path from 'node:path';
import type * as HyparquetWriterModule from 'hyparquet-writer';
import { huggingfaceMetadata, parquetSchema, type Feature, type Features } from './features';

type HyparquetWriter = typeof HyparquetWriterModule;

/** Loads `hyparquet-writer`, or says how to get it. */
export async function loadParquetWriter(): Promise<HyparquetWriter> {
  try {
    return await import('hyparquet-writer');
  } catch (error) {
    throw new Error(
      "taskgen export needs the optional dependency 'hyparquet-writer' (npm install hyparquet-writer); it was not found",
      { cause: error },
    );
  }
}

/** Where the shards of one config and split go, and how big they are. */
export interface ShardPlan {
  /** The dataset folder. */
  readonly dir: string;
  readonly config: string;
  readonly split: string;
  readonly features: Features;
  /** Rows in all shards together (known before writing, so names say `-of-N`). */
  readonly rows: number;
  /** Rows per shard. */
  readonly shardRows: number;
  /** The rows of each shard, in order, where shards must end at given rows (groups kept whole); then `shardRows` is not used. */
  readonly cuts?: readonly number[];
  /** Rows per row group. */
  readonly rowGroupRows: number;
  /** `created_by` of the files. */
  readonly createdBy: string;
}

/** The name of shard `index` of `count`: `<split>-00000-of-00003.parquet`, as the Hub names them. */
export function shardName(split: string, index: number, count: number): string {
  const pad = (n: number) => String(n).padStart(5, '0');
  return `${split}-${pad(index)}-of-${pad(count)}.parquet`;
}

/** The shards of one config and split, written one row group at a time. */
export class ShardWriter {
  /** The files written, relative to the dataset folder. */
  readonly files: string[] = [];
  private readonly count: number;
  private writer: InstanceType<HyparquetWriter['ParquetWriter']> | null = null;
  private inShard = 0;
  private pending: Array<Record<string, unknown>> = [];
  private written = 0;

  constructor(
    private readonly lib: HyparquetWriter,
    private readonly plan: ShardPlan,
  ) {
    this.count = plan.cuts?.length || Math.max(1, Math.ceil(plan.rows / Math.max(1, plan.shardRows)));
    if (plan.rows === 0) this.open(); // an empty split is still one valid file
  }

  /** Adds a row; a full row group is written out. */
  add(row: Record<string, unknown>): void {
    if (this.written + this.pending.length >= this.plan.rows) throw new Error(`${this.plan.config}/${this.plan.split}: more rows than planned (${this.plan.rows})`);
    if (!this.writer) this.open();
    this.pending.push(row);
    this.inShard++;
    const full = this.inShard >= (this.plan.cuts?.[this.files.length - 1] ?? this.plan.shardRows);
    if (this.pending.length >= this.plan.rowGroupRows || full) this.flush();
    if (full) this.closeShard();
  }

  /** Writes what is left and closes the last shard; checks that every planned row came. */
  finish(): string[] {
    this.flush();
    this.closeShard();
    if (this.written !== this.plan.rows) throw new Error(`${this.plan.config}/${this.plan.split}: ${this.written} rows written, ${this.plan.rows} planned`);
    return this.files;
  }

  private open(): void {
    const { dir, config, split, features, createdBy } = this.plan;
    const rel = path.posix.join('data', config, shardName(split, this.files.length, this.count));
    this.files.push(rel);
    this.writer = new this.lib.ParquetWriter({
      writer: this.lib.fileWriter(path.join(dir, rel)),
      schema: parquetSchema(features) as never,
      kvMetadata: [huggingfaceMetadata(features)],
      createdBy,
    });
    this.inShard = 0;
  }

  private flush(): void {
    if (!this.writer || this.pending.length === 0) return;
    const rows = this.pending;
    this.pending = [];
    const columnData = this.plan.features.map(([name, f]) => ({ name, data: rows.map((r) => toParquet(f, r[name])) }));
    this.writer.write({ columnData, rowGroupSize: rows.length });
    this.written += rows.length;
  }

  private closeShard(): void {
    if (!this.writer) return;
    this.writer.finish();
    this.writer = null;
  }
}

// A value as hyparquet-writer takes it: int64 as bigint, structs and lists as they are.
function toParquet(f: Feature, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (f.kind === 'value' && f.dtype === 'int64') return BigInt(value as number);
  if (f.kind === 'list') return (value as unknown[]).map((v) => toParquet(f.of, v));
  return value;
}
