import { describe, expect, it } from 'vitest';
import { checkClaim, emptyEvidence, loadStepEvidence, memoryStore, replayState, verifierClaim, verifyEpisode, InputError, type Claim, type StepEvidence, type Verifier } from '../src/index';
import { ClaimSchema } from '../src/formats';

// The claim language on small made-up episodes: each claim kind, all / any / not, the first step at which a claim
// holds, an info task's answer step, and an episode recorded without a step map (as the Python original records).

// A shop episode of 4 steps: the start page (step 0), search (1), add to cart (2, a refused try first), checkout (3)
// and an answer at step 4.
const gradeInputs = {
  actions: [{ type: { index: 1, text: 'mug' } }, { click: { index: 4 } }, { click: { index: 7 } }, { done: { answer: 'Order #1042 placed, total $1,234.50' } }],
  answer: 'Order #1042 placed, total $1,234.50',
  log: [
    { method: 'GET', path: '/sites/shop/', query: {}, body: null, status: 200 },
    { method: 'GET', path: '/sites/shop/search', query: { q: 'Blue  Mug' }, body: null, status: 200 },
    { method: 'POST', path: '/sites/shop/cart/add', query: {}, body: { product_id: '7', qty: '2' }, status: 422 },
    { method: 'POST', path: '/sites/shop/cart/add/', query: {}, body: { product_id: '7', qty: '1' }, status: 303 },
    { method: 'POST', path: '/sites/shop/checkout', query: {}, body: { express: 'on' }, status: 303 },
  ],
  changes: [
    { table: 'cart_items', op: 'create', before: null, after: { id: 3, product_id: 7, qty: 1 }, changed: { id: 3, product_id: 7, qty: 1 } },
    { table: 'orders', op: 'create', before: null, after: { id: 1042, status: 'placed', total: 1234.5 }, changed: { id: 1042, status: 'placed', total: 1234.5 } },
    { table: 'cart_items', op: 'delete', before: { id: 3, product_id: 7, qty: 1 }, after: null },
    { table: 'users', op: 'update', before: { id: 1, email: 'a@x.org', phone: '1' }, after: { id: 1, email: 'a@x.org', phone: '2' }, changed: { phone: ['1', '2'] } },
  ],
  seen: ['Shop home. Search', 'Results: Blue Mug $12.00', 'Cart: 1 item', 'Order #1042 placed', 'Thank you'],
};
const stepMap = { version: 1, steps: 4, answer_step: 4, log: [0, 1, 2, 2, 3], changes: [2, 3, 3, 3], seen: [0, 1, 2, 3, 4] };
// The shop's tables before the first action: an order shipped earlier, no cart line, one user.
const startRows = {
  version: 1,
  tables: { orders: [{ id: 900, status: 'shipped', total: 5 }], cart_items: [], users: [{ id: 1, email: 'a@x.org', phone: '1' }], reviews: [] },
};

async function episode(files: { inputs?: object; steps?: object | null; summary?: object | null; start?: object | null } = {}): Promise<StepEvidence> {
  const store = memoryStore({
    ...(files.start === null ? {} : { 'run/t1/start_rows.json': JSON.stringify(files.start ?? startRows) }),
    'run/t1/grade_inputs.json': JSON.stringify(files.inputs ?? gradeInputs),
    ...(files.summary === null ? {} : { 'run/t1/episode.json': JSON.stringify(files.summary ?? { steps: 4, outcome: 'done' }) }),
    ...(files.steps === null ? {} : { 'run/t1/evidence_steps.json': JSON.stringify(files.steps ?? stepMap) }),
  });
  return loadStepEvidence(store, 'run/t1');
}

// Every change the fixture makes: the matching of each kind is tested under an `only` that admits them all (a claim
// alone is held to the changes it asks for, tested in 'no unrequested changes').
const EVERY: Claim = { only: [{ table: 'cart_items', op: 'create' }, { table: 'cart_items', op: 'delete' }, { table: 'orders', op: 'create' }, { table: 'users', op: 'update' }] };
const ALL_CHANGES = 'only' in EVERY ? [{ allow: EVERY.only }] : [];
const at = (claim: Claim, ev: StepEvidence, question?: string) => {
  const r = checkClaim({ all: [claim, EVERY] }, ev, { question: question ?? null });
  return [r.holds, r.firstStep];
};

