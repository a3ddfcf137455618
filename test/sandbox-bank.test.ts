/**
 * The proposer's bank of the first site of each template: every task's oracle passes its verifier on a fresh
 * session (so the stand-in oracle agent can solve what the stand-in proposer proposes) and doing nothing fails
 * every action task.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATES, replayOracle, sandboxEvidence, startSandbox, type SandboxServer } from '../sandbox/index';
import { verifyEpisode, type Verifier } from '../src/index';

let sandbox: SandboxServer;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox?.close();
});

describe.each(TEMPLATES.map((t) => t.id))('bank of %s-01', (id) => {
  it('is solved by its oracles, and not by doing nothing', async () => {
    const site = `${id}-01`;
    const evidence = sandboxEvidence({ url: sandbox.url });
    const failures: string[] = [];
    const bank = sandbox.catalog.tasks(site)?.bank ?? [];
    expect(bank.length).toBeGreaterThanOrEqual(160);
    for (const task of bank) {
      for (const oracle of [task.oracle, [{ done: {} }]] as const) {
        const session = await evidence.open({ site, taskId: task.task_id, baseUrl: sandbox.url });
        const run = await replayOracle({ url: sandbox.url, startPath: task.start_path, oracle, session: session.cookies[0]?.value });
        const got = await session.collect();
        const result = await verifyEpisode(task.verifier as Verifier, { answer: run.answer, log: got.log, changes: got.changes, state: (t) => session.state?.(t) ?? [] });
        await session.close?.();
        const idle = oracle !== task.oracle;
        if (!idle && (run.error || !result.ok)) failures.push(`${task.task_id}: ${run.error ?? JSON.stringify(result.checks.filter((c) => !c.ok))}`);
        if (idle && result.ok && task.task_kind === 'action') failures.push(`${task.task_id}: passes without doing anything`);
      }
    }
    expect(failures).toEqual([]);
  });
});
