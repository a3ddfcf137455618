// Validate the judge before trusting its verdicts: attempt human tasks (they have verifiers), judge the episodes,
// and score the judge against the verifiers: agreement, and the precision that matters for training data,
// P(verifier passes | judge says SUCCESS), with 95% intervals, per site and task kind.
//   npx tsx examples/validate-run.ts [human-task run dir, default runs/example-validate/human]
// A dir without a run (no results.jsonl) gets one first: human tasks of the sandbox attempted by the stand-in agent
// (or Qwen with QWEN_ENDPOINT set). The judge is Gemini with GEMINI_API_KEY set, else the stand-in (examples/setup.ts).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { runAttempt, nodeStore, qwenPolicy, readJsonl, runValidate, runReport } from 'miniweb-taskgen';
import { TaskSchema } from 'miniweb-taskgen/schemas';
import { exampleSetup } from './setup';

const setup = await exampleSetup({ humanPerSite: 2 });
console.log(setup.lines.join('\n'));
try {
  const run = process.argv[2] ?? 'runs/example-validate/human';
  if (!existsSync(path.join(run, 'results.jsonl'))) {
    // %% A human-task run: every episode is checked by its task's verifier into results.jsonl.
    const human = typeof setup.humanTasks === 'string' ? await readJsonl(nodeStore(), setup.humanTasks, TaskSchema) : (setup.humanTasks ?? []);
    const summary = await runAttempt({
      tasks: human,
      policy: setup.policy ?? qwenPolicy({ llm: setup.agent! }),
      source: setup.source,
      evidence: setup.evidence,
      out: run,
      concurrency: 2,
    });
    console.log(`attempted ${summary.tasks} human tasks: the verifier passed ${summary.verified.passed} of ${summary.verified.total}`);
  }

  // %% Judge every episode (records in <run>_judge/) and score against results.jsonl (or results_regraded.jsonl).
  const llm = typeof setup.judge === 'function' ? setup.judge({ run, stage: 'validate' }) : setup.judge;
  const { report } = await runValidate({ run, llm });
  const o = report.overall;
  console.log(`judge ${report.judge} on ${o.episodes} episodes: agreement ${o.agreement}, precision ${o.precision} ${JSON.stringify(o.precision_ci)}, recall ${o.recall}`);
  console.log(`  tp ${o.tp}, fp ${o.fp} (judged SUCCESS, verifier failed), fn ${o.fn}, tn ${o.tn}`);
  for (const [kind, s] of Object.entries(report.by_kind)) console.log(`  ${kind}: precision ${s.precision}, recall ${s.recall} (n=${s.episodes})`);

  // %% The disagreements are worth reading: the HTML report filters them.
  const index = await runReport({ run });
  console.log(`report: file://${path.resolve(index)}`);
} finally {
  await setup.close();
}
