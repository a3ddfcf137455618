/**
 * The sandbox server: how long a new session takes (create it, then its first page, which opens the session's
 * own copy of the site's data), and requests per second for typical pages under 8 concurrent clients, against
 * a baseline measured in the same run on the same server stack (`/_admin/ping`, a static handler). Prints the
 * machine's load average too: on a shared machine the absolute figures move, the ratios much less.
 */
import { availableParallelism, loadavg } from 'node:os';
import { SESSION_COOKIE, startSandbox } from '../sandbox/index';
import { openCopy } from '../sandbox/database';

const CLIENTS = 8;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 1);
const ROUNDS = 5;

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

async function newSession(url: string): Promise<string> {
  const r = await fetch(`${url}/_admin/sessions`, { method: 'POST' });
  return ((await r.json()) as { id: string }).id;
}

async function get(url: string, cookie: string): Promise<void> {
  const r = await fetch(url, { headers: { cookie: `${SESSION_COOKIE}=${cookie}` } });
  if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
  await r.arrayBuffer();
}

async function throughput(url: string, paths: readonly string[], sessions: readonly string[]): Promise<number> {
  const end = performance.now() + SECONDS * 1000;
  let done = 0;
  await Promise.all(
    sessions.map(async (cookie, c) => {
      for (let i = c; performance.now() < end; i++) {
        await get(url + paths[i % paths.length], cookie);
        done++;
      }
    }),
  );
  return done / SECONDS;
}

const sandbox = await startSandbox({ port: 0 });
process.stdout.write(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${availableParallelism()} cores\n`);
try {
  const { url } = sandbox;
  for (const site of ['shop-01', 'mail-01']) await get(`${url}/sites/${site}/`, await newSession(url)); // build the sites' data once

  // Paired: each new session's first page, then the same page again at once, so load drift hits both alike.
  const create: number[] = [];
  const first: number[] = [];
  const again: number[] = [];
  for (let i = 0; i < 300; i++) {
    const page = `${url}/sites/${i % 2 ? 'mail-01' : 'shop-01'}/`;
    const t0 = performance.now();
    const id = await newSession(url);
    const t1 = performance.now();
    await get(page, id);
    const t2 = performance.now();
    await get(page, id);
    create.push(t1 - t0);
    first.push(t2 - t1);
    again.push(performance.now() - t2);
    await fetch(`${url}/_admin/sessions/${id}`, { method: 'DELETE' }).then((r) => r.arrayBuffer());
  }
  function fmt(xs: number[]): string {
    const s = [...xs].sort((a, b) => a - b);
    return `p50 ${quantile(s, 0.5).toFixed(2)} ms, p95 ${quantile(s, 0.95).toFixed(2)} ms`;
  }
  process.stdout.write(`session: create (POST /_admin/sessions)           ${fmt(create)}\n`);
  process.stdout.write(`session: first page (opens its copy of the data)  ${fmt(first)}\n`);
  process.stdout.write(`baseline: the same page again in that session     ${fmt(again)}\n`);
  process.stdout.write(`session open cost (first - again, paired)         ${fmt(first.map((f, i) => f - (again[i] ?? 0)))}\n`);
  const copies: number[] = [];
  for (const site of ['shop-01', 'mail-01']) {
    const snapshot = sandbox.catalog.site(site)?.snapshot as Buffer;
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      openCopy(snapshot).close();
      copies.push(performance.now() - t0);
    }
  }
  process.stdout.write(`in-process: open a session's copy of a site's data  ${fmt(copies)}\n`);

  // Rounds alternate the three loads so that drift in the machine's load hits them alike; medians are reported.
  const sessions = await Promise.all(Array.from({ length: CLIENTS }, () => newSession(url)));
  const runs: Record<'baseline' | 'shop' | 'mail', number[]> = { baseline: [], shop: [], mail: [] };
  for (let r = 0; r < ROUNDS; r++) {
    runs.baseline.push(await throughput(url, ['/_admin/ping'], sessions));
    runs.shop.push(await throughput(url, ['/sites/shop-01/products', '/sites/shop-01/products?q=lamp&sort=price_asc', '/sites/shop-01/products/3'], sessions));
    runs.mail.push(await throughput(url, ['/sites/mail-01/', '/sites/mail-01/messages/5', '/sites/mail-01/contacts'], sessions));
  }
  const median = (xs: number[]) => quantile([...xs].sort((a, b) => a - b), 0.5);
  const [baseline, shop, mail] = [median(runs.baseline), median(runs.shop), median(runs.mail)];
  process.stdout.write(`throughput, ${CLIENTS} concurrent clients, median of ${ROUNDS} rounds of ${SECONDS} s:\n`);
  process.stdout.write(`  baseline /_admin/ping (static handler)  ${baseline.toFixed(0)} req/s\n`);
  process.stdout.write(`  shop pages (list, search+sort, detail)  ${shop.toFixed(0)} req/s  (${(shop / baseline).toFixed(2)}x baseline)\n`);
  process.stdout.write(`  mail pages (inbox, message, contacts)   ${mail.toFixed(0)} req/s  (${(mail / baseline).toFixed(2)}x baseline)\n`);
} finally {
  await sandbox.close();
}
