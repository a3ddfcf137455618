/** Grading a sandbox task without a browser: its oracle replayed over HTTP on a fresh session, then its verifier. @module */
import { replayOracle, sandboxEvidence, type OracleStep, type SandboxServer, type SandboxTask } from '../../sandbox/index';
import { replayState, verifyEpisode, type Verifier } from '../../src/index';

/** Replays `oracle` for `task` on a fresh session of `sandbox` and checks the task's verifier (with `answerOverride` as the answer, if given). */
export async function gradeOracle(sandbox: SandboxServer, task: SandboxTask, oracle: readonly OracleStep[], answerOverride?: string) {
  const evidence = sandboxEvidence({ url: sandbox.url });
  const session = await evidence.open({ site: task.site, taskId: task.task_id, baseUrl: sandbox.url });
  const [start, consequences] = await Promise.all([session.startRows!(), session.consequences!()]);
  const run = await replayOracle({ url: sandbox.url, startPath: task.start_path, oracle, session: session.cookies[0]?.value });
  const got = await session.collect();
  const result = await verifyEpisode(task.verifier as Verifier, {
    answer: answerOverride ?? run.answer,
    log: got.log,
    changes: got.changes,
    state: replayState(start, got.changes),
    question: task.instruction,
    start,
    consequences,
  });
  await session.close?.();
  return { run, result };
}
