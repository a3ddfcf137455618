import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAttempt, browserHost, scriptedPolicy, type BrowserHost } from '../src/index';
import { oraclePolicy, sandboxEvidence, startSandbox, type SandboxServer, type SandboxTask } from '../sandbox/index';

// End to end on the sandbox: the oracle (the sandbox's stand-in agent, which plays each human task's solution by
// element names through the real browser harness) completes the tasks and passes the verifiers, checked from the
// server's own evidence; an agent that does nothing fails every action task.

let sandbox: SandboxServer;
let host: BrowserHost;
let tmp: string;
let tasks: SandboxTask[];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, catalog: { variants: 1, testVariants: [] } });
  host = browserHost();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'agent-sandbox-'));
  // an info and an action task of each site, so the test stays bounded as templates are added
  tasks = sandbox.catalog.sites().flatMap((site) => {
    const human = sandbox.catalog.tasks(site)?.human ?? [];
    return [...human.filter((t) => t.task_kind === 'info').slice(0, 1), ...human.filter((t) => t.task_kind === 'action').slice(0, 1)];
  });
});
afterAll(async () => {
  await host.close();
  await sandbox.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('attempt on the sandbox', () => {
  it('the oracle completes every human task and its verifier passes', async () => {
    expect(tasks.length).toBeGreaterThanOrEqual(4);
    const out = path.join(tmp, 'oracle');
    const failures: string[] = [];
    const summary = await runAttempt({
      tasks,
      onEvent: (e) => void (e.type === 'episode-failed' && failures.push(`${e.taskId}: ${e.error}`)),
      policy: oraclePolicy({ tasks }),
      source: { baseUrl: sandbox.url },
      evidence: sandboxEvidence({ url: sandbox.url }),
      out,
      browser: host,
      concurrency: 2,
    });
    expect(failures).toEqual([]);
    const results = (await readFile(path.join(out, 'results.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    // each failure with its checks, actions and last page, so a red run says why
    const failing = await Promise.all(results.filter((r) => !r.ok).map(async (r) => {
      const episode = JSON.parse(await readFile(path.join(out, r.task_id, 'episode.json'), 'utf8'));
      const grade = JSON.parse(await readFile(path.join(out, r.task_id, 'grade_inputs.json'), 'utf8'));
      return `${r.task_id}: ${JSON.stringify(episode.checks)}\n${JSON.stringify(grade.actions)}\n${grade.seen.at(-1).slice(0, 600)}`;
    }));
    expect(failing).toEqual([]);
    expect(summary).toMatchObject({ recorded: tasks.length, failed: 0, verified: { total: tasks.length, passed: tasks.length } });
    expect(summary.outcomes.done).toBe(tasks.length);
    // the server's evidence: an action task's episode shows its data changes
    const action = tasks.find((t) => t.task_kind === 'action' && t.verifier && 'state' in t.verifier && t.verifier.state)!;
    const grade = JSON.parse(await readFile(path.join(out, action.task_id, 'grade_inputs.json'), 'utf8'));
    expect(grade.changes.length).toBeGreaterThan(0);
    expect(grade.log.some((e: { method: string }) => e.method === 'POST')).toBe(true);
  });

  it('an agent that does nothing fails every action task', async () => {
    const out = path.join(tmp, 'idle');
    const actionTasks = tasks.filter((t) => t.task_kind === 'action');
    await runAttempt({
      tasks: actionTasks,
      policy: scriptedPolicy([{ done: {} }]),
      source: { baseUrl: sandbox.url },
      evidence: sandboxEvidence({ url: sandbox.url }),
      out,
      browser: host,
      concurrency: 2,
    });
    const results = (await readFile(path.join(out, 'results.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(results).toHaveLength(actionTasks.length);
    expect(results.filter((r) => r.ok)).toEqual([]);
  });
});
