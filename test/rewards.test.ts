/**
 * Rewards no policy can game, the parts without a browser: an answer checked as an answer (natural phrasings pass;
 * sprays, dumps, both answers fail), no unrequested changes (a task's footprint, the site's declared consequences, a
 * read receipt only for a page opened), and one reward per episode: pass@k from disk takes a written verifier as a
 * verifier, with the reward `readEpisodeReward` gives.
 */
import { describe, expect, it } from 'vitest';
import { decideReward } from '../src/attempt/reward';
import { readRunLabels } from '../src/rows/labels';
import { checkClaim, memoryStore, readEpisodeReward, readPassAtK, runReport, verifyEpisode, type Claim, type Consequence, type Task } from '../src/index';

const ask = (answer: string, check: Parameters<typeof verifyEpisode>[0]['answer'], question: string, start?: Record<string, Array<Record<string, unknown>>>) =>
  verifyEpisode({ answer: check }, { answer, question, start: start ?? null }).then((r) => r.ok);

describe('answers checked as answers', () => {
  const products = { products: [{ id: 1, name: 'Minimalist Kettle', brand: 'Acme', price: 99.99 }, { id: 2, name: 'Kettle 2000', brand: 'Globex', price: 89.99 }, { id: 3, name: 'Teapot', brand: 'Initech', price: 19.5 }] };
  const price = { type: 'number' as const, value: 99.99, tolerance: 0.005 };
  const q = 'What does the Minimalist Kettle cost?';

  it('passes natural phrasings of the value', async () => {
    for (const a of ['$99.99', 'The Minimalist Kettle costs $99.99.', '99.99 dollars', 'It is 99.99']) expect(await ask(a, price, q, products), a).toBe(true);
    expect(await ask('It has 5 reviews.', { type: 'number', value: 5 }, 'How many reviews does the Kettle 2000 have?')).toBe(true);
    expect(await ask('Acme makes it.', { type: 'includes', value: 'Acme' }, 'Which brand makes the Minimalist Kettle?', products)).toBe(true);
    expect(await ask('8.7 out of 10', { type: 'number', value: 8.7, tolerance: 0.05 }, 'What is the rating?')).toBe(true);
  });

  it('fails sprays, both answers, other candidates of the kind asked, page dumps', async () => {
    const spray = Array.from({ length: 1000 }, (_, i) => `${i} ${i}.99`).join(', ');
    expect(await ask(spray, price, q, products)).toBe(false);
    expect(await ask('99.99 or 89.99', price, q, products)).toBe(false);
    expect(await ask('Acme or Globex', { type: 'includes', value: 'Acme' }, 'Which brand makes the Minimalist Kettle?', products)).toBe(false);
    expect(await ask('yes or no', { type: 'includes', value: 'yes' }, 'Is the order shipped?')).toBe(false);
    expect(await ask('Write to ana@x.org or bo@y.org', { type: 'includes', value: 'ana@x.org' }, 'Who sent it?')).toBe(false);
    const dump = `Minimalist Kettle by Acme. Price $99.99. ${'Add to cart. Reviews. Shipping and returns. '.repeat(10)}`;
    const r = await verifyEpisode({ answer: price }, { answer: dump, question: q });
    expect(r.ok).toBe(false);
    expect(r.checks[0]!.detail).toMatch(/far more than the fact needs/);
  });

  it('holds claims to the same rule', () => {
    const ev = (answer: string) => ({ steps: 1, answer, answerStep: 1, log: [], changes: [], seen: [], start: products });
    expect(checkClaim({ answer: { number: 99.99 } }, ev('It costs $99.99'), { question: q }).holds).toBe(true);
    expect(checkClaim({ answer: { number: 99.99 } }, ev('99.99, 89.99, 19.50'), { question: q }).holds).toBe(false);
    expect(checkClaim({ answer: { contains: 'acme' } }, ev('Acme, Globex, Initech')).holds).toBe(false);
    expect(checkClaim({ answer: { pattern: '\\$\\d+' } }, ev('$5 or $6')).holds).toBe(false);
  });
});

