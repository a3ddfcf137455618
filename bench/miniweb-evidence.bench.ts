/**
 * What MiniWeb's evidence costs per episode as its tables grow (the real database has tables of 1-2M rows): a fake
 * MiniWeb (test/fakes/miniweb) whose `forums_posts` base table holds `MINIWEB_ROWS` extra rows (default
 * 0,10000,100000,1000000), one session per episode that votes on a post and writes a new one, then the evidence
 * provider's calls timed: `open` (a fresh session), `startRows` (the site's small tables), `collect` (the log, the
 * overlay against its base rows, the recorder's stream; called after every step) and `close` (the reset). Median ms of
 * `EPISODES` episodes per size, and the ratio to the smallest size in the same run: flat means no call reads a table
 * whole.
 */
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { miniwebEvidence } from '../src/index';
import { startFakeMiniweb } from '../test/fakes/miniweb/index';

const SIZES = (process.env.MINIWEB_ROWS ?? '0,10000,100000,1000000').split(',').map(Number);
const EPISODES = Number(process.env.EPISODES ?? 20);
const COLLECTS = 5; // collects per episode, as the step map asks after each step

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed<T>(work: () => Promise<T>, into: number[]): Promise<T> {
  const t0 = performance.now();
  const out = await work();
  into.push(performance.now() - t0);
  return out;
}

async function measure(rows: number): Promise<Record<string, number>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mw-bench-'));
  const t0 = performance.now();
  const fake = await startFakeMiniweb({ dir, ...(rows ? { extraRows: { table: 'forums_posts', count: rows } } : {}) });
  const seeded = performance.now() - t0;
  const evidence = miniwebEvidence({ url: fake.url, database: fake.database });
  const times = { open: [] as number[], startRows: [] as number[], collect: [] as number[], close: [] as number[] };
  try {
    for (let e = 0; e < EPISODES + 1; e++) {
      const session = await timed(() => evidence.open({ site: 'forums', taskId: `bench-${e}`, baseUrl: fake.url }), times.open);
      await timed(() => session.startRows!(), times.startRows);
      const cookie = `session=${session.cookies[0]!.value}`;
      const post = (p: string, body: string, type: string) => fetch(`${fake.url}${p}`, { method: 'POST', headers: { cookie, 'content-type': type }, body, redirect: 'manual' }).then((r) => r.body?.cancel());
      await post('/sites/forums/api/posts/3/vote', '{"direction":"up"}', 'application/json');
      await post('/sites/forums/submit', `subreddit=boardgames&title=Bench+post+${e}&body=x`, 'application/x-www-form-urlencoded');
      for (let c = 0; c < COLLECTS; c++) {
        const got = await timed(() => session.collect(), times.collect);
        if (got.changes.length !== 2) throw new Error(`episode ${e}: ${got.changes.length} changes, expected 2`);
      }
      await timed(() => session.close!(), times.close);
      if (e === 0) for (const k of Object.keys(times) as Array<keyof typeof times>) times[k].length = 0; // warm-up
    }
  } finally {
    evidence.close();
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  }
  return { seeded, open: median(times.open), startRows: median(times.startRows), collect: median(times.collect), close: median(times.close) };
}

const results: Array<{ rows: number } & Record<string, number>> = [];
for (const rows of SIZES) results.push({ rows, ...(await measure(rows)) });
const base = results[0]!;
process.stdout.write(`MiniWeb evidence per call, median ms of ${EPISODES} episodes (${COLLECTS} collects each); x: ratio to ${base.rows} extra rows\n`);
process.stdout.write('extra rows | seed s | open | startRows | collect | close | collect x | per episode (open+start+5 collects+close) x\n');
const episodeMs = (r: Record<string, number>) => r.open! + r.startRows! + COLLECTS * r.collect! + r.close!;
for (const r of results) {
  process.stdout.write(
    `${String(r.rows).padStart(10)} | ${(r.seeded! / 1000).toFixed(1).padStart(6)} | ${r.open!.toFixed(2)} | ${r.startRows!.toFixed(2)} | ${r.collect!.toFixed(2)} | ${r.close!.toFixed(2)} | ` +
      `${(r.collect! / base.collect!).toFixed(2)} | ${episodeMs(r).toFixed(1)} ms, ${(episodeMs(r) / episodeMs(base)).toFixed(2)}\n`,
  );
}
