/**
 * The proposer's bank of the first site of each template: every task's oracle passes its verifier on a fresh
 * session (so the stand-in oracle agent can solve what the stand-in proposer proposes) and doing nothing fails
 * every action task.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATES, startSandbox, type SandboxServer } from '../sandbox/index';
import { gradeOracle } from './helpers/sandbox';

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
    const failures: string[] = [];
    const bank = sandbox.catalog.tasks(site)?.bank ?? [];
    expect(bank.length).toBeGreaterThanOrEqual(160);
    for (const task of bank) {
      for (const oracle of [task.oracle, [{ done: {} }]] as const) {
        const { run, result } = await gradeOracle(sandbox, task, oracle);
        const idle = oracle !== task.oracle;
        if (!idle && (run.error || !result.ok)) failures.push(`${task.task_id}: ${run.error ?? JSON.stringify(result.checks.filter((c) => !c.ok))}`);
        if (idle && result.ok && task.task_kind === 'action') failures.push(`${task.task_id}: passes without doing anything`);
      }
    }
    expect(failures).toEqual([]);
  });
});
