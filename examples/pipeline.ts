// The whole pipeline, as the user runs it: propose 140 tasks per training site with Gemini, attempt each with the
// Qwen VL agent in Chromium, judge every episode, validate the judge on the human tasks, keep 27,644 steps of rows.
//
//   GEMINI_API_KEY=... QWEN_ENDPOINT=http://gpu-host:8000/v1 \
//   MINIWEB_SITEMAPS=miniweb/sitemaps MINIWEB_SPLIT=miniweb/split.json MINIWEB_BASE_URL=http://127.0.0.1:8000 \
//   MINIWEB_HUMAN_TASKS=miniweb/human_tasks.jsonl  npx tsx examples/pipeline.ts data/webmix/taskgen
//
// With none of these set it runs small and offline: the bundled sandbox, stand-in models, 4 tasks per site.
// Killed or crashed? Run the same command again: every stage keeps what it finished.
import path from 'node:path';
import { formatUsage, runPipeline, type PipelineEvent } from 'miniweb-taskgen';
import { exampleSetup } from './setup';

const dir = process.argv[2] ?? 'runs/example-pipeline';
const setup = await exampleSetup({ humanPerSite: Number(process.env.HUMAN_PER_SITE ?? 2) });
console.log(setup.lines.join('\n'));

// %% Progress: one line per stage (the CLI draws bars from the same events).
const onEvent = (e: PipelineEvent) => {
  if (e.type === 'stage-start') console.log(`-- ${e.stage}`);
  if (e.type === 'attempt' && e.event.type === 'episode-end') console.log(`   ${e.event.taskId}: ${e.event.outcome}, ${e.event.steps} steps`);
  if (e.type === 'warning') console.warn(`   warning: ${e.message}`);
};

// %% Run it. Sizes are the user's: 140 tasks per site, 27,644 steps (smaller on the sandbox).
const real = Boolean(process.env.MINIWEB_SITEMAPS);
try {
  const summary = await runPipeline({
    dir,
    source: setup.source,
    evidence: setup.evidence,
    ...(setup.sites ? { sites: setup.sites } : {}),
    proposer: setup.proposer,
    judge: setup.judge,
    agent: setup.agent,
    policy: setup.policy,
    humanTasks: setup.humanTasks,
    perSite: Number(process.env.PER_SITE ?? (real ? 140 : 4)),
    budget: 27_644,
    concurrency: Number(process.env.CONCURRENCY ?? (real ? 16 : 2)),
    onEvent,
  });

  // %% The figures: success rates, the judge against the verifiers, the rows, tokens and cost.
  const { attempt, judge, validate, rows } = summary.stages;
  console.log(`episodes ${attempt?.episodes}, judged SUCCESS ${judge?.success} (${judge?.rate})`);
  console.log(`judge vs verifiers: precision ${validate?.score?.precision}, recall ${validate?.score?.recall}, agreement ${validate?.score?.agreement}`);
  console.log(`rows: ${rows?.report.selected_trajectories} trajectories, ${rows?.report.selected_rows} of ${rows?.report.budget} steps`);
  console.log(formatUsage(summary.usage));
  console.log(`report: file://${path.resolve(summary.layout.runReport)}`);
  if (!summary.complete) console.log(`not complete, run again: ${summary.incomplete.join('; ')}`);
} finally {
  await setup.close();
}
