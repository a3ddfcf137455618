/**
 * Several tries per task on the sandbox, in real Chromium, with the stand-in agent failing half its tries on its own
 * draw per task and try: k = 4 solves more tasks than k = 1 on the same tasks; pass@k in the pipeline's summary and in
 * the report equals a recomputation from the judge records on disk; `pick: 'shortest'` rows are each task's shortest
 * successful try, `all` every one; the `rollouts` config read back by hyparquet has every try once, groups whole in a
 * file; `taskgen attempt --attempts 2` killed with SIGKILL and run again makes the same tries, none twice.
 */
import { existsSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oraclePolicy, sandboxEvidence, sandboxJudge, sandboxProposer, sandboxSource, sandboxVerifierWriter, startSandbox, type SandboxServer } from '../sandbox/index';
import { browserHost, checkClaim, loadStepEvidence, nodeStore, readWrittenVerifiers, runExport, runLayout, runPipeline, runRows, type BrowserHost, type PipelineOptions, type PipelineResult, type Policy } from '../src/index';
import { finish, spawnScript } from './helpers/cli';

let sandbox: SandboxServer;
let host: BrowserHost;
let tmp: string;
let config: PipelineOptions;
let four: PipelineResult;
let ids: string[];

const K = 4;
const lines = async (file: string) => (await readFile(file, 'utf8')).split('\n').filter((l) => l.trim());
const json = async (file: string) => JSON.parse(await readFile(file, 'utf8'));
const judged = async (run: string, id: string): Promise<boolean | null> => {
  const file = path.join(`${run}_judge`, `${id}.json`);
  return existsSync(file) ? (await json(file)).predicted_label === 1 : null;
};

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  host = browserHost();
  tmp = await mkdtemp(path.join(tmpdir(), 'tries-'));
  config = {
    dir: path.join(tmp, 'four'),
    source: sandboxSource({ url: sandbox.url }),
    evidence: sandboxEvidence({ url: sandbox.url }),
    sites: ['shop-01'],
    proposer: sandboxProposer(),
    judge: ({ run }) => sandboxJudge({ runDir: run, noise: 0.1, seed: path.basename(run) }),
    policy: detouring(oraclePolicy({ failureRate: 0.5 })),
    perSite: 4,
    concurrency: 3,
    actionTimeoutMs: 20_000,
    browser: host,
    attempts: K,
    only: ['propose', 'attempt', 'judge', 'rows', 'report'],
  };
  four = await runPipeline(config);
  ids = (await lines(path.join(config.dir, 'tasks.jsonl'))).map((l) => JSON.parse(l).task_id);
});
afterAll(async () => {
  await host?.close();
  await sandbox?.close();
  await rm(tmp, { recursive: true, force: true });
});

// The stand-in agent, with a detour (a scroll up, which changes nothing) before its solution on tries 3 and up, so
// successful tries of one task differ in length; tries 1 and 2 are the stand-in's own.
function detouring(inner: Policy, n = 1): Policy {
  const detour = n >= 3;
  return {
    name: inner.name,
    ...(inner.model ? { model: inner.model } : {}),
    forTry: (m) => detouring(inner.forTry!(m), m),
    decide: (input) =>
      detour && input.step === 0
        ? Promise.resolve({ text: JSON.stringify({ scroll: { direction: 'up' } }) })
        : inner.decide({ ...input, history: detour ? input.history.slice(1) : input.history }),
  };
}