describe('no unrequested changes', () => {
  const update = (table: string, id: number, before: Record<string, unknown>, after: Record<string, unknown>) => ({ table, op: 'update', before: { id, ...before }, after: { id, ...after } });
  const star = { state: [{ table: 'messages', where: { id: 1 }, values: { starred: 1 } }] };
  const starred = update('messages', 1, { starred: 0 }, { starred: 1 });

  it('fails a write nobody asked for, any write during an information task, the right action on the wrong item', async () => {
    expect((await verifyEpisode(star, { changes: [starred] })).ok).toBe(true);
    const extra = await verifyEpisode(star, { changes: [starred, update('messages', 2, { folder: 'inbox' }, { folder: 'trash' })] });
    expect(extra.ok).toBe(false);
    expect(extra.checks.at(-1)!.detail).toBe('unrequested: update messages {"id":2} changing folder');
    expect((await verifyEpisode(star, { changes: [update('messages', 1, { starred: 0, folder: 'inbox' }, { starred: 1, folder: 'trash' })] })).ok).toBe(false);
    expect((await verifyEpisode(star, { changes: [update('messages', 2, { starred: 0 }, { starred: 1 })] })).ok).toBe(false);
    expect((await verifyEpisode({ answer: { type: 'includes', value: 'x' } }, { answer: 'x', changes: [starred] })).ok).toBe(false);
  });

  it("admits the site's declared consequences, a read receipt only for a page the session opened", async () => {
    const receipt: Consequence = { allow: [{ table: 'messages', op: 'update', where: { read: 1 }, fields: ['read'], opened: '/messages/{id}' }] };
    const read = (id: number) => update('messages', id, { read: 0 }, { read: 1 });
    const opened = (id: number) => ({ method: 'GET', path: `/sites/mail-01/messages/${id}`, status: 200 });
    expect((await verifyEpisode(star, { changes: [read(1), starred], log: [opened(1)], consequences: [receipt] })).ok).toBe(true);
    // "mark all as read": message 2 never opened
    expect((await verifyEpisode(star, { changes: [read(1), read(2), starred], log: [opened(1)], consequences: [receipt] })).ok).toBe(false);
    const restock: Consequence = { when: { table: 'orders', op: 'update' }, allow: [{ table: 'products', op: 'update', fields: ['stock'] }] };
    const cancel = { state: [{ table: 'orders', where: { id: 7 }, values: { status: 'Cancelled' } }] };
    const stock = update('products', 3, { stock: 1 }, { stock: 2 });
    expect((await verifyEpisode(cancel, { changes: [update('orders', 7, { status: 'Processing' }, { status: 'Cancelled' }), stock], consequences: [restock] })).ok).toBe(true);
    expect((await verifyEpisode(cancel, { changes: [stock], consequences: [restock] })).ok).toBe(false);
  });

  it("a task done once, and a consequence pinned to the task's own rows: another order's line is not the site's", async () => {
    const create = (table: string, row: Record<string, unknown>) => ({ table, op: 'create', before: null, after: row });
    const review = { state: [{ table: 'reviews', where: { product_id: 4, rating: 5 } }] };
    const r1 = create('reviews', { id: 1, product_id: 4, rating: 5 });
    expect((await verifyEpisode(review, { changes: [r1] })).ok).toBe(true);
    const twice = await verifyEpisode(review, { changes: [r1, create('reviews', { id: 2, product_id: 4, rating: 5 })] });
    expect([twice.ok, twice.checks.at(-1)!.detail]).toEqual([false, 'unrequested: create reviews {"id":2}']);
    const lines: Consequence = { when: { table: 'orders', op: 'create' }, allow: [{ table: 'order_items', op: 'create', pin: { order_id: 'id' } }] };
    const order = { state: [{ table: 'orders', where: { status: 'placed' } }] };
    const placed = create('orders', { id: 'A1', status: 'placed' });
    const own = create('order_items', { id: 10, order_id: 'A1', product_id: 4 });
    expect((await verifyEpisode(order, { changes: [placed, own, create('order_items', { id: 11, order_id: 'A1', product_id: 5 })], consequences: [lines] })).ok).toBe(true);
    const unrelated = await verifyEpisode(order, { changes: [placed, own, create('order_items', { id: 12, order_id: 'B7', product_id: 5 })], consequences: [lines] });
    expect([unrelated.ok, unrelated.checks.at(-1)!.detail]).toEqual([false, 'unrequested: create order_items {"id":12}']);
    // without the order, its lines are no one's
    expect((await verifyEpisode(order, { changes: [own], consequences: [lines] })).ok).toBe(false);
  });

  it('holds a claim to its own change parts, or its only; only alone is vacuous', () => {
    const ev = { steps: 2, answer: null, answerStep: null, log: [], changes: [{ change: starred, step: 1 }, { change: update('messages', 2, { folder: 'inbox' }, { folder: 'trash' }), step: 2 }], seen: [], start: { messages: [] } };
    const change: Claim = { change: { table: 'messages', op: 'update', fields: { id: 1, starred: 1 } } };
    const r = checkClaim(change, ev);
    expect([r.holds, r.firstStep]).toEqual([false, 1]); // held after step 1, until the unrequested write at step 2
    expect(r.detail).toMatch(/unrequested change: update messages \{"id":2\} changing folder/);
    expect(checkClaim({ all: [change, { only: [{ table: 'messages', op: 'update' }] }] }, ev).holds).toBe(true);
    expect(checkClaim({ only: [] }, { ...ev, changes: [] }).vacuous).toMatch(/did nothing/);
  });
});

