import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeLLM, runLayout, runRelabel, runRows, type Task } from '../src/index';
import { defaultAgentMessages } from '../src/agent/prompt';
import type { Observation, StepRecord } from '../src/agent/types';
import { tempDir } from './helpers/runs';

// One failed episode of 3 steps: a search (step 1), a type that filters (step 2), then done with an answer (step 3).
const SITE = 'shop-01';
const parent: Task = {
  kind: 'proposed', task_id: 'tg-shop-01-0a0a0a0a', site: SITE, sites: [SITE], macro: 'proposed', macros: [],
  instruction: 'Buy the cheapest blue lamp in the shop', start_path: `/sites/${SITE}/`, task_kind: 'action', verifier: null,
};
const PAGES = ['Home page: search box [1]', 'Results for blue lamp: Lamp A $30, Lamp B $12 [2] filter', 'Filtered: Lamp B $12'];
const SEEN = [PAGES[0]!, PAGES[1]!, PAGES[1]!, PAGES[2]!];
const steps: StepRecord[] = [
  { step: 0, url: '/sites/shop-01/', raw: '{"type":{"index":1,"text":"blue lamp","enter":true}}', action: { type: { index: 1, text: 'blue lamp', enter: true } }, error: null },
  { step: 1, url: '/sites/shop-01/search', raw: 'not json at all', action: null, error: 'no action' },
  { step: 2, url: '/sites/shop-01/search', raw: '{"click":{"index":2}}', action: { click: { index: 2 } }, error: null },
  { step: 3, url: '/sites/shop-01/search?sort=price', raw: '{"done":{"answer":"Lamp B costs $12"}}', action: { done: { answer: 'Lamp B costs $12' } }, error: null },
];
const json = (v: unknown) => `${JSON.stringify(v, null, 1)}\n`;

async function writeFailedRun(run: string): Promise<void> {
  const dir = path.join(run, parent.task_id);
  await fs.mkdir(path.join(dir, 'screenshots'), { recursive: true });
  await fs.mkdir(path.join(dir, 'rows'), { recursive: true });
  await fs.mkdir(`${run}_judge`, { recursive: true });
  const rows = steps.filter((s) => s.action).map((s) => {
    const m = defaultAgentMessages({ task: parent, observation: { prompt: SEEN[s.step]! } as Observation, history: steps.slice(0, s.step), step: s.step, maxSteps: 10 });
    return { messages: [{ role: 'system', content: m.system }, { role: 'user', content: m.user }, { role: 'assistant', content: JSON.stringify(s.action) }], images: [`step_${s.step}.png`] };
  });
  const log = [
    { method: 'GET', path: '/sites/shop-01/search', query: { q: 'blue lamp' }, body: null, status: 200 },
    { method: 'GET', path: '/sites/shop-01/search', query: { q: 'blue lamp', sort: 'price' }, body: null, status: 200 },
  ];
  const episode = { task: parent, outcome: 'done', steps: 4, answer: 'Lamp B costs $12', timings: { started: '2026-01-01T00:00:00.000Z', ended: '2026-01-01T00:00:09.000Z', ms: 9000 }, model: 'm', error: null, policy: 'scripted' };
  await Promise.all([
    fs.writeFile(path.join(run, 'tasks.jsonl'), `${JSON.stringify(parent)}\n`),
    fs.writeFile(path.join(dir, 'grade_inputs.json'), json({ actions: steps.filter((s) => s.action).map((s) => s.action), answer: 'Lamp B costs $12', log, changes: [], seen: SEEN })),
    fs.writeFile(path.join(dir, 'evidence_steps.json'), json({ version: 1, steps: 4, answer_step: 4, log: [1, 3], changes: [], seen: [0, 1, 2, 3] })),
    fs.writeFile(path.join(dir, 'agent_steps.json'), json({ max_steps: 10, steps })),
    fs.writeFile(path.join(dir, 'rows', 'rows.jsonl'), rows.map((r) => `${JSON.stringify(r)}\n`).join('')),
    fs.writeFile(path.join(dir, 'rows', 'episode.json'), json(episode)),
    ...[0, 1, 2, 3].flatMap((i) => [fs.writeFile(path.join(dir, 'screenshots', `step_${i}.png`), `png${i}`), fs.writeFile(path.join(dir, 'rows', `step_${i}.png`), `png${i}`)]),
    fs.writeFile(path.join(dir, 'final.png'), 'png-final'),
    fs.writeFile(path.join(`${run}_judge`, `${parent.task_id}.json`), json({ task_id: parent.task_id, predicted_label: 0, verdict: true, response: '{}', model: 'j' })),
  ]);
  await fs.writeFile(path.join(dir, 'episode.json'), json(episode));
}

