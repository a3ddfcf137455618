/**
 * Claim checking at scale: 7,280 recorded episodes (52 sites x 140 tasks) written to a temp dir with realistic
 * sizes (about 7 steps, 10 requests, a few data changes, a page text of a few KB per step, and the step map
 * beside them); then, each in a child process of its own so its peak memory is its own, in the same run:
 *  (0) the files read as text, nothing parsed;
 *  (1) the baseline: every episode's evidence loaded (`loadStepEvidence`: read, parsed, validated, tagged);
 *  (2) the same loads, and three claims decided on each episode at every step prefix, new claim objects for each
 *      episode (a relabel's few tasks: each claim validated, then decided);
 *  (3) the same, with three claims per site decided on all its episodes (written verifiers: validated once).
 * Figures: wall and CPU seconds, peak RSS, and (2) against (1). `BENCH_EPISODES` scales the run down.
 */
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import PQueue from 'p-queue';
import { checkClaim, loadStepEvidence, nodeStore, type Claim } from '../src/index';
import { rng } from '../test/helpers/runs';

const SITES = 52;
const PER_SITE = 140;
const EPISODES = Number(process.env.BENCH_EPISODES ?? SITES * PER_SITE);
const CONCURRENCY = 16;
const self = fileURLToPath(import.meta.url);

type Mode = 'read' | 'load' | 'check' | 'verify';
interface Figures {
  readonly mode: Mode;
  readonly wall: number;
  readonly cpu: number;
  readonly maxRssMB: number;
  readonly checksum: number;
  readonly claims: number;
  readonly holds: number;
}

async function main(dir: string): Promise<void> {
  const run = path.join(dir, 'run');
  say(`load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} on ${os.cpus().length} CPUs`);
  const t0 = performance.now();
  const { bytes, steps } = await generate(run);
  say(`generated ${EPISODES} episodes (${(bytes / 1e6).toFixed(1)} MB of evidence and step maps, ${(steps / EPISODES).toFixed(1)} steps each) in ${sec(performance.now() - t0)}`);
  // the files were just written: every pass finds them in the page cache
  const read = child(run, 'read');
  const load = child(run, 'load');
  const check = child(run, 'check');
  const verify = child(run, 'verify');
  say(`(0) read the files only                   ${show(read)}`);
  say(`(1) load the evidence (the baseline)      ${show(load)}`);
  say(`(2) load + decide ${check.claims} fresh claims   ${show(check)}  (${check.holds} hold)  ${against(check, load)}`);
  say(`(3) load + decide ${verify.claims} site claims    ${show(verify)}  (${verify.holds} hold)  ${against(verify, load)}`);
  for (const f of [check, verify]) if (f.checksum !== load.checksum) throw new Error(`the passes loaded different evidence (${f.checksum} vs ${load.checksum})`);
}

