/**
 * Sizing a shard (docs/past-one-machine.md): the harness beside a bare Playwright loop, in one run, on the
 * sandbox's pages, with a model that takes 1 s per step. Both visit the same pages in the same order: per step the
 * harness observes (page script + screenshot), waits 1 s in its policy, and does a `goto`; the bare loop takes
 * `page.screenshot()` (1280x800) and one `ariaSnapshot()`, waits 1 s and navigates, in a plain context of a plain
 * Chromium (launched by Playwright with only the container flags, not the harness's cheaper ones): the full browser
 * (`SIZING_PLAIN_CHROMIUM`, default /usr/bin/chromium) and, where the harness launches another binary (the headless
 * shell), that binary too (`bare-shell`). `SIZING_BEFORE=1` adds the harness on the full browser's plain launch. Per
 * concurrency (1, 8, 24): steps/s, and CPU seconds per step of this process (the harness or the bare loop's client),
 * of Chromium (the chromium processes under this one, from /proc) and of the sandbox server (a child process of its
 * own, so its CPU is apart), and Chromium's memory (PSS) per episode in flight. Cores per GPU = CPU s per step x
 * steps/s the GPU serves.
 * @module
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import PQueue from 'p-queue';
import type { Browser } from 'playwright-core';
import { sandboxEvidence, sandboxSource } from '../sandbox/index';
import { runAttempt, browserHost, scriptedPolicy, type BrowserHost } from '../src/index';
import { CHROMIUM_ARGS, VIEWPORT, chromiumPath } from '../src/browser/host';
import type { Task } from '../src/core/schemas';
import { freshPageCost } from './fresh-pages';
import { childPids, descendantsCpu, descendantsCpuByKind, descendantsFaults, descendantsFaultsByKind, descendantsPss, processCpu, processFaults } from './proc-cpu';
import { startSandboxProcess } from './sandbox-process';

const STEPS = 6;
const WAIT_MS = 1000;
const SITES = ['shop-01', 'mail-01', 'forum-01', 'recipes-01'];
// `SIZING_LEVELS=1x3,8x8` (concurrency x episodes) for a shorter run; the report's c=8 figures want a level of 8.
const LEVELS: ReadonlyArray<[concurrency: number, episodes: number]> = process.env.SIZING_LEVELS
  ? process.env.SIZING_LEVELS.split(',').map((l) => l.split('x').map(Number) as [number, number])
  : [[1, 3], [8, 16], [24, 24]];
// A loaded machine is slow, not broken: the bare loop's limits are generous, as the harness's are.
const LIMIT_MS = 120_000;
// the network service is sometimes named after /proc/self/exe
const CHROMIUM = /chrom|headless|^exe$/i;

interface Figures {
  steps: number;
  seconds: number;
  harnessCpu: number;
  chromiumCpu: number;
  sandboxCpu: number;
  /** Chromium's peak PSS over its PSS before the work, per episode in flight, in bytes. */
  pssPerEpisode: number;
  /** Chromium's CPU seconds by process kind (browser, renderer, gpu-process...). */
  chromiumByKind: Map<string, number>;
  /** Minor page faults (memory touched for the first time) of this process, Chromium and the sandbox. */
  faults: { harness: number; chromium: number; sandbox: number };
  /** Chromium's minor page faults by process kind. */
  chromiumFaultsByKind: Map<string, number>;
}

