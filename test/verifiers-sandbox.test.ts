/**
 * Written verifiers end to end on the sandbox (one server, one browser): two bank tasks attempted as proposed tasks,
 * judged, given verifiers by the stand-in writer; a second attempt with those verifiers writes `results.jsonl` as a
 * human-task run does, validate scores the judge on them, and the report lists the episodes where they disagree.
 * The episodes record their tables' start rows; no written verifier holds on the do-nothing episode, and a vacuous
 * one never passes an episode.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHost, checkClaim, emptyEvidence, loadStepEvidence, readWrittenVerifiers, runAttempt, runJudge, runReport, runValidate, runWriteVerifiers, nodeStore, type BrowserHost, type Task } from '../src/index';
import { oraclePolicy, sandboxEvidence, sandboxJudge, sandboxVerifierWriter, startSandbox, type SandboxServer } from '../sandbox/index';

let sandbox: SandboxServer;
let host: BrowserHost;
let tmp: string;
let tasks: Task[];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, catalog: { variants: 1, testVariants: [] } });
  host = browserHost();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'verifiers-sandbox-'));
  const site = sandbox.catalog.sites()[0]!;
  const bank = sandbox.catalog.tasks(site)!.bank;
  // As the proposer would give them: no verifier, no solution (the stand-ins find both in the bank by instruction).
  tasks = [bank.find((t) => t.task_kind === 'info')!, bank.find((t) => t.task_kind === 'action')!].map((t, i) => ({
    kind: 'proposed', task_id: `p-${site}-${i}`, site, sites: [site], macro: 'proposed', macros: [],
    instruction: t.instruction, start_path: t.start_path, task_kind: t.task_kind, verifier: null,
  }));
});
afterAll(async () => {
  await host?.close();
  await sandbox?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('written verifiers on the sandbox', () => {
  it('are written from judged successes, then grade a later attempt, which validate and the report use', async () => {
    const store = nodeStore();
    const common = { tasks, source: { baseUrl: sandbox.url }, evidence: sandboxEvidence({ url: sandbox.url }), browser: host, concurrency: 2, actionTimeoutMs: 20_000 };
    const first = path.join(tmp, 'run');
    await runAttempt({ ...common, policy: oraclePolicy(), out: first });
    expect(await store.exists(path.join(first, 'results.jsonl'))).toBe(false); // proposed tasks: nothing to verify with
    // The sandbox records every table's rows before the first action: what state claims read.
    const start = await loadStepEvidence(store, path.join(first, tasks[1]!.task_id));
    expect(Object.keys(start.start ?? {}).length).toBeGreaterThan(1);
    await runJudge({ run: first, llm: sandboxJudge({ runDir: first }) });
    const written = await runWriteVerifiers({ run: first, llm: sandboxVerifierWriter() });
    expect(written).toMatchObject({ successes: 2, written: 2, missing: 0 });
    const { byTask } = await readWrittenVerifiers(store, written.file);

    const second = path.join(tmp, 'run2');
    const r = await runAttempt({ ...common, policy: oraclePolicy(), out: second, verifiers: [...byTask.values()] });
    expect(r.verified).toEqual({ total: 2, passed: 2 });
    const results = (await readFile(path.join(second, 'results.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as unknown);
    expect(results).toEqual(tasks.map((t) => ({ task_id: t.task_id, ok: true })));
    const episode = JSON.parse(await readFile(path.join(second, tasks[1]!.task_id, 'episode.json'), 'utf8')) as { checks: Array<{ check: string }> };
    expect(episode.checks[0]!.check).toMatch(/^written verifier /);
    for (const v of byTask.values()) expect(checkClaim(v.claim, emptyEvidence(start.start)).holds).toBe(false);

    // Grading never uses a claim that proves nothing: one true of the do-nothing episode fails the episode, saying why.
    const vacuous = { ...byTask.get(tasks[0]!.task_id)!, claim: { not: { answer: 'zz never said' } } };
    const third = path.join(tmp, 'run3');
    const v3 = await runAttempt({ ...common, tasks: [tasks[0]!], policy: oraclePolicy(), out: third, verifiers: [vacuous] });
    expect(v3.verified).toEqual({ total: 1, passed: 0 });
    const graded = JSON.parse(await readFile(path.join(third, tasks[0]!.task_id, 'episode.json'), 'utf8')) as { ok: boolean; checks: Array<{ detail: string }> };
    expect(graded.ok).toBe(false);
    expect(graded.checks[0]!.detail).toMatch(/^vacuous, not used: it holds on an episode that did nothing/);

    // A judge that flips every verdict disagrees with the verifiers on both episodes.
    const v = await runValidate({ run: second, llm: sandboxJudge({ runDir: second, noise: 1 }) });
    expect(v.report.overall).toMatchObject({ episodes: 2, verifier_pass: 2, judge_pass: 0, agreement: 0 });
    const page = await readFile(await runReport({ run: second }), 'utf8');
    expect(page).toContain('Judge–verifier disagreements (2)');
    for (const t of tasks) expect(page).toContain(t.task_id);
  });
});
