/**
 * The sandbox server: how long a new session takes (create it, then its first page, which opens the session's
 * own copy of the site's data), and requests per second for typical pages under 8 concurrent clients, against
 * a baseline measured in the same run on the same server stack (`/_admin/ping`, a static handler).
 */
import { SESSION_COOKIE, startSandbox } from '../sandbox/index';

const CLIENTS = 8;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

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
try {
  const { url } = sandbox;
  for (const site of ['shop-01', 'mail-01']) await get(`${url}/sites/${site}/`, await newSession(url)); // build the sites' data once

  const times: Record<string, number[]> = { create: [], firstPage: [] };
  for (let i = 0; i < 300; i++) {
    const site = i % 2 ? 'mail-01' : 'shop-01';
    const t0 = performance.now();
    const id = await newSession(url);
    const t1 = performance.now();
    await get(`${url}/sites/${site}/`, id);
    times.create?.push(t1 - t0);
    times.firstPage?.push(performance.now() - t1);
    await fetch(`${url}/_admin/sessions/${id}`, { method: 'DELETE' }).then((r) => r.arrayBuffer());
  }
  const warm: number[] = [];
  const id = await newSession(url);
  await get(`${url}/sites/shop-01/`, id);
  for (let i = 0; i < 300; i++) {
    const t0 = performance.now();
    await get(`${url}/sites/shop-01/`, id);
    warm.push(performance.now() - t0);
  }
  const fmt = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return `p50 ${quantile(s, 0.5).toFixed(2)} ms, p95 ${quantile(s, 0.95).toFixed(2)} ms`;
  };
  const firstPage = [...(times.firstPage ?? [])].sort((a, b) => a - b);
  const warmSorted = [...warm].sort((a, b) => a - b);
  process.stdout.write(`session: create (POST /_admin/sessions)      ${fmt(times.create ?? [])}\n`);
  process.stdout.write(`session: first page (opens its data copy)   ${fmt(times.firstPage ?? [])}\n`);
  process.stdout.write(`baseline: same page, session already open   ${fmt(warm)}\n`);
  process.stdout.write(`session open cost ≈ first page - warm page: p50 ${(quantile(firstPage, 0.5) - quantile(warmSorted, 0.5)).toFixed(2)} ms\n`);

  const sessions = await Promise.all(Array.from({ length: CLIENTS }, () => newSession(url)));
  const baseline = await throughput(url, ['/_admin/ping'], sessions);
  const shop = await throughput(url, ['/sites/shop-01/products', '/sites/shop-01/products?q=lamp&sort=price_asc', '/sites/shop-01/products/3'], sessions);
  const mail = await throughput(url, ['/sites/mail-01/', '/sites/mail-01/messages/5', '/sites/mail-01/contacts'], sessions);
  process.stdout.write(`throughput, ${CLIENTS} concurrent clients, ${SECONDS} s each:\n`);
  process.stdout.write(`  baseline /_admin/ping (static handler)  ${baseline.toFixed(0)} req/s\n`);
  process.stdout.write(`  shop pages (list, search+sort, detail)  ${shop.toFixed(0)} req/s  (${(shop / baseline).toFixed(2)}x baseline)\n`);
  process.stdout.write(`  mail pages (inbox, message, contacts)   ${mail.toFixed(0)} req/s  (${(mail / baseline).toFixed(2)}x baseline)\n`);
} finally {
  await sandbox.close();
}
