/**
 * Written verifiers, through the public API on small fixtures made here (no browser): the writer keeps only claims
 * that parse and hold on their episode and resumes from its file; the measurement against hand-written verifiers
 * counts and scores what it should; the sandbox's stand-in writer converts and errs as set.
 */
import { vetClaim } from '../src/verifiers/vet';
import { describe, expect, it } from 'vitest';
import {
  memoryStore,
  readWrittenVerifiers,
  runWriteVerifiers,
  scoreWrittenVerifiers,
  verifierClaim,
  verifierPrompt,
  wilsonInterval,
  type Task,
  type Verifier,
} from '../src/index';
import { fakeLLM } from '../src/models/fake';
import { defaultCatalog, sandboxVerifierWriter, writerErrorOf, STAND_IN_PROVIDER } from '../sandbox/index';
import { episodeIdOf } from '../src/files/episode-id';

const RUN = 'work/run';

function task(id: string, instruction: string, kind: 'info' | 'action' = 'info', site = 'shop-01'): Task {
  return { kind: 'proposed', task_id: id, site, sites: [site], macro: 'proposed', macros: [], instruction, start_path: `/sites/${site}/`, task_kind: kind, verifier: null };
}

// An episode dir: its grade inputs and episode summary (what the writer and the checker read).
function episode(files: Record<string, string>, t: Task, evidence: { answer?: string | null; log?: unknown[]; changes?: unknown[]; start?: object }, run = RUN): void {
  const dir = `${run}/${t.task_id}`;
  if (evidence.start) files[`${dir}/start_rows.json`] = JSON.stringify({ version: 1, tables: evidence.start });
  files[`${dir}/grade_inputs.json`] = JSON.stringify({ actions: [{ done: {} }], answer: evidence.answer ?? null, log: evidence.log ?? [], changes: evidence.changes ?? [], seen: ['page text'] });
  files[`${dir}/episode.json`] = JSON.stringify({ task: t, outcome: 'done', steps: 1, answer: evidence.answer ?? null, timings: { started: 'a', ended: 'b', ms: 1 }, model: 'agent', error: null, policy: 'p' });
}

function record(files: Record<string, string>, id: string, success: boolean): void {
  files[`${RUN}_judge/${id}.json`] = JSON.stringify({ task_id: id, predicted_label: success ? 1 : 0, verdict: success, response: '{}', model: 'judge' });
}

