/**
 * The offline pipeline with the sandbox's stand-in models, through the library's real steps: the stand-in
 * proposer under `runPropose`, the oracle policy in the real browser harness (`attempt`, Chromium), the
 * stand-in judge under `runJudge` and `validate`.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  normInstruction, oraclePolicy, sandboxEvidence, sandboxJudge, sandboxProposer, sandboxSource, startSandbox,
  type SandboxServer, type SandboxTask,
} from '../sandbox/index';
import { runAttempt, runJudge, runPropose, runValidate, type Observation, type Task } from '../src/index';

let sandbox: SandboxServer;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  dir = await mkdtemp(path.join(tmpdir(), 'sandbox-standins-'));
});
afterAll(async () => {
  await sandbox?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const lines = async (file: string): Promise<Array<Record<string, unknown>>> =>
  (await readFile(file, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

describe('stand-in proposer', () => {
  it('serves 140 distinct bank tasks per site through runPropose, about 40% info, never repeating', async () => {
    const out = path.join(dir, 'tasks.jsonl');
    const summary = await runPropose({ sites: ['shop-02', 'mail-08'], source: sandboxSource({ url: sandbox.url }), llm: sandboxProposer(), out, perSite: 140 });
    expect(summary.sites.map((s) => [s.site, s.tasks])).toEqual([['shop-02', 140], ['mail-08', 140]]);
    expect(summary.info / summary.tasks).toBeGreaterThan(0.3);
    expect(summary.info / summary.tasks).toBeLessThan(0.6);
    const tasks = await lines(out);
    for (const site of ['shop-02', 'mail-08']) {
      const bank = new Map(sandbox.catalog.tasks(site)?.bank.map((t) => [normInstruction(t.instruction), t]));
      const mine = tasks.filter((t) => t.site === site);
      expect(new Set(mine.map((t) => normInstruction(String(t.instruction)))).size).toBe(140);
      for (const t of mine) expect(bank.get(normInstruction(String(t.instruction)))?.task_kind).toBe(t.task_kind);
    }
  });

  it('refuses a prompt that names no sandbox site', async () => {
    await expect(sandboxProposer().complete('WEBSITE: Elsewhere (all pages under /x/)\n\nWrite 3 new tasks')).rejects.toThrow(/no sandbox site/);
    const reply = await sandboxProposer().complete('WEBSITE: X (all pages under /sites/mail-03/)\nWrite 4 new tasks for this website.\n- Do not repeat these earlier tasks: (none yet)');
    expect((JSON.parse(reply.text) as { tasks: unknown[] }).tasks).toHaveLength(4);
  });
});

describe('oracle policy', () => {
  const obs = (names: Array<[string, string]>): Observation => ({
    step: 0, url: '/', title: '', text: '', error: null, screenshot: new Uint8Array(), prompt: '',
    elements: names.map(([role, name], i) => ({ index: i + 1, role, name, tag: 'a' })),
  });
  const task = (id: string, kind: 'info' | 'action', oracle: unknown): Task & { oracle: unknown } => ({
    kind: 'human', task_id: id, site: 'shop-01', sites: ['shop-01'], macro: 'human', macros: [], instruction: `do ${id}`,
    start_path: '/sites/shop-01/', task_kind: kind, verifier: null, oracle,
  });

  it('resolves role and name to the element index, and reports a missing element as its answer', async () => {
    const t = task('t1', 'action', [{ click: { role: 'link', name: 'Cart' } }, { type: { role: 'spinbutton', name: 'Quantity', text: '3' } }, { done: {} }]);
    const policy = oraclePolicy({ tasks: [t] });
    const o = obs([['link', 'Home'], ['button', 'cart'], ['link', '  cart ']]);
    const first = await policy.decide({ task: t, observation: o, history: [], step: 0, maxSteps: 15 });
    expect(JSON.parse(first.text)).toEqual({ click: { index: 3 } });
    const step = { step: 0, url: '/', raw: first.text, action: null, error: null };
    const second = await policy.decide({ task: t, observation: o, history: [step], step: 1, maxSteps: 15 });
    expect(JSON.parse(second.text)).toEqual({ done: { answer: 'stand-in oracle: no spinbutton "Quantity" on the page' } });
    expect(policy.model).toBe('stand-in-oracle');
  });

  it('deviates on the set share of tasks, the same way every time', async () => {
    const tasks = Array.from({ length: 400 }, (_, i) => task(`t${i}`, i % 2 ? 'info' : 'action', [{ goto: { path: '/a' } }, { goto: { path: '/b' } }, { done: { answer: 'Total: $42.50' } }]));
    const outcome = async (seed: number) => {
      const policy = oraclePolicy({ tasks, failureRate: 0.3, seed });
      const results: string[] = [];
      for (const t of tasks) {
        const history = [];
        let text = '';
        for (let i = 0; i < 3; i++) {
          text = (await policy.decide({ task: t, observation: obs([]), history, step: i, maxSteps: 15 })).text;
          if (text.startsWith('{"done"')) break;
          history.push({ step: i, url: '/', raw: text, action: null, error: null });
        }
        results.push(text);
      }
      return results;
    };
    const a = await outcome(7);
    expect(await outcome(7)).toEqual(a);
    const failed = a.filter((r) => r !== '{"done":{"answer":"Total: $42.50"}}');
    expect(failed.length / a.length).toBeGreaterThan(0.22);
    expect(failed.length / a.length).toBeLessThan(0.38);
    expect(a).toContain('{"done":{"answer":"Total: $42.51"}}');
    expect(await outcome(8)).not.toEqual(a);
  });
});

describe('oracle policy failures on bank tasks', () => {
  // Every element any shop-01 bank solution names, as often as its `nth` needs: one page on which every solution runs.
  const site = 'shop-01';
  const slugWord = (t: SandboxTask) => t.task_id.slice(`bank-${site}-`.length).split('-')[0];
  const page = (bank: readonly SandboxTask[]): Observation => {
    const elements: Array<Observation['elements'][number]> = [];
    for (const step of bank.flatMap((t) => t.oracle)) {
      const target = Object.values(step)[0] as { role?: string; name?: string; nth?: number };
      if (!target.name) continue;
      const have = elements.filter((e) => e.role === target.role && e.name === target.name).length;
      for (let n = have; n <= (target.nth ?? 0); n++) elements.push({ index: elements.length + 1, role: target.role ?? 'link', name: target.name, tag: 'a' });
    }
    return { step: 0, url: '/', title: '', text: '', error: null, screenshot: new Uint8Array(), prompt: '', elements };
  };
  // The replies of a whole episode, every action going through.
  const episode = async (policy: ReturnType<typeof oraclePolicy>, task: Task, observation: Observation): Promise<string[]> => {
    const history: Array<{ step: number; url: string; raw: string; action: null; error: null }> = [];
    const replies: string[] = [];
    for (let i = 0; i < 20; i++) {
      const { text } = await policy.decide({ task, observation, history, step: i, maxSteps: 20 });
      replies.push(text);
      if (text.startsWith('{"done"')) break;
      history.push({ step: i, url: '/', raw: text, action: null, error: null });
    }
    return replies;
  };

  it('on 60% of failing tasks does another bank task of the site, 3 in 4 of those the same kind with other values; the rest stop early or answer wrong', async () => {
    const bank = sandbox.catalog.tasks(site)!.bank;
    const observation = page(bank);
    const right = oraclePolicy({ catalog: sandbox.catalog });
    const solved = new Map<string, SandboxTask[]>();
    const solutions = new Map<string, string[]>();
    for (const t of bank) {
      const replies = await episode(right, t, observation);
      solutions.set(t.task_id, replies);
      solved.set(JSON.stringify(replies), [...(solved.get(JSON.stringify(replies)) ?? []), t]);
    }
    const asked = bank.slice(0, 300);
    const run = async (seed: number) => {
      const policy = oraclePolicy({ catalog: sandbox.catalog, failureRate: 0.3, seed });
      return Promise.all(asked.map((t) => episode(policy, t, observation)));
    };
    const a = await run(3);
    expect(await run(3)).toEqual(a);
    expect(await run(4)).not.toEqual(a);
    let failed = 0;
    let replayed = 0;
    let same = 0;
    let stoppedOrWrong = 0;
    for (const [i, replies] of a.entries()) {
      const task = asked[i]!;
      const own = solutions.get(task.task_id)!;
      if (JSON.stringify(replies) === JSON.stringify(own)) continue;
      failed++;
      const others = (solved.get(JSON.stringify(replies)) ?? []).filter((t) => normInstruction(t.instruction) !== normInstruction(task.instruction));
      if (others.length) {
        replayed++;
        if (others.some((t) => slugWord(t) === slugWord(task) && t.task_kind === task.task_kind)) same++;
        continue;
      }
      // Stopped early: its own solution's first steps, then done without an answer; or its own steps with another answer.
      const last = replies.length - 1;
      const prefix = replies.slice(0, last).every((r, k) => r === own[k]);
      const wrong = replies.length === own.length && task.task_kind === 'info' && replies[last] !== own[last];
      if (prefix && (replies[last] === '{"done":{}}' || wrong)) stoppedOrWrong++;
    }
    expect(failed / asked.length).toBeGreaterThan(0.22);
    expect(failed / asked.length).toBeLessThan(0.38);
    expect(replayed / failed).toBeGreaterThan(0.45);
    expect(replayed / failed).toBeLessThan(0.75);
    expect(same / replayed).toBeGreaterThan(0.55);
    expect(same / replayed).toBeLessThan(0.92);
    expect(stoppedOrWrong).toBe(failed - replayed);
  });
});

describe('stand-in judge votes', () => {
  it('at temperature 0 every vote of an episode flips alike; above 0 each vote draws its own flip, at the set rate', async () => {
    const tasks = sandbox.catalog.tasks('shop-02')!.bank.slice(0, 200);
    const prompt = (t: SandboxTask) => `TASK: ${t.instruction}\n\nSERVER REQUESTS OF THE SESSION (method path, parameters):\nGET /sites/shop-02/ -> 200`;
    const verdicts = async (temperature: number) => {
      const judge = sandboxJudge({ noise: 0.1, seed: 3 });
      const out: string[][] = [];
      for (const t of tasks) {
        const votes: string[] = [];
        for (let i = 0; i < 3; i++) votes.push((JSON.parse((await judge.complete(prompt(t), { temperature })).text) as { verdict: string }).verdict);
        out.push(votes);
      }
      return out;
    };
    const cold = await verdicts(0);
    expect(cold.every((v) => v[0] === v[1] && v[1] === v[2])).toBe(true);
    const warm = await verdicts(0.7);
    // The first vote is the 1-vote judge's; the others flip apart from it: about 2 * 0.1 * 0.9 of the pairs differ.
    expect(warm.map((v) => v[0])).toEqual(cold.map((v) => v[0]));
    const differ = warm.filter((v) => v[1] !== v[0]).length + warm.filter((v) => v[2] !== v[0]).length;
    expect(differ / (2 * tasks.length)).toBeGreaterThan(0.08);
    expect(differ / (2 * tasks.length)).toBeLessThan(0.3);
  });
});

describe('the offline pipeline in a real browser', () => {
  it('oracle episodes pass their verifiers; the stand-in judge agrees with them, and its noise is what was set', async () => {
    // Half of two sites' human tasks (test/agent-sandbox.test.ts plays an info and an action task of every site with oraclePolicy).
    const human = ['shop-01', 'mail-01'].flatMap((s, k) => (sandbox.catalog.tasks(s)?.human ?? []).filter((_, i) => i % 2 === k)) as SandboxTask[];
    const proposedFile = path.join(dir, 'proposed.jsonl');
    await runPropose({ sites: ['shop-02'], source: sandboxSource({ url: sandbox.url }), llm: sandboxProposer(), out: proposedFile, perSite: 4, batch: 4 });
    const proposed = (await lines(proposedFile)) as unknown as Task[];
    expect(proposed).toHaveLength(4);
    const run = path.join(dir, 'run');
    const failing = path.join(dir, 'run-fail');
    // Generous action time limits: a loaded machine must not turn a slow click into a failed episode.
    const common = { source: { baseUrl: sandbox.url }, evidence: sandboxEvidence({ url: sandbox.url }), concurrency: 2, maxSteps: 15, actionTimeoutMs: 20_000 };
    const summary = await runAttempt({ tasks: [...human, ...proposed], ...common, policy: oraclePolicy({ tasks: human }), out: run });
    expect(summary).toMatchObject({ failed: 0, recorded: human.length + proposed.length });
    const results = await lines(path.join(run, 'results.jsonl'));
    expect(results.filter((r) => r.ok !== true)).toEqual([]);
    expect(results).toHaveLength(human.length);

    const some = human.filter((_, i) => i % 2 === 0);
    await runAttempt({ tasks: some, ...common, policy: oraclePolicy({ tasks: human, failureRate: 0.5, seed: 2 }), out: failing });
    const failed = (await lines(path.join(failing, 'results.jsonl'))).filter((r) => r.ok !== true).length;
    expect(failed).toBeGreaterThan(some.length * 0.2);
    expect(failed).toBeLessThan(some.length * 0.8);

    const judged = await runJudge({ run, llm: sandboxJudge({ runDir: run }), workers: 4 });
    expect(judged.records).toHaveLength(human.length + proposed.length);
    expect(judged.records.every((r) => r.predicted_label === 1 && r.model === 'stand-in-judge')).toBe(true);

    const strict = await runValidate({ run: failing, llm: sandboxJudge({ runDir: failing }) });
    expect(strict.report.overall).toMatchObject({ agreement: 1, episodes: some.length });
    await rm(`${failing}_judge`, { recursive: true });
    const fromPrompts = await runValidate({ run: failing, llm: sandboxJudge({ modelId: 'stand-in-judge-prompt-only' }), model: 'prompt-only' });
    expect(fromPrompts.report.overall.agreement).toBeGreaterThanOrEqual(0.9);
    await rm(`${failing}_judge`, { recursive: true });
    const noisy = await runValidate({ run: failing, llm: sandboxJudge({ runDir: failing, noise: 0.3, seed: 5 }) });
    const flipped = noisy.judged.records.filter((r) => r.response?.includes('stand-in judge noise')).length;
    expect(noisy.report.overall.agreement).toBeCloseTo(1 - flipped / some.length, 6);
    expect(flipped).toBeGreaterThan(0);
  }, 900_000);
});