// One measured run: wall time, CPU seconds of this process, of Chromium (leaving out the other sides' browsers)
// and of the sandbox, and Chromium's peak memory (sampled every 500 ms), around `work`.
async function measure(sandbox: ChildProcess, others: number[], concurrency: number, work: () => Promise<number>): Promise<Figures> {
  const chromium = { exclude: [sandbox.pid!, ...others], name: CHROMIUM };
  const cpu = () => ({
    self: process.cpuUsage(),
    chromium: descendantsCpu(process.pid, chromium),
    sandbox: processCpu(sandbox.pid!) + descendantsCpu(sandbox.pid!),
  });
  const faults = () => ({
    harness: process.resourceUsage().minorPageFault,
    chromium: descendantsFaults(process.pid, chromium),
    sandbox: processFaults(sandbox.pid!) + descendantsFaults(sandbox.pid!),
  });
  const idlePss = descendantsPss(process.pid, chromium);
  let peakPss = idlePss;
  const sampler = setInterval(() => (peakPss = Math.max(peakPss, descendantsPss(process.pid, chromium))), 500);
  const kinds0 = descendantsCpuByKind(process.pid, chromium);
  const faultKinds0 = descendantsFaultsByKind(process.pid, chromium);
  const faults0 = faults();
  const before = cpu();
  const t0 = performance.now();
  const steps = await work();
  const seconds = (performance.now() - t0) / 1000;
  const after = cpu();
  const faults1 = faults();
  const chromiumByKind = descendantsCpuByKind(process.pid, chromium);
  for (const [kind, seconds] of chromiumByKind) chromiumByKind.set(kind, seconds - (kinds0.get(kind) ?? 0));
  const chromiumFaultsByKind = descendantsFaultsByKind(process.pid, chromium);
  for (const [kind, n] of chromiumFaultsByKind) chromiumFaultsByKind.set(kind, n - (faultKinds0.get(kind) ?? 0));
  clearInterval(sampler);
  const self = process.cpuUsage(before.self);
  return {
    steps,
    seconds,
    harnessCpu: (self.user + self.system) / 1e6,
    chromiumCpu: after.chromium - before.chromium,
    sandboxCpu: after.sandbox - before.sandbox,
    pssPerEpisode: (peakPss - idlePss) / concurrency,
    chromiumByKind,
    faults: { harness: faults1.harness - faults0.harness, chromium: faults1.chromium - faults0.chromium, sandbox: faults1.sandbox - faults0.sandbox },
    chromiumFaultsByKind,
  };
}

// The pages episode `i` visits, one per step: its site's start page, then every 7th page of the site's sitemap.
function route(pages: Map<string, string[]>, i: number): string[] {
  const site = SITES[i % SITES.length]!;
  const paths = pages.get(site)!;
  return [`/sites/${site}/`, ...Array.from({ length: STEPS - 1 }, (_, s) => paths[(i + s * 7) % paths.length]!)];
}

function task(i: number, start: string): Task {
  const site = SITES[i % SITES.length]!;
  return { kind: 'proposed', task_id: `size-${i}`, site, sites: [site], macro: 'proposed', macros: [], instruction: 'browse the site', start_path: start, task_kind: 'info', verifier: null };
}