describe('runWriteVerifiers', () => {
  const t1 = task('t1', 'What does the blue lamp cost?');
  const t2 = task('t2', 'How many orders are open?');
  const t3 = task('t3', 'Which lamp is cheapest?');
  const fixture = () => {
    const files: Record<string, string> = { [`${RUN}/tasks.jsonl`]: [t1, t2, t3].map((t) => `${JSON.stringify(t)}\n`).join('') };
    episode(files, t1, { answer: 'It costs $42.50' });
    episode(files, t2, { answer: 'There are 3 open orders' });
    episode(files, t3, { answer: 'the red one' });
    record(files, 't1', true);
    record(files, 't2', true);
    record(files, 't3', false);
    return memoryStore(files);
  };
  // t1: a claim that holds; t2: a reply that is no claim, then a claim that does not hold on its episode.
  const replies = (call: { prompt: string }, i: number) =>
    call.prompt.includes(t1.instruction)
      ? JSON.stringify({ claim: { answer: { contains: '42.50' } } })
      : i % 2 === 0 ? 'I think the answer is 3' : JSON.stringify({ claim: { answer: { contains: 'seven' } } });

  it('keeps only claims that parse and hold on their episode, counts the rest, and resumes from its file', async () => {
    const store = fixture();
    const llm = fakeLLM({ replies });
    const r = await runWriteVerifiers({ run: RUN, llm, store, workers: 1 });
    expect(r).toMatchObject({ tasks: 3, successes: 2, kept: 0, written: 1, missing: 1, file: `${RUN}/verifiers.jsonl` });
    expect(r.unparsed.count).toBe(1);
    expect(r.unparsed.examples[0]).toMatchObject({ taskId: 't2', excerpt: 'I think the answer is 3' });
    expect(r.notHolding.count).toBe(1);
    expect(r.notHolding.examples[0]!.excerpt).toContain('seven');
    expect(llm.calls.every((c) => !c.prompt.includes(t3.instruction))).toBe(true); // not judged a success

    const read = await readWrittenVerifiers(store, r.file);
    expect([...read.byTask.keys()]).toEqual(['t1']);
    expect(read.byTask.get('t1')).toMatchObject({
      claim: { answer: { contains: '42.50' } },
      instruction: t1.instruction,
      written_from: { episode_id: await episodeIdOf(store, `${RUN}/t1`), model: 'fake-model' },
    });

    const again = fakeLLM({ replies });
    const r2 = await runWriteVerifiers({ run: RUN, llm: again, store });
    expect(r2).toMatchObject({ kept: 1, written: 0 });
    expect(again.calls.every((c) => c.prompt.includes(t2.instruction))).toBe(true);
    expect((await store.readText(r.file)).split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('names a torn last line and appends after it without joining it', async () => {
    const store = fixture();
    await store.writeAtomic(`${RUN}/verifiers.jsonl`, '{"task_id": "t1", "cla');
    const warnings: string[] = [];
    await runWriteVerifiers({ run: RUN, llm: fakeLLM({ replies }), store, tries: 1, onEvent: (e) => e.type === 'warning' && warnings.push(e.message) });
    expect(warnings.some((w) => w.includes('verifiers.jsonl:1'))).toBe(true);
    expect((await readWrittenVerifiers(store, `${RUN}/verifiers.jsonl`)).byTask.has('t1')).toBe(true);
  });

  it('an information claim that holds on any one-character answer is loose, not kept', () => {
    // Kept once by a 12-site sandbox pipeline: the probe answer "n/a" fails a `\S` pattern as three competing candidates.
    const ev = { steps: 2, answer: '4', answerStep: 2, log: [], changes: [], seen: [], start: {} };
    const vet = (pattern: string) => vetClaim({ claim: { answer: { pattern } }, kind: 'info', instruction: 'How many salmon fillets go into the Korma?', evidence: ev, others: [], maxLooseShare: 0.25 });
    expect(vet('\\S')).toMatchObject({ outcome: 'loose', detail: expect.stringMatching(/must pin its answer/) });
    expect(vet('\\d')).toMatchObject({ outcome: 'loose' });
    expect(vet('^4$')).toMatchObject({ outcome: 'written' });
  });

  it('checks its input', async () => {
    await expect(runWriteVerifiers({ run: RUN, llm: fakeLLM({ replies: ['{}'] }), tries: 0, store: fixture() })).rejects.toThrow(/tries/);
    await expect(runWriteVerifiers({ run: RUN, llm: fakeLLM({ replies: ['{}'] }), maxLooseShare: 2, store: fixture() })).rejects.toThrow(/maxLooseShare/);
  });

  it('asks again for a claim that proves nothing or is loose, and records the looseness of the ones it keeps', async () => {
    const start = { orders: [{ id: 5, status: 'open' }, { id: 6, status: 'shipped' }], cart_items: [] };
    const cancel = task('a1', 'Cancel my open order', 'action');
    const add = task('a2', 'Add the lamp to my cart', 'action');
    const price = task('q1', 'What does the blue lamp cost?');
    const count = task('q2', 'How many orders are open?');
    const files: Record<string, string> = { [`${RUN}/tasks.jsonl`]: [cancel, add, price, count].map((t) => `${JSON.stringify(t)}\n`).join('') };
    episode(files, cancel, { changes: [{ table: 'orders', op: 'update', before: { id: 5, status: 'open' }, after: { id: 5, status: 'cancelled' } }], start });
    episode(files, add, { changes: [{ table: 'cart_items', op: 'create', before: null, after: { id: 1, product_id: 7 } }], start });
    episode(files, price, { answer: 'It costs $42.50', start });
    episode(files, count, { answer: 'There is 1 open order', start });
    for (const t of ['a1', 'a2', 'q1', 'q2']) record(files, t, true);
    const store = memoryStore(files);
    const claims: Record<string, unknown[]> = {
      // True of an episode that did nothing (no order was created open; the update admitted), then the state the task asks for.
      [cancel.instruction]: [{ all: [{ not: { change: { table: 'orders', op: 'create', fields: { status: 'open' } } } }, { only: [{ table: 'orders', op: 'update' }] }] }, { state: { table: 'orders', fields: { status: 'open' }, rows: 'none' } }],
      [add.instruction]: [{ change: { table: 'cart_items', op: 'create', fields: { product_id: 7 } } }],
      // Any answer at all, then the price.
      [price.instruction]: [{ answer: { pattern: '^.+$' } }, { answer: { contains: '42.50' } }],
      // Pins an answer, but also another question's (the price): it passes that question's episode too.
      [count.instruction]: [{ any: [{ answer: { number: 1 } }, { answer: { number: 42.5 } }] }, { any: [{ answer: { number: 1 } }, { answer: { number: 42.5 } }] }],
    };
    const asked = new Map<string, number>();
    const llm = fakeLLM({
      replies: (call) => {
        const t = [cancel, add, price, count].find((x) => call.prompt.includes(x.instruction))!;
        const i = asked.get(t.instruction) ?? 0;
        asked.set(t.instruction, i + 1);
        return JSON.stringify({ claim: claims[t.instruction]![i] });
      },
    });
    const r = await runWriteVerifiers({ run: RUN, llm, store, workers: 1 });
    expect(r).toMatchObject({ successes: 4, written: 3, missing: 1 });
    expect(r.vacuous.count).toBe(1);
    expect(r.vacuous.examples[0]).toMatchObject({ taskId: 'a1' });
    expect(r.vacuous.examples[0]!.problem).toMatch(/did nothing/);
    expect(r.loose.count).toBe(3);
    expect(r.loose.examples.map((e) => e.taskId)).toEqual(['q1', 'q2', 'q2']);
    expect(r.loose.examples[0]!.problem).toMatch(/must pin its answer/);
    expect(r.loose.examples[1]!.problem).toMatch(/passes 1 of the site's 3 other tasks' episodes/);
    const { byTask } = await readWrittenVerifiers(store, r.file);
    expect([...byTask.keys()].sort()).toEqual(['a1', 'a2', 'q1']);
    expect(byTask.get('a1')).toMatchObject({ claim: { state: { table: 'orders', rows: 'none' } }, looseness: { episodes: 3, passes: 0 } });
    expect(r.looseness).toEqual({ episodes: 9, passes: 0 });
  });

  it('names a verifiers line whose claim proves nothing and does not use it', async () => {
    const store = memoryStore();
    const line = (id: string, claim: unknown) =>
      JSON.stringify({ task_id: id, site: 'shop-01', task_kind: 'action', instruction: `Q ${id}`, claim, written_from: { run: 'r', episode_id: 'e', model: 'm' }, written_at: '2026-12-05T00:00:00Z' });
    await store.writeAtomic('v.jsonl', `${line('good', { change: { table: 'orders', op: 'delete' } })}\n${line('empty', { not: { answer: 'no' } })}\n`);
    const read = await readWrittenVerifiers(store, 'v.jsonl');
    expect([...read.byTask.keys()]).toEqual(['good']);
    expect(read.issues).toHaveLength(1);
    expect(read.issues[0]).toMatchObject({ file: 'v.jsonl', line: 2 });
    expect(read.issues[0]!.problem).toMatch(/claim: vacuous: the claim holds on an episode that did nothing/);
  });
});

describe('scoreWrittenVerifiers', () => {
  it('grades each episode with its written claim and scores it against the hand-written results', async () => {
    const files: Record<string, string> = {};
    const ts = [task('a', 'Q a'), task('b', 'Q b'), task('c', 'Q c', 'action', 'mail-01'), task('d', 'Q d'), task('e', 'Q e')];
    // hand-written results: a pass, b pass, c fail, d fail, e pass; written claims: a holds, b not, c holds, d not.
    episode(files, ts[0]!, { answer: 'yes 1' });
    episode(files, ts[1]!, { answer: 'no' });
    episode(files, ts[2]!, { changes: [{ op: 'create', table: 'messages', after: { id: 9, subject: 'Hi' } }] });
    episode(files, ts[3]!, { answer: 'nothing' });
    episode(files, ts[4]!, { answer: 'whatever' });
    files[`${RUN}/results.jsonl`] = ['a', 'b', 'c', 'd', 'e'].map((id, i) => `${JSON.stringify({ task_id: id, ok: [true, true, false, false, true][i] })}\n`).join('');
    const store = memoryStore(files);
    const claim = (id: string, c: unknown) => ({
      task_id: id, site: id === 'c' ? 'mail-01' : 'shop-01', task_kind: id === 'c' ? 'action' : 'info', instruction: `Q ${id}`, claim: c,
      written_from: { run: 'oracle', episode_id: 'elsewhere', model: 'm' }, written_at: '2026-12-04T00:00:00Z',
    });
    await store.writeAtomic('v.jsonl', [
      claim('a', { answer: { contains: 'yes' } }),
      claim('b', { answer: { contains: 'yes' } }),
      claim('c', { change: { table: 'messages', op: 'create', fields: { subject: 'hi' } } }),
      claim('d', { answer: { contains: 'yes' } }),
    ].map((l) => `${JSON.stringify(l)}\n`).join(''));
    const { byTask } = await readWrittenVerifiers(store, 'v.jsonl');
    expect(byTask.size).toBe(4);
    const s = await scoreWrittenVerifiers({ run: RUN, verifiers: byTask, store });
    expect(s.pairs.map((p) => [p.taskId, p.hand, p.written])).toEqual([['a', true, true], ['b', true, false], ['c', false, true], ['d', false, false]]);
    expect(s.overall).toMatchObject({ episodes: 4, tp: 1, fp: 1, fn: 1, tn: 1, agreement: 0.5, precision: 0.5, recall: 0.5 });
    expect(s.overall.precision_ci).toEqual(wilsonInterval(1, 2));
    expect(s.byKind.action).toMatchObject({ episodes: 1, fp: 1 });
    expect(Object.keys(s.bySite)).toEqual(['mail-01', 'shop-01']);
    expect(s.unverified).toBe(1);
  });
});

describe("the sandbox's stand-in verifier writer", () => {
  const bank = defaultCatalog().tasks('shop-01')!.bank;
  const promptOf = (t: Task) => verifierPrompt({ task: t, inputs: { actions: [], answer: null, log: [], changes: [], seen: [] } });
  const claimOf = async (llm: ReturnType<typeof sandboxVerifierWriter>, t: Task) => (JSON.parse((await llm.complete(promptOf(t))).text) as { claim?: unknown }).claim;

  it("answers with the bank task's hand-written verifier as a claim, labelled as a stand-in", async () => {
    const llm = sandboxVerifierWriter();
    expect(llm.provider).toBe(STAND_IN_PROVIDER);
    for (const t of bank.slice(0, 6)) expect(await claimOf(llm, t)).toEqual(verifierClaim(t.verifier as Verifier));
  });

  it('errs on the set share of tasks, each way, and says so for a task it does not know', async () => {
    const llm = sandboxVerifierWriter({ errorRate: 1, seed: 3 });
    const ways = new Set(bank.map((t) => writerErrorOf(t.task_id, { errorRate: 1, seed: 3 })));
    expect(ways).toEqual(new Set(['loose', 'not-holding']));
    for (const t of bank.slice(0, 6)) expect(await claimOf(llm, t)).not.toEqual(verifierClaim(t.verifier as Verifier));
    const none = JSON.parse((await llm.complete(promptOf(task('x', 'Fly me to the moon')))).text) as Record<string, unknown>;
    expect(none.claim).toBeUndefined();
    expect(String(none.note)).toMatch(/stand-in verifier writer: no known task/);
    const rate = bank.filter((t) => writerErrorOf(t.task_id, { errorRate: 0.3, seed: 3 }) !== 'none').length / bank.length;
    expect(rate).toBeGreaterThan(0.1);
    expect(rate).toBeLessThan(0.5);
  });
});
