// Choose a judge before a full run: judge one human-task run (it has verifier results) with several judge
// variants and compare them against the verifiers and against the seed's judge on the same episodes.
//   npx tsx examples/judge-lab.ts [human-task run dir, default runs/example-validate/human]
// A dir without a run gets one first, as examples/validate-run.ts makes it. The judge is Gemini with GEMINI_API_KEY
// set, else the sandbox's stand-in judge, whose variants differ in set ways (not a measurement of any model).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { runAttempt, formatLab, runJudgeLab, nodeStore, qwenPolicy, readJsonl, resolveVariant, runReport } from 'miniweb-taskgen';
import { TaskSchema } from 'miniweb-taskgen/schemas';
import { sandboxJudge } from 'miniweb-taskgen/sandbox';
import { exampleSetup } from './setup';

const setup = await exampleSetup({ humanPerSite: 3 });
console.log(setup.lines.join('\n'));
try {
  const run = process.argv[2] ?? 'runs/example-validate/human';
  if (!existsSync(path.join(run, 'results.jsonl'))) {
    // %% A human-task run: every episode is checked by its task's verifier into results.jsonl.
    const human = typeof setup.humanTasks === 'string' ? await readJsonl(nodeStore(), setup.humanTasks, TaskSchema) : (setup.humanTasks ?? []);
    await runAttempt({ tasks: human, policy: setup.policy ?? qwenPolicy({ llm: setup.agent! }), source: setup.source, evidence: setup.evidence, out: run, concurrency: 2 });
  }

  // %% The variants: the four presets, and one of our own (a preset with changes; a JSON file works the same way
  // with `taskgen judge-lab RUN --variant my-judge.json`). Votes need a temperature above 0 to differ.
  const threeVotes = await resolveVariant({ name: 'seed-3-votes', votes: 3, combine: 'majority', temperature: 1 });
  const llm = typeof setup.judge === 'function' ? sandboxJudge({ runDir: run, noise: 0.1, seed: 17, estimateUsage: true }) : setup.judge;

  // %% Judge every episode with each variant (records in <run>_judge/lab/<variant>/; a rerun judges only what is
  // missing) and compare: agreement, precision, recall with 95% intervals, yield, calls, tokens, cost, McNemar p.
  const { report, html } = await runJudgeLab({ run, llm, variants: ['seed', 'no-evidence', 'text-only', 'last-3-shots', threeVotes] });
  console.log(formatLab(report));

  // %% Precision is what training rows need: the variant with the highest precision at an acceptable yield and cost.
  const best = [...report.variants].sort((a, b) => b.overall.precision - a.overall.precision || a.usage.cost - b.usage.cost)[0]!;
  console.log(`highest precision: ${best.name} (${best.overall.precision} ${JSON.stringify(best.overall.precision_ci)}, yield ${best.overall.yield})`);
  await runReport({ run }); // <run>_report/: the lab page links its episodes there
  console.log(`lab page (the episodes the variants disagree on, linked to the run report): file://${path.resolve(html)}`);
} finally {
  await setup.close();
}
