/**
 * The environment server over a long run (issue 36, item 1): `ENV_SOAK_EPISODES` episodes (default 1000) through
 * `ENV_SOAK_SESSIONS` concurrent sessions (default 8) against `taskgen env --sandbox` in a child process (so its RSS
 * is its own), with a client that misbehaves on a quarter of the episodes: it drops the connection mid-step, resets
 * mid-episode, sends malformed messages, goes idle past the idle timeout (2 s here), or pipelines a step before the
 * previous answer came. The other episodes follow the sandbox task bank's oracle (a few steps each). Episode k's task
 * and kind repeat every 100 episodes, so every window of 100 holds the same work and windows compare like with like.
 * Every `ENV_SOAK_ROW` episodes (default 100) a row for the window that ends there, taken as its last episode starts
 * (every session busy): the server's RSS and Chromium's PSS (its processes' smaps_rollup summed), each the median
 * of ten readings taken through the window (one reading swings with the garbage collector and with what the
 * sessions are doing at that instant), the browser contexts and pages open (the server's `/health`), the server's
 * open fds, the window's steps/s, the server process's CPU seconds per step (its Chromium apart) and the load average. At the end it checks: every finished episode recorded exactly
 * once in the out dir (each `episode.json` with its env mark, against the client's finished episodes), nothing
 * half-written counted, no context or page open, the fds back to idle; and the flatness aims (RSS and PSS of the
 * last window within 10% of the window of episodes 200-300; steps/s, whose windows swing more, the median of the last
 * three windows within 10% of the median of the windows to 200, 300 and 400). `ENV_SOAK_MEMORY_FILE=path` keeps the
 * server's own readings (one JSON line a second: `process.memoryUsage()`) there; `ENV_SOAK_NODE_FLAGS` adds Node flags to
 * the server's command line (`--optimize-for-size`, for one).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { defaultCatalog, resolveTarget, type OracleStep, type SandboxTask } from '../sandbox/index';
import { descendantsPss, processCpu } from './proc-cpu';
import { extraFds, fdKinds, fds, serverMemory, serverRssMiB } from './soak-readings';

const EPISODES = Number(process.env.ENV_SOAK_EPISODES ?? 1000);
const SESSIONS = Number(process.env.ENV_SOAK_SESSIONS ?? 8);
const ROW = Number(process.env.ENV_SOAK_ROW ?? 100);
/** A time budget in minutes: no episode starts after it (a loaded machine runs what fits). Default none. */
const BUDGET_MIN = Number(process.env.ENV_SOAK_MINUTES ?? Infinity);
const IDLE_S = 2;
const MAX_STEPS = 8;
// 100 episodes hold each task twice
const TASKS = 50;
const root = path.join(import.meta.dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Msg = { type: string; data: Record<string, unknown> & { observation?: Obs; done?: boolean; reward?: number | null; code?: string } };
interface Obs {
  elements: { index: number; role: string; name: string }[];
  metadata: { episode_dir?: string; episode_id?: string };
}

// Short oracle solutions (2 to 4 steps) from a few sites of the bank.
function pickTasks(): SandboxTask[] {
  const catalog = defaultCatalog();
  const picked: SandboxTask[] = [];
  for (const site of catalog.split().train) {
    const bank = (catalog.tasks(site)?.bank ?? []).filter((t) => t.oracle.length >= 2 && t.oracle.length <= 4);
    picked.push(...bank.slice(0, 16));
    if (picked.length >= TASKS) break;
  }
  return picked.slice(0, TASKS);
}

/** One WebSocket connection with an inbox. */
class Conn {
  private inbox: (Msg | null)[] = [];
  private waiter: ((m: Msg | null) => void) | null = null;
  closed = false;
  // Listening before the socket opens: a refusal at capacity comes in the same packet as the upgrade's answer.
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => this.deliver(JSON.parse(String(raw)) as Msg));
    ws.on('close', () => {
      this.closed = true;
      this.deliver(null);
    });
    ws.on('error', () => {});
  }
  static async open(url: string): Promise<Conn> {
    const conn = new Conn(new WebSocket(`${url.replace(/^http/, 'ws')}/ws`));
    await new Promise<void>((resolve, reject) => {
      conn.ws.once('open', () => resolve());
      conn.ws.once('error', reject);
    });
    return conn;
  }
  private deliver(m: Msg | null) {
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w(m);
    } else this.inbox.push(m);
  }
  send(m: unknown) {
    this.ws.send(typeof m === 'string' ? m : JSON.stringify(m));
  }
  recv(timeoutMs = 120_000): Promise<Msg | null> {
    if (this.inbox.length) return Promise.resolve(this.inbox.shift()!);
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply in ${timeoutMs} ms`)), timeoutMs);
      this.waiter = (m) => {
        clearTimeout(timer);
        resolve(m);
      };
    });
  }
  async close() {
    if (this.closed) return;
    this.send({ type: 'close' });
    await Promise.race([new Promise((r) => this.ws.once('close', r)), sleep(5000)]);
    this.ws.terminate();
  }
}

const stats = { steps: 0, finished: 0, dropped: 0, refused: 0, errorsExpected: 0, unexpected: [] as string[] };
const finishedIds = new Map<string, string>(); // episode_id -> episode_dir

async function call(c: Conn, m: unknown): Promise<Msg> {
  c.send(m);
  const r = await c.recv();
  if (!r) throw new Error('the connection closed');
  return r;
}

function oracleAction(step: OracleStep, obs: Obs): unknown {
  const target = 'click' in step ? step.click : 'type' in step ? step.type : 'select' in step ? step.select : 'check' in step ? step.check : null;
  if (!target) return step;
  const el = resolveTarget(obs.elements, target);
  if (typeof el === 'string') return { done: { answer: 'target not found' } };
  if ('click' in step) return { click: { index: el.index } };
  if ('type' in step) return { type: { index: el.index, text: step.type.text, ...(step.type.enter ? { enter: true } : {}) } };
  if ('select' in step) return { select: { index: el.index, option: step.select.option } };
  return { check: { index: el.index } };
}

function ended(r: Msg): boolean {
  if (r.type !== 'observation') throw new Error(`expected an observation, got ${JSON.stringify(r).slice(0, 300)}`);
  if (!r.data.done) return false;
  const meta = r.data.observation!.metadata;
  if (!meta.episode_id || !meta.episode_dir) throw new Error(`a finished episode without its dir: ${JSON.stringify(meta)}`);
  if (finishedIds.has(meta.episode_id)) throw new Error(`episode ${meta.episode_id} finished twice`);
  finishedIds.set(meta.episode_id, meta.episode_dir);
  stats.finished++;
  return true;
}

// Follows the oracle from `obs` (skipping `from` steps) to the end of the episode.
async function finish(c: Conn, task: SandboxTask, obs: Obs, from = 0): Promise<void> {
  for (let i = from; ; i++) {
    const step = task.oracle[Math.min(i, task.oracle.length - 1)]!;
    const r = await call(c, { type: 'step', data: { action: oracleAction(step, obs) } });
    stats.steps++;
    if (ended(r)) return;
    obs = r.data.observation!;
  }
}

/** A session the server refused at capacity (it had not yet seen a dropped connection close): the right answer, retried. */
class Refused extends Error {}

async function reset(c: Conn, task: SandboxTask): Promise<Obs> {
  const r = await call(c, { type: 'reset', data: { task_id: task.task_id } });
  // A refusal can come later than openConn waits for it on a loaded machine: the first reply then carries it.
  if (r.type === 'error' && r.data.code === 'CAPACITY_REACHED') throw new Refused('refused at capacity');
  if (r.type !== 'observation') throw new Error(`reset: ${JSON.stringify(r.data).slice(0, 300)}`);
  return r.data.observation!;
}

async function expectError(c: Conn, code: string): Promise<void> {
  const r = await c.recv(IDLE_S * 1000 + 10_000);
  if (r?.type !== 'error' || r.data.code !== code) throw new Error(`expected ${code}, got ${JSON.stringify(r).slice(0, 300)}`);
  stats.errorsExpected++;
}

const KINDS = ['drop', 'reset-mid', 'malformed', 'idle', 'pipeline'] as const;
// one of every four episodes misbehaves, the kinds spread out; the pattern repeats every 20 episodes
const kindOf = (k: number) => (k % 4 === 0 ? KINDS[(k / 4) % 5]! : 'normal');

// One episode of kind `kind` on `c`; returns the connection to go on with (a new one after a drop or idle close).
async function episode(url: string, c: Conn, k: number, tasks: SandboxTask[]): Promise<Conn> {
  const task = tasks[k % tasks.length]!;
  const kind = kindOf(k);
  let obs = await reset(c, task);
  switch (kind) {
    case 'normal':
      await finish(c, task, obs);
      return c;
    case 'drop': {
      const r = await call(c, { type: 'step', data: { action: { scroll: { direction: 'down' } } } });
      stats.steps++;
      ended(r);
      c.send({ type: 'step', data: { action: { scroll: { direction: 'up' } } } });
      c.ws.terminate(); // mid-step
      stats.dropped++;
      return openConn(url);
    }
    case 'reset-mid': {
      const r = await call(c, { type: 'step', data: { action: { scroll: { direction: 'down' } } } });
      stats.steps++;
      ended(r);
      stats.dropped++;
      const other = tasks[(k + 7) % tasks.length]!;
      await finish(c, other, await reset(c, other));
      return c;
    }
    case 'malformed': {
      c.send('{"type": "step", "data": {');
      await expectError(c, 'INVALID_JSON');
      c.send({ type: 'launch' });
      await expectError(c, 'UNKNOWN_TYPE');
      c.send({ type: 'step', data: { action: { click: { index: 'x' } } } });
      await expectError(c, 'VALIDATION_ERROR');
      c.send({ type: 'reset', data: { task_id: 42 } });
      await expectError(c, 'VALIDATION_ERROR');
      await finish(c, task, obs);
      return c;
    }
    case 'idle': {
      const r = await call(c, { type: 'step', data: { action: { scroll: { direction: 'down' } } } });
      stats.steps++;
      ended(r);
      await expectError(c, 'SESSION_ERROR');
      stats.dropped++;
      await c.recv(5000); // the close
      return openConn(url);
    }
    case 'pipeline': {
      c.send({ type: 'step', data: { action: { scroll: { direction: 'down' } } } });
      c.send({ type: 'step', data: { action: { scroll: { direction: 'up' } } } });
      for (let i = 0; i < 2; i++) {
        const r = await c.recv();
        if (!r) throw new Error('the connection closed');
        stats.steps++;
        if (ended(r)) return c;
        obs = r.data.observation!;
      }
      await finish(c, task, obs);
      return c;
    }
  }
}

async function openConn(url: string): Promise<Conn> {
  for (;;) {
    const c = await Conn.open(url);
    // A session refused at capacity (the server has not yet seen a dropped connection close) hears so at once.
    const early = await Promise.race([c.recv(), sleep(50).then(() => undefined)]);
    if (early === undefined) return c;
    if (early?.data.code !== 'CAPACITY_REACHED') throw new Error(`unexpected first message ${JSON.stringify(early)}`);
    stats.refused++;
    await sleep(200);
  }
}

// --- the server process and its measurements

const health = async (url: string) => (await (await fetch(`${url}/health`)).json()) as { sessions: number; browser_contexts: number; browser_pages: number };

async function startServer(out: string, memoryFile: string) {
  const args = [...(process.env.ENV_SOAK_NODE_FLAGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', '--import', path.join(import.meta.dirname, 'server-memory.ts'), path.join(root, 'src', 'cli.ts'), 'env', '--sandbox', '--out', out, '--port', '0', '--max-sessions', String(SESSIONS), '--max-steps', String(MAX_STEPS), '--idle-timeout', String(IDLE_S), '--no-screenshot'];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: root, env: { ...process.env, SOAK_MEMORY_FILE: memoryFile } });
  const log = { ended: 0, warnings: [] as string[], text: '' };
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stderr!.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const line of lines) {
        if (/^episode .*: reward/.test(line)) log.ended++;
        else if (line.startsWith('warning:')) log.warnings.push(line);
        const m = /serving \d+ tasks at (http:\/\/[\d.:]+)/.exec(line);
        if (m) resolve(m[1]!);
        else if (!/^episode /.test(line)) log.text += `${line}\n`;
      }
    });
    child.once('exit', (code) => reject(new Error(`taskgen env exited (${code}): ${log.text}`)));
  });
  return { child, url, log };
}

// Every episode.json of the out dir (tries included) with its env mark; and what is left in staging.
async function recorded(out: string) {
  const runs = [out];
  const tries = path.join(out, '_tries');
  if (existsSync(tries)) runs.push(...(await readdir(tries)).filter((n) => /^\d+$/.test(n)).map((n) => path.join(tries, n)));
  const ids = new Map<string, number>();
  let incomplete = 0;
  let staged = 0;
  let results = 0;
  for (const run of runs) {
    for (const name of await readdir(run)) {
      if (name.startsWith('_')) {
        if (name === '_work') staged += (await readdir(path.join(run, name))).length;
        continue;
      }
      const file = path.join(run, name, 'episode.json');
      if (!existsSync(file)) continue;
      const episode = JSON.parse(await readFile(file, 'utf8')) as { env?: { episode_id?: string } };
      const id = episode.env?.episode_id;
      if (!id || !['agent_steps.json', 'grade_inputs.json'].every((f) => existsSync(path.join(run, name, f)))) incomplete++;
      if (id) ids.set(id, (ids.get(id) ?? 0) + 1);
    }
    const res = path.join(run, 'results.jsonl');
    if (existsSync(res)) results += (await readFile(res, 'utf8')).split('\n').filter((l) => l.trim()).length;
  }
  return { ids, incomplete, staged, results };
}

async function main() {
  const tasks = pickTasks();
  const out = await mkdtemp(path.join(os.tmpdir(), 'bench-env-soak-'));
  const t0 = performance.now();
  const memoryFile = process.env.ENV_SOAK_MEMORY_FILE ?? `${out}-memory.jsonl`;
  const server = await startServer(out, memoryFile);
  const pid = server.child.pid!;
  const fdsBare = fds(pid);
  // Warm-up: one episode on its own, then the idle figures (the browser launched, no session).
  const warm = await openConn(server.url);
  await finish(warm, tasks[0]!, await reset(warm, tasks[0]!));
  await warm.close();
  // past the 15 s a page kept for a next episode waits (its connection to the sandbox closes with it)
  await sleep(17_000);
  const idleHealth = await health(server.url); // first: its keep-alive connection is open at the end too
  const idle = { fds: fds(pid), rss: serverRssMiB(pid), health: idleHealth, kinds: fdKinds(pid) };
  process.stdout.write(`server pid ${pid} at ${server.url}, ${tasks.length} tasks (oracle 2-4 steps), ${SESSIONS} sessions, ${EPISODES} episodes, a quarter misbehaving; idle timeout ${IDLE_S} s, max steps ${MAX_STEPS}, no screenshot in observations\n`);
  process.stdout.write(`idle after warm-up: RSS ${idle.rss.toFixed(0)} MiB, fds ${idle.fds} (${fdsBare} before Chromium), contexts ${idle.health.browser_contexts}\n\n`);
  process.stdout.write('| episodes | min | server RSS MiB (median) | RSS range | JS heap after collection MiB | V8 heap committed MiB (median) | RSS outside it MiB (median) | Chromium PSS MiB (median) | contexts | pages | server fds | steps/s | server CPU s per step | load avg 1m |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n');

  const rows: { n: number; rss: number; pss: number; sps: number; heap: number }[] = [];
  let next = 1; // episode 0 was the warm-up
  let done = 0;
  let lastT = performance.now();
  let lastSteps = stats.steps;
  let lastCpu = processCpu(pid);
  let sampling = Promise.resolve();
  let readings: { rss: number; pss: number }[] = [];
  let windowStart = Date.now();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  // A reading every tenth of a window; at the window's end its row, from the medians of its readings.
  const sample = (n: number) => {
    sampling = sampling.then(async () => {
      readings.push({ rss: serverRssMiB(pid), pss: descendantsPss(pid, { name: /chrom|headless/ }) / 2 ** 20 });
      if (n % ROW !== 0) return;
      const now = performance.now();
      const sps = (stats.steps - lastSteps) / ((now - lastT) / 1000);
      // the server process's own CPU (its Chromium is apart), per step of the window
      const cpu = processCpu(pid);
      const cpuPerStep = (cpu - lastCpu) / (stats.steps - lastSteps);
      [lastT, lastSteps, lastCpu] = [now, stats.steps, cpu];
      const h = await health(server.url);
      // The server's own readings of the window (one a second): the lowest JS heap is the live heap after the
      // collector's last full pass; RSS swings with V8's sawtooth above it.
      const own = serverMemory(memoryFile, windowStart);
      windowStart = Date.now();
      const row = { n, rss: median(readings.map((r) => r.rss)), pss: median(readings.map((r) => r.pss)), sps, heap: Math.min(...own.map((m) => m.heapUsed)) / 2 ** 20 };
      // Where RSS is: V8's committed heap (it grows and shrinks with the collector's pace) and the rest (native
      // memory: Buffers, malloc, code), medians of the server's own readings.
      const committed = median(own.map((m) => m.heapTotal)) / 2 ** 20;
      const outside = median(own.map((m) => m.rss - m.heapTotal)) / 2 ** 20;
      readings = [];
      rows.push(row);
      process.stdout.write(`| ${n} | ${((now - t0) / 60_000).toFixed(1)} | ${row.rss.toFixed(0)} | ${(Math.min(...own.map((m) => m.rss)) / 2 ** 20).toFixed(0)}-${(Math.max(...own.map((m) => m.rss)) / 2 ** 20).toFixed(0)} | ${row.heap.toFixed(0)} | ${committed.toFixed(0)} | ${outside.toFixed(0)} | ${row.pss.toFixed(0)} | ${h.browser_contexts} | ${h.browser_pages} | ${fds(pid)} | ${sps.toFixed(2)} | ${cpuPerStep.toFixed(3)} | ${os.loadavg()[0]!.toFixed(1)} |\n`);
    });
  };
  const worker = async () => {
    let c = await openConn(server.url);
    while (next <= EPISODES && (performance.now() - t0) / 60_000 < BUDGET_MIN) {
      const k = next++;
      // Readings as episodes start, every session busy (the last row too: not after the drain).
      if (k % Math.max(1, Math.floor(ROW / 10)) === 0) sample(k);
      for (let tries = 0; ; tries++) {
        try {
          c = await episode(server.url, c, k, tasks);
        } catch (error) {
          c.ws.terminate();
          c = await openConn(server.url);
          if (error instanceof Refused && tries < 20) {
            stats.refused++;
            continue;
          }
          stats.unexpected.push(`episode ${k} (${kindOf(k)}): ${error instanceof Error ? error.message : String(error)}`);
        }
        break;
      }
      done++;
    }
    await c.close();
  };
  await Promise.all(Array.from({ length: SESSIONS }, worker));
  await sampling;
  // Keep-alive connections (the evidence client's to the sandbox, both ends in the server's process) close when
  // idle past the sandbox's keep-alive timeout (30 s); pages kept for a next episode close after 15 s idle.
  for (let i = 0; i < 180 && fds(pid) > idle.fds; i++) await sleep(500);
  const endHealth = await health(server.url);
  const end = { fds: fds(pid), rss: serverRssMiB(pid), health: endHealth, kinds: fdKinds(pid) };
  server.child.kill('SIGTERM');
  await new Promise((r) => server.child.once('exit', r));
  const rec = await recorded(out);
  const minutes = (performance.now() - t0) / 60_000;

  const clientFinished = finishedIds.size; // the warm-up's included
  const once = [...finishedIds.keys()].filter((id) => rec.ids.get(id) === 1).length;
  const extra = [...rec.ids.keys()].filter((id) => !finishedIds.has(id)).length;
  const twice = [...rec.ids.values()].filter((v) => v > 1).length;
  const at = (n: number) => rows.find((r) => r.n >= n) ?? rows[0];
  const base = at(300);
  const last = rows[rows.length - 1];
  const within = (a: number, b: number) => Math.abs(a / b - 1) <= 0.1;
  const check = (ok: boolean, what: string) => process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${what}\n`);
  process.stdout.write(`\n${done} episodes (of ${EPISODES}) + 1 warm-up in ${minutes.toFixed(1)} min: ${stats.finished} finished, ${stats.dropped} dropped on purpose, ${stats.steps} steps, ${stats.errorsExpected} error replies expected and got, ${stats.refused} reconnects refused at capacity (a dropped session not yet closed)\n`);
  check(stats.unexpected.length === 0, `no unexpected reply or failure (${stats.unexpected.length}${stats.unexpected.length ? `: ${stats.unexpected.slice(0, 5).join('; ')}` : ''})`);
  check(once === clientFinished && extra === 0 && twice === 0, `every finished episode recorded exactly once: ${clientFinished} finished by the client, ${rec.ids.size} episode.json with an env mark, ${once} of them once, ${extra} not finished by the client, ${twice} twice; the server reported ${server.log.ended} episode ends; results.jsonl rows ${rec.results}`);
  check(rec.incomplete === 0 && rec.staged === 0, `no half-written episode counted: ${rec.incomplete} counted episode dirs incomplete, ${rec.staged} entries left in _work/`);
  check(end.health.browser_contexts === 0 && end.health.browser_pages === 0 && end.health.sessions === 0, `at the end: ${end.health.sessions} sessions, ${end.health.browser_contexts} contexts, ${end.health.browser_pages} pages open`);
  check(end.fds <= idle.fds, `server fds at the end ${end.fds}, idle after warm-up ${idle.fds} (${end.fds - idle.fds} extra${end.fds > idle.fds ? `: ${extraFds(idle.kinds, end.kinds)}` : ''})`);
  if (base && last && last !== base) {
    check(within(last.rss, base.rss), `server RSS flat: ${last.rss.toFixed(0)} MiB in the window to ${last.n} vs ${base.rss.toFixed(0)} in the window to ${base.n} (${((last.rss / base.rss - 1) * 100).toFixed(1)}%)`);
    check(within(last.heap, base.heap), `server JS heap after collection flat: ${last.heap.toFixed(0)} MiB in the window to ${last.n} vs ${base.heap.toFixed(0)} in the window to ${base.n} (${((last.heap / base.heap - 1) * 100).toFixed(1)}%)`);
    check(within(last.pss, base.pss), `Chromium PSS flat: ${last.pss.toFixed(0)} MiB in the window to ${last.n} vs ${base.pss.toFixed(0)} in the window to ${base.n} (${((last.pss / base.pss - 1) * 100).toFixed(1)}%)`);
    // one window's steps/s swings by 10% or more (a window is half a minute on a fast machine): medians of three
    const baseRows = [...new Set([at(200), base, at(400)])].filter((r): r is (typeof rows)[number] => r !== undefined && r !== last);
    const lastRows = rows.slice(-3).filter((r) => !baseRows.includes(r));
    const [sps0, sps1] = [median(baseRows.map((r) => r.sps)), median(lastRows.map((r) => r.sps))];
    const span = (rs: typeof rows) => `${rs.length} window${rs.length > 1 ? 's' : ''} to ${rs.map((r) => r.n).join(', ')}`;
    check(within(sps1, sps0), `steps/s flat: ${sps1.toFixed(2)} (median of the ${span(lastRows)}) vs ${sps0.toFixed(2)} (median of the ${span(baseRows)}) (${((sps1 / sps0 - 1) * 100).toFixed(1)}%); the last window alone ${last.sps.toFixed(2)} vs ${base.sps.toFixed(2)} in the window to ${base.n}`);
  }
  if (server.log.warnings.length) process.stdout.write(`server warnings (${server.log.warnings.length}): ${server.log.warnings.slice(0, 3).join(' | ')}\n`);
  await rm(out, { recursive: true, force: true });
  if (!process.env.ENV_SOAK_MEMORY_FILE) await rm(memoryFile, { force: true });
}

await main();
