/**
 * Part 2 of `bench/attempt.bench.ts`: CPU per agent step, to size cores per GPU. The sandbox runs in a child
 * process of its own, so its CPU is counted apart from the harness's (this process) and Chromium's.
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import PQueue from 'p-queue';
import { sandboxEvidence, sandboxSource } from '../sandbox/index';
import { runAttempt, browserHost, scriptedPolicy, type BrowserHost } from '../src/index';
import { openEpisodePage } from '../src/browser/host';
import type { Task } from '../src/core/schemas';
import { descendantsCpu, processCpu } from './proc-cpu';

const STEPS = 6;
const WAIT_MS = 1000;
const SITES = ['shop-01', 'mail-01', 'forum-01', 'recipes-01'];
const LEVELS: ReadonlyArray<[concurrency: number, episodes: number]> = [[1, 3], [8, 16], [24, 24]];

interface Figures {
  steps: number;
  seconds: number;
  harnessCpu: number;
  chromiumCpu: number;
  sandboxCpu: number;
}

// One measured run: wall time and CPU seconds of this process, Chromium's tree and the sandbox's, around `work`.
async function measure(sandbox: ChildProcess, work: () => Promise<number>): Promise<Figures> {
  const cpu = () => ({
    self: process.cpuUsage(),
    chromium: descendantsCpu(process.pid, [sandbox.pid!]),
    sandbox: processCpu(sandbox.pid!) + descendantsCpu(sandbox.pid!),
  });
  const before = cpu();
  const t0 = performance.now();
  const steps = await work();
  const seconds = (performance.now() - t0) / 1000;
  const after = cpu();
  const self = process.cpuUsage(before.self);
  return { steps, seconds, harnessCpu: (self.user + self.system) / 1e6, chromiumCpu: after.chromium - before.chromium, sandboxCpu: after.sandbox - before.sandbox };
}

function task(i: number): Task {
  const site = SITES[i % SITES.length]!;
  return { kind: 'proposed', task_id: `size-${i}`, site, sites: [site], macro: 'proposed', macros: [], instruction: 'browse the site', start_path: `/sites/${site}/`, task_kind: 'info', verifier: null };
}

// Waits 1 s, then follows a link of the page (a different one per step and episode), scrolling every third step.
const policy = scriptedPolicy(async (input) => {
  await sleep(WAIT_MS);
  if (input.step >= STEPS - 1) return { done: { answer: 'browsed' } };
  const links = input.observation.elements.filter((e) => e.role === 'link');
  if (input.step % 3 === 2 || links.length === 0) return { scroll: { direction: 'down' } };
  const n = input.observation.url.length + input.step * 7;
  return { click: { index: links[n % links.length]!.index } };
});

async function harness(host: BrowserHost, url: string, episodes: number, concurrency: number): Promise<number> {
  const out = await mkdtemp(path.join(os.tmpdir(), 'bench-sizing-'));
  try {
    const summary = await runAttempt({
      tasks: Array.from({ length: episodes }, (_, i) => task(i)),
      policy,
      source: sandboxSource({ url }),
      evidence: sandboxEvidence({ url }),
      out,
      browser: host,
      concurrency,
      maxSteps: STEPS,
    });
    return summary.steps;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

// The floor: per step, the same 1 s wait, then a navigation to one of the site's pages and a screenshot.
async function bare(host: BrowserHost, url: string, pages: Map<string, string[]>, episodes: number, concurrency: number): Promise<number> {
  let steps = 0;
  const queue = new PQueue({ concurrency });
  for (let i = 0; i < episodes; i++) {
    void queue.add(async () => {
      const site = SITES[i % SITES.length]!;
      const paths = pages.get(site)!;
      const ep = await openEpisodePage(host, { origin: url });
      try {
        await ep.page.goto(`${url}/sites/${site}/`);
        for (let s = 0; s < STEPS; s++) {
          await ep.page.screenshot();
          await sleep(WAIT_MS);
          await ep.page.goto(url + paths[(i + s * 7) % paths.length]);
          steps++;
        }
      } finally {
        await ep.close();
      }
    });
  }
  await queue.onIdle();
  return steps;
}

async function startSandboxProcess(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '..', 'sandbox', 'serve.ts'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (d: Buffer) => {
      text += d.toString();
      const m = /at (http:\/\/127\.0\.0\.1:\d+)\//.exec(text);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}): ${text}`)));
  });
  return { child, url };
}

/** Runs part 2 and prints its table. */
export async function sizing(): Promise<void> {
  const { child, url } = await startSandboxProcess();
  const host = browserHost();
  try {
    const source = sandboxSource({ url });
    const pages = new Map<string, string[]>();
    for (const site of SITES) pages.set(site, (await source.sitemap(site)).pages.flatMap((p) => (p.path ? [p.path.startsWith('/sites/') ? p.path : `/sites/${site}${p.path.startsWith('/') ? '' : '/'}${p.path}`] : [])));
    await harness(host, url, 2, 2); // warm up
    const rows: Array<[number, Figures, Figures]> = [];
    for (const [concurrency, episodes] of LEVELS) {
      const h = await measure(child, () => harness(host, url, episodes, concurrency));
      const b = await measure(child, () => bare(host, url, pages, episodes, concurrency));
      rows.push([concurrency, h, b]);
    }
    const w = (n: number, d = 2) => n.toFixed(d).padStart(7);
    process.stdout.write(`\nsizing: sandbox pages, ${STEPS} steps per episode, a policy waiting ${WAIT_MS} ms per step, ${os.cpus().length} cores (load average ${os.loadavg()[0]!.toFixed(1)} at the end)\n`);
    process.stdout.write('CPU seconds per step: harness = this process, chromium = its whole process tree, sandbox = the site server (a child process)\n');
    process.stdout.write('            | attempt: steps/s  harness chromium  sandbox | bare navigate+screenshot: steps/s  harness chromium  sandbox\n');
    for (const [c, h, b] of rows) {
      const cells = (f: Figures) => `${w(f.steps / f.seconds)}  ${w(f.harnessCpu / f.steps, 3)}  ${w(f.chromiumCpu / f.steps, 3)}  ${w(f.sandboxCpu / f.steps, 3)}`;
      process.stdout.write(`c=${String(c).padEnd(9)} |          ${cells(h)} |                           ${cells(b)}\n`);
    }
    const [, h8] = rows[1]!;
    const perStep = (h8.harnessCpu + h8.chromiumCpu) / h8.steps;
    process.stdout.write(`at c=8: ${perStep.toFixed(2)} CPU s per step (harness + Chromium); a GPU serving 15 steps/s wants about ${(perStep * 15).toFixed(1)} cores of browsers\n`);
  } finally {
    await host.close();
    child.kill('SIGTERM');
  }
}
