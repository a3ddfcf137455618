// Choose training rows from a judged run: the judged successes, sites interleaved round robin, each site's tasks in
// file order, whole episodes until the step budget (the seed's cmd_rows).
//   npx tsx examples/select-rows.ts [work dir of the pipeline]
// Without one it first makes a small judged run on the sandbox (propose, attempt, judge; see examples/setup.ts).
import path from 'node:path';
import { runPipeline, pipelineLayout, readJsonl, selectRows, runRows, nodeStore } from 'miniweb-taskgen';
import { TaskSchema } from 'miniweb-taskgen/schemas';
import { exampleSetup } from './setup';

const dir = process.argv[2] ?? 'runs/example-rows';
const layout = pipelineLayout(dir);
const store = nodeStore();
if (!(await store.exists(layout.runJudge))) {
  const setup = await exampleSetup();
  console.log(setup.lines.join('\n'));
  try {
    const { source, evidence, sites, proposer, judge, agent, policy } = setup;
    const perSite = Number(process.env.PER_SITE ?? 4);
    await runPipeline({ dir, source, evidence, sites, proposer, judge, agent, policy, perSite, concurrency: 2, only: ['propose', 'attempt', 'judge'] });
  } finally {
    await setup.close();
  }
}

// %% The candidates: judged SUCCESS with a rows file, and how many rows (steps) each has.
const tasks = await readJsonl(store, layout.tasks, TaskSchema);
const candidates = new Map<string, number>();
for (const t of tasks) {
  const record = path.join(layout.runJudge, `${t.task_id}.json`);
  const rows = path.join(layout.run, t.task_id, 'rows', 'rows.jsonl');
  if (!(await store.exists(record)) || !(await store.exists(rows))) continue;
  if (JSON.parse(await store.readText(record)).predicted_label !== 1) continue;
  candidates.set(t.task_id, (await store.readText(rows)).split('\n').filter((l) => l.trim()).length);
}
console.log(`${candidates.size} judged successes of ${tasks.length} tasks`);

// %% selectRows is pure: try budgets without touching a file. The last episode may overshoot the budget.
for (const budget of [4, 10, 27_644]) {
  const { picked, report } = selectRows({ run: layout.run, tasks, candidates, budget });
  console.log(`budget ${budget}: ${picked.length} episodes, ${report.selected_rows} steps, ${report.sites} sites: ${picked.join(' ')}`);
}

// %% runRows does the same from the files and copies the picked episodes' rows (ms-swift / LLaMA-Factory format).
const out = path.join(dir, 'rows_10');
const { report } = await runRows({ run: layout.run, out, tasks: layout.tasks, budget: 10 });
console.log(`${out}: ${JSON.stringify(report)}`);
