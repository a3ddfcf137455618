/**
 * The judge and rows steps at full scale, beside the seed's Python doing the same work in the same run.
 * On disk, 7,280 recorded episodes (52 sites x 140 tasks) with realistic grade inputs, a few tiny PNGs and
 * rows; then
 *  (a) the judge prompt and screenshot choice for every episode (read + parse + format), vs the seed's
 *      judge_episode up to its model call;
 *  (b) selecting and copying 27,644 steps of rows (runRows), vs the seed's cmd_rows;
 *  (c) the full runJudge with a zero-latency model: wall time and peak RSS (in a child process of its own).
 * `BENCH_EPISODES` scales the run down for a quick look.
 */
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import PQueue from 'p-queue';
import { buildJudgeRequest, runJudge, loadInstructions, runRows, type LanguageModel } from '../src/index';
import { PyFloat } from '../src/core/py/float';
import { pyDumps } from '../src/core/py/dumps';
import { cpLength } from '../src/core/py/text';
import { makeImage } from '../test/fakes/index';
import { runPython } from '../test/helpers/python';
import { rng, rowsText } from '../test/helpers/runs';

const SITES = 52;
const PER_SITE = 140;
const EPISODES = Number(process.env.BENCH_EPISODES ?? SITES * PER_SITE);
const BUDGET = 27644;
const self = fileURLToPath(import.meta.url);

// A model that answers at once: SUCCESS for about 60% of the prompts, by a hash of the prompt.
const instantJudge: LanguageModel = {
  provider: 'bench',
  modelId: 'gemini-3.5-flash',
  async complete(prompt) {
    let h = 0;
    for (let i = 0; i < prompt.length; i += 7) h = (h * 31 + prompt.charCodeAt(i)) >>> 0;
    const verdict = h % 10 < 6 ? 'SUCCESS' : 'NOT SUCCESS';
    return { text: `{"parts": [], "verdict": "${verdict}"}`, usage: { inputTokens: 0, outputTokens: 0 }, model: 'gemini-3.5-flash' };
  },
};