const proposals = {
  tasks: [
    { instruction: 'Search the shop for blue lamps', kind: 'action', claim: { request: { method: 'GET', path: '/sites/shop-01/search', params: { q: 'blue lamp' } } } },
    { instruction: 'What does the cheapest blue lamp cost?', kind: 'info', claim: { answer: { contains: '$12' } } },
    { instruction: 'Delete the blue lamp from the catalogue', kind: 'action', claim: { change: { table: 'products', op: 'delete' } } },
    { instruction: 'Sort blue lamps by price, please', kind: 'action', claim: { request: { path: { pattern: 'search$' }, bogus: 1 } } },
  ],
};
const verdict = (v: string) => JSON.stringify({ parts: [], verdict: v });

describe('runRelabel', () => {
  it('checks each claim, cuts the episode where it holds, judges only claims that hold, and renders the rows under the new task', async () => {
    const run = path.join(await tempDir(), 'r1');
    await writeFailedRun(run);
    const llm = fakeLLM({ replies: [JSON.stringify(proposals)], modelId: 'gemini-3.5-flash' });
    const judge = fakeLLM({ replies: (call) => verdict(call.prompt.startsWith('TASK: Search') || call.prompt.includes('cheapest') ? 'SUCCESS' : 'NOT SUCCESS'), modelId: 'gemini-3.5-flash' });
    const { summary, tasks, parents, out } = await runRelabel({ run, llm, judge, k: 4 });

    expect(out).toBe(runLayout(run).relabel);
    expect(summary.statuses).toMatchObject({ accepted: 2, 'claim-failed': 1, 'bad-claim': 1, 'judged-failure': 0 });
    expect(judge.calls).toHaveLength(2); // the claims that did not hold were never judged
    expect(llm.calls[0]!.prompt).toContain('THE AGENT WAS ASKED: Buy the cheapest blue lamp in the shop');
    expect(llm.calls[0]!.prompt).toContain('GET /sites/shop-01/search ?{"q": "blue lamp"} -> 200');
    expect(parents[0]!.proposals.map((p) => p.status)).toEqual(['accepted', 'accepted', 'claim-failed', 'bad-claim']);

    const [search, info] = tasks;
    expect(search).toMatchObject({ origin: 'relabel', parent_task_id: parent.task_id, prefix_steps: 1, task_kind: 'action', site: SITE });
    expect(info).toMatchObject({ origin: 'relabel', prefix_steps: 4, task_kind: 'info' });
    expect(search!.task_id).toMatch(/^tg-shop-01-[0-9a-f]{8}$/);

    // The search episode is cut after step 1: its judge saw one action, the first request, no answer.
    expect(judge.calls[0]!.prompt).toContain("AGENT'S ACTIONS (1):");
    expect(judge.calls[0]!.prompt).toContain("AGENT'S FINAL ANSWER: (none)");
    expect(judge.calls[0]!.prompt).not.toContain('sort');
    const cut = path.join(out, search!.task_id);
    const rows = (await fs.readFile(path.join(cut, 'rows', 'rows.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(rows).toHaveLength(1);
    const want = defaultAgentMessages({ task: { ...parent, instruction: search!.instruction }, observation: { prompt: PAGES[0]! } as Observation, history: [], step: 0, maxSteps: 10 });
    expect(rows[0].messages[1].content).toBe(want.user);
    expect(JSON.parse(await fs.readFile(path.join(cut, 'episode.json'), 'utf8'))).toMatchObject({ steps: 1, answer: null, task: { task_id: search!.task_id } });
    expect(await fs.readFile(path.join(cut, 'final.png'), 'utf8')).toBe('png1');

    // The info episode keeps all 4 steps (3 rows: the unparsed reply has none) and the answer; its history shows the unparsed reply.
    const infoRows = (await fs.readFile(path.join(out, info!.task_id, 'rows', 'rows.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(infoRows).toHaveLength(3);
    expect(infoRows[2].messages[1].content).toMatch(/^TASK: What does the cheapest blue lamp cost\?\n[\s\S]*no valid action: "not json at all"/);
    expect(infoRows[2].messages[2].content).toBe('{"done":{"answer":"Lamp B costs $12"}}');

    // Resumed: nothing is asked again; the tasks file is the same.
    const again = await runRelabel({ run, llm, judge, k: 4 });
    expect(llm.calls).toHaveLength(1);
    expect(again.summary).toMatchObject({ relabeled: 0, resumed: 1, accepted: 2 });
    expect(again.tasks).toEqual(tasks);
  });

  it('rejects a claim that proves nothing (true of the do-nothing episode, or at the start) as vacuous, never judged; state claims read the start rows', async () => {
    const run = path.join(await tempDir(), 'r5');
    await writeFailedRun(run);
    // The shop starts with one bought item on the list; the episode never touched it.
    await fs.writeFile(path.join(run, parent.task_id, 'start_rows.json'), json({ version: 1, tables: { shopping_items: [{ id: 1, name: 'milk', bought: 1 }] } }));
    const vacuous = {
      tasks: [
        { instruction: 'Clear the items I have already bought', kind: 'action', claim: { not: { change: { table: 'shopping_items', op: 'create', fields: { bought: 1 } } } } },
        { instruction: "Open the shop's home page", kind: 'action', claim: { seen: 'search box' } },
        { instruction: 'Clear the bought items from my list', kind: 'action', claim: { state: { table: 'shopping_items', fields: { bought: 1 }, rows: 'none' } } },
        { instruction: 'Search the shop for blue lamps', kind: 'action', claim: { request: { method: 'GET', path: '/sites/shop-01/search', params: { q: 'blue lamp' } } } },
      ],
    };
    const judge = fakeLLM({ replies: () => verdict('SUCCESS') });
    const { summary, parents, tasks, out } = await runRelabel({ run, llm: fakeLLM({ replies: [JSON.stringify(vacuous)] }), judge, k: 4 });
    expect(parents[0]!.proposals.map((p) => p.status)).toEqual(['vacuous', 'vacuous', 'claim-failed', 'accepted']);
    expect(parents[0]!.proposals[0]!.detail).toMatch(/holds on an episode that did nothing/);
    expect(parents[0]!.proposals[1]!.detail).toMatch(/holds at the episode's start/);
    expect(parents[0]!.proposals[2]!.detail).toMatch(/1 matching of 1 at the start/);
    expect(summary.statuses).toMatchObject({ vacuous: 2, 'claim-failed': 1, accepted: 1 });
    expect(judge.calls).toHaveLength(1);
    // The cut episode keeps the parent's start rows.
    expect(JSON.parse(await fs.readFile(path.join(out, tasks[0]!.task_id, 'start_rows.json'), 'utf8'))).toMatchObject({ tables: { shopping_items: [{ id: 1 }] } });
  });

  it('feeds rows: the relabeled episodes are candidates in the same round robin, with origin and parent in the provenance', async () => {
    const run = path.join(await tempDir(), 'r2');
    await writeFailedRun(run);
    const llm = fakeLLM({ replies: [JSON.stringify(proposals)] });
    const judge = fakeLLM({ replies: () => verdict('SUCCESS') });
    const { tasks } = await runRelabel({ run, llm, judge, k: 2 });
    const tasksFile = path.join(run, 'tasks.jsonl');

    const before = await runRows({ run, out: path.join(run, '..', 'rows0'), tasks: tasksFile, relabel: false });
    expect(before.report.selected_rows).toBe(0);
    const after = await runRows({ run, out: path.join(run, '..', 'rows1'), tasks: tasksFile });
    expect(after.picked).toEqual(tasks.map((t) => t.task_id));
    expect(after.report).toMatchObject({ candidates: 2, selected_rows: 1 + 3 });
    const provenance = (await fs.readFile(path.join(run, '..', 'rows1_provenance.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(provenance[0]).toMatchObject({ origin: 'relabel', parent_task_id: parent.task_id, run_id: 'r2', verdict: true });
    // A budget reached by the first: original tasks first changes nothing here, the budget stops the second.
    const small = await runRows({ run, out: path.join(run, '..', 'rows2'), tasks: tasksFile, budget: 1, originalsFirst: true });
    expect(small.picked).toEqual([tasks[0]!.task_id]);
  });

  it('refuses a parent whose screenshot, final.png, rows file, agent_steps.json, grade_inputs.json or episode.json is a symbolic link: named, nothing sent or copied', async () => {
    const outside = path.join(await tempDir('relabel-outside-'), 'secret');
    await fs.writeFile(outside, 'private bytes from outside the run');
    const linked = ['screenshots/step_2.png', 'final.png', 'rows/step_0.png', 'rows/rows.jsonl', 'agent_steps.json', 'grade_inputs.json', 'episode.json'];
    for (const [i, name] of linked.entries()) {
      const run = path.join(await tempDir(), `rl${i}`);
      await writeFailedRun(run);
      const file = path.join(run, parent.task_id, name);
      await fs.rm(file);
      await fs.symlink(outside, file);
      const llm = fakeLLM({ replies: () => JSON.stringify(proposals) });
      const judge = fakeLLM({ replies: () => verdict('SUCCESS') });
      const { errors, tasks, out } = await runRelabel({ run, llm, judge, k: 4 });
      expect(errors).toEqual([{ taskId: parent.task_id, error: `InputError: ${file}: episode ${parent.task_id}: a symbolic link, never followed (it may point out of the run): replace it with the file` }]);
      expect(llm.calls.length + judge.calls.length).toBe(0);
      expect(tasks).toEqual([]);
      // Nothing of the parent was copied: no cut episode, no parent record.
      expect(await fs.readdir(out)).toEqual(['_parents', '_setup', 'tasks.jsonl']);
      expect(await fs.readdir(path.join(out, '_parents'))).toEqual([]);
    }
  });

  it('refuses a run that is not judged, naming the dir', async () => {
    const run = path.join(await tempDir(), 'r3');
    await fs.mkdir(run, { recursive: true });
    await expect(runRelabel({ run, llm: fakeLLM({ replies: [] }), judge: fakeLLM({ replies: [] }) })).rejects.toThrow(/r3_judge: no such judge dir/);
  });
});
