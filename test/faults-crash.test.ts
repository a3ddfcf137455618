/**
 * A stage killed at any moment and run again ends as if never interrupted: propose, and the stages after attempt
 * (judge, written verifiers, validate, relabel, rows, report) on a small recorded run, run in a memory store that dies
 * after its k-th write, for every k, then run again on what the death left; the files must equal those of one
 * uninterrupted run (times of writing aside), apart from what was kept aside (`_aside/`, `_quarantine/`). The real
 * kill -9 of a process is tried on attempt and judge by test/cli-pipeline.test.ts and test/agent-cli.test.ts; this
 * one reaches every point between two file operations of these stages, which a signal sent at a moment cannot.
 */
import { describe, expect, it } from 'vitest';
import {
  fakeLLM, memorySource, memoryStore, runJudge, runPropose, runRelabel, runReport, runRows, runValidate, runWriteVerifiers,
  type FileStore, type MemoryStore, type Task,
} from '../src/index';
import { defaultAgentMessages } from '../src/agent/prompt';
import type { Observation, StepRecord } from '../src/agent/types';

const SITE = 'shop-01';
const RUN = 'data/run';
const HUMAN = 'data/human';

// Three 2-step episodes of one site; the judge fails the first (relabel works on it) and passes the others.
const TASKS: Task[] = ['0a0a0a0a', '1b1b1b1b', '2c2c2c2c'].map((h, i) => ({
  kind: 'proposed', task_id: `tg-${SITE}-${h}`, site: SITE, sites: [SITE], macro: 'proposed', macros: [],
  instruction: ['Buy the cheapest blue lamp in the shop', 'Search the shop for red chairs', 'What does the green table cost?'][i]!,
  start_path: `/sites/${SITE}/`, task_kind: i === 2 ? 'info' : 'action', verifier: null,
}));
const PAGES = ['Home page: search box [1]', 'Results: Lamp A $30, Lamp B $12, Red chair $40, Green table $99'];
const json = (v: unknown) => `${JSON.stringify(v, null, 1)}\n`;

function episodeFiles(run: string, task: Task, query: string): Record<string, string> {
  const dir = `${run}/${task.task_id}`;
  const answer = task.task_kind === 'info' ? 'The green table costs $99' : null;
  const steps: StepRecord[] = [
    { step: 0, url: `/sites/${SITE}/`, raw: '', action: { type: { index: 1, text: query, enter: true } }, error: null },
    { step: 1, url: `/sites/${SITE}/search`, raw: '', action: { done: answer === null ? {} : { answer } }, error: null },
  ];
  const rows = steps.map((s) => {
    const m = defaultAgentMessages({ task, observation: { prompt: PAGES[s.step]! } as Observation, history: steps.slice(0, s.step), step: s.step, maxSteps: 10 });
    return JSON.stringify({ messages: [{ role: 'system', content: m.system }, { role: 'user', content: m.user }, { role: 'assistant', content: JSON.stringify(s.action) }], images: [`step_${s.step}.png`] });
  });
  const episode = { task, outcome: 'done', steps: 2, answer, timings: { started: '2026-01-01T00:00:00.000Z', ended: '2026-01-01T00:00:04.000Z', ms: 4000 }, model: 'm', error: null, policy: 'scripted' };
  const log = [{ method: 'GET', path: `/sites/${SITE}/search`, query: { q: query }, body: null, status: 200 }];
  return {
    [`${dir}/grade_inputs.json`]: json({ actions: steps.map((s) => s.action), answer, log, changes: [], seen: PAGES }),
    [`${dir}/evidence_steps.json`]: json({ version: 1, steps: 2, answer_step: answer === null ? null : 2, log: [1], changes: [], seen: [0, 1] }),
    [`${dir}/agent_steps.json`]: json({ max_steps: 10, steps }),
    [`${dir}/rows/rows.jsonl`]: rows.map((r) => `${r}\n`).join(''),
    [`${dir}/rows/episode.json`]: json(episode),
    [`${dir}/episode.json`]: json(episode),
    [`${dir}/screenshots/step_0.png`]: `${task.task_id}-png0`,
    [`${dir}/screenshots/step_1.png`]: `${task.task_id}-png1`,
    [`${dir}/rows/step_0.png`]: `${task.task_id}-png0`,
    [`${dir}/rows/step_1.png`]: `${task.task_id}-png1`,
    [`${dir}/final.png`]: `${task.task_id}-final`,
  };
}

function recordedRun(): Record<string, string> {
  const queries = ['blue lamp', 'red chair', 'green table'];
  const files: Record<string, string> = {};
  for (const run of [RUN, HUMAN]) {
    Object.assign(files, { [`${run}/tasks.jsonl`]: TASKS.map((t) => `${JSON.stringify(t)}\n`).join('') });
    TASKS.forEach((t, i) => Object.assign(files, episodeFiles(run, t, queries[i]!)));
  }
  files[`${HUMAN}/results.jsonl`] = TASKS.map((t, i) => `${JSON.stringify({ task_id: t.task_id, ok: i !== 1 })}\n`).join('');
  return files;
}

