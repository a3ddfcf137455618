/**
 * The harness's overhead per step (observe + act + record, with a policy that answers at once), p50 and p95 at
 * concurrency 1 and 4, beside the floor measured in the same run on the same pages: a bare
 * `page.screenshot()` + `page.ariaSnapshot()` per step. Aim: p50 within 1.2x of the floor, and steps/s at
 * concurrency 4 at least 1.6x concurrency 1. Sizing (CPU per step with a 1 s model, beside a bare loop) is
 * `attempt-sizing.bench.ts`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import PQueue from 'p-queue';
import { runAttempt, browserHost, scriptedPolicy, type BrowserHost } from '../src/index';
import { openEpisodePage } from '../src/browser/host';
import type { Task } from '../src/core/schemas';
import { fixtureTask, startFixtureSite } from '../test/agent-fixture';

const STEPS = 15;
const PAGES = ['/sites/shop/', '/sites/shop/long'];

interface Measure {
  perStep: number[];
  steps: number;
  ms: number;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const fmt = (n: number) => n.toFixed(1).padStart(7);

// Zero-latency policy: scroll down and up, and tick a checkbox now and then (no network, like the floor).
const policy = scriptedPolicy((input) => {
  if (input.step === STEPS - 1) return { done: {} };
  const box = input.observation.elements.find((e) => e.role === 'checkbox');
  if (box && input.step % 3 === 2) return { check: { index: box.index } };
  return { scroll: { direction: input.step % 2 ? 'up' : 'down' } };
});

async function harness(host: BrowserHost, baseUrl: string, episodes: number, concurrency: number): Promise<Measure> {
  const out = await mkdtemp(path.join(os.tmpdir(), 'bench-attempt-'));
  const tasks: Task[] = Array.from({ length: episodes }, (_, i) => fixtureTask(`b${i}`, 'bench', { start_path: PAGES[i % PAGES.length]! }));
  const last = new Map<string, number>();
  const perStep: number[] = [];
  const t0 = performance.now();
  const summary = await runAttempt({
    tasks,
    policy,
    source: { baseUrl },
    out,
    browser: host,
    concurrency,
    maxSteps: STEPS,
    onEvent: (e) => {
      const now = performance.now();
      if (e.type === 'episode-start') last.delete(e.taskId);
      if (e.type !== 'step') return;
      const prev = last.get(e.taskId);
      if (prev !== undefined) perStep.push(now - prev); // step 0 includes the page load: left out
      last.set(e.taskId, now);
    },
  });
  const ms = performance.now() - t0;
  await rm(out, { recursive: true, force: true });
  return { perStep, steps: summary.steps, ms };
}

async function floor(host: BrowserHost, baseUrl: string, episodes: number, concurrency: number): Promise<Measure> {
  const perStep: number[] = [];
  let steps = 0;
  const queue = new PQueue({ concurrency });
  const t0 = performance.now();
  for (let i = 0; i < episodes; i++) {
    void queue.add(async () => {
      const ep = await openEpisodePage(host, { origin: baseUrl });
      await ep.page.goto(baseUrl + PAGES[i % PAGES.length]);
      for (let s = 0; s < STEPS; s++) {
        const t = performance.now();
        await ep.page.screenshot();
        await ep.page.ariaSnapshot();
        if (s > 0) perStep.push(performance.now() - t);
        steps++;
      }
      await ep.close();
    });
  }
  await queue.onIdle();
  return { perStep, steps, ms: performance.now() - t0 };
}

const site = await startFixtureSite();
const host = browserHost();
try {
  await harness(host, site.baseUrl, 2, 2); // warm up the browser and the pages
  await floor(host, site.baseUrl, 2, 2);
  const rows: Array<[string, Measure, Measure]> = [];
  for (const [concurrency, episodes] of [[1, 6], [4, 16]] as const) {
    const f = await floor(host, site.baseUrl, episodes, concurrency);
    const h = await harness(host, site.baseUrl, episodes, concurrency);
    rows.push([`c=${concurrency}`, h, f]);
  }
  process.stdout.write(`per step, ms (${STEPS} steps per episode; step 0 with the page load left out)\n`);
  process.stdout.write('           harness p50     p95   steps/s |  floor p50     p95   steps/s | p50 ratio\n');
  for (const [name, h, f] of rows) {
    const hr = (h.steps / h.ms) * 1000;
    const fr = (f.steps / f.ms) * 1000;
    process.stdout.write(
      `${name.padEnd(10)} ${fmt(pct(h.perStep, 50))} ${fmt(pct(h.perStep, 95))} ${fmt(hr)}   | ${fmt(pct(f.perStep, 50))} ${fmt(pct(f.perStep, 95))} ${fmt(fr)}   | ${(pct(h.perStep, 50) / pct(f.perStep, 50)).toFixed(2)}x\n`,
    );
  }
  const [, h1, f1] = rows[0]!;
  const [, h4, f4] = rows[1]!;
  const scale = (m4: Measure, m1: Measure) => m4.steps / m4.ms / (m1.steps / m1.ms);
  process.stdout.write(`steps/s at c=4 over c=1: harness ${scale(h4, h1).toFixed(2)}x (aim >= 1.6x), floor ${scale(f4, f1).toFixed(2)}x on ${os.cpus().length} cores\n`);
  process.stdout.write(`harness p50 over floor p50 at c=1: ${(pct(h1.perStep, 50) / pct(f1.perStep, 50)).toFixed(2)}x (aim <= 1.2x)\n`);
  process.stdout.write('harness steps/s counts everything: context, start page, steps, final state and files written\n');
} finally {
  await host.close();
  await site.close();
}
