/**
 * Written verifiers against the human tasks' hand-written ones, on the sandbox: each verifier is written (by the
 * stand-in writer, wrong on `ERROR_RATE` of tasks on purpose) from one oracle episode of its task, then run on the
 * stand-in agent's episodes of the same tasks (successes, and deliberate failures on `FAILURE_RATE` of tasks, each
 * graded by its hand-written verifier). Prints agreement, precision (the hand-written verifier passes when the written
 * one does) and recall with 95% Wilson intervals, overall, per site and per kind. Then the writer's deliberate errors,
 * task by task: a claim that does not hold (caught when the writer rejects it on its own episode), a too-loose
 * verifier (caught when it fails the agent's failed episode; a false pass when it passes it; not tested when the
 * agent's episode succeeded).
 *
 * Not a timing: a measurement of the machinery. Env: SITES (default 8), PER_SITE (human tasks per site, default 12),
 * FAILURE_RATE (0.3), ERROR_RATE (0.1), SEED (17), CONCURRENCY (4).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writtenFigures } from './claim-figures';
import { defaultCatalog, oraclePolicy, sandboxJudge, sandboxSetup, sandboxVerifierWriter, writerErrorOf } from '../sandbox/index';
import {
  browserHost,
  readWrittenVerifiers,
  runAttempt,
  runJudge,
  runWriteVerifiers,
  scoreWrittenVerifiers,
  nodeStore,
  type JudgeScoreWithIntervals,
  type Task,
  type VerifierOutcome,
  type VerifierPair,
} from '../src/index';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SITES = env('SITES', 8);
const PER_SITE = env('PER_SITE', 12);
const FAILURE_RATE = env('FAILURE_RATE', 0.3);
const ERROR_RATE = env('ERROR_RATE', 0.1);
const SEED = env('SEED', 17);
const CONCURRENCY = env('CONCURRENCY', 4);

const ci = (c: readonly [number, number] | null) => (c ? `[${c[0].toFixed(3)}, ${c[1].toFixed(3)}]` : '[no data]');
const row = (name: string, s: JudgeScoreWithIntervals) =>
  `| ${name} | ${s.episodes} | ${s.tp} | ${s.fp} | ${s.fn} | ${s.tn} | ${s.agreement.toFixed(3)} ${ci(s.agreement_ci)} | ${s.precision.toFixed(3)} ${ci(s.precision_ci)} | ${s.recall.toFixed(3)} ${ci(s.recall_ci)} |`;

const tmp = await mkdtemp(path.join(tmpdir(), 'verifiers-bench-'));
const sb = await sandboxSetup({ siteCount: SITES, humanPerSite: PER_SITE });
const host = browserHost();
const store = nodeStore();
try {
  const tasks = sb.humanTasks;
  // Generous action and episode limits: on a loaded machine a slow click must not turn an oracle episode into a failure.
  const common = { tasks, source: sb.source, evidence: sb.evidence, browser: host, concurrency: CONCURRENCY, store, actionTimeoutMs: 30_000, episodeTimeoutMs: 600_000 };
  const oracleRun = path.join(tmp, 'oracle');
  const agentRun = path.join(tmp, 'agent');
  process.stdout.write(`${tasks.length} human tasks on ${sb.sites.length} sites (${sb.sites.join(', ')})\n`);
  const oracle = await runAttempt({ ...common, policy: oraclePolicy({ tasks, failureRate: 0, seed: SEED }), out: oracleRun });
  process.stdout.write(`oracle: ${oracle.finished.episodes} episodes, hand-written verifier passed ${oracle.verified.passed}/${oracle.verified.total}\n`);
  await runJudge({ run: oracleRun, llm: sandboxJudge({ runDir: oracleRun, noise: 0 }), store });
  // The writer sees the tasks as proposed tasks: the same lines without their hand-written verifiers.
  const stripped = path.join(tmp, 'tasks.jsonl');
  await writeFile(stripped, tasks.map((t) => `${JSON.stringify({ ...t, verifier: null, oracle: undefined })}\n`).join(''));
  const outcomes = new Map<string, VerifierOutcome>();
  const written = await runWriteVerifiers({
    run: oracleRun,
    tasks: stripped,
    llm: sandboxVerifierWriter({ errorRate: ERROR_RATE, seed: SEED }),
    store,
    onEvent: (e) => {
      if (e.type === 'task') outcomes.set(e.taskId, e.outcome);
    },
  });
  process.stdout.write(
    `written from the oracle's episodes: ${written.written} verifiers for ${written.successes} judged successes ` +
      `(${written.notHolding.count} claims did not hold on their episode and were not kept, ${written.unparsed.count} replies not a claim); ` +
      `writer: the sandbox's stand-in (not a model), wrong on ${Math.round(ERROR_RATE * 100)}% of tasks on purpose\n`,
  );
  const agent = await runAttempt({ ...common, policy: oraclePolicy({ tasks, failureRate: FAILURE_RATE, seed: SEED + 1 }), out: agentRun });
  process.stdout.write(`stand-in agent: ${agent.finished.episodes} episodes, hand-written verifier passed ${agent.verified.passed}/${agent.verified.total} (failure rate ${FAILURE_RATE})\n\n`);
  const { byTask } = await readWrittenVerifiers(store, written.file);
  const s = await scoreWrittenVerifiers({ run: agentRun, verifiers: byTask, store });
  process.stdout.write('truth: the hand-written verifier; prediction: the written one (precision: P(hand passes | written passes))\n\n');
  process.stdout.write('| group | n | tp | fp | fn | tn | agreement [95% CI] | precision [95% CI] | recall [95% CI] |\n|---|---|---|---|---|---|---|---|---|\n');
  process.stdout.write(`${row('all', s.overall)}\n`);
  for (const [kind, score] of Object.entries(s.byKind)) process.stdout.write(`${row(`kind ${kind}`, score)}\n`);
  for (const [site, score] of Object.entries(s.bySite)) process.stdout.write(`${row(`site ${site}`, score)}\n`);
  process.stdout.write(`\n${s.unverified} episodes had no written verifier (their task got none), ${s.writtenFrom} were the episode a verifier was written from (not scored)\n`);
  const wrong = s.pairs.filter((p) => p.hand !== p.written).slice(0, 10);
  for (const p of wrong) process.stdout.write(`  disagree: ${p.taskId} hand ${p.hand ? 'pass' : 'fail'}, written ${p.written ? 'pass' : 'fail'}\n`);
  printDeliberate(tasks, outcomes, new Map(s.pairs.map((p) => [p.taskId, p])));
  process.stdout.write(`\nwriter rejections: ${written.vacuous.count} vacuous, ${written.loose.count} too loose; the kept ones pass ${written.looseness.passes} of ${written.looseness.episodes} other tasks' oracle episodes of their site\n`);
  process.stdout.write('on the stand-in agent\'s episodes (truth: the hand-written verifiers on the state at the end, start rows plus changes):\n');
  for (const line of await writtenFigures(agentRun, written.file)) process.stdout.write(`  ${line}\n`);
} finally {
  await host.close();
  await sb.close();
  await rm(tmp, { recursive: true, force: true });
}

// The writer's deliberate errors, task by task, and what became of each.
function printDeliberate(tasks: readonly Task[], outcomes: ReadonlyMap<string, VerifierOutcome>, pairs: ReadonlyMap<string, VerifierPair>): void {
  const catalog = defaultCatalog();
  // The writer errs by the bank task it answers from (a human task's site and instruction), not by the human task's id.
  const bankIdOf = (t: Task) => catalog.tasks(t.site)?.bank.findLast((b) => b.instruction === t.instruction)?.task_id ?? t.task_id;
  const errs = tasks.map((t) => ({ id: t.task_id, how: writerErrorOf(bankIdOf(t), { errorRate: ERROR_RATE, seed: SEED }) }));
  const notHolding = errs.filter((e) => e.how === 'not-holding');
  const loose = errs.filter((e) => e.how === 'loose');
  const noSuccess = (id: string) => (outcomes.has(id) ? null : 'not asked (no judged oracle success)');
  process.stdout.write(`\ndeliberate errors: ${notHolding.length} claims that do not hold, ${loose.length} too-loose verifiers, of ${tasks.length} tasks\n`);
  const tally = new Map<string, number>();
  const count = (label: string) => tally.set(label, (tally.get(label) ?? 0) + 1);
  for (const { id } of notHolding) {
    const outcome = outcomes.get(id);
    const fate = noSuccess(id) ?? (outcome === 'not-holding' ? 'caught: rejected on its own episode' : `NOT caught: ${outcome}`);
    count(`not holding, ${fate}`);
    process.stdout.write(`  not holding: ${id}: ${fate}\n`);
  }
  for (const { id } of loose) {
    const pair = pairs.get(id);
    const outcome = outcomes.get(id);
    const fate =
      noSuccess(id) ??
      (outcome !== 'written'
        ? `not kept: ${outcome}`
        : !pair
          ? 'not scored (no agent episode besides the one it was written from)'
          : pair.hand
            ? `not tested: the agent's episode succeeded (written ${pair.written ? 'passes' : 'fails'} it)`
            : pair.written
              ? "FALSE PASS: passes the agent's failed episode"
              : "caught: fails the agent's failed episode");
    count(`loose, ${fate.replace(/ \(written .*\)$/, '')}`);
    process.stdout.write(`  loose: ${id}: ${fate}\n`);
  }
  for (const [label, n] of tally) process.stdout.write(`  ${n} ${label}\n`);
}
