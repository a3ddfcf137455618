/**
 * The verifier writer's specificity check, through the public API on small in-memory runs (no browser): a claim must
 * pin the values the task's instruction names that its episode's change or request carries. The sandbox's stand-in
 * writer's deliberately loose claims are rejected for it, its unloosened ones (the hand-written verifiers as claims)
 * kept, on evidence modelled on the sandbox's own episodes.
 */
import { describe, expect, it } from 'vitest';
import { memoryStore, readWrittenVerifiers, runWriteVerifiers, verifierClaim, type LanguageModel, type Task, type Verifier } from '../src/index';
import { fakeLLM } from '../src/models/fake';
import { defaultCatalog, sandboxVerifierWriter, writerErrorOf } from '../sandbox/index';

const RUN = 'work/run';

interface Evidence {
  answer?: string | null;
  log?: unknown[];
  changes?: unknown[];
}

// A bank task as a run's tasks.jsonl holds it: proposed, without a verifier (the writer writes one).
const asRunTask = (t: Task): Task => ({ kind: 'proposed', task_id: t.task_id, site: t.site, sites: [t.site], macro: 'proposed', macros: [], instruction: t.instruction, start_path: t.start_path, task_kind: t.task_kind, verifier: null });

// A run of one judged-successful episode per task, each with this evidence.
function runOf(episodes: ReadonlyArray<readonly [Task, Evidence]>) {
  const files: Record<string, string> = { [`${RUN}/tasks.jsonl`]: episodes.map(([t]) => `${JSON.stringify(asRunTask(t))}\n`).join('') };
  for (const [t, ev] of episodes) {
    const dir = `${RUN}/${t.task_id}`;
    files[`${dir}/grade_inputs.json`] = JSON.stringify({ actions: [{ done: {} }], answer: ev.answer ?? null, log: ev.log ?? [], changes: ev.changes ?? [], seen: ['page text'] });
    files[`${dir}/episode.json`] = JSON.stringify({ task: asRunTask(t), outcome: 'done', steps: 1, answer: ev.answer ?? null, timings: { started: 'a', ended: 'b', ms: 1 }, model: 'agent', error: null, policy: 'p' });
    files[`${RUN}_judge/${t.task_id}.json`] = JSON.stringify({ task_id: t.task_id, predicted_label: 1, verdict: true, response: '{}', model: 'judge' });
  }
  return memoryStore(files);
}

async function write(episodes: ReadonlyArray<readonly [Task, Evidence]>, llm: LanguageModel) {
  const store = runOf(episodes);
  const r = await runWriteVerifiers({ run: RUN, llm, store, tries: 1, workers: 1 });
  return { r, kept: (await readWrittenVerifiers(store, r.file)).byTask };
}

const catalog = defaultCatalog();
const human = (site: string, slug: string): Task => {
  const { human: hu, bank } = catalog.tasks(site)!;
  const t = [...hu, ...bank].find((x) => x.task_id.includes(slug));
  if (!t) throw new Error(`no ${slug} task on ${site}`);
  return t as Task;
};
const verifierOf = (t: Task) => t.verifier as Verifier;
// A seed with which the stand-in writer loosens this task's claim (it errs by the id of the bank task it finds).
const looseSeed = (t: Task): number => {
  const id = catalog.tasks(t.site)!.bank.find((b) => b.instruction === t.instruction)!.task_id;
  const seed = Array.from({ length: 200 }, (_, s) => s).find((s) => writerErrorOf(id, { errorRate: 1, seed: s }) === 'loose');
  if (seed === undefined) throw new Error(`no seed loosens ${t.task_id}`);
  return seed;
};

// The tracker's "Comment "…" on the issue "…"": the comment row the sandbox creates, and the form post that made it.
// This one is the comment the verifiers bench's stand-in writer (10% wrong, seed 17) loosens, and which the other
// tasks' episodes of its site could not tell from a right one.
const comment = human('tracker-06', '-comment-DSH-17');
const BENCH_WRITER = { errorRate: 0.1, seed: 17 };
const commentWhere = verifierOf(comment).state![0]!.where;
const commentEvidence: Evidence = {
  log: [{ method: 'POST', path: `/sites/tracker-06/issues/DSH-17/comments`, status: 303, body: { body: commentWhere.body } }],
  changes: [{ table: 'comments', op: 'create', before: null, after: { id: 900, ...commentWhere, author_id: 1, created_at: '2026-03-16 10:00:00' } }],
};
// The shop's "List the Kitchen products that cost at most $25.": the filter form's GET, every field of it.
const maxPrice = human('shop-01', '-max-price-');
const maxPriceParams = verifierOf(maxPrice).requests![0]!.params!;
const maxPriceEvidence: Evidence = {
  log: [{ method: 'GET', path: '/sites/shop-01/products', status: 200, query: { q: '', sort: 'featured', in_stock: '', ...Object.fromEntries(Object.entries(maxPriceParams).map(([k, v]) => [k, String(v)])) } }],
};