describe('the claim schema', () => {
  it('accepts each kind and names the field of a bad claim', () => {
    for (const claim of [
      { change: { table: 'orders', op: 'create', fields: { status: 'placed', total: { number: 1234.5 } }, changed: ['status'] } },
      { request: { method: 'post', path: { pattern: '^/sites/shop/cart/' }, params: { qty: 1 } } },
      { answer: { contains: '1042' } },
      { seen: null },
      { all: [{ any: [{ seen: 'x' }, { not: { answer: 'y' } }] }] },
    ]) expect(ClaimSchema.safeParse(claim).success, JSON.stringify(claim)).toBe(true);
    const problem = (claim: unknown) => {
      const r = ClaimSchema.safeParse(claim);
      return r.success ? null : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join(' | ');
    };
    expect(problem({ all: [{ seen: 'x' }, { change: { table: 'orders', op: 'upsert' } }] })).toMatch(/^all\.1\.change\.op: /);
    expect(problem({ request: { path: { pattern: '(' } } })).toMatch(/request\.path\.pattern: not a valid regular expression/);
    expect(problem({ seen: 'x', answer: 'y' })).toMatch(/exactly one of .*got answer, seen/);
    expect(problem({ any: [] })).toMatch(/^any: /);
    expect(problem({ seen: { contains: 'a', tolerance: 1 } })).toMatch(/seen\.tolerance: tolerance goes with number only/);
    expect(() => checkClaim({ change: { table: '' } } as Claim, { steps: 0, answer: null, answerStep: null, log: [], changes: [], seen: [] })).toThrow(InputError);
  });
});