async function main(dir: string): Promise<void> {
  const run = path.join(dir, 'run');
  say(`load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} on ${os.cpus().length} CPUs`);
  const t0 = performance.now();
  const { tasksFile, rows, bytes } = await generate(run);
  say(`generated ${EPISODES} episodes (${(bytes / 1e6).toFixed(1)} MB of grade inputs and rows, ${rows} rows) in ${sec(performance.now() - t0)}`);

  // (a) prompts and screenshots
  const tasks = await loadInstructions(run);
  const listEpisodes = async () =>
    (await fs.readdir(run, { withFileTypes: true })).filter((e) => e.isDirectory() && tasks.has(e.name)).map((e) => e.name).sort();
  const buildAll = async (concurrency: number) => {
    const ids = await listEpisodes();
    const queue = new PQueue({ concurrency });
    let checksum = 0;
    await Promise.all(
      ids.map((id) =>
        queue.add(async () => {
          const request = await buildJudgeRequest(path.join(run, id), tasks.get(id)!.instruction);
          if (request) checksum += cpLength(request.prompt) + request.screenshots.length;
        }),
      ),
    );
    return checksum;
  };
  await buildAll(16); // warm-up: JIT and page cache, as the seed's run below has the page cache warm too
  const [seq, seqSum] = await timed(() => buildAll(1));
  const [par, parSum] = await timed(() => buildAll(16));
  const py = runPython<Timing & { checksum: number }>(PY_PROMPTS, { run });
  const same = seqSum === py.checksum && parSum === py.checksum;
  say(`(a) judge prompt + screenshots for ${(await listEpisodes()).length} episodes (checksums ${same ? 'equal' : `DIFFER: ${seqSum} vs ${py.checksum}`})`);
  say(`    seed (Python)        ${compare(py)}`);
  say(`    ours, one at a time  ${compare(seq, py)}`);
  say(`    ours, 16 at a time   ${compare(par, py)}`);

  // (c) the full judge run, in a child process so its peak RSS is its own.
  const child = spawnSync(process.execPath, ['--import', 'tsx', self, '--judge-child', run], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (child.status !== 0) throw new Error(`judge child failed: ${child.stderr}`);
  const judged = JSON.parse(child.stdout) as { seconds: number; maxRssMB: number; summary: Record<string, unknown> };
  say(`(c) runJudge over ${EPISODES} episodes, zero-latency model, 16 workers (aim: under 20 s and 300 MB)`);
  say(`    ${judged.seconds.toFixed(2)} s wall, peak RSS ${judged.maxRssMB.toFixed(0)} MB: ` +
    pyDumps(judged.summary, { floatKeys: new Set(['rate']) }));

  // (b) rows: 27,644 steps
  const pyRows = runPython<Timing & { line: string }>(PY_ROWS, { run, out: path.join(dir, 'rows-py'), tasks: tasksFile, budget: BUDGET });
  const [rowsTime, selection] = await timed(() => runRows({ run, out: path.join(dir, 'rows-ts'), tasks: tasksFile, budget: BUDGET }));
  const sameReport = `${pyDumps(selection.report)}\n` === pyRows.line;
  say(`(b) rows for ${BUDGET} steps: ${selection.report.selected_trajectories} episodes, ${selection.report.selected_rows} rows of ` +
    `${selection.report.candidates} candidates (reports ${sameReport ? 'equal' : `DIFFER: ${pyRows.line.trim()}`})`);
  say(`    seed cmd_rows (copies)       ${compare(pyRows)}`);
  say(`    ours runRows (hard links)  ${compare(rowsTime, pyRows)}`);
}

const PY_PROMPTS = `
import time
from pathlib import Path
import seed_bridge as b
seed = b.seed
run = Path(INPUT["run"])
ins = seed._instructions(run)
t0, c0 = time.perf_counter(), time.process_time()
checksum = 0
for ep in [p for p in sorted(run.iterdir()) if p.is_dir() and p.name in ins]:
    # judge_episode up to its model call
    gi = ep / "grade_inputs.json"
    if not gi.exists():
        continue
    g = json.loads(gi.read_text())
    acts = seed._fmt_actions(g.get("actions"))
    prompt = seed.PROMPT_JUDGE.format(task=ins[ep.name], n_act=len(acts), actions="\\n".join(acts) or "(none)",
                                      answer=(g.get("answer") or "(none)")[:1500], log=seed._fmt_log(g.get("log")),
                                      changes=seed._fmt_changes(g.get("changes")), seen=seed._last_seen(g.get("seen"))[:2500])
    images = [str(p) for p in seed._shots(ep)]
    checksum += len(prompt) + len(images)
emit({"wall": (time.perf_counter() - t0) * 1000, "cpu": (time.process_time() - c0) * 1000, "checksum": checksum})
`;

const PY_ROWS = `
import argparse, contextlib, io, time
import seed_bridge as b
buf = io.StringIO()
t0, c0 = time.perf_counter(), time.process_time()
with contextlib.redirect_stdout(buf):
    b.seed.cmd_rows(argparse.Namespace(run=INPUT["run"], out=INPUT["out"], tasks=INPUT["tasks"], budget=INPUT["budget"]))
emit({"wall": (time.perf_counter() - t0) * 1000, "cpu": (time.process_time() - c0) * 1000, "line": buf.getvalue()})
`;

// The run on disk: tasks.jsonl, and per episode grade_inputs.json, screenshots/step_<n>.png + final.png, and
// rows/{rows.jsonl, episode.json, step_<i>.png}. PNGs are hard links to a few real tiny images.
async function generate(run: string): Promise<{ tasksFile: string; rows: number; bytes: number }> {
  await fs.mkdir(run, { recursive: true });
  const pngs = await Promise.all([0, 1, 2, 3].map(async (seed) => {
    const file = path.join(run, '..', `shot-${seed}.png`);
    await fs.writeFile(file, (await makeImage({ seed })).data);
    return file;
  }));
  const next = rng(20261008);
  const tasks: string[] = [];
  let rows = 0;
  let bytes = 0;
  const queue = new PQueue({ concurrency: 32 });
  const writes: Array<Promise<void>> = [];
  for (let i = 0; i < EPISODES; i++) {
    const site = `site-${String(i % SITES).padStart(2, '0')}`;
    const taskId = `tg-${site}-${((i * 2654435761) >>> 0).toString(16).padStart(8, '0')}`;
    tasks.push(JSON.stringify({ kind: 'proposed', task_id: taskId, site, sites: [site], macro: 'proposed', macros: [],
      instruction: `Task ${i}: find the price of item ${i % 97} and add two to the cart`, start_path: `/sites/${site}/`,
      task_kind: i % 5 < 2 ? 'info' : 'action', verifier: null }));
    const gradeInputs = realisticGradeInputs(next, site);
    const shots = 2 + Math.floor(next() * 7);
    const n = 1 + Math.floor(next() * 15);
    const rowText = rowsText(n, taskId);
    rows += n;
    bytes += gradeInputs.length + rowText.length;
    writes.push(queue.add(async () => {
      const ep = path.join(run, taskId);
      await fs.mkdir(path.join(ep, 'screenshots'), { recursive: true });
      await fs.mkdir(path.join(ep, 'rows'));
      await fs.writeFile(path.join(ep, 'grade_inputs.json'), gradeInputs);
      for (let s = 0; s < shots; s++) await fs.link(pngs[s % 4]!, path.join(ep, 'screenshots', `step_${s}.png`));
      await fs.link(pngs[3]!, path.join(ep, 'final.png'));
      await fs.writeFile(path.join(ep, 'rows', 'rows.jsonl'), rowText);
      await fs.writeFile(path.join(ep, 'rows', 'episode.json'), JSON.stringify({ task_id: taskId, steps: n }));
      for (let s = 0; s < n; s++) await fs.link(pngs[s % 4]!, path.join(ep, 'rows', `step_${s}.png`));
    }));
  }
  await Promise.all(writes);
  const tasksFile = path.join(run, 'tasks.jsonl');
  await fs.writeFile(tasksFile, tasks.map((t) => `${t}\n`).join(''));
  return { tasksFile, rows, bytes };
}

const NOUNS = ['lamp', 'kettle', 'desk chair', 'wool scarf', 'café table', 'notebook', 'phone case', 'garden hose', 'tea set', 'rug'];
const PAGE_WORDS = ['Home', 'Cart', 'Orders', 'Search', 'Price', 'Add to cart', 'In stock', 'Free delivery', 'Reviews',
  'Checkout', 'Account', 'Settings', 'Total', 'Qty', '€', '—', 'Größe', '4.5 stars', 'Sale', 'New arrivals'];

// Evidence shaped like a real episode: ~10-15 actions, 10-40 requests with queries and form bodies (prices as
// integral floats, as Python servers write them), a few data changes, and 2-3 KB of screen text.
function realisticGradeInputs(next: () => number, site: string): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const base = `/sites/${site}`;
  const actions = Array.from({ length: 10 + Math.floor(next() * 6) }, (_, i) => {
    const r = next();
    if (r < 0.4) return { click: { index: 1 + Math.floor(next() * 40) } };
    if (r < 0.6) return { type: { index: 2 + Math.floor(next() * 10), text: pick(NOUNS), enter: next() < 0.5 } };
    if (r < 0.7) return { select: { index: 5, option: pick(['Price: low to high', 'Newest', 'Rating']) } };
    if (r < 0.8) return { scroll: { direction: pick(['down', 'up']) } };
    if (r < 0.9) return { goto: { path: `${base}/items/${i}` } };
    return { back: {} };
  });
  actions.push({ done: { answer: next() < 0.5 ? `The ${pick(NOUNS)} costs 10.0 EUR` : '' } } as never);
  const log = Array.from({ length: 10 + Math.floor(next() * 31) }, () => {
    const r = next();
    if (r < 0.25) return { method: 'GET', path: `${base}/static/app.${pick(['css', 'js'])}`, query: {}, body: null, status: 200 };
    if (r < 0.6) return { method: 'GET', path: `${base}/search`, query: { q: pick(NOUNS), page: String(1 + Math.floor(next() * 3)), sort: next() < 0.3 ? 'price' : '' }, body: null, status: 200 };
    if (r < 0.8) return { method: 'GET', path: `${base}/items/${Math.floor(next() * 200)}`, query: {}, body: null, status: 200 };
    return { method: 'POST', path: `${base}/cart/add`, query: {}, body: { csrf_token: 'a1b2c3d4e5', item_id: Math.floor(next() * 200), qty: 1 + Math.floor(next() * 3), price: new PyFloat(5 + Math.floor(next() * 90)), note: '' }, status: 302 };
  });
  const changes = Array.from({ length: Math.floor(next() * 4) }, () => {
    const id = Math.floor(next() * 200);
    return next() < 0.6
      ? { table: 'cart_items', op: 'create', before: null, after: { id, name: pick(NOUNS), qty: 1, price: new PyFloat(12) }, changed: { name: pick(NOUNS), qty: 1, price: new PyFloat(12) } }
      : { table: 'cart_items', op: 'update', before: { id, qty: 1 }, after: { id, qty: 2 }, changed: { qty: [1, 2] } };
  });
  const pageText = () => Array.from({ length: 380 + Math.floor(next() * 160) }, () => (next() < 0.7 ? pick(PAGE_WORDS) : pick(NOUNS))).join(' ');
  const seen = [pageText(), next() < 0.1 ? { items: [{ id: 3, name: pick(NOUNS), price: new PyFloat(10) }], total: 1 } : pageText()];
  return pyDumps({ actions, answer: next() < 0.5 ? `The ${pick(NOUNS)} costs 10.0 EUR` : '', log, changes, seen }, { ensureAscii: false });
}

