// Relabel failed episodes: for each episode the judge did not pass, the proposer model writes the tasks the episode
// DID complete, each with a claim about the server's evidence; a claim that holds cuts the episode where it first
// holds, and the judge judges the cut episode against the new instruction. Accepted relabels become rows too.
//   npx tsx examples/relabel.ts [work dir of the pipeline]
// Without one it first makes a small judged run on the sandbox (propose, attempt, judge; see examples/setup.ts).
import path from 'node:path';
import { nodeStore, pipelineLayout, runPipeline, runRelabel, runRows } from 'miniweb-taskgen';
import { exampleSetup } from './setup';

const dir = process.argv[2] ?? 'runs/example-relabel';
const layout = pipelineLayout(dir);
const setup = await exampleSetup();
console.log(setup.lines.join('\n'));
try {
  if (!(await nodeStore().exists(layout.runJudge))) {
    const { source, evidence, sites, proposer, judge, agent, policy } = setup;
    await runPipeline({ dir, source, evidence, sites, proposer, judge, agent, policy, perSite: Number(process.env.PER_SITE ?? 6), concurrency: 2, only: ['propose', 'attempt', 'judge'] });
  }

  // %% Rows before: the judged successes only.
  const before = await runRows({ run: layout.run, out: path.join(dir, 'rows_before'), tasks: layout.tasks, relabel: false, stale: 'remove' });

  // %% Relabel: up to 3 tasks per failed episode. Rerun it any time: episodes done are kept.
  const { summary, tasks, parents } = await runRelabel({ run: layout.run, llm: setup.relabeler, judge: setup.relabelJudge, source: setup.source, k: 3 });
  console.log(`${summary.episodes} failed episodes: ${summary.proposed} tasks written, ${summary.accepted} accepted (${summary.acceptedRows} rows)`);
  console.log(`claims that did not hold (never judged): ${summary.statuses['claim-failed']}; judged not successful: ${summary.statuses['judged-failure']}`);
  for (const p of parents.slice(0, 3)) {
    console.log(`\n${p.parent_task_id}: asked "${p.instruction}"`);
    for (const x of p.proposals) console.log(`  ${x.status.padEnd(14)} ${x.kind} "${x.instruction}" prefix ${x.prefix_steps ?? '-'}: ${x.detail}`);
  }
  console.log(`\nnew tasks: ${tasks.map((t) => `${t.task_id} (from ${t.parent_task_id}, ${t.prefix_steps} steps)`).join(', ')}`);

  // %% Rows after: the same round robin and budget over the run's tasks and the relabeled ones.
  const after = await runRows({ run: layout.run, out: path.join(dir, 'rows_after'), tasks: layout.tasks, stale: 'remove' });
  console.log(`rows: ${before.report.selected_rows} before relabel, ${after.report.selected_rows} after`);
  console.log(`cost per accepted relabel: ${summary.costPerAccepted === null ? '-' : `$${summary.costPerAccepted.toFixed(5)}`}`);
} finally {
  await setup.close();
}