describe('checking claims at step prefixes', () => {
  it('a data change: table, operation, fields, changed fields, from the step it appeared', async () => {
    const ev = await episode();
    expect(at({ change: { table: 'cart_items', op: 'create', fields: { product_id: '7', qty: 1 } } }, ev)).toEqual([true, 2]);
    expect(at({ change: { table: 'orders', fields: { total: { number: 1234.5 }, status: { pattern: '^plac' } } } }, ev)).toEqual([true, 3]);
    expect(at({ change: { table: 'cart_items', op: 'delete', fields: { id: 3 } } }, ev)).toEqual([true, 3]);
    expect(at({ change: { table: 'orders', op: 'update' } }, ev)).toEqual([false, null]);
    expect(at({ change: { table: 'orders', fields: { status: 'cancelled' } } }, ev)).toEqual([false, null]);
    // the email field is right after the update but the update did not change it
    expect(at({ change: { table: 'users', op: 'update', fields: { email: 'A@x.org' } } }, ev)).toEqual([true, 3]);
    expect(at({ change: { table: 'users', op: 'update', fields: { email: 'a@x.org' }, changed: ['email'] } }, ev)).toEqual([false, null]);
    expect(at({ change: { table: 'users', op: 'update', changed: ['phone'] } }, ev)).toEqual([true, 3]);
    expect(checkClaim({ change: { table: 'reviews' } }, ev).detail).toMatch(/no change to reviews/);
  });

  it('a request: method, path, parameters; a refused request did not happen', async () => {
    const ev = await episode();
    expect(at({ request: { method: 'GET', path: '/sites/shop/search', params: { q: 'blue mug' } } }, ev)).toEqual([true, 1]);
    // qty 2 was refused (422); qty 1 went through at step 2, its path with a trailing slash
    expect(at({ request: { method: 'post', path: '/sites/shop/cart/add', params: { qty: 2 } } }, ev)).toEqual([false, null]);
    expect(at({ request: { method: 'post', path: '/sites/shop/cart/add', params: { qty: 1, product_id: 7 } } }, ev)).toEqual([true, 2]);
    expect(at({ request: { path: { contains: 'checkout' }, params: { express: true } } }, ev)).toEqual([true, 3]);
    expect(at({ request: { method: 'DELETE', path: { pattern: '.*' } } }, ev)).toEqual([false, null]);
    expect(checkClaim({ request: { path: '/sites/shop/search', params: { q: 'cup' } } }, ev).detail).toMatch(/1 request\(s\) there, none with those parameters/);
  });

  it('a seen value: the first page that shows it; numbers as written', async () => {
    const ev = await episode();
    expect(at({ seen: 'blue mug' }, ev)).toEqual([true, 1]);
    expect(at({ seen: 12 }, ev)).toEqual([true, 1]);
    expect(at({ seen: { contains: 'ORDER   #1042' } }, ev)).toEqual([true, 3]);
    expect(at({ seen: { pattern: 'cart: \\d+ item' } }, ev)).toEqual([true, 2]);
    expect(at({ seen: 'Thank you' }, ev)).toEqual([true, 4]);
    expect(at({ seen: 'red mug' }, ev)).toEqual([false, null]);
  });

  it("an info task's answer: only from its done step on", async () => {
    const ev = await episode();
    expect(ev.answerStep).toBe(4);
    expect(at({ answer: { contains: 'order #1042' } }, ev)).toEqual([true, 4]);
    expect(at({ answer: { number: 1234.5 } }, ev, 'What did order #1042 cost in total?')).toEqual([true, 4]);
    // without the question, the order's number competes with the total
    expect(at({ answer: { number: 1234.5 } }, ev)).toEqual([false, null]);
    expect(at({ answer: 'order #1042 placed, total $1,234.50' }, ev)).toEqual([true, 4]);
    expect(at({ answer: '1042' }, ev)).toEqual([false, null]); // a plain value is the whole answer
    // the value was on a page at step 3, but the prefix of an info task ends with its answer
    expect(at({ all: [{ seen: '1042' }, { answer: { contains: '1042' } }] }, ev)).toEqual([true, 4]);
    // no answer yet before the done step
    expect(at({ answer: null }, ev)).toEqual([false, 1]);
  });

  it('all, any and not at every prefix', async () => {
    const ev = await episode();
    const cart: Claim = { change: { table: 'cart_items', op: 'create' } };
    const order: Claim = { change: { table: 'orders', op: 'create' } };
    expect(at({ all: [cart, order] }, ev)).toEqual([true, 3]);
    expect(at({ any: [order, { seen: 'blue mug' }] }, ev)).toEqual([true, 1]);
    expect(at({ any: [{ seen: 'nothing like it' }, { answer: 'no' }] }, ev)).toEqual([false, null]);
    // not: holds on the first prefixes, not on the whole episode
    expect(at({ not: order }, ev)).toEqual([false, 1]);
    // added to the cart without ordering: steps 2 only
    expect(at({ all: [cart, { not: order }] }, ev)).toEqual([false, 2]);
    expect(at({ not: { not: cart } }, ev)).toEqual([true, 2]);
    const detail = checkClaim({ all: [cart, { not: order }] }, ev).detail;
    expect(detail).toMatch(/^all\(change create cart_items: at step 2; not\(change create orders: at step 3\)\); unrequested changes: create orders/);
  });

  it('an episode without a step map (the Python original) has everything at its last step', async () => {
    const ev = await episode({ steps: null });
    expect(ev.steps).toBe(4);
    expect(ev.log.map((e) => e.step)).toEqual([4, 4, 4, 4, 4]);
    expect(at({ seen: 'blue mug' }, ev)).toEqual([true, 4]);
    expect(at({ change: { table: 'cart_items', op: 'create' } }, ev)).toEqual([true, 4]);
    expect(at({ answer: { contains: '1042' } }, ev)).toEqual([true, 4]);
    // and no episode.json either: the actions count the steps
    const bare = await episode({ steps: null, summary: null });
    expect([bare.steps, bare.answerStep, bare.seen[0]?.step]).toEqual([4, 4, 4]);
    expect(at({ seen: 'blue mug' }, bare)).toEqual([true, 4]);
  });

  it('an episode of no steps has one prefix, all of it', async () => {
    const ev = await episode({ inputs: { actions: [], answer: null, log: [gradeInputs.log[0]], changes: [], seen: ['Shop home'] }, steps: { version: 1, steps: 0, answer_step: null, log: [0], changes: [], seen: [0] }, summary: { steps: 0 } });
    expect(at({ seen: 'shop home' }, ev)).toEqual([true, 0]);
    expect(at({ seen: 'cart' }, ev)).toEqual([false, null]);
  });

  it('a step map that does not fit its episode is named, file and field', async () => {
    await expect(episode({ steps: { ...stepMap, log: [0, 1, 2] } })).rejects.toThrow(/evidence_steps\.json: log: 3 step tags for 5 items/);
    await expect(episode({ steps: { ...stepMap, seen: [0, 1, 2, 3, 9] } })).rejects.toThrow(/evidence_steps\.json: seen\.4: step 9 is past the last step/);
    await expect(episode({ summary: { steps: 5 } })).rejects.toThrow(/evidence_steps\.json: steps: 4 steps, but episode\.json has 5/);
    await expect(episode({ steps: { ...stepMap, version: 2 } })).rejects.toThrow(InputError);
    await expect(loadStepEvidence(memoryStore(), 'run/none')).rejects.toThrow(/run\/none\/grade_inputs\.json: missing/);
  });
});