// C(n, k) for small whole numbers.
function comb(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

// Per task its tries' verdicts, read from the judge dirs on disk (the run's tasks have no verifier: the judge decides).
async function verdicts(): Promise<Map<string, boolean[]>> {
  const run = path.join(config.dir, 'run');
  const out = new Map<string, boolean[]>();
  for (const id of ids) {
    const got: boolean[] = [];
    for (let n = 1; n <= K; n++) {
      const v = await judged(runLayout(run).tryDir(n), id);
      if (v !== null) got.push(v);
    }
    out.set(id, got);
  }
  return out;
}

describe('several tries per task', () => {
  it('every try is an episode of its own, in <run>/_tries/<n>/, judged in its own judge dir', async () => {
    const run = path.join(config.dir, 'run');
    expect(ids.length).toBe(4);
    expect((await readdir(path.join(run, '_tries'))).sort()).toEqual(['2', '2_judge', '3', '3_judge', '4', '4_judge']);
    for (let n = 1; n <= K; n++) {
      for (const id of ids) expect(existsSync(path.join(runLayout(run).tryDir(n), id, 'episode.json')), `${id} try ${n}`).toBe(true);
    }
    expect(four.stages.attempt).toMatchObject({ tasks: ids.length * K, episodes: ids.length * K });
    expect(four.stages.judge?.episodes).toBe(ids.length * K);
    // the tries differ: the stand-in draws per task and try
    const v = await verdicts();
    expect([...v.values()].some((t) => t.includes(true) && t.includes(false))).toBe(true);
  });

  it('k = 4 solves more tasks than k = 1 on the same tasks; k = 1 is a plain run dir', async () => {
    const one = path.join(tmp, 'one');
    await mkdir(one, { recursive: true });
    await copyFile(path.join(config.dir, 'tasks.jsonl'), path.join(one, 'tasks.jsonl'));
    await runPipeline({ ...config, dir: one, attempts: 1, only: ['attempt', 'judge'] });
    expect(existsSync(path.join(one, 'run', '_tries'))).toBe(false);
    const solvedOnce = (await Promise.all(ids.map((id) => judged(path.join(one, 'run'), id)))).filter(Boolean).length;
    const solvedAny = [...(await verdicts()).values()].filter((t) => t.includes(true)).length;
    expect(solvedAny).toBeGreaterThan(solvedOnce);
    expect(four.stages.rows?.passAtK?.overall.solved).toBe(solvedAny);
  });

  it('pass@k in the summary and the report equals a recomputation from the episodes on disk', async () => {
    const v = await verdicts();
    const expected = Array.from({ length: K }, (_, i) => {
      const k = i + 1;
      const per = [...v.values()].filter((t) => t.length >= k).map((t) => 1 - comb(t.length - t.filter(Boolean).length, k) / comb(t.length, k));
      return per.reduce((a, b) => a + b, 0) / per.length;
    });
    const summary = four.stages.rows!.passAtK!;
    expect(summary.overall.points.map((p) => p.k)).toEqual([1, 2, 3, 4]);
    summary.overall.points.forEach((p, i) => {
      expect(p.estimate).toBeCloseTo(expected[i]!, 10);
      expect(p.low).toBeLessThanOrEqual(p.estimate);
      expect(p.high).toBeGreaterThanOrEqual(p.estimate);
    });
    const sometimes = [...v.values()].filter((t) => t.includes(true) && t.includes(false)).length;
    expect(summary.overall.sometimes).toBe(sometimes);
    const html = await readFile(path.join(config.dir, 'run_report', 'index.html'), 'utf8');
    expect(html).toContain('id="fig-pass-at-k"');
    const row = /<tr><td>all tasks<\/td><td>(\d+)<\/td>(.*?)<\/tr>/.exec(html)!;
    expect(Number(row[1])).toBe(ids.length);
    const shown = [...row[2]!.matchAll(/<td>([\d.]+) \[/g)].map((m) => m[1]);
    expect(shown).toEqual(expected.map((x) => x.toFixed(3)));
    // The report's summary and episode list hold every try's episodes, not try 1's only.
    const stat = (name: string) => new RegExp(`id="stat-${name}">([^<]*)<`).exec(html)?.[1];
    const episodes = ids.flatMap((id) => Array.from({ length: K }, (_, i) => path.join(runLayout(path.join(config.dir, 'run')).tryDir(i + 1), id))).filter((d) => existsSync(d));
    expect(episodes.length).toBeGreaterThan(ids.length);
    expect([stat('episodes'), stat('tries')]).toEqual([String(episodes.length), String(K)]);
    expect(existsSync(path.join(config.dir, 'run_report', 'episodes', `${ids[0]}@2.js`))).toBe(true);
  });

  it("pick 'shortest' rows are each task's shortest successful try; 'all' takes every one", async () => {
    const run = path.join(config.dir, 'run');
    const provenance = (await lines(path.join(config.dir, 'rows_provenance.jsonl'))).map((l) => JSON.parse(l));
    let differ = 0;
    for (const id of ids) {
      const successes: Array<{ n: number; rows: string }> = [];
      for (let n = 1; n <= K; n++) {
        const dir = runLayout(run).tryDir(n);
        if (await judged(dir, id)) successes.push({ n, rows: await readFile(path.join(dir, id, 'rows', 'rows.jsonl'), 'utf8') });
      }
      const count = (text: string) => text.split('\n').filter((l) => l.trim()).length;
      if (new Set(successes.map((s) => count(s.rows))).size > 1) differ++;
      const picked = path.join(config.dir, 'rows', id, 'rows.jsonl');
      if (successes.length === 0) {
        expect(existsSync(picked), id).toBe(false);
        continue;
      }
      const best = successes.reduce((a, b) => (count(b.rows) < count(a.rows) ? b : a));
      expect(await readFile(picked, 'utf8'), id).toBe(best.rows);
      expect(provenance.find((p) => p.task_id === id).try ?? 1, id).toBe(best.n);
    }
    expect(differ, 'a task whose successful tries differ in length').toBeGreaterThan(0);

    const all = path.join(tmp, 'rows-all');
    const r = await runRows({ run, out: all, tasks: path.join(config.dir, 'tasks.jsonl'), pick: 'all' });
    const v = await verdicts();
    expect(r.picked.length).toBe([...v.values()].reduce((n, t) => n + t.filter(Boolean).length, 0));
    for (const key of r.picked) expect(existsSync(path.join(all, key, 'rows.jsonl')), key).toBe(true);
    expect(r.picked.some((key) => key.startsWith('_tries/'))).toBe(true);
  });

  it('the rollouts config, read back by hyparquet: every try once, each group whole in one file', async () => {
    const out = path.join(tmp, 'hf');
    await runExport({ run: config.dir, out, shardRows: { episodes: 6 } });
    const folder = path.join(out, 'data', 'rollouts');
    const files = (await readdir(folder)).sort();
    expect(files.length).toBeGreaterThan(1); // shards of at most 6 rows, cut between groups of 4
    const text = (x: unknown) => (typeof x === 'string' ? x : new TextDecoder().decode(x as Uint8Array));
    const seen = new Map<string, string>();
    const run = path.join(config.dir, 'run');
    for (const f of files) {
      const rows = (await parquetReadObjects({ file: await asyncBufferFromFile(path.join(folder, f)), utf8: false })) as Array<Record<string, unknown>>;
      for (const row of rows) {
        const key = `${text(row.task_id)}#${Number(row.try)}`;
        expect(seen.has(key), key).toBe(false);
        seen.set(key, f);
        expect(text(row.group)).toBe(text(row.task_id));
        expect(text(row.reward_source)).toBe('judge');
        const verdict = await judged(runLayout(run).tryDir(Number(row.try)), text(row.task_id));
        expect(Number(row.reward), key).toBe(verdict ? 1 : 0);
        expect(row.verdict).toBe(verdict);
      }
    }
    expect([...seen.keys()].sort()).toEqual(ids.flatMap((id) => Array.from({ length: K }, (_, i) => `${id}#${i + 1}`)).sort());
    for (const id of ids) expect(new Set(ids.length ? [...seen].filter(([k]) => k.startsWith(`${id}#`)).map(([, f]) => f) : []).size, id).toBe(1);
    expect(await readFile(path.join(out, 'README.md'), 'utf8')).toContain('## Several tries per task: pass@k');
    // The steps name the picked try (the rows step's `--pick shortest`): a row of a try past the first says which.
    const picked = new Map((await lines(path.join(config.dir, 'rows_provenance.jsonl'))).map((l) => JSON.parse(l) as { task_id: string; try?: number }).map((p) => [p.task_id, p.try ?? 1]));
    const steps = (await readdir(path.join(out, 'data', 'steps'))).sort();
    const stepTries = new Map<string, number>();
    for (const f of steps) {
      for (const row of (await parquetReadObjects({ file: await asyncBufferFromFile(path.join(out, 'data', 'steps', f)), utf8: false })) as Array<Record<string, unknown>>) {
        stepTries.set(text(row.task_id), Number(row.try));
      }
    }
    expect(stepTries).toEqual(picked);
    expect([...stepTries.values()].some((n) => n > 1), 'a picked try past the first').toBe(true);
  });

  it('with written verifiers: pass@k in the summary and the rollouts rewards equal the claims checked on each try from disk', async () => {
    const copy = path.join(tmp, 'written');
    await cp(config.dir, copy, { recursive: true });
    const again = await runPipeline({ ...config, dir: copy, verifierWriter: sandboxVerifierWriter(), only: ['verifiers', 'rows'] });
    const store = nodeStore();
    const { byTask } = await readWrittenVerifiers(store, path.join(copy, 'verifiers.jsonl'));
    expect(byTask.size).toBeGreaterThan(0);
    // Per task and try: the written verifier's claim on the try's evidence, where the task has one; else the judge.
    const outcomes = new Map<string, Array<{ n: number; ok: boolean; source: string }>>();
    for (const id of ids) {
      const list: Array<{ n: number; ok: boolean; source: string }> = [];
      for (let n = 1; n <= K; n++) {
        const dir = runLayout(path.join(copy, 'run')).tryDir(n);
        const w = byTask.get(id);
        if (w) {
          const r = checkClaim(w.claim, await loadStepEvidence(store, path.join(dir, id)), { question: w.instruction });
          list.push({ n, ok: r.holds && r.vacuous === null, source: 'written-verifier' });
        } else {
          const v = await judged(dir, id);
          if (v !== null) list.push({ n, ok: v, source: 'judge' });
        }
      }
      outcomes.set(id, list);
    }
    const summary = again.stages.rows!.passAtK!;
    for (const t of summary.tasks) expect(t.tries.map((o) => [o.n, o.success, o.source]), t.taskId).toEqual(outcomes.get(t.taskId)!.map((o) => [o.n, o.ok, o.source]));
    summary.overall.points.forEach((p) => {
      const per = [...outcomes.values()].filter((t) => t.length >= p.k).map((t) => 1 - comb(t.length - t.filter((o) => o.ok).length, p.k) / comb(t.length, p.k));
      expect(p.estimate).toBeCloseTo(per.reduce((a, b) => a + b, 0) / per.length, 10);
    });
    const out = path.join(tmp, 'hf-written');
    await runExport({ run: copy, out });
    const text = (x: unknown) => (typeof x === 'string' ? x : new TextDecoder().decode(x as Uint8Array));
    let written = 0;
    for (const f of await readdir(path.join(out, 'data', 'rollouts'))) {
      for (const row of (await parquetReadObjects({ file: await asyncBufferFromFile(path.join(out, 'data', 'rollouts', f)), utf8: false })) as Array<Record<string, unknown>>) {
        const o = outcomes.get(text(row.task_id))!.find((x) => x.n === Number(row.try))!;
        expect([Number(row.reward), text(row.reward_source)], `${text(row.task_id)}#${Number(row.try)}`).toEqual([o.ok ? 1 : 0, o.source]);
        if (o.source === 'written-verifier') written++;
      }
    }
    expect(written).toBeGreaterThan(0);
  });

  it('taskgen attempt --attempts 2 killed with SIGKILL and run again makes the same tries, none twice', async () => {
    const out = path.join(tmp, 'killed');
    // three of the tasks, two tries each: six episodes
    const tasks = path.join(tmp, 'three.jsonl');
    await writeFile(tasks, (await lines(path.join(config.dir, 'tasks.jsonl'))).slice(0, 3).join('\n') + '\n');
    const some = ids.slice(0, 3);
    const args = ['attempt', '--tasks', tasks, '--out', out, '--base-url', sandbox.url, '--policy', 'oracle', '--oracle-failure-rate', '0.5', '--attempts', '2', '--concurrency', '2', '--no-progress'];
    const episodes = async () => {
      let n = 0;
      for (const t of [1, 2]) for (const id of some) if (existsSync(path.join(runLayout(out).tryDir(t), id, 'episode.json'))) n++;
      return n;
    };
    const child = spawnScript('src/cli.ts', args, { detached: true });
    const exited = finish(child);
    while ((await episodes()) < 2 && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(child.exitCode).toBeNull();
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
    const partial = await episodes();
    expect(partial).toBeLessThan(some.length * 2);
    const kept = new Map<string, string>();
    for (const t of [1, 2]) for (const id of some) {
      const file = path.join(runLayout(out).tryDir(t), id, 'episode.json');
      if (existsSync(file)) kept.set(`${id}#${t}`, await readFile(file, 'utf8'));
    }

    const rerun = await finish(spawnScript('src/cli.ts', args));
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`${partial} already finished, ${some.length * 2 - partial} to run`);
    expect(JSON.parse(rerun.stdout.trim().split('\n').pop()!)).toMatchObject({ tasks: some.length * 2, attempts: 2, recorded: some.length * 2 - partial });
    const pipelineRun = path.join(config.dir, 'run');
    for (const t of [1, 2]) {
      const dir = runLayout(out).tryDir(t);
      expect((await readdir(dir)).filter((d) => some.includes(d)).sort()).toEqual([...some].sort());
      for (const id of some) {
        const episode = await readFile(path.join(dir, id, 'episode.json'), 'utf8');
        if (kept.has(`${id}#${t}`)) expect(episode, `${id} try ${t} kept as it was`).toBe(kept.get(`${id}#${t}`));
        // the same try as the uninterrupted pipeline run made: the stand-in draws per task and try
        const same = (await json(path.join(runLayout(pipelineRun).tryDir(t), id, 'grade_inputs.json'))).actions;
        expect((await json(path.join(dir, id, 'grade_inputs.json'))).actions, `${id} try ${t}`).toEqual(same);
      }
    }
  });
});
