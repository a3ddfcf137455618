/**
 * `npm run bench -- attempts`: what several tries per task buy, on the sandbox with the stand-in agent at its
 * default failure rate (30%, the CLI's `--failure-rate`) and the stand-in judge at its default noise (10%). One
 * pipeline run with k = 4 tries per task; k = 1 and 2 are its first tries (each try draws on its own, so the first k
 * tries of a run of 4 are a run of k). Per k: tasks with at least one successful try, rows (training steps, the
 * shortest successful try of each task, `pick: 'shortest'`) per proposed task and per 100 episodes, pass@k
 * (`readPassAtK`), and the agent time (the episodes' own durations) per row gained over k = 1.
 * Sizes: BENCH_SITES (default 3), BENCH_PER_SITE (default 8), BENCH_CONCURRENCY (default 4).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sandboxSetup } from '../sandbox/index';
import { nodeStore, readPassAtK, runLayout, runPipeline } from '../src/index';
import { pipelineLayout } from '../src/pipeline';

const K = 4;
const SHOWN = [1, 2, 4];
const dir = await mkdtemp(path.join(tmpdir(), 'attempts-bench-'));
const layout = pipelineLayout(dir);
const sb = await sandboxSetup({ siteCount: Number(process.env.BENCH_SITES ?? 3), failureRate: 0.3, judgeNoise: 0.1 });
try {
  const perSite = Number(process.env.BENCH_PER_SITE ?? 8);
  process.stdout.write(`${sb.describe.agent}\n${sb.describe.judge}\n`);
  process.stdout.write(`running ${sb.sites.length} sites x ${perSite} tasks x ${K} tries into ${dir}\n`);
  const t0 = Date.now();
  await runPipeline({
    dir, source: sb.source, evidence: sb.evidence, sites: sb.sites, proposer: sb.proposer, judge: sb.judge, policy: sb.policy,
    perSite, concurrency: Number(process.env.BENCH_CONCURRENCY ?? 4), attempts: K, only: ['propose', 'attempt', 'judge'],
  });
  process.stdout.write(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s\n\n`);

  // Per task and try: judged SUCCESS, its rows, the agent's time on it.
  const tasks = (await readFile(layout.tasks, 'utf8')).split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l).task_id as string);
  const tries = new Map<string, Array<{ ok: boolean; rows: number; ms: number }>>();
  for (const id of tasks) {
    const list = [];
    for (let n = 1; n <= K; n++) {
      const run = runLayout(layout.run).tryDir(n);
      const record = JSON.parse(await readFile(path.join(`${run}_judge`, `${id}.json`), 'utf8'));
      const episode = JSON.parse(await readFile(path.join(run, id, 'episode.json'), 'utf8'));
      const rows = (await readFile(path.join(run, id, 'rows', 'rows.jsonl'), 'utf8').catch(() => '')).split('\n').filter((l) => l.trim()).length;
      list.push({ ok: record.predicted_label === 1, rows, ms: episode.timings.ms as number });
    }
    tries.set(id, list);
  }
  const pass = await readPassAtK({ run: layout.run, store: nodeStore() });
  const at = (k: number) => {
    let solved = 0;
    let rows = 0;
    let ms = 0;
    for (const list of tries.values()) {
      const first = list.slice(0, k);
      ms += first.reduce((s, t) => s + t.ms, 0);
      const ok = first.filter((t) => t.ok);
      if (ok.length) {
        solved++;
        rows += Math.min(...ok.map((t) => t.rows));
      }
    }
    return { solved, rows, ms, episodes: tasks.length * k };
  };
  const base = at(1);
  process.stdout.write(`${tasks.length} proposed tasks\n`);
  process.stdout.write(' k | solved (>=1 success) | rows | rows/task | rows/100 episodes | pass@k [95% CI]      | agent s | agent s per extra row\n');
  for (const k of SHOWN) {
    const f = at(k);
    const p = pass.overall.points.find((q) => q.k === k)!;
    const extra = f.rows - base.rows;
    const perExtra = k === 1 ? '-' : extra > 0 ? ((f.ms - base.ms) / 1000 / extra).toFixed(2) : 'no extra row';
    process.stdout.write(
      `${String(k).padStart(2)} | ${`${f.solved}/${tasks.length}`.padStart(20)} | ${String(f.rows).padStart(4)} | ${(f.rows / tasks.length).toFixed(2).padStart(9)} | ` +
        `${((100 * f.rows) / f.episodes).toFixed(1).padStart(17)} | ${`${p.estimate.toFixed(3)} [${p.low.toFixed(3)}, ${p.high.toFixed(3)}]`.padStart(20)} | ` +
        `${(f.ms / 1000).toFixed(1).padStart(7)} | ${perExtra}\n`,
    );
  }
  process.stdout.write(`\nsolved sometimes but not always (of ${K} tries): ${pass.overall.sometimes}/${pass.overall.tasks} (${Math.round(pass.overall.sometimesShare * 100)}%)\n`);
  process.stdout.write('stand-ins: the agent replays known solutions and the judge grades with the verifiers, flipping 10% on purpose; figures show the mechanics, not a model.\n');
} finally {
  await sb.close();
  if (!process.env.BENCH_KEEP) await rm(dir, { recursive: true, force: true });
}