describe('a verifier as a claim', () => {
  it('agrees with verifyEpisode on the same evidence, check by check', async () => {
    const ev = await episode();
    // The hand-written verifier reads the tables at the end: the start rows with the changes applied.
    // The fixture's changes are all admitted (as site consequences), so that each check is compared on its own.
    const question = 'What did order #1042 cost in total?';
    const evidence = { answer: gradeInputs.answer, log: gradeInputs.log, changes: gradeInputs.changes, state: replayState(startRows.tables, gradeInputs.changes), question, consequences: ALL_CHANGES };
    const verifiers: Verifier[] = [
      { answer: { type: 'number', value: 1234.5, tolerance: 0.005 } },
      { answer: { type: 'number', value: 1243.5 } },
      { answer: { type: 'includes', value: ['order #1042', 'placed'] } },
      { answer: { type: 'includes', value: ['order #1042', 'cancelled'] } },
      { answer: { type: 'exact', value: 'Order #1042 placed, total $1,234.50' } },
      { answer: { type: 'exact', value: '1042' } },
      { requests: [{ method: 'POST', path: '/sites/shop/cart/add', params: { product_id: 7, qty: 1 } }] },
      { requests: [{ method: 'POST', path: '/sites/shop/cart/add', params: { qty: 2 } }] },
      { requests: [{ method: 'DELETE', path: '/sites/shop/cart', should_not_exist: true }] },
      { requests: [{ method: 'POST', path: '/sites/shop/checkout', should_not_exist: true }] },
      { state: [{ table: 'orders', where: { id: 1042 }, values: { status: 'placed' } }] },
      { state: [{ table: 'orders', where: { id: 1042 }, values: { status: 'shipped' } }] },
      { state: [{ table: 'cart_items', where: { product_id: 7 }, should_not_exist: true }, { table: 'users', where: { id: 1 }, values: { phone: 2 } }] },
      { requests: [{ method: 'GET', path: '/sites/shop/search', params: { q: 'blue mug' } }], state: [{ table: 'reviews', where: { product_id: 7 } }] },
      // "No such row" is a state claim at the cut: none cancelled at all; an order placed by the session.
      { state: [{ table: 'orders', where: { status: 'cancelled' }, should_not_exist: true }] },
      { state: [{ table: 'orders', where: { status: 'placed' }, should_not_exist: true }] },
    ];
    const verdicts = await Promise.all(verifiers.map(async (v) => [(await verifyEpisode(v, evidence)).ok, checkClaim(verifierClaim(v)!, { ...ev, consequences: ALL_CHANGES }, { question }).holds]));
    expect(verdicts.map(([ok]) => ok)).toEqual([true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false]);
    expect(verdicts.map(([, holds]) => holds)).toEqual(verdicts.map(([ok]) => ok));
    expect(verifierClaim({})).toBeNull();
    expect(verifierClaim({ answer: { type: 'exact', value: ['yes', 'y'] } })).toEqual({ all: [{ any: [{ answer: 'yes' }, { answer: 'y' }] }, { only: [] }] });
  });
});