async function harness(host: BrowserHost, url: string, pages: Map<string, string[]>, episodes: number, concurrency: number): Promise<number> {
  const out = await mkdtemp(path.join(os.tmpdir(), 'bench-sizing-'));
  // Waits 1 s (the model), then goes to the episode's next page; `done` on the last step.
  const policy = scriptedPolicy(async (input) => {
    await sleep(WAIT_MS);
    if (input.step >= STEPS - 1) return { done: { answer: 'browsed' } };
    const i = Number(input.task.task_id.slice('size-'.length));
    return { goto: { path: route(pages, i)[input.step + 1]! } };
  });
  try {
    const summary = await runAttempt({
      tasks: Array.from({ length: episodes }, (_, i) => task(i, route(pages, i)[0]!)),
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

// The bare loop: a plain 1280x800 context; per step a screenshot, one aria snapshot, the same 1 s wait, the next page.
async function bare(host: Pick<BrowserHost, 'browser'>, url: string, pages: Map<string, string[]>, episodes: number, concurrency: number): Promise<number> {
  let steps = 0;
  const queue = new PQueue({ concurrency });
  const browser = await host.browser();
  for (let i = 0; i < episodes; i++) {
    void queue.add(async () => {
      const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
      try {
        const page = await context.newPage();
        const visit = route(pages, i);
        await page.goto(url + visit[0], { timeout: LIMIT_MS });
        for (let s = 0; s < STEPS; s++) {
          await page.screenshot({ timeout: LIMIT_MS });
          await page.ariaSnapshot({ timeout: LIMIT_MS });
          await sleep(WAIT_MS);
          if (s < STEPS - 1) await page.goto(url + visit[s + 1], { timeout: LIMIT_MS });
          steps++;
        }
      } finally {
        await context.close();
      }
    });
  }
  await queue.onIdle();
  return steps;
}

// what a page touched for the first time costs here, before the browsers start and again at the end: Chromium's
// fresh buffers (a screenshot takes several) cost a machine whose page faults are slow more CPU for the same work
const pageCostBefore = freshPageCost();
const { child, url } = await startSandboxProcess();
const host = browserHost();
// The bare loop's browser: Playwright's defaults and the container flags only, on the full browser (as the harness
// launched before issue 36); and, where the harness launches the headless shell, the bare loop on a plain launch of
// the shell too (Playwright's own choice for headless), so the harness is compared on its own binary as well.
const { chromium } = await import('playwright-core');
const FULL = process.env.SIZING_PLAIN_CHROMIUM ?? '/usr/bin/chromium';
const plainLaunch = async (executablePath: string) => {
  const before = childPids(process.pid, CHROMIUM);
  const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS], headless: true });
  return { browser, root: childPids(process.pid, CHROMIUM).find((pid) => !before.includes(pid))! };
};
const plain = await plainLaunch(FULL);
const shell = chromiumPath() !== FULL ? await plainLaunch(chromiumPath()) : null;
const hostBefore = childPids(process.pid, CHROMIUM);
await host.browser();
const hostRoot = childPids(process.pid, CHROMIUM).find((pid) => !hostBefore.includes(pid))!;
const asHost = (b: Browser): BrowserHost => ({ browser: async () => b, launches: 1, close: async () => {} });
// each side's browser, and the roots of the browsers its CPU leaves out
const browsers = new Map<string, { host: BrowserHost; root: number }>([['bare', { host: asHost(plain.browser), root: plain.root }], ['harness', { host, root: hostRoot }], ['before', { host: asHost(plain.browser), root: plain.root }]]);
if (shell) browsers.set('bare-shell', { host: asHost(shell.browser), root: shell.root });
const othersOf = (side: string) => [...new Set([...browsers].filter(([k]) => k !== side).map(([, b]) => b.root))].filter((r) => r !== browsers.get(side)!.root);
try {
  const source = sandboxSource({ url });
  const pages = new Map<string, string[]>();
  for (const site of SITES) {
    const paths = (await source.sitemap(site)).pages.flatMap((p) => (p.path ? [p.path.startsWith('/sites/') ? p.path : `/sites/${site}${p.path.startsWith('/') ? '' : '/'}${p.path}`] : []));
    pages.set(site, paths);
  }
  await harness(host, url, pages, 2, 2); // warm up
  await bare(browsers.get('bare')!.host, url, pages, 2, 2);
  if (shell) await bare(browsers.get('bare-shell')!.host, url, pages, 2, 2);
  const rows: Array<[number, Figures, Figures]> = [];
  // SIZING_BEFORE=1: the harness on the plain launch of the full browser too (the harness's launch before issue 36)
  const extra: Array<[string, number, Figures]> = [];
  const sides = ['bare', ...(shell ? ['bare-shell'] : []), 'harness', ...(process.env.SIZING_BEFORE ? ['before'] : [])];
  for (const [n, [concurrency, episodes]] of LEVELS.entries()) {
    // the order turns round by round, so a load that drifts over the run does not favour one side
    const order = [...sides.slice(n % sides.length), ...sides.slice(0, n % sides.length)];
    const figures = new Map<string, Figures>();
    for (const which of order) {
      const side = browsers.get(which)!;
      const work = which.startsWith('bare') ? () => bare(side.host, url, pages, episodes, concurrency) : () => harness(side.host, url, pages, episodes, concurrency);
      figures.set(which, await measure(child, othersOf(which), concurrency, work));
    }
    rows.push([concurrency, figures.get('harness')!, figures.get('bare')!]);
    const total = (f: Figures) => ((f.harnessCpu + f.chromiumCpu + f.sandboxCpu) / f.steps).toFixed(3);
    process.stderr.write(`c=${concurrency} measured (${order.join(', ')}; CPU s per step ${order.map((w) => `${w} ${total(figures.get(w)!)}`).join(', ')}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})\n`);
    for (const w of order) {
      const f = figures.get(w)!;
      const kinds = [...f.chromiumByKind].filter(([, v]) => v >= 0.005 * f.steps).sort((a, b) => b[1] - a[1]);
      process.stderr.write(`  ${w}: Chromium CPU s per step by process: ${kinds.map(([k, v]) => `${k} ${(v / f.steps).toFixed(3)}`).join(', ')}\n`);
      const faultKinds = [...f.chromiumFaultsByKind].filter(([, v]) => v >= 50 * f.steps).sort((a, b) => b[1] - a[1]);
      process.stderr.write(`  ${w}: page faults per step: ${w.startsWith('bare') ? 'client' : 'harness'} ${(f.faults.harness / f.steps).toFixed(0)}, Chromium ${(f.faults.chromium / f.steps).toFixed(0)} (${faultKinds.map(([k, v]) => `${k} ${(v / f.steps).toFixed(0)}`).join(', ')}), server ${(f.faults.sandbox / f.steps).toFixed(0)}\n`);
    }
    for (const w of ['bare-shell', 'before']) if (figures.has(w)) extra.push([w, concurrency, figures.get(w)!]);
  }
  const w = (n: number, d = 2) => n.toFixed(d).padStart(7);
  const mb = (n: number) => `${(n / 2 ** 20).toFixed(0).padStart(5)} MB`;
  process.stdout.write(`sizing: sandbox pages, ${STEPS} steps per episode, a model taking ${WAIT_MS} ms per step, ${os.cpus().length} cores (load average ${os.loadavg()[0]!.toFixed(1)} at the end)\n`);
  process.stdout.write('CPU seconds per step: harness = this process, chromium = its chromium processes, server = the sandbox (a child process); memory = Chromium PSS per episode in flight\n');
  process.stdout.write('       | harness: steps/s  harness chromium   server   memory | bare loop: steps/s  client chromium   server   memory | steps/s ratio  chromium CPU ratio\n');
  const cells = (f: Figures) => `${w(f.steps / f.seconds)}  ${w(f.harnessCpu / f.steps, 3)}  ${w(f.chromiumCpu / f.steps, 3)}  ${w(f.sandboxCpu / f.steps, 3)} ${mb(f.pssPerEpisode)}`;
  for (const [c, h, b] of rows) {
    const speed = h.steps / h.seconds / (b.steps / b.seconds);
    const chromium = h.chromiumCpu / h.steps / (b.chromiumCpu / b.steps);
    process.stdout.write(`c=${String(c).padEnd(4)} |         ${cells(h)} |           ${cells(b)} | ${w(speed)}x     ${w(chromium)}x\n`);
  }
  for (const [which, c, f] of extra) process.stdout.write(`c=${String(c).padEnd(4)} | ${`${which}:`.padEnd(11)} ${cells(f)}\n`);
  const [, h8, b8] = rows.find(([c]) => c === 8) ?? rows.at(-1)!;
  const speed8 = h8.steps / h8.seconds / (b8.steps / b8.seconds);
  const chromium8 = h8.chromiumCpu / h8.steps / (b8.chromiumCpu / b8.steps);
  process.stdout.write(`at c=${String(rows.find(([c]) => c === 8)?.[0] ?? rows.at(-1)![0])}: harness / bare steps/s ${speed8.toFixed(2)}x (aim >= 1.1x: ${speed8 >= 1.1 ? 'met' : 'not met'}); Chromium CPU per step ${chromium8.toFixed(2)}x the bare loop's (aim < 1: ${chromium8 < 1 ? 'met' : 'not met'})\n`);
  const perStep = (h8.harnessCpu + h8.chromiumCpu + h8.sandboxCpu) / h8.steps;
  // several levels of 8 (SIZING_LEVELS=8x16,8x16,8x16) are rounds: their medians
  const eights = rows.filter(([c]) => c === 8);
  if (eights.length > 1) {
    // before's rows: the harness on the plain launch, its figures in the harness's columns
    const total = (f: Figures) => (f.harnessCpu + f.chromiumCpu + f.sandboxCpu) / f.steps;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const of = (pick: (h: Figures, b: Figures) => number) => median(eights.map(([, h, b]) => pick(h, b)).filter(Number.isFinite)).toFixed(3);
    const harness8 = eights.map(([, h]) => total(h));
    for (const [which, what] of [['before', 'the harness on the plain launch of the full browser (before)'], ['bare-shell', `the bare loop on a plain launch of ${chromiumPath()}`]] as const) {
      const xs = extra.filter(([w, c]) => w === which && c === 8).map(([, , f]) => total(f));
      if (xs.length === harness8.length) process.stdout.write(`c=8, median of ${xs.length} rounds: ${what} ${median(xs).toFixed(3)} CPU s per step; the harness ${median(harness8.map((h, i) => h / xs[i]!)).toFixed(3)}x it\n`);
    }
    process.stdout.write(`c=8, median of ${eights.length} rounds: harness ${of((h) => total(h))} CPU s per step (harness ${of((h) => h.harnessCpu / h.steps)}, Chromium ${of((h) => h.chromiumCpu / h.steps)}, server ${of((h) => h.sandboxCpu / h.steps)}), bare loop ${of((_, b) => total(b))} (client ${of((_, b) => b.harnessCpu / b.steps)}, Chromium ${of((_, b) => b.chromiumCpu / b.steps)}); ratio ${of((h, b) => total(h) / total(b))}x; steps/s ratio ${of((h, b) => h.steps / h.seconds / (b.steps / b.seconds))}x\n`);
  }
  const barePerStep = (b8.harnessCpu + b8.chromiumCpu + b8.sandboxCpu) / b8.steps;
  const page = freshPageCost();
  const faultsPerStep = (f: Figures) => (f.faults.harness + f.faults.chromium + f.faults.sandbox) / f.steps;
  const faultShare = (f: Figures) => `${faultsPerStep(f).toFixed(0)} page faults per step, about ${(faultsPerStep(f) * pageCostBefore.fresh / 1e6).toFixed(3)} CPU s at the first figure`;
  process.stdout.write(`this machine: a 4 KiB page written for the first time costs ${pageCostBefore.fresh.toFixed(2)} µs of CPU before the rounds, ${page.fresh.toFixed(2)} after (written again: ${page.reused.toFixed(2)} µs); at c=${String(rows.find(([c]) => c === 8)?.[0] ?? rows.at(-1)![0])}: harness ${faultShare(h8)}; bare loop ${faultShare(b8)}\n`);
  process.stdout.write(`at c=${rows.find(([c]) => c === 8)?.[0] ?? rows.at(-1)![0]}: ${perStep.toFixed(3)} CPU s per step (harness + Chromium + server), ${(perStep / barePerStep).toFixed(2)}x the bare loop's ${barePerStep.toFixed(3)} (aim <= 0.6x); a GPU serving 15 steps/s wants about ${(perStep * 15).toFixed(1)} cores\n`);
} finally {
  await host.close();
  await plain.browser.close();
  await shell?.browser.close();
  child.kill('SIGTERM');
}
