/**
 * How the export's Parquet library was chosen: two candidates write the same fixture, the export's `steps` schema
 * (a chat `messages` list of structs, an `images` list of Image structs {bytes, path}, provenance strings), as a
 * stream of 100-row row groups, each in a child process of its own so its peak RSS is its own:
 *  - hyparquet-writer (pure JS; `ParquetWriter` writes a row group at a time to a file);
 *  - parquet-wasm + apache-arrow (Rust's parquet in WebAssembly; Arrow record batches through `transformParquetStream`).
 * Rows are made as they are written (about 20 KB of incompressible "screenshot" and 3 KB of text each), so the
 * fixture itself does not hold memory. `BENCH_ROWS` sets the rows (default 5,000).
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const ROWS = Number(process.env.BENCH_ROWS ?? 5000);
const GROUP = 100;
const CANDIDATES = ['hyparquet-writer', 'parquet-wasm+apache-arrow'] as const;
type Candidate = (typeof CANDIDATES)[number];

interface StepRow {
  messages: Array<{ role: string; content: string }>;
  images: Array<{ bytes: Uint8Array; path: string }>;
  task_id: string;
  judge_model: string;
}

// Deterministic rows: the same bytes for both candidates.
function row(i: number): StepRow {
  const bytes = new Uint8Array(20_000);
  let x = (i * 2654435761) >>> 0;
  for (let k = 0; k < bytes.length; k++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[k] = x & 0xff;
  }
  const text = `Task ${i}: find the blue lamp. `.repeat(100);
  return {
    messages: [
      { role: 'system', content: 'You are a web agent. '.repeat(40) },
      { role: 'user', content: `<image>${text}` },
      { role: 'assistant', content: `{"click": {"index": ${i % 40}}}` },
    ],
    images: [{ bytes, path: `tg-site-${i >> 3}/step_${i & 7}.png` }],
    task_id: `tg-site-${i >> 3}`,
    judge_model: 'gemini-3.5-flash',
  };
}

function* groups(): Generator<StepRow[]> {
  for (let start = 0; start < ROWS; start += GROUP) {
    const n = Math.min(GROUP, ROWS - start);
    yield Array.from({ length: n }, (_, k) => row(start + k));
  }
}

async function writeHyparquet(file: string): Promise<void> {
  const { ParquetWriter, fileWriter } = await import('hyparquet-writer');
  const { parquetSchema, STEP_FEATURES } = await import('../src/export/features');
  const features = STEP_FEATURES.filter(([n]) => ['messages', 'images', 'task_id', 'judge_model'].includes(n));
  const writer = new ParquetWriter({ writer: fileWriter(file), schema: parquetSchema(features) as never });
  for (const rows of groups()) {
    writer.write({ columnData: features.map(([name]) => ({ name, data: rows.map((r) => r[name as keyof StepRow]) })), rowGroupSize: rows.length });
  }
  writer.finish();
}

async function writeParquetWasm(file: string): Promise<void> {
  const arrow = await import('apache-arrow');
  const pw = await import('parquet-wasm/node');
  const { Field, List, Struct, Utf8, Binary } = arrow;
  const message = new List(new Field('element', new Struct([new Field('role', new Utf8(), true), new Field('content', new Utf8(), true)]), true));
  const image = new List(new Field('element', new Struct([new Field('bytes', new Binary(), true), new Field('path', new Utf8(), true)]), true));
  const iterator = groups();
  const batches = new ReadableStream({
    pull(controller) {
      const next = iterator.next();
      if (next.done) return controller.close();
      const rows = next.value;
      const table = new arrow.Table({
        messages: arrow.vectorFromArray(rows.map((r) => r.messages), message),
        images: arrow.vectorFromArray(rows.map((r) => r.images), image),
        task_id: arrow.vectorFromArray(rows.map((r) => r.task_id), new Utf8()),
        judge_model: arrow.vectorFromArray(rows.map((r) => r.judge_model), new Utf8()),
      });
      const wasmTable = pw.Table.fromIPCStream(arrow.tableToIPC(table, 'stream'));
      for (const batch of wasmTable.recordBatches()) controller.enqueue(batch);
    },
  });
  const chunks = await pw.transformParquetStream(batches);
  await chunks.pipeTo(Writable.toWeb(createWriteStream(file)) as WritableStream);
}

async function child(candidate: Candidate, file: string): Promise<void> {
  const t0 = performance.now();
  if (candidate === 'hyparquet-writer') await writeHyparquet(file);
  else await writeParquetWasm(file);
  const seconds = (performance.now() - t0) / 1000;
  const bytes = (await fs.stat(file)).size;
  process.stdout.write(JSON.stringify({ seconds, bytes, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
}

async function main(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-parquet-'));
  const self = fileURLToPath(import.meta.url);
  process.stdout.write(`${ROWS} step rows (about ${((ROWS * 23_000) / 1e6).toFixed(0)} MB of input), row groups of ${GROUP}; load ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs\n`);
  const results: Record<string, { seconds: number; bytes: number; maxRssMB: number }> = {};
  try {
    for (const candidate of CANDIDATES) {
      const file = path.join(dir, `${candidate}.parquet`);
      const r = spawnSync(process.execPath, ['--import', 'tsx', self, '--child', candidate, file], { encoding: 'utf8', maxBuffer: 1 << 20 });
      if (r.status !== 0) throw new Error(`${candidate} failed: ${r.stderr}`);
      const m = JSON.parse(r.stdout) as { seconds: number; bytes: number; maxRssMB: number };
      results[candidate] = m;
      process.stdout.write(
        `${candidate.padEnd(26)} ${m.seconds.toFixed(2)} s  ${(m.bytes / 1e6 / m.seconds).toFixed(1)} MB/s written  ` +
          `file ${(m.bytes / 1e6).toFixed(1)} MB  peak RSS ${m.maxRssMB.toFixed(0)} MB\n`,
      );
    }
    const [a, b] = CANDIDATES.map((c) => results[c]!);
    process.stdout.write(`ratio parquet-wasm / hyparquet-writer: time ${(b!.seconds / a!.seconds).toFixed(2)}x, peak RSS ${(b!.maxRssMB / a!.maxRssMB).toFixed(2)}x\n`);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') await child(process.argv[3] as Candidate, process.argv[4]!);
else await main();
