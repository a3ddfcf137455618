/**
 * An episode's bookkeeping in the env server's out dir as the run grows (issue 36: "whatever grows, find it"): the
 * server's `EpisodeSlots` claim a try of a task, the episode is published, and the try's `results.jsonl` is brought up
 * to date, as at every episode's end. Per size (tasks already finished in the try, each with a verifier), the CPU ms
 * and wall ms per episode of `EPISODES_PER_SIZE` more episodes, and the ratio to the smallest size in the same run:
 * reading the try's `tasks.jsonl`, listing its episodes and rewriting `results.jsonl` at every episode's end grow with
 * the run; what they cost at an RL run's size is the figure. Sizes: `RUN_FILES_SIZES` (default 100,1000,5000).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { nodeStore } from '../src/index';
import { EpisodeSlots } from '../src/env/recording';
import { attemptSetup } from '../src/attempt/setup';
import { TaskSchema, type Task } from '../src/core/schemas';

const SIZES = (process.env.RUN_FILES_SIZES ?? '100,1000,5000').split(',').map(Number);
const EPISODES = Number(process.env.EPISODES_PER_SIZE ?? 40);
const WARM_UP = 5;
const store = nodeStore();
const setup = attemptSetup({ policy: { name: 'env', decide: () => Promise.reject(new Error('unused')) }, maxSteps: 15, baseUrl: 'http://127.0.0.1:9/' });

const task = (i: number): Task =>
  TaskSchema.parse({
    kind: 'miniweb', task_id: `shop-${i}`, site: 'shop', instruction: `Find the blue kettle number ${i}, add two to the cart and report the total at checkout.`,
    start_path: '/sites/shop/', verifier: { kind: 'answer', expected: `${i}.00` },
  });

const episodeText = (t: Task, i: number) =>
  JSON.stringify({ task: t, outcome: 'done', steps: 4, answer: `${i}.00`, ok: i % 3 !== 0, timings: { started: '2026-12-06T00:00:00Z', ended: '2026-12-06T00:00:09Z', ms: 9000 }, model: null, error: null, setup: null });

// One episode: claimed, written to its staging dir, published, then results.jsonl synced (the server's order).
async function episode(slots: EpisodeSlots, t: Task, i: number): Promise<void> {
  const claimed = await slots.claim(t);
  await store.writeAtomic(path.join(claimed.claim.staging, 'episode.json'), episodeText(t, i));
  if ((await claimed.claim.commit()) !== 'committed') throw new Error(`${t.task_id}: not committed`);
  await claimed.claim.release();
  await slots.syncResults(claimed.run);
}

async function measure(size: number): Promise<{ cpu: number; wall: number }> {
  const out = await mkdtemp(path.join(os.tmpdir(), 'run-files-'));
  try {
    const slots = new EpisodeSlots({ store, out, staleMs: 600_000, setup, onWarning: (m) => process.stderr.write(`warning: ${m}\n`) });
    // The run so far, written as the server leaves it; then a few episodes through the slots to warm them up.
    const tasks = Array.from({ length: size }, (_, i) => task(i));
    await writeFile(path.join(out, 'tasks.jsonl'), tasks.map((t) => `${JSON.stringify(t)}\n`).join(''));
    for (const [i, t] of tasks.entries()) {
      await mkdir(path.join(out, t.task_id));
      await writeFile(path.join(out, t.task_id, 'episode.json'), episodeText(t, i));
    }
    for (let i = size; i < size + WARM_UP; i++) await episode(slots, task(i), i);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = size + WARM_UP; i < size + WARM_UP + EPISODES; i++) await episode(slots, task(i), i);
    const c = process.cpuUsage(c0);
    return { cpu: (c.user + c.system) / 1000 / EPISODES, wall: (performance.now() - t0) / EPISODES };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

process.stdout.write(`per episode (claim, publish, results.jsonl), ${EPISODES} episodes per size, load average ${os.loadavg()[0]!.toFixed(2)}\n`);
process.stdout.write('tasks finished in the try | CPU ms per episode | wall ms | CPU / smallest size\n');
let base: number | undefined;
for (const size of SIZES) {
  const { cpu, wall } = await measure(size);
  base ??= cpu;
  process.stdout.write(`${String(size).padStart(25)} | ${cpu.toFixed(2).padStart(18)} | ${wall.toFixed(2).padStart(7)} | ${(cpu / base).toFixed(2)}x\n`);
}