function child(run: string, mode: Mode): Figures {
  const r = spawnSync(process.execPath, ['--import', 'tsx', self, '--child', mode, run], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`${mode} child failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Figures;
}

// One pass over every episode dir, 16 at a time.
async function pass(run: string, mode: Mode): Promise<Figures> {
  const store = nodeStore();
  const start = performance.now();
  const cpu = process.cpuUsage();
  const ids = (await fs.readdir(run)).sort();
  const queue = new PQueue({ concurrency: CONCURRENCY });
  let checksum = 0;
  let claims = 0;
  let holds = 0;
  await Promise.all(ids.map((id) => queue.add(async () => {
    const dir = path.join(run, id);
    if (mode === 'read') {
      for (const f of ['grade_inputs.json', 'episode.json', 'evidence_steps.json']) checksum += (await store.readText(path.join(dir, f))).length;
      return;
    }
    const ev = await loadStepEvidence(store, dir);
    checksum += ev.steps + ev.log.length + ev.changes.length + ev.seen.length;
    if (mode === 'load') return;
    for (const claim of mode === 'check' ? claimsFor(id) : siteClaims(id)) {
      const r = checkClaim(claim, ev);
      claims++;
      if (r.holds) holds++;
    }
  })));
  const used = process.cpuUsage(cpu);
  return { mode, wall: (performance.now() - start) / 1000, cpu: (used.user + used.system) / 1e6, maxRssMB: process.resourceUsage().maxRSS / 1024, checksum, claims, holds };
}

const NOUNS = ['lamp', 'kettle', 'desk chair', 'wool scarf', 'café table', 'notebook', 'phone case', 'garden hose', 'tea set', 'rug'];
const PAGE_WORDS = ['Home', 'Cart', 'Orders', 'Search', 'Price', 'Add to cart', 'In stock', 'Free delivery', 'Reviews',
  'Checkout', 'Account', 'Settings', 'Total', 'Qty', '€', '—', 'Größe', '4.5 stars', 'Sale', 'New arrivals', '12.00', '1,299.50'];

const bySite = new Map<string, Claim[]>();
function siteClaims(id: string): Claim[] {
  const site = id.split('-').slice(1, 3).join('-');
  let got = bySite.get(site);
  if (!got) bySite.set(site, (got = claimsFor(id)));
  return got;
}

// A relabel's claims: something done (a request and the change it made), something found (a page and the answer),
// and something done without a side effect (all / not), on the episode's own site.
function claimsFor(id: string): Claim[] {
  const site = id.split('-').slice(1, 3).join('-');
  const base = `/sites/${site}`;
  const n = Number(site.slice(-2)) % NOUNS.length;
  return [
    { all: [{ request: { method: 'POST', path: `${base}/cart/add`, params: { qty: 2 } } }, { change: { table: 'cart_items', op: 'create', fields: { name: { contains: NOUNS[n]! } } } }] },
    { all: [{ seen: { contains: `${NOUNS[n]} Free delivery` } }, { answer: { number: 10, tolerance: 0.5 } }] },
    { all: [{ seen: { pattern: 'total\\s+\\d' } }, { any: [{ change: { table: 'cart_items', op: 'update', changed: ['qty'] } }, { request: { path: { pattern: '/search$' }, params: { sort: 'price' } } }] }, { not: { request: { method: 'POST', path: `${base}/checkout` } } }] },
  ];
}

// The run on disk: per episode grade_inputs.json, episode.json and evidence_steps.json (no screenshots: claims
// never read them).
async function generate(run: string): Promise<{ bytes: number; steps: number }> {
  await fs.mkdir(run, { recursive: true });
  const next = rng(20261204);
  const queue = new PQueue({ concurrency: 32 });
  const writes: Array<Promise<void>> = [];
  let bytes = 0;
  let steps = 0;
  for (let i = 0; i < EPISODES; i++) {
    const site = `site-${String(i % SITES).padStart(2, '0')}`;
    const taskId = `tg-${site}-${((i * 2654435761) >>> 0).toString(16).padStart(8, '0')}`;
    const ep = episode(next, site);
    steps += ep.map.steps;
    const files = { 'grade_inputs.json': `${JSON.stringify(ep.inputs, null, 1)}\n`, 'episode.json': `${JSON.stringify(ep.summary, null, 1)}\n`, 'evidence_steps.json': `${JSON.stringify(ep.map)}\n` };
    bytes += Object.values(files).reduce((s, t) => s + Buffer.byteLength(t), 0);
    writes.push(queue.add(async () => {
      const dir = path.join(run, taskId);
      await fs.mkdir(dir);
      for (const [name, text] of Object.entries(files)) await fs.writeFile(path.join(dir, name), text);
    }));
  }
  await Promise.all(writes);
  return { bytes, steps };
}

// An episode of 5 to 9 steps: a request or two per step, a change now and then, a page text of 1.5-3 KB per step.
function episode(next: () => number, site: string) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const base = `/sites/${site}`;
  const steps = 5 + Math.floor(next() * 5);
  const done = next() < 0.7;
  const actions: object[] = Array.from({ length: done ? steps - 1 : steps }, () => (next() < 0.6 ? { click: { index: 1 + Math.floor(next() * 40) } } : { type: { index: 3, text: pick(NOUNS), enter: true } }));
  const answer = done && next() < 0.5 ? `The ${pick(NOUNS)} costs 10.0 EUR` : null;
  if (done) actions.push({ done: answer ? { answer } : {} });
  const log: object[] = [];
  const logSteps: number[] = [];
  const changes: object[] = [];
  const changeSteps: number[] = [];
  for (let k = 0; log.length < 10 || k < steps; k++) {
    const step = Math.min(k, steps);
    const r = next();
    if (r < 0.5) log.push({ method: 'GET', path: `${base}/search`, query: { q: pick(NOUNS), sort: next() < 0.3 ? 'price' : '' }, body: null, status: 200 });
    else if (r < 0.8) log.push({ method: 'GET', path: `${base}/items/${Math.floor(next() * 200)}`, query: {}, body: null, status: 200 });
    else {
      log.push({ method: 'POST', path: `${base}/cart/add`, query: {}, body: { csrf_token: 'a1b2c3d4e5', item_id: Math.floor(next() * 200), qty: 1 + Math.floor(next() * 3) }, status: next() < 0.9 ? 303 : 422 });
      const id = Math.floor(next() * 200);
      changes.push(next() < 0.6
        ? { table: 'cart_items', op: 'create', before: null, after: { id, name: pick(NOUNS), qty: 1, price: 12 }, changed: { id, name: pick(NOUNS), qty: 1, price: 12 } }
        : { table: 'cart_items', op: 'update', before: { id, qty: 1 }, after: { id, qty: 2 }, changed: { qty: [1, 2] } });
      changeSteps.push(step);
    }
    logSteps.push(step);
  }
  const page = () => {
    const words: string[] = [];
    for (let size = 0, target = 1500 + next() * 1500; size < target; size += words.at(-1)!.length + 1) words.push(next() < 0.7 ? pick(PAGE_WORDS) : pick(NOUNS));
    return words.join(' ');
  };
  const seen = Array.from({ length: done ? steps : steps + 1 }, page);
  return {
    inputs: { actions, answer, log, changes, seen },
    summary: { outcome: done ? 'done' : 'max_steps', steps, answer },
    map: { version: 1, steps, answer_step: done ? steps : null, log: logSteps, changes: changeSteps, seen: seen.map((_, i) => Math.min(i, steps)) },
  };
}

// "1.62x cpu, 1.01x peak RSS, 180 µs cpu per claim"
function against(f: Figures, base: Figures): string {
  return `${(f.wall / base.wall).toFixed(2)}x wall, ${(f.cpu / base.cpu).toFixed(2)}x cpu, ${(f.maxRssMB / base.maxRssMB).toFixed(2)}x peak RSS ` +
    `of the baseline; ${(((f.cpu - base.cpu) / f.claims) * 1e6).toFixed(0)} µs cpu per claim`;
}

function show(f: Figures): string {
  return `${sec(f.wall * 1000)} wall, ${sec(f.cpu * 1000)} cpu, peak RSS ${f.maxRssMB.toFixed(0)} MB`;
}

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

function sec(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

if (process.argv[2] === '--child') {
  process.stdout.write(JSON.stringify(await pass(process.argv[4]!, process.argv[3] as Mode)));
  process.exit(0);
}

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-claims-'));
try {
  await main(root);
} finally {
  await fs.rm(root, { recursive: true, force: true });
}
