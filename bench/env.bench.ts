/**
 * The environment server against the in-process harness, in the same run on the same sandbox pages: steps/s with
 * 8 and 32 sessions driven by a scripted client with a 1 s think time (`connectEnv`, in this process) beside
 * `runAttempt` with the same policy and concurrency; the step latency the server adds (p50, p95: the client's
 * round trip against the harness's act + observe); bytes per observation (with and without the screenshot);
 * memory per session (this process and Chromium, RSS near each run's end; per session: the growth from the smallest
 * to the largest size over the sessions added). Aim: server >= 0.95x harness.
 * One short measurement is noise on a small machine, so each size runs `ENV_BENCH_ROUNDS` rounds of harness and
 * server, the order alternating per round (neither side always goes first, on a warmer browser); it prints each
 * round's ratio, their median and range, and the pooled ratio (all steps over all time, each side), and this
 * process's CPU time per step on each side (the protocol's cost, free of Chromium's scheduling noise).
 * `ENV_BENCH_SESSIONS=8,32`, `ENV_BENCH_STEPS=15`, `ENV_BENCH_ROUNDS=4` size it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { browserHost, connectEnv, runAttempt, serveEnv, type Action, type BrowserHost, type Policy, type Task } from '../src/index';
import { sandboxEvidence, startSandbox, type SandboxServer } from '../sandbox/index';

const THINK_MS = 1000;
const STEPS = Number(process.env.ENV_BENCH_STEPS ?? 15);
const ROUNDS = Number(process.env.ENV_BENCH_ROUNDS ?? 4);
const SIZES = (process.env.ENV_BENCH_SESSIONS ?? '8,32').split(',').map(Number);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// The same script for both: scroll down and up, then done.
const scripted = (step: number): Action => (step >= STEPS - 1 ? { done: { answer: 'bench' } } : { scroll: { direction: step % 2 ? 'up' : 'down' } });

// RSS of this process and its Chromium processes, MiB.
function rssMiB(): number {
  let kb = 0;
  try {
    const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,rss='], { encoding: 'utf8' });
    const rows = out.trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number) as [number, number, number]);
    const mine = new Set([process.pid]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const [pid, ppid] of rows) {
        if (!mine.has(ppid) || mine.has(pid)) continue;
        mine.add(pid);
        grew = true;
      }
    }
    for (const [pid, , rss] of rows) if (mine.has(pid)) kb += rss;
  } catch {
    return NaN;
  }
  return kb / 1024;
}

interface Result {
  steps: number;
  ms: number;
  latencies: number[];
  peakMiB: number;
  /** CPU time of this process (sandbox, harness or server, clients), ms: the protocol's cost without Chromium's noise. */
  cpuMs: number;
}
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function harness(host: BrowserHost, sandbox: SandboxServer, tasks: Task[], n: number): Promise<Result> {
  const out = await mkdtemp(path.join(os.tmpdir(), 'bench-env-h-'));
  const latencies: number[] = [];
  const answered = new Map<string, number>();
  let peak = 0;
  const policy: Policy = {
    name: 'bench',
    async decide(input) {
      const back = answered.get(input.task.task_id);
      if (back !== undefined) latencies.push(performance.now() - back);
      if (input.step === STEPS - 2) peak = Math.max(peak, rssMiB());
      await sleep(THINK_MS);
      answered.set(input.task.task_id, performance.now());
      return { text: JSON.stringify(scripted(input.step)) };
    },
  };
  const c0 = cpuMs();
  const t0 = performance.now();
  const r = await runAttempt({ tasks: tasks.slice(0, n), policy, source: { baseUrl: sandbox.url }, evidence: sandboxEvidence({ url: sandbox.url }), out, browser: host, concurrency: n, maxSteps: STEPS });
  const ms = performance.now() - t0;
  const cpu = cpuMs() - c0;
  await rm(out, { recursive: true, force: true });
  return { steps: r.steps, ms, latencies, peakMiB: peak, cpuMs: cpu };
}