interface Timing {
  /** Wall-clock milliseconds. */
  readonly wall: number;
  /** CPU milliseconds of the whole process (user + system), less sensitive to a busy machine. */
  readonly cpu: number;
}

async function timed<T>(work: () => Promise<T>): Promise<[Timing, T]> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return [{ wall: performance.now() - start, cpu: (used.user + used.system) / 1000 }, value];
}

// "1.23 s wall, 1.01 s cpu (4.5x / 3.9x faster than the seed)"
function compare(ours: Timing, seed?: Timing): string {
  const base = `${sec(ours.wall)} wall, ${sec(ours.cpu)} cpu`;
  if (!seed) return base;
  return `${base}  (${(seed.wall / ours.wall).toFixed(1)}x wall, ${(seed.cpu / ours.cpu).toFixed(1)}x cpu faster than the seed)`;
}

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

function sec(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}


if (process.argv[2] === '--judge-child') {
  const start = performance.now();
  const { summary } = await runJudge({ run: process.argv[3]!, llm: instantJudge, workers: 16 });
  const seconds = (performance.now() - start) / 1000;
  process.stdout.write(JSON.stringify({ seconds, maxRssMB: process.resourceUsage().maxRSS / 1024, summary }));
  process.exit(0);
}

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-foundation-'));
try {
  await main(root);
} finally {
  await fs.rm(root, { recursive: true, force: true });
}
