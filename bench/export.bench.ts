/**
 * `runExport` at full scale: a synthetic pipeline work dir whose rows hold 27,644 training steps (8-step
 * episodes, a quarter more episodes judged failures, small generated PNG screenshots, each distinct, rows selected by
 * `runRows`), exported in a child process of its own: seconds, MB/s of Parquet written, peak RSS. Then the same
 * with the run doubled: peak RSS must stay flat (within 20%), as the export streams row groups.
 * `BENCH_STEPS` scales the run (default 27,644).
 */
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { runExport, runRows } from '../src/index';
import { pyDumps } from '../src/core/py/dumps';

const STEPS = Number(process.env.BENCH_STEPS ?? 27644);
const PER_EPISODE = 8;
const self = fileURLToPath(import.meta.url);

// A small PNG of its own noise for every file (64x40, about 8 KB): distinct bytes, as real screenshots are, so
// neither Parquet's dictionary nor its compression can fold them together.
let seed = 12345;
function screenshot(): Buffer {
  const width = 64;
  const height = 40;
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let k = 0; k < raw.length; k++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    raw[k] = k % (width * 3 + 1) === 0 ? 0 : seed >>> 24;
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw, { level: 1 })), chunk('IEND', Buffer.alloc(0))]);
}

async function generate(dir: string, steps: number): Promise<void> {
  const run = path.join(dir, 'run');
  const judge = path.join(dir, 'run_judge');
  await fs.mkdir(judge, { recursive: true });
  const successes = Math.ceil(steps / PER_EPISODE);
  const episodes = successes + Math.ceil(successes / 4);
  const tasks: string[] = [];
  const system = 'You are a web agent. You complete a task on one website by operating a web browser. '.repeat(20);
  for (let e = 0; e < episodes; e++) {
    const site = `site-${String(e % 52).padStart(2, '0')}`;
    const id = `tg-${site}-${e.toString(16).padStart(8, '0')}`;
    const instruction = `Find item ${e} on ${site} and add it to the cart.`;
    const task = { kind: 'proposed', task_id: id, site, sites: [site], macro: 'proposed', macros: [], instruction, start_path: `/sites/${site}/`, task_kind: e % 3 ? 'action' : 'info', verifier: null };
    tasks.push(JSON.stringify(task));
    const ep = path.join(run, id);
    await fs.mkdir(path.join(ep, 'screenshots'), { recursive: true });
    await fs.mkdir(path.join(ep, 'rows'), { recursive: true });
    const actions = [];
    const rows = [];
    for (let s = 0; s < PER_EPISODE; s++) {
      const shot = path.join(ep, 'screenshots', `step_${s}.png`);
      await fs.writeFile(shot, screenshot());
      await fs.link(shot, path.join(ep, 'rows', `step_${s}.png`));
      const action = s === PER_EPISODE - 1 ? { done: { answer: 'ok' } } : { click: { index: s } };
      actions.push(action);
      const user = `<image>Task: ${instruction}\nURL: /sites/${site}/page/${s}\n${'[12] button "Add to cart"\n'.repeat(30)}`;
      rows.push(JSON.stringify({ messages: [{ role: 'system', content: system }, { role: 'user', content: user }, { role: 'assistant', content: JSON.stringify(action) }], images: [`step_${s}.png`] }));
    }
    await fs.writeFile(path.join(ep, 'final.png'), screenshot());
    const log = actions.map((_, s) => ({ method: 'GET', path: `/sites/${site}/page/${s}`, query: {}, body: null, status: 200 }));
    await fs.writeFile(path.join(ep, 'grade_inputs.json'), JSON.stringify({ actions, answer: 'ok', log, changes: [], seen: ['ok'] }, null, 1));
    await fs.writeFile(path.join(ep, 'rows', 'rows.jsonl'), `${rows.join('\n')}\n`);
    const episode = JSON.stringify({ task, outcome: 'done', steps: PER_EPISODE, answer: 'ok', timings: { started: '2026-01-01T00:00:00Z', ended: '2026-01-01T00:00:30Z', ms: 30000 }, model: 'Qwen/Qwen3.5-4B', error: null }, null, 1);
    await fs.writeFile(path.join(ep, 'rows', 'episode.json'), episode);
    await fs.writeFile(path.join(ep, 'episode.json'), episode);
    const label = e < successes ? 1 : 0;
    const verdict = label ? 'SUCCESS' : 'NOT SUCCESS';
    await fs.writeFile(path.join(judge, `${id}.json`), pyDumps({ task_id: id, predicted_label: label, verdict: true, response: `{"parts": [], "verdict": "${verdict}"}`, model: 'gemini-3.5-flash' }, { indent: 1 }));
  }
  await fs.writeFile(path.join(dir, 'tasks.jsonl'), `${tasks.join('\n')}\n`);
  await runRows({ run, out: path.join(dir, 'rows'), tasks: path.join(dir, 'tasks.jsonl'), budget: steps, recipe: { runId: 'bench', proposerModel: 'gemini-3.5-flash' } });
}

interface Figures {
  seconds: number;
  bytes: number;
  steps: number;
  episodes: number;
  maxRssMB: number;
}

async function child(dir: string, out: string): Promise<void> {
  const t0 = performance.now();
  const result = await runExport({ run: dir, out });
  const seconds = (performance.now() - t0) / 1000;
  let bytes = 0;
  for (const f of result.files) bytes += (await fs.stat(path.join(out, f))).size;
  const figures: Figures = { seconds, bytes, steps: result.counts.steps!.train!, episodes: result.counts.episodes!.train!, maxRssMB: process.resourceUsage().maxRSS / 1024 };
  process.stdout.write(JSON.stringify(figures));
}

async function measure(root: string, steps: number): Promise<Figures> {
  const dir = path.join(root, `run-${steps}`);
  const t0 = performance.now();
  await generate(dir, steps);
  say(`generated a run of ${steps} steps in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const out = path.join(root, `hf-${steps}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', self, '--child', dir, out], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`export child failed: ${r.stderr}`);
  const f = JSON.parse(r.stdout) as Figures;
  say(
    `export ${f.steps} steps + ${f.episodes} episodes: ${f.seconds.toFixed(1)} s, ${(f.bytes / 1e6).toFixed(0)} MB of Parquet, ` +
      `${(f.bytes / 1e6 / f.seconds).toFixed(1)} MB/s, ${(f.steps / f.seconds).toFixed(0)} steps/s, peak RSS ${f.maxRssMB.toFixed(0)} MB`,
  );
  await fs.rm(dir, { recursive: true, force: true });
  await fs.rm(out, { recursive: true, force: true });
  return f;
}

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function main(): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-export-'));
  say(`load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} on ${os.cpus().length} CPUs`);
  try {
    say(`screenshots: generated 64x40 PNGs of noise, ${(screenshot().length / 1024).toFixed(1)} KB each, every one distinct`);
    const one = await measure(root, STEPS);
    const two = await measure(root, STEPS * 2);
    const ratio = two.maxRssMB / one.maxRssMB;
    say(`run doubled: time ${(two.seconds / one.seconds).toFixed(2)}x, peak RSS ${ratio.toFixed(2)}x (${ratio <= 1.2 ? 'flat: within 20%' : 'NOT flat: over 20%'})`);
    if (ratio > 1.2) process.exitCode = 1;
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') await child(process.argv[3]!, process.argv[4]!);
else await main();