describe('a written claim must pin the values its task names', () => {
  it("rejects the stand-in writer's loosened change claim (a comment without its body) as loose, naming the value", async () => {
    expect(comment.instruction).toContain(String(commentWhere.body));
    expect(writerErrorOf(comment.task_id.replace(/^hu-/, 'bank-'), BENCH_WRITER)).toBe('loose');
    const { r, kept } = await write([[comment, commentEvidence]], sandboxVerifierWriter(BENCH_WRITER));
    expect(r).toMatchObject({ written: 0, missing: 1 });
    expect(r.loose.count).toBe(1);
    expect(r.loose.examples[0]!.problem).toBe(`does not pin ${JSON.stringify(commentWhere.body)}, which the task names and the episode's change carries`);
    expect(kept.size).toBe(0);
  });

  it("rejects the stand-in writer's loosened request claim (a filter without its price) as loose", async () => {
    expect(maxPrice.instruction).toMatch(/\$25\b/);
    const { r } = await write([[maxPrice, maxPriceEvidence]], sandboxVerifierWriter({ errorRate: 1, seed: looseSeed(maxPrice) }));
    expect(r.loose.count).toBe(1);
    expect(r.loose.examples[0]!.problem).toBe(`does not pin 25, which the task names and the episode's request carries`);
  });

  it('keeps the unloosened claims of the same tasks', async () => {
    const { r, kept } = await write([[comment, commentEvidence], [maxPrice, maxPriceEvidence]], sandboxVerifierWriter());
    expect(r).toMatchObject({ written: 2, missing: 0 });
    expect(r.loose.count).toBe(0);
    expect(kept.get(comment.task_id)?.claim).toEqual(verifierClaim(verifierOf(comment)));
  });

  it("asks nothing for a value the episode's evidence does not carry, and leaves an information task alone", async () => {
    const base = { kind: 'proposed', site: 'shop-01', sites: ['shop-01'], macro: 'proposed', macros: [], start_path: '/sites/shop-01/', verifier: null };
    const add: Task = { ...base, task_id: 'p1', task_kind: 'action', instruction: 'Add the lamp I ordered in order HH-10431 to my cart again.' };
    const price: Task = { ...base, task_id: 'p2', task_kind: 'info', instruction: 'What does the "Eco Quilt" cost?' };
    const claims: Record<string, unknown> = {
      [add.instruction]: { change: { table: 'cart_items', op: 'create', fields: { product_id: 7 } } },
      [price.instruction]: { all: [{ request: { method: 'GET', path: '/sites/shop-01/products' } }, { answer: { contains: '42.50' } }] },
    };
    const llm = fakeLLM({ replies: (call) => JSON.stringify({ claim: Object.entries(claims).find(([i]) => call.prompt.includes(i))![1] }) });
    const { r } = await write([
      [add, { changes: [{ table: 'cart_items', op: 'create', before: null, after: { id: 3, product_id: 7, quantity: 1 } }] }],
      [price, { answer: 'It costs $42.50', log: [{ method: 'GET', path: '/sites/shop-01/products', status: 200, query: { q: 'Eco Quilt' } }] }],
    ], llm);
    expect(r).toMatchObject({ written: 2, missing: 0 });
  });

  it('keeps hand-written claims on evidence like the sandbox records: a title that names the row, not the change', async () => {
    const all = (site: string) => ([...catalog.tasks(site)!.human, ...catalog.tasks(site)!.bank] as Task[]);
    const tracker = all('tracker-01');
    const start = tracker.find((t) => /^Start work on "/.test(t.instruction))!;
    const rename = tracker.find((t) => /^Rename the issue "/.test(t.instruction))!;
    const title = (t: Task) => /"([^"]+)"/.exec(t.instruction)![1]!;
    const key = (t: Task) => String(verifierOf(t).state![0]!.where.key);
    const issue = (t: Task, after: Record<string, unknown>) => ({ id: 11, key: key(t), title: title(t), status: 'Open', priority: 'Medium', ...after });
    const edit = (t: Task, body: Record<string, unknown>) => ({ method: 'POST', path: `/sites/tracker-01/issues/${key(t)}/edit`, status: 303, body: { title: title(t), priority: 'Medium', ...body } });
    const newTitle = String(verifierOf(rename).state![0]!.values!.title);
    const cart = all('shop-01').find((t) => /^Add 2 of /.test(t.instruction))!;
    const product = verifierOf(cart).requests![0]!.params!.product_id;
    const episodes: Array<[Task, Evidence]> = [
      [start, { log: [edit(start, { status: 'In progress' })], changes: [{ table: 'issues', op: 'update', before: issue(start, {}), after: issue(start, { status: 'In progress' }) }] }],
      [rename, { log: [edit(rename, { title: newTitle })], changes: [{ table: 'issues', op: 'update', before: issue(rename, {}), after: issue(rename, { title: newTitle }) }] }],
      [cart, {
        log: [{ method: 'POST', path: '/sites/shop-01/cart/add', status: 303, body: { product_id: String(product), quantity: '2' } }],
        changes: [{ table: 'cart_items', op: 'create', before: null, after: { id: 4, product_id: product, quantity: 2 } }],
      }],
    ];
    for (const [t] of episodes) expect(verifierClaim(verifierOf(t))).not.toBeNull();
    // Also as request claims a model may write: the edit form's post, which carries the title it left alone.
    const { r } = await write(episodes, sandboxVerifierWriter());
    expect(r).toMatchObject({ written: 3, missing: 0 });
    // A request alone asks for no data change, so the episode's update of the issue is one nobody asked for; with
    // an `only` naming it, the claim holds.
    const post = { request: { method: 'POST', path: `/sites/tracker-01/issues/${key(start)}/edit`, params: { status: 'In progress' } } };
    const alone = await write([episodes[0]!], fakeLLM({ replies: Array.from({ length: 3 }, () => JSON.stringify({ claim: post })) }));
    expect(alone.r).toMatchObject({ written: 0, missing: 1 });
    const only = { only: [{ table: 'issues', op: 'update', where: { key: key(start) }, fields: ['status'] }] };
    const again = await write([episodes[0]!], fakeLLM({ replies: [JSON.stringify({ claim: { all: [post, only] } })] }));
    expect(again.r).toMatchObject({ written: 1, missing: 0 });
  });
});

