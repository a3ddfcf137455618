/**
 * Written verifiers against the human tasks' hand-written ones, on the sandbox: each verifier is written (by the
 * stand-in writer, wrong on `ERROR_RATE` of tasks on purpose) from one oracle episode of its task, then run on the
 * stand-in agent's episodes of the same tasks (successes, and deliberate failures on `FAILURE_RATE` of tasks, each
 * graded by its hand-written verifier). Prints agreement, precision (the hand-written verifier passes when the written
 * one does) and recall with 95% Wilson intervals, overall, per site and per kind.
 *
 * Not a timing: a measurement of the machinery. Env: SITES (default 8), PER_SITE (human tasks per site, default 12),
 * FAILURE_RATE (0.3), ERROR_RATE (0.1), SEED (17), CONCURRENCY (4).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { oraclePolicy, sandboxJudge, sandboxSetup, sandboxVerifierWriter } from '../sandbox/index';
import { browserHost, readWrittenVerifiers, runAttempt, runJudge, runWriteVerifiers, scoreWrittenVerifiers, nodeStore, type JudgeScoreWithIntervals } from '../src/index';

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
  const written = await runWriteVerifiers({
    run: oracleRun,
    tasks: stripped,
    llm: sandboxVerifierWriter({ errorRate: ERROR_RATE, seed: SEED }),
    store,
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
} finally {
  await host.close();
  await sb.close();
  await rm(tmp, { recursive: true, force: true });
}
