/**
 * Labels you can trust, measured on the sandbox, where the truth is known (each task bank's verifier): a stand-in
 * judge flipping each vote on purpose with probability JUDGE_NOISE (default 0.1) judges the run and its human-task run
 * with 1 vote (the pipeline's judge), then 3 and 5 votes (at temperature 0.7, so each vote draws its own flip; records
 * in `<run>_judge/lab/votes-<n>/`). For each vote count (the records of that count and the 1-vote judge's) and each
 * precision target (none, 0.9, 0.95, 0.98): the configuration `runRows` chose, the judge-only steps kept, the true
 * precision of those steps against the bank's verifiers, and the estimate the dataset card prints with its interval.
 *
 * Sizes: BENCH_SITES (default 8) training sites, BENCH_PER_SITE (default 10) proposed tasks and BENCH_HUMAN (default
 * 14) human tasks a site, BENCH_CONCURRENCY (default 4) browsers. BENCH_DIR: a work dir to make or resume.
 */
import { mkdtemp, readFile, rename } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultCatalog, normInstruction, sandboxJudge, sandboxSetup } from '../sandbox/index';
import { nodeStore, pipelineLayout, readEpisodeReward, resolveVariant, runJudge, runPipeline, runRows, type Task, type Verifier } from '../src/index';

const NOISE = Number(process.env.JUDGE_NOISE ?? 0.1);
const VOTES = [1, 3, 5] as const;
const TARGETS = [undefined, 0.9, 0.95, 0.98] as const;

const dir = process.env.BENCH_DIR ?? (await mkdtemp(path.join(tmpdir(), 'labels-bench-')));
const layout = pipelineLayout(dir);
const sb = await sandboxSetup({ siteCount: Number(process.env.BENCH_SITES ?? 8), humanPerSite: Number(process.env.BENCH_HUMAN ?? 14), failureRate: 0.3, judgeNoise: NOISE });
try {
  process.stdout.write(`sandbox pipeline into ${dir}: ${sb.sites.length} sites, ${process.env.BENCH_PER_SITE ?? 10} proposed and ${sb.humanTasks.length / sb.sites.length} human tasks a site\n${sb.describe.judge}\n`);
  const t0 = Date.now();
  await runPipeline({
    dir, source: sb.source, evidence: sb.evidence, sites: sb.sites, proposer: sb.proposer, judge: sb.judge, policy: sb.policy,
    humanTasks: sb.humanTasks, perSite: Number(process.env.BENCH_PER_SITE ?? 10), concurrency: Number(process.env.BENCH_CONCURRENCY ?? 4),
    // Judge-only rows are what the target is about: no written verifiers, no relabels.
    skip: ['verifiers', 'relabel', 'report'],
  });
  process.stdout.write(`pipeline: ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  const seed = await resolveVariant('seed');
  for (const votes of VOTES.filter((v) => v > 1)) {
    const variant = { ...seed, name: `votes-${votes}`, description: `the seed's judge, ${votes} votes at temperature 0.7`, votes, temperature: 0.7 };
    for (const run of [layout.run, layout.human]) {
      const lab = path.join(`${run}_judge`, 'lab');
      if (existsSync(path.join(lab, `_off-votes-${votes}`))) await rename(path.join(lab, `_off-votes-${votes}`), path.join(lab, `votes-${votes}`));
      await runJudge({ run, llm: sandboxJudge({ runDir: run, noise: NOISE }), variant, workers: 8 });
    }
  }

  // The truth of each proposed task's episode: its bank task's verifier on the episode's evidence, read on the site's
  // state (start rows plus changes), with the answer rule and the footprint: the one reward.
  const catalog = defaultCatalog();
  const tasks = (await readFile(layout.tasks, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Task);
  const truth = new Map<string, boolean>();
  for (const t of tasks) {
    const bank = catalog.tasks(t.site)?.bank.find((b) => normInstruction(b.instruction) === normInstruction(t.instruction));
    const file = path.join(layout.run, t.task_id, 'grade_inputs.json');
    if (!bank || !existsSync(file)) continue;
    const reward = await readEpisodeReward(nodeStore(), path.join(layout.run, t.task_id), { task: { ...t, verifier: bank.verifier as Verifier }, judge: null });
    truth.set(t.task_id, reward.reward === 1);
  }

  const rows: string[][] = [];
  for (const votes of VOTES) {
    // Only this vote count's records (and the 1-vote judge's) are there to choose from.
    for (const run of [layout.run, layout.human]) {
      const lab = path.join(`${run}_judge`, 'lab');
      for (const other of VOTES.filter((v) => v > 1)) {
        const on = path.join(lab, `votes-${other}`);
        const off = path.join(lab, `_off-votes-${other}`);
        if (other === votes && existsSync(off)) await rename(off, on);
        if (other !== votes && existsSync(on)) await rename(on, off);
      }
    }
    for (const target of TARGETS) {
      const out = path.join(dir, `bench_rows_${votes}_${target ?? 'none'}`);
      const r = await runRows({ run: layout.run, out, tasks: layout.tasks, relabel: false, stale: 'remove', ...(target !== undefined ? { minPrecision: target } : {}) });
      const steps = new Map((await readFile(`${out}_provenance.jsonl`, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { task_id: string; label_source: string }).filter((p) => p.label_source === 'judge').map((p) => [p.task_id, 0]));
      for (const id of steps.keys()) steps.set(id, (await readFile(path.join(out, id, 'rows.jsonl'), 'utf8')).split('\n').filter((l) => l.trim()).length);
      const total = [...steps.values()].reduce((a, b) => a + b, 0);
      const right = [...steps].reduce((n, [id, s]) => n + (truth.get(id) ? s : 0), 0);
      const config = r.labels.configs.find((c) => c.name === r.labels.judge);
      const est = r.labels.estimate;
      const truePrecision = total ? right / total : null;
      rows.push([
        String(votes), target === undefined ? 'none' : String(target), r.labels.judge ?? '(none reaches)',
        config?.precision ? `${config.precision.precision.toFixed(3)} [${config.precision.interval.join(', ')}] (${config.precision.right}/${config.precision.n})` : '-',
        `${steps.size} / ${total}`, truePrecision === null ? '-' : truePrecision.toFixed(3),
        est ? `${est.precision.toFixed(3)} [${est.interval[0].toFixed(3)}, ${est.interval[1].toFixed(3)}]` : '-',
        est && truePrecision !== null ? (truePrecision >= est.interval[0] && truePrecision <= est.interval[1] ? 'yes' : 'NO') : '-',
      ]);
    }
  }
  const head = ['votes', 'target', 'judge configuration', 'its precision on the scored sets', 'judge-only episodes / steps kept', 'true precision of kept steps', 'card estimate [95%]', 'contains'];
  process.stdout.write(`\n| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|\n${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}\n`);
  process.stdout.write(`\n${truth.size} proposed-task episodes with a known truth (${[...truth.values()].filter(Boolean).length} right); scored set: ${layout.human} (${sb.humanTasks.length} human tasks)\n`);
} finally {
  await sb.close();
}
