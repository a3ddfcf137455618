// Share a run as a Hugging Face dataset: export it (configs `steps` and `episodes`, a dataset card), read it back,
// filter, and export again.
//   npx tsx examples/export.ts [work dir of the pipeline]
// Without one it first runs the whole pipeline on the sandbox (see examples/setup.ts); the stand-ins say so.
import path from 'node:path';
import { runExport, loadEpisodes, loadSteps, nodeStore, runPipeline, pipelineLayout } from 'miniweb-taskgen';
import { exampleSetup } from './setup';

const dir = process.argv[2] ?? 'runs/example-export';
const layout = pipelineLayout(dir);
if (!(await nodeStore().exists(layout.rowsReport))) {
  const setup = await exampleSetup();
  console.log(setup.lines.join('\n'));
  try {
    const { source, evidence, sites, proposer, judge, agent, policy, humanTasks } = setup;
    await runPipeline({ dir, source, evidence, sites, proposer, judge, agent, policy, humanTasks, perSite: 3, humanPerSite: 2, concurrency: 2, skip: ['report'] });
  } finally {
    await setup.close();
  }
}

// %% Export: every row carries its provenance; a stale verdict, a missing screenshot or a torn rows.jsonl stops it.
const out = path.join(dir, 'hf');
const result = await runExport({ run: dir, out, overwrite: true });
console.log(`${result.dir}: ${JSON.stringify(result.counts)}\n  ${result.files.join('\n  ')}`);

// %% Read the training steps back: chat messages, the screenshot bytes, and where each row came from.
let steps = 0;
for await (const step of loadSteps(out)) {
  if (steps++ === 0) console.log(`first step: ${step.task_id} #${step.step}, ${step.messages.length} messages, image ${step.images[0]?.path} (${step.images[0]?.bytes.length} bytes), judged by ${step.judge_model} (${step.judge_variant})`);
}
console.log(`${steps} steps`);

// %% Failures are data too: the episodes the judge did not pass, with its reasons.
for await (const episode of loadEpisodes(out)) {
  if (episode.verdict === false) console.log(`NOT SUCCESS ${episode.task_id}: ${episode.instruction} (${episode.steps} steps, ${episode.requests.length} requests)`);
}

// %% Filter and export again: only the action tasks.
const actions = await runExport({ run: dir, out: path.join(dir, 'hf-actions'), overwrite: true, where: (p) => p.task_kind === 'action' });
console.log(`action tasks only: ${JSON.stringify(actions.counts)}`);