describe('one reward', () => {
  const task = (id: string, verifier: Task['verifier'] = null): Task => ({ kind: 'proposed', task_id: id, site: 'mail-01', sites: ['mail-01'], macro: 'proposed', macros: [], instruction: `Star message ${id}`, start_path: '/sites/mail-01/', task_kind: 'action', verifier });

  it('pass@k takes a written verifier as a verifier, the reward readEpisodeReward gives, over the judge', async () => {
    const written = task('w1');
    const claim: Claim = { change: { table: 'messages', op: 'update', fields: { id: 1, starred: 1 } } };
    const files: Record<string, string> = {
      'work/run/tasks.jsonl': `${JSON.stringify(written)}\n`,
      'work/run/_tries/2/tasks.jsonl': `${JSON.stringify(written)}\n`,
      'work/tasks.jsonl': `${JSON.stringify(written)}\n`,
      'work/verifiers.jsonl': `${JSON.stringify({ task_id: 'w1', site: 'mail-01', instruction: written.instruction, task_kind: 'action', claim, model: 'm', written_from: { run: 'work/run', episode_id: 'x', model: 'm', provider: 'p' }, written_at: '2026-12-06T00:00:00Z' })}\n`,
    };
    const episode = (dir: string, changes: unknown[], judged: 0 | 1) => {
      files[`${dir}/w1/episode.json`] = JSON.stringify({ task: written, outcome: 'done', steps: 2, answer: null, timings: { started: '2026-12-06T00:00:00Z', ended: '2026-12-06T00:00:01Z', ms: 1000 }, model: null, error: null });
      files[`${dir}/w1/grade_inputs.json`] = JSON.stringify({ actions: [], answer: null, log: [], changes, seen: [] });
      files[`${dir}_judge/w1.json`] = JSON.stringify({ task_id: 'w1', predicted_label: judged, verdict: judged === 1, response: '', model: 'j' });
    };
    const starred = { table: 'messages', op: 'update', before: { id: 1, starred: 0 }, after: { id: 1, starred: 1 } };
    episode('work/run', [starred], 0); // the claim holds, the judge said no
    episode('work/run/_tries/2', [starred, { table: 'messages', op: 'delete', before: { id: 5 }, after: null }], 1); // an extra delete, the judge said yes
    const store = memoryStore(files);
    const report = await readPassAtK({ run: 'work/run', store, tasksFile: 'work/tasks.jsonl' });
    expect(report.tasks[0]!.tries.map((o) => [o.n, o.success, o.source])).toEqual([[1, true, 'written-verifier'], [2, false, 'written-verifier']]);
    const again = await readEpisodeReward(store, 'work/run/_tries/2/w1', { task: written, written: claim, judge: true });
    expect([again.reward, again.source]).toEqual([0, 'written-verifier']);
    expect(await decideReward({ task: task('j1'), evidence: { steps: 0, answer: null, log: [], changes: [], seen: [] }, judge: null })).toMatchObject({ reward: null, source: 'none' });

    // The run report lists both tries, each with the written verifier's reward, its source named.
    files['work/run/results.jsonl'] = `${JSON.stringify({ task_id: 'w1', ok: true })}\n`; // recorded before the rule: not the reward
    files['work/run/_tries/2/results.jsonl'] = `${JSON.stringify({ task_id: 'w1', ok: true })}\n`;
    files['work/run/_tries/2/w1/screenshots/step_1.png'] = 'png';
    const store2 = memoryStore(files);
    await runReport({ run: 'work/run', out: 'work/report', store: store2, tasksFile: 'work/tasks.jsonl' });
    const page = await store2.readText('work/report/index.html');
    const stat = (id: string) => new RegExp(`id="stat-${id}">([^<]*)<`).exec(page)?.[1];
    expect([stat('episodes'), stat('tries'), stat('verified'), stat('passes'), stat('written-verified'), stat('disagreements')]).toEqual(['2', '2', '2', '1', '2', '1']);
    const second = await store2.readText('work/report/episodes/w1@2.js');
    expect(second).toContain("written verifier (verifiers.jsonl), checked on the episode's evidence");
    expect(second).toContain('"href":"_tries/2/w1/screenshots/step_1.png"');
    // The label sources: the written verifier on each try's own evidence, not the results file's line.
    const labels = await Promise.all(['work/run', 'work/run/_tries/2'].map((run) => readRunLabels({ store: store2, run, tasksFile: 'work/tasks.jsonl' })));
    expect(labels.map((l) => l.written.get('w1'))).toEqual([true, false]);
  });
});
