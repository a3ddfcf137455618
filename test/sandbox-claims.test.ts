import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptTask, browserHost, checkClaim, loadStepEvidence, nodeStore, verifierClaim, type BrowserHost, type StepInfo, type Verifier } from '../src/index';
import { oraclePolicy, sandboxEvidence, startSandbox, TEMPLATES, type SandboxServer, type SandboxTask } from '../sandbox/index';
import { tempDir } from './helpers/runs';

// The step map on real episodes: the oracle plays one action and one info task of the sandbox's shop through the
// browser, and each request, data change and page text is tagged with the step after which it appeared, as the
// pages the agent observed at each step show.

let sandbox: SandboxServer;
let host: BrowserHost;
let tmp: string;
let tasks: SandboxTask[];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, catalog: { templates: TEMPLATES.filter((t) => t.id === 'shop'), variants: 1, testVariants: [] } });
  host = browserHost();
  tmp = await tempDir('claims-steps-');
  tasks = sandbox.catalog.tasks(sandbox.catalog.sites()[0]!)!.human as SandboxTask[];
});
afterAll(async () => {
  await host?.close();
  await sandbox?.close();
});

async function play(task: SandboxTask) {
  const steps: StepInfo[] = [];
  const dir = path.join(tmp, task.task_id);
  const store = nodeStore();
  const result = await attemptTask({
    task, policy: oraclePolicy({ tasks: [task] }), host, evidence: sandboxEvidence({ url: sandbox.url }), baseUrl: sandbox.url,
    store, dir, maxSteps: 12, timeoutMs: 120_000, onStep: (s) => steps.push(s),
  });
  expect(result.episode.outcome).toBe('done');
  const evidence = await loadStepEvidence(store, dir);
  const inputs = JSON.parse(await readFile(path.join(dir, 'grade_inputs.json'), 'utf8'));
  return { steps, evidence, inputs, episode: result.episode };
}

const pathOf = (url: string): string => url.split('?')[0]!;

// The last page loaded by step k's evidence is the page the agent observed at step k.
function expectPagesMatch(evidence: Awaited<ReturnType<typeof play>>['evidence'], steps: StepInfo[]) {
  const tags = evidence.log.map((e) => e.step);
  expect(tags).toEqual([...tags].sort((a, b) => a - b));
  for (const s of steps) {
    const loaded = evidence.log.filter((e) => e.step === s.step && e.entry.method === 'GET').at(-1);
    expect(loaded?.entry.path, `the page of step ${s.step}`).toBe(pathOf(s.url));
  }
  expect(evidence.seen.map((s) => s.step)).toEqual(steps.map((s) => s.step));
}

describe('the step map of a sandbox episode', () => {
  it('an action task: the request and the change at the step that made them', async () => {
    const task = tasks.find((t) => t.task_id.includes('cart-add'))!;
    const { steps, evidence, inputs, episode } = await play(task);
    expect(evidence.steps).toBe(episode.steps);
    expectPagesMatch(evidence, steps);
    // the step whose action led to the cart page added the product
    const added = steps.findIndex((_, i) => pathOf(steps[i + 1]?.url ?? '').endsWith('/cart')) + 1;
    expect(added).toBeGreaterThan(0);
    const post = evidence.log.find((e) => e.entry.method === 'POST')!;
    expect(post.step).toBe(added);
    expect(evidence.changes.map((c) => c.step)).toEqual([added]);
    // the task's verifier as a claim holds from that step on
    expect(checkClaim(verifierClaim(task.verifier as Verifier)!, evidence)).toMatchObject({ holds: true, firstStep: added });
    // the seed's grade inputs are as they were: no field added
    expect(Object.keys(inputs)).toEqual(['actions', 'answer', 'log', 'changes', 'seen']);
  });

  it("an info task: a value seen on the page where it was, the answer at the done step", async () => {
    const task = tasks.find((t) => t.task_kind === 'info' && (t.verifier as { answer?: { type: string } }).answer?.type === 'number')!;
    const { steps, evidence, episode } = await play(task);
    expectPagesMatch(evidence, steps);
    const value = Number((task.verifier as { answer: { value: number } }).answer.value);
    const shown = steps.find((s) => s.action && 'done' in s.action)!.step; // the page the agent answered from
    expect(checkClaim({ seen: { number: value, tolerance: 0.005 } }, evidence).firstStep).toBeLessThanOrEqual(shown);
    expect(evidence.answerStep).toBe(episode.steps);
    expect(checkClaim(verifierClaim(task.verifier as Verifier)!, evidence)).toMatchObject({ holds: true, firstStep: episode.steps });
    expect(checkClaim({ all: [{ seen: { number: value, tolerance: 0.005 } }, { answer: { number: value, tolerance: 0.005 } }] }, evidence)).toMatchObject({ holds: true, firstStep: episode.steps });
  });
});