describe("the sandbox's hand-written verifiers as claims", () => {
  // Evidence each verifier's claim holds on, as the sandbox records it: a state check's row created (or, with values,
  // updated from other values) with the fields the server adds, a request with its parameters as a form sends them.
  // "No such row" checks need start rows and pin nothing: their tasks are left out.
  const evidenceFor = (v: Verifier): Evidence => ({
    log: (v.requests ?? []).filter((q) => !q.should_not_exist).map((q) => ({
      method: q.method, path: q.path, status: 200, query: Object.fromEntries(Object.entries(q.params ?? {}).map(([k, x]) => [k, String(x)])),
    })),
    changes: (v.state ?? []).map((s) => s.values
      ? { table: s.table, op: 'update', before: { id: 1, ...s.where, ...Object.fromEntries(Object.keys(s.values).map((k) => [k, 'earlier'])) }, after: { id: 1, ...s.where, ...s.values } }
      : { table: s.table, op: 'create', before: null, after: { id: 99, ...s.where, created_at: '2026-03-16 10:00:00' } }),
  });

  it('are not called loose by the rule on the human tasks of every template', async () => {
    const episodes = catalog.sites().filter((s) => s.endsWith('-01')).flatMap((site) =>
      (catalog.tasks(site)!.human as readonly Task[]).filter((t) => {
        const v = verifierOf(t);
        return t.task_kind === 'action' && !v.answer && !(v.state ?? []).some((s) => s.should_not_exist) && !(v.requests ?? []).some((q) => q.should_not_exist);
      }).map((t) => [t, evidenceFor(verifierOf(t))] as const));
    expect(episodes.length).toBeGreaterThan(20);
    const { r } = await write(episodes, sandboxVerifierWriter());
    expect(r.loose.examples).toEqual([]);
    expect(r).toMatchObject({ written: episodes.length, missing: 0 });
  });

  it("rejects the stand-in writer's `all` without its last part when that part stored a value the task names", async () => {
    const thread = human('forum-01', '-new-thread-');
    const posts = verifierOf(thread).state!.find((x) => x.table === 'posts')!;
    const { r } = await write([[thread, evidenceFor(verifierOf(thread))]], sandboxVerifierWriter({ errorRate: 1, seed: looseSeed(thread) }));
    expect(r.loose.count).toBe(1);
    expect(r.loose.examples[0]!.problem).toBe(`does not pin ${JSON.stringify(posts.values!.body)}, which the task names and the episode's change carries`);
  });
});