async function server(host: BrowserHost, sandbox: SandboxServer, tasks: Task[], n: number, bytes: number[]): Promise<Result> {
  const out = await mkdtemp(path.join(os.tmpdir(), 'bench-env-s-'));
  const env = await serveEnv({ tasks, baseUrl: sandbox.url, evidence: sandboxEvidence({ url: sandbox.url }), out, browser: host, maxSessions: n, maxSteps: STEPS });
  const latencies: number[] = [];
  let steps = 0;
  let peak = 0;
  const c0 = cpuMs();
  const t0 = performance.now();
  await Promise.all(tasks.slice(0, n).map(async (task) => {
    const c = await connectEnv(env.url);
    let r = await c.reset({ task_id: task.task_id });
    bytes.push(JSON.stringify({ type: 'observation', data: r }).length);
    for (let step = 0; !r.done; step++) {
      if (step === STEPS - 2) peak = Math.max(peak, rssMiB());
      await sleep(THINK_MS);
      const sent = performance.now();
      r = await c.step({ action: scripted(step) });
      steps++;
      if (!r.done) latencies.push(performance.now() - sent);
    }
    await c.close();
  }));
  const ms = performance.now() - t0;
  const cpu = cpuMs() - c0;
  await env.close();
  await rm(out, { recursive: true, force: true });
  return { steps, ms, latencies, peakMiB: peak, cpuMs: cpu };
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({ port: 0 });
  const host = browserHost();
  try {
    const sites = sandbox.catalog.split().train;
    const tasks = sites.flatMap((s) => sandbox.catalog.tasks(s)?.human.slice(0, 1) ?? []).slice(0, Math.max(...SIZES));
    await (await host.browser()).version();
    // The sites' data is built on first use: built here, so that neither side pays it.
    for (const task of tasks) await (await fetch(`${sandbox.url}${task.start_path}`)).arrayBuffer();
    const idle = rssMiB();
    const bytes: number[] = [];
    process.stdout.write(`env server vs in-process harness: ${STEPS} steps per episode, ${THINK_MS} ms think time, sandbox pages; idle RSS ${idle.toFixed(0)} MiB (node + Chromium), ${os.cpus().length} CPUs\n`);
    process.stdout.write(`${ROUNDS} rounds per size, the order alternating (odd rounds: harness first; even: server first)\n`);
    const rate = (r: Result) => r.steps / (r.ms / 1000);
    const peaks: Array<{ n: number; h: number; s: number }> = [];
    for (const n of SIZES) {
      const hs: Result[] = [];
      const ss: Result[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const harnessFirst = round % 2 === 1;
        let h: Result;
        let s: Result;
        if (harnessFirst) {
          h = await harness(host, sandbox, tasks, n);
          s = await server(host, sandbox, tasks, n, bytes);
        } else {
          s = await server(host, sandbox, tasks, n, bytes);
          h = await harness(host, sandbox, tasks, n);
        }
        hs.push(h);
        ss.push(s);
        process.stdout.write(
          `  ${n} sessions round ${round} (${harnessFirst ? 'harness' : 'server'} first): harness ${rate(h).toFixed(2)} steps/s, server ${rate(s).toFixed(2)} steps/s, ratio ${(rate(s) / rate(h)).toFixed(3)}; ` +
            `load ${os.loadavg()[0]!.toFixed(2)}\n`,
        );
      }
      const ratios = hs.map((h, i) => rate(ss[i]!) / rate(h));
      const sum = (rs: Result[]) => ({ steps: rs.reduce((a, r) => a + r.steps, 0), ms: rs.reduce((a, r) => a + r.ms, 0) });
      const [ph, ps] = [sum(hs), sum(ss)];
      const pooled = ps.steps / ps.ms / (ph.steps / ph.ms);
      const [hl, sl] = [hs.flatMap((r) => r.latencies), ss.flatMap((r) => r.latencies)];
      const [h50, h95, s50, s95] = [pct(hl, 50), pct(hl, 95), pct(sl, 50), pct(sl, 95)];
      const cpuPerStep = (rs: Result[]) => (rs.reduce((a, r) => a + r.cpuMs, 0) / rs.reduce((a, r) => a + r.steps, 0)).toFixed(1);
      const [hPeak, sPeak] = [Math.max(...hs.map((r) => r.peakMiB)), Math.max(...ss.map((r) => r.peakMiB))];
      process.stdout.write(
        `${n} sessions: ratio per round ${ratios.map((r) => r.toFixed(3)).join(', ')}; median ${median(ratios).toFixed(3)} (range ${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}); ` +
          `pooled ${pooled.toFixed(3)} (harness ${((ph.steps / ph.ms) * 1000).toFixed(2)} steps/s, server ${((ps.steps / ps.ms) * 1000).toFixed(2)} steps/s)\n` +
          `  step p50/p95 ms: harness ${h50.toFixed(0)}/${h95.toFixed(0)}, server ${s50.toFixed(0)}/${s95.toFixed(0)}, added ${(s50 - h50).toFixed(0)}/${(s95 - h95).toFixed(0)}; node CPU per step ms harness/server ${cpuPerStep(hs)}/${cpuPerStep(ss)}; peak RSS MiB harness/server ${hPeak.toFixed(0)}/${sPeak.toFixed(0)}\n`,
      );
      peaks.push({ n, h: hPeak, s: sPeak });
    }
    const [lo, hi] = [peaks[0]!, peaks.at(-1)!];
    if (hi.n > lo.n) {
      const per = (a: number, b: number) => ((b - a) / (hi.n - lo.n)).toFixed(1);
      process.stdout.write(`memory per session (RSS growth ${lo.n} -> ${hi.n} sessions): harness ${per(lo.h, hi.h)} MiB, server ${per(lo.s, hi.s)} MiB\n`);
    }
    // Bytes per observation: the reset replies above (with the screenshot), and one without it.
    const out = await mkdtemp(path.join(os.tmpdir(), 'bench-env-b-'));
    const plain = await serveEnv({ tasks, baseUrl: sandbox.url, evidence: sandboxEvidence({ url: sandbox.url }), out, browser: host, screenshot: false });
    const c = await connectEnv(plain.url);
    const noShot = JSON.stringify({ type: 'observation', data: await c.reset({ task_id: tasks[0]!.task_id }) }).length;
    await c.close();
    await plain.close();
    await rm(out, { recursive: true, force: true });
    process.stdout.write(`bytes per observation (JSON message): with screenshot p50 ${pct(bytes, 50)} max ${Math.max(...bytes)}; without ${noShot}\n`);
  } finally {
    await host.close();
    await sandbox.close();
  }
}

await main();