describe('state claims and vacuity', () => {
  it('a state claim counts the rows at each prefix: the start rows with the changes up to it', async () => {
    const ev = await episode();
    expect(at({ state: { table: 'orders', fields: { status: 'placed' } } }, ev)).toEqual([true, 3]);
    expect(at({ state: { table: 'orders', rows: 2 } }, ev)).toEqual([true, 3]);
    expect(at({ state: { table: 'cart_items', fields: { product_id: 7 }, rows: 'none' } }, ev)).toEqual([true, 1]);
    expect(at({ state: { table: 'users', fields: { phone: 2 } } }, ev)).toEqual([true, 3]);
    expect(at({ state: { table: 'orders', fields: { status: 'cancelled' } } }, ev)).toEqual([false, null]);
    // "No such row" by fields the session never touched is true before the first action: it proves nothing.
    const none = checkClaim({ all: [{ state: { table: 'orders', fields: { status: 'cancelled' }, rows: 'none' } }, EVERY] }, ev);
    expect(none.holds).toBe(true);
    expect(none.vacuous).toMatch(/did nothing/);
  });

  it('without start rows a state claim is not checkable: it never holds, nor does its not', async () => {
    const ev = await episode({ start: null });
    expect(ev.start).toBeNull();
    for (const claim of [{ state: { table: 'orders' } }, { not: { state: { table: 'orders' } } }, { any: [{ not: { state: { table: 'x' } } }, { answer: 'nope' }] }] as Claim[]) {
      const r = checkClaim(claim, ev);
      expect([r.holds, r.vacuous], JSON.stringify(claim)).toEqual([false, null]);
      expect(r.detail).toMatch(/not checkable, the episode recorded no start rows/);
    }
    // A known part decides where it can: any(true, unknown) holds.
    expect(checkClaim({ all: [{ any: [{ state: { table: 'orders' } }, { answer: { contains: '1042' } }] }, EVERY] }, ev).holds).toBe(true);
  });

  it('a claim that holds on the do-nothing episode or at the start is vacuous; one the agent made true is not', async () => {
    const ev = await episode();
    const vacuous = (claim: Claim) => checkClaim(claim, ev).vacuous;
    expect(vacuous({ not: { change: { table: 'orders', op: 'create', fields: { status: 'cancelled' } } } })).toMatch(/did nothing/);
    expect(vacuous({ not: { answer: 'no' } })).toMatch(/did nothing/);
    expect(vacuous({ seen: 'shop home' })).toMatch(/at the episode's start/);
    expect(vacuous({ request: { method: 'GET', path: '/sites/shop' } })).toMatch(/at the episode's start/);
    expect(vacuous({ state: { table: 'users', fields: { id: 1 } } })).toMatch(/did nothing/);
    for (const claim of [{ change: { table: 'orders', op: 'create' } }, { answer: { contains: '1042' } }, { state: { table: 'users', fields: { phone: '1' }, rows: 'none' } }, { state: { table: 'orders', rows: 2 } }, { seen: 'thank you' }] as Claim[]) {
      expect(vacuous(claim), JSON.stringify(claim)).toBeNull();
    }
    // Every claim here fails the do-nothing episode of this site (its start rows, nothing done), except the vacuous.
    expect(checkClaim({ change: { table: 'orders', op: 'create' } }, emptyEvidence(ev.start)).holds).toBe(false);
    expect(checkClaim({ state: { table: 'users', fields: { id: 1 } } }, emptyEvidence(ev.start)).holds).toBe(true);
  });
});