const verdict = (prompt: string) => JSON.stringify({ parts: [], verdict: prompt.includes('Buy the cheapest') ? 'NOT SUCCESS' : 'SUCCESS' });
const REPLIES = (prompt: string): string => {
  if (prompt.includes('THE AGENT WAS ASKED')) {
    return JSON.stringify({ tasks: [{ instruction: 'Search the shop for blue lamps', kind: 'action', claim: { request: { method: 'GET', path: `/sites/${SITE}/search`, params: { q: 'blue lamp' } } } }] });
  }
  // Claims that pin their task: a search for what it names, the answer it asks (a bare search would pass every episode).
  if (prompt.includes('A SUCCESSFUL EPISODE OF THE TASK')) {
    return JSON.stringify({ claim: prompt.includes('green table') ? { answer: { contains: '$99' } } : { request: { method: 'GET', path: `/sites/${SITE}/search`, params: { q: 'red chair' } } } });
  }
  const proposing = /^WEBSITE: \S+ \(all pages under \/sites\/([^/]+)\//.exec(prompt)?.[1];
  if (proposing) return JSON.stringify({ tasks: [1, 2, 3].map((i) => ({ instruction: `On ${proposing}, find item number ${i} and report its price`, kind: 'info' })) });
  return verdict(prompt);
};

const SITES = ['alpha', 'beta'];
const source = memorySource({ sitemaps: Object.fromEntries(SITES.map((s) => [s, `{"pages": [{"path": "/sites/${s}/"}], "controls": []}`])), pages: {} });

// Propose, then every stage after attempt in the pipeline's order (on a run recorded before), on one store.
async function stages(store: FileStore): Promise<void> {
  const llm = fakeLLM({ replies: (call) => REPLIES(call.prompt), modelId: 'gemini-3.5-flash' });
  await runPropose({ sites: SITES, source, llm, out: 'data/proposed/tasks.jsonl', perSite: 3, batch: 3, workers: 1, store });
  await runJudge({ run: RUN, llm, store, workers: 1 });
  await runWriteVerifiers({ run: RUN, llm, store, workers: 1 });
  await runValidate({ run: HUMAN, llm, store, workers: 1 });
  await runRelabel({ run: RUN, llm, judge: llm, store, workers: 1 });
  await runRows({ run: RUN, out: 'data/rows', tasks: `${RUN}/tasks.jsonl`, store });
  await runReport({ run: RUN, rows: 'data/rows', store, workers: 1 });
}

const KEPT = /(^|\/)_(aside|quarantine)\//;

// The files as text, times of writing (set-up records, written verifiers...) left out.
function snapshot(store: MemoryStore): Map<string, string> {
  const out = new Map<string, string>();
  for (const [file, bytes] of [...store.files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (KEPT.test(file)) continue;
    out.set(file, Buffer.from(bytes).toString('utf8').replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>'));
  }
  return out;
}

const MUTATING = new Set(['writeAtomic', 'appendLines', 'copyDir', 'remove', 'mkdir', 'createExclusive', 'rename']);

/** A store that performs `writes` writes, then dies: every later call throws, as nothing runs after a kill. */
function dying(inner: FileStore, writes: number): { store: FileStore; died: () => boolean; written: () => number } {
  let written = 0;
  let dead = false;
  const store = new Proxy(inner, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const writing = MUTATING.has(String(key));
        if (dead || (writing && written >= writes)) {
          dead = true;
          throw new Error('killed');
        }
        if (writing) written++;
        return value.apply(target, args);
      };
    },
  });
  return { store, died: () => dead, written: () => written };
}

describe('a stage killed between any two file operations', () => {
  it('propose, judge, verifiers, validate, relabel, rows and report, run again, end as one uninterrupted run', async () => {
    const whole = memoryStore(recordedRun());
    const counted = dying(whole, Number.MAX_SAFE_INTEGER);
    await stages(counted.store);
    const writes = counted.written();
    const want = snapshot(whole);
    // The run made what every stage writes: records, verifiers, the validate report, a relabel, rows, the report.
    for (const file of ['data/proposed/tasks.jsonl', `${RUN}_judge/${TASKS[1]!.task_id}.json`, `${RUN}/verifiers.jsonl`, `${HUMAN}_judge/_validate.json`, `${RUN}_relabel/tasks.jsonl`, 'data/rows/_report.json', `${RUN}_report/index.html`]) {
      expect(want.has(file), file).toBe(true);
    }
    expect(writes).toBeGreaterThan(20);
    expect(want.get('data/proposed/tasks.jsonl')!.trim().split('\n')).toHaveLength(6);
    expect(want.get(`${RUN}/verifiers.jsonl`)!.trim().split('\n')).toHaveLength(2);
    expect(JSON.parse(want.get(`${RUN}_relabel/_parents/${TASKS[0]!.task_id}.json`)!)).toMatchObject({ proposals: [{ status: 'accepted' }], judge: { calls: 1 } });

    for (let k = 0; k < writes; k++) {
      const store = memoryStore(recordedRun());
      const killed = dying(store, k);
      await stages(killed.store).catch(() => undefined);
      expect(killed.died(), `killed at write ${k}`).toBe(true);
      await stages(store);
      const got = snapshot(store);
      expect([...got.keys()], `killed at write ${k}`).toEqual([...want.keys()]);
      for (const [file, text] of want) expect(got.get(file), `killed at write ${k}: ${file}`).toBe(text);
    }
  });
});
