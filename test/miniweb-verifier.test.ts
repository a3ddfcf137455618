/**
 * MiniWeb's verifier.json graded by the library's rules: each check type passing and failing, the fuzzy ones undecided
 * without a judge, the gaming families failing, three-valued AND/OR with advisory checks, and judge decisions reused.
 * Fixtures are small verifiers and episodes written here (the public MiniWeb ships no annotated tasks).
 */
import { describe, expect, it } from 'vitest';
import { fakeLLM, InputError } from 'miniweb-taskgen';
import {
  gradeMiniwebVerifier, isMiniwebVerifier, miniwebJudge, miniwebJudgeKey, MiniwebDecisionsSchema, miniwebDecisionsFromJson, miniwebDecisionsToJson,
  type MiniwebGradeInput, type MiniwebJudge, type MiniwebJudgeDecision, type MiniwebJudgeInput,
} from '../src/miniweb/verifier';

const BASE: MiniwebGradeInput = { answer: null, question: '', log: [], urls: [], lastPageText: null, records: [], beacons: [], reasoning: null };
const episode = (over: Partial<MiniwebGradeInput>): MiniwebGradeInput => ({ ...BASE, ...over });
const one = (leaf: Record<string, unknown>) => ({ task_id: 't1', macros: { m: { op: 'AND', checks: [leaf] } } });
const grade = (leaf: Record<string, unknown>, over: Partial<MiniwebGradeInput>, options = {}) => gradeMiniwebVerifier(one(leaf), episode(over), options);

// A judge that says `match` and counts its calls.
function countingJudge(match: boolean): MiniwebJudge & { calls: MiniwebJudgeInput[] } {
  const calls: MiniwebJudgeInput[] = [];
  const judge = async (input: MiniwebJudgeInput) => {
    calls.push(input);
    return { match, why: match ? 'same value' : 'another value' };
  };
  return Object.assign(judge, { calls });
}

const price = { type: 'answer_matches', expected: '$99.99' };

describe('answer_matches', () => {
  it('passes an answer stating the value, and fails one stating another', async () => {
    expect((await grade(price, { answer: 'The price is $99.99.' })).ok).toBe(true);
    const wrong = await grade(price, { answer: 'The price is $89.99.' });
    expect(wrong.ok).toBe(false);
    expect(wrong.checks.at(-1)!.detail).toMatch(/not stated/);
  });

  it('fails the gaming families: a denial, every candidate, an empty answer, a page dump', async () => {
    for (const answer of ['It is not $99.99.', "$99.99 isn't the price.", '$89.99, $99.99 or $109.99', '', '   ', null, `$99.99 ${'lorem ipsum '.repeat(40)}`]) {
      expect((await grade(price, { answer }, { judge: countingJudge(true) })).ok, String(answer)).toBe(false);
    }
    const start = { users: [{ name: 'Priya Sharma' }, { name: 'Omar Haddad' }, { name: 'Lena Fischer' }] };
    const who = { type: 'answer_matches', expected: 'Priya Sharma' };
    expect((await grade(who, { answer: 'Priya Sharma', start })).ok).toBe(true);
    expect((await grade(who, { answer: 'Priya Sharma, Omar Haddad, Lena Fischer', start })).ok).toBe(false);
  });

  it('never asks the judge for a gaming answer, even in mode fuzzy', async () => {
    const judge = countingJudge(true);
    for (const answer of ['It is not $99.99.', '$89.99 or $99.99', '']) {
      expect((await grade({ ...price, mode: 'fuzzy' }, { answer }, { judge })).ok).toBe(false);
    }
    expect(judge.calls).toHaveLength(0);
  });

  it('a negation the question or the value holds is no denial', async () => {
    const leaf = { type: 'answer_matches', expected: 'Blue Mug' };
    expect((await grade(leaf, { question: 'Which item is not in stock?', answer: 'The item not in stock is the Blue Mug.' })).ok).toBe(true);
    expect((await grade(leaf, { question: 'Which item is not in stock?', answer: 'It is not the Blue Mug.' })).ok).toBe(false);
    expect((await grade({ type: 'answer_matches', expected: 'not shipped' }, { answer: 'The order is not shipped yet.' })).ok).toBe(true);
  });

  it('matches whole words, modes exact and includes, and alternatives', async () => {
    expect((await grade({ type: 'answer_matches', expected: 'cat' }, { answer: 'category' })).ok).toBe(false);
    const exact = { type: 'answer_matches', expected: 'Priya Sharma', mode: 'exact' };
    expect((await grade(exact, { answer: 'priya sharma.' })).ok).toBe(true);
    expect((await grade(exact, { answer: 'It is Priya Sharma' })).ok).toBe(false);
    const alts = { type: 'answer_matches', expected: 'Priya Sharma', alternatives: ['priya@example.com'] };
    expect((await grade(alts, { answer: 'priya@example.com' })).ok).toBe(true);
    const lines = { type: 'answer_matches', expected: 'Lisbon', alternatives: 'Porto\nFaro' };
    expect((await grade(lines, { answer: 'Faro' })).ok).toBe(true);
    expect((await grade(lines, { answer: 'Madrid' })).ok).toBe(false);
  });

  it('reads numbers as numbers, rounding only a computed value', async () => {
    const mean = { type: 'answer_matches', expected: '388.013581' };
    expect((await grade(mean, { answer: '388' })).ok).toBe(true);
    expect((await grade(mean, { answer: 'About 388.' })).ok).toBe(false); // a hedge asserts no value (issue 48)
    expect((await grade(mean, { answer: '388.01' })).ok).toBe(true);
    expect((await grade(mean, { answer: '389' })).ok).toBe(false);
    expect((await grade(price, { answer: '$100' })).ok).toBe(false);
    expect((await grade({ type: 'answer_matches', expected: 52 }, { answer: '52 mph' })).ok).toBe(true);
    expect((await grade({ type: 'answer_matches', expected: '5' }, { answer: '15' })).ok).toBe(false);
  });

  it('matches a template placeholder as a pattern with one match', async () => {
    const order = { type: 'answer_matches', expected: '#ORD-{YYYYMMDD}-001' };
    expect((await grade(order, { answer: 'Your order number is ORD-20260810-001.' })).ok).toBe(true);
    expect((await grade(order, { answer: 'ORD-20260810-001 or ORD-20260811-001' })).ok).toBe(false);
    expect((await grade(order, { answer: 'INV-20260810-002' })).ok).toBe(false);
  });

  it('mode fuzzy: undecided without a judge, decided by one', async () => {
    const leaf = { type: 'answer_matches', expected: 'Priya Sharma', mode: 'fuzzy' };
    const open = await grade(leaf, { answer: 'The contact is P. Sharma' });
    expect(open.ok).toBeNull();
    expect(open.undecided).toEqual(['m: answer_matches "Priya Sharma"']);
    expect(open.checks.at(-1)).toMatchObject({ ok: false, detail: expect.stringMatching(/^undecided/) });
    const yes = countingJudge(true);
    expect((await grade(leaf, { answer: 'The contact is P. Sharma', question: 'Who is the contact?' }, { judge: yes })).ok).toBe(true);
    expect(yes.calls).toEqual([{ kind: 'reported answer', task: 'Who is the contact?', expected: 'Priya Sharma', text: 'The contact is P. Sharma' }]);
    expect((await grade(leaf, { answer: 'The contact is Omar' }, { judge: countingJudge(false) })).ok).toBe(false);
  });
});

describe('qa_answer and reasoning_contains', () => {
  it('qa_answer checks the reported answer (fuzzy by default), and no answer fails', async () => {
    const leaf = { type: 'qa_answer', expected: '42', leaf: true };
    expect((await grade(leaf, { answer: 'There are 42 open tickets.' })).ok).toBe(true);
    expect((await grade(leaf, { answer: 'forty-two' })).ok).toBeNull();
    expect((await grade({ ...leaf, mode: 'contains' }, { answer: 'forty-two' })).ok).toBe(false);
    // Without `leaf`, MiniWeb falls back to the reasoning when there is no answer; the answer is required here.
    expect((await grade({ type: 'qa_answer', expected: '42' }, { answer: null, reasoning: 'I found 42' })).ok).toBe(false);
  });

  it('qa_answer of a chained macro checks the reasoning', async () => {
    const leaf = { type: 'qa_answer', expected: 'Blue Mug', leaf: false };
    expect((await grade(leaf, { reasoning: 'Sorted by price: the cheapest is the Blue Mug, so I add it.' })).ok).toBe(true);
    expect((await grade({ ...leaf, mode: 'contains' }, { reasoning: 'I added the Red Mug.' })).ok).toBe(false);
    expect((await grade(leaf, { reasoning: null })).ok).toBeNull();
  });

  it('reasoning_contains: holds it, does not, none recorded (undecided, never assumed perfect), fuzzy', async () => {
    const leaf = { type: 'reasoning_contains', expected: '$52' };
    expect((await grade(leaf, { reasoning: 'The total comes to $52 after the discount.' })).ok).toBe(true);
    expect((await grade({ ...leaf, mode: 'contains' }, { reasoning: 'The total is $152.' })).ok).toBe(false);
    const none = await grade(leaf, { reasoning: null, answer: '$52' }, { judge: countingJudge(true) });
    expect(none.ok).toBeNull();
    expect(none.checks.at(-1)!.detail).toMatch(/no reasoning/);
    expect((await grade(leaf, { reasoning: 'fifty-two dollars' })).ok).toBeNull();
    expect((await grade(leaf, { reasoning: 'fifty-two dollars' }, { judge: countingJudge(true) })).ok).toBe(true);
  });
});

describe('page checks', () => {
  const page = { urls: ['/sites/shop/', '/sites/shop/products?sort=price'], lastPageText: 'Blue Mug $52.99 In stock' };

  it('answer_grounded: the last page and its text', async () => {
    expect((await grade({ type: 'answer_grounded', url: '/products', text: 'Blue Mug' }, page)).ok).toBe(true);
    expect((await grade({ type: 'answer_grounded', url: '/cart' }, page)).ok).toBe(false);
    expect((await grade({ type: 'answer_grounded', text: 'Red Mug' }, page)).ok).toBe(false);
    expect((await grade({ type: 'answer_grounded', text: '52' }, page)).ok).toBe(false);
    expect((await grade({ type: 'answer_grounded', text: 'Blue Mug' }, { ...page, lastPageText: null })).ok).toBe(false);
  });

  it('page_visited: some page holds the fragment', async () => {
    expect((await grade({ type: 'page_visited', url: 'sort=price' }, page)).ok).toBe(true);
    expect((await grade({ type: 'page_visited', url: '/checkout' }, page)).ok).toBe(false);
  });

  it('action_included: recorder actions, else beacons', async () => {
    const records = [
      { type: 'observation', url: '/sites/crm/tickets' },
      { type: 'action', action: 'select', target: "select 'Status' = 'Completed'", selector: 'select', value: 'completed', option_text: 'Completed' },
    ];
    const leaf = { type: 'action_included', action: 'select', target: 'status', value: 'Completed' };
    expect((await grade(leaf, { records })).ok).toBe(true);
    expect((await grade({ ...leaf, value: 'Open' }, { records })).ok).toBe(false);
    expect((await grade({ ...leaf, action: 'click' }, { records })).ok).toBe(false);
    const beacons = [{ action: 'type', target: 'input Search', text: 'red shoes' }];
    expect((await grade({ type: 'action_included', action: 'type', value: 'red shoes' }, { records: [records[0]], beacons })).ok).toBe(true);
    // With recorder actions present, beacons are not read.
    expect((await grade({ type: 'action_included', action: 'type', value: 'red shoes' }, { records, beacons })).ok).toBe(false);
  });
});

describe('request_made', () => {
  const vote = (status: number) => ({ method: 'POST', path: '/sites/forums/api/posts/3/vote', query: {}, status, body: { direction: 'up' }, response: { score: 12, ok: true } });
  const leaf = { type: 'request_made', method: 'POST', url: '/api/posts/3/vote', body_fields: { direction: 'up' } };

  it('passes the request, named by macro and leaf', async () => {
    const graded = await gradeMiniwebVerifier({ macros: { vote: { op: 'AND', checks: [leaf] } } }, episode({ log: [vote(200)] }));
    expect(graded.ok).toBe(true);
    expect(graded.checks.map((c) => c.check)).toEqual(['vote', 'vote: request_made POST /api/posts/3/vote body_fields={"direction":"up"}']);
  });

  it('a request answered 4xx did not happen, unless the status is asked for', async () => {
    const refused = await grade(leaf, { log: [vote(403)] });
    expect(refused.ok).toBe(false);
    expect(refused.checks.at(-1)!.detail).toMatch(/error status/);
    expect((await grade({ ...leaf, status: 403 }, { log: [vote(403)] })).ok).toBe(true);
    expect((await grade({ ...leaf, status: 201 }, { log: [vote(200)] })).ok).toBe(false);
  });

  it('method, regex URLs, the query and the body', async () => {
    const log = [
      { method: 'GET', path: '/sites/shop/search', query: { q: 'red shoes' }, status: 200 },
      { method: 'POST', path: '/sites/shop/cart/add', query: {}, status: 302, body: 'item=17&qty=2&note=' },
      vote(200),
    ];
    expect((await grade({ type: 'request_made', method: 'post', url: 're:/api/posts/\\d+/vote' }, { log })).ok).toBe(true);
    expect((await grade({ type: 'request_made', method: 'GET', url: 're:/api/posts/\\d+/vote' }, { log })).ok).toBe(false);
    const bad = await grade({ type: 'request_made', url: 're:(' }, { log });
    expect(bad.ok).toBe(false);
    expect(bad.checks.at(-1)!.detail).toMatch(/not a valid regular expression/);
    expect((await grade({ type: 'request_made', url: '/search?q=red+shoes' }, { log })).ok).toBe(true);
    expect((await grade({ type: 'request_made', url: 'q=red shoes' }, { log })).ok).toBe(true);
    expect((await grade({ type: 'request_made', url: 'q=blue' }, { log })).ok).toBe(false);
    expect((await grade({ type: 'request_made', url: '/cart/add', body_fields: { item: '17', qty: 2 } }, { log })).ok).toBe(true);
    expect((await grade({ type: 'request_made', url: '/cart/add', body_fields: { item: '1' } }, { log })).ok).toBe(false);
    expect((await grade({ type: 'request_made', url: '/cart/add', body_contains: 'qty 2' }, { log })).ok).toBe(true);
    expect((await grade({ type: 'request_made', url: '/vote', response_fields: { score: 12 } }, { log })).ok).toBe(true);
    expect((await grade({ type: 'request_made', url: '/vote', response_fields: { score: 20 } }, { log })).ok).toBe(false);
  });

  it("compares fields by MiniWeb's rules", async () => {
    const post = (body: Record<string, unknown>) => ({ log: [{ method: 'POST', path: '/sites/x/api/form', query: {}, status: 200, body }] });
    const fields = (want: Record<string, unknown>) => ({ type: 'request_made', url: '/api/form', body_fields: want });
    expect((await grade(fields({ price: '52' }), post({ price: '52.3' }))).ok).toBe(true);
    expect((await grade(fields({ price: '52' }), post({ price: '58' }))).ok).toBe(false);
    expect((await grade(fields({ message: 'see you soon' }), post({ message: 'OK, see you soon!' }))).ok).toBe(true);
    expect((await grade(fields({ phone: '5551234567' }), post({ phone: '(555) 123-4567' }))).ok).toBe(true);
    expect((await grade(fields({ id: '3' }), post({ id: '31' }))).ok).toBe(false);
    expect((await grade(fields({ tags: 'red' }), post({ tags: ['blue', 'red'] }))).ok).toBe(true);
    expect((await grade(fields({ id: { value: '3', mode: 'contains' } }), post({ id: '31' }))).ok).toBe(true);
    expect((await grade(fields({ id: { open: true }, title: 'Hi' }), post({ title: 'hi' }))).ok).toBe(true);
    const review = fields({ review: { value: 'loved it', mode: 'fuzzy' } });
    expect((await grade(review, post({ review: 'I loved it!' }))).ok).toBe(true);
    expect((await grade(review, post({ review: 'It was wonderful' }))).ok).toBeNull();
    expect((await grade(review, post({ review: 'It was wonderful' }), { judge: countingJudge(true) })).ok).toBe(true);
    expect((await grade(review, post({ review: 'It was awful' }), { judge: countingJudge(false) })).ok).toBe(false);
  });
});

describe('what asserts nothing, and unknown checks', () => {
  it('an all-open leaf fails, a partly open one asserts the rest', async () => {
    const log = [{ method: 'POST', path: '/sites/x/api/a', query: {}, status: 200 }];
    for (const leaf of [
      { type: 'request_made', method: { open: true }, url: { open: true }, body_fields: { open: true } },
      { type: 'request_made', body_fields: { title: { open: true } } },
      { type: 'answer_matches', expected: { open: true }, mode: 'includes' },
      { type: 'qa_answer', expected: '' },
      { type: 'reasoning_contains' },
      { type: 'page_visited', url: { open: true } },
    ]) {
      const graded = await grade(leaf, { log, answer: 'x', reasoning: 'x', urls: ['/sites/x/'] });
      expect(graded.ok, JSON.stringify(leaf)).toBe(false);
      expect(graded.checks.at(-1)!.detail).toMatch(/asserts nothing/);
    }
    expect((await grade({ type: 'request_made', method: 'POST', url: { open: true } }, { log })).ok).toBe(true);
  });

  it('an unknown type loads and fails; a misspelt parameter is refused, naming the field', async () => {
    const unknown = one({ type: 'state_check', table: 'posts' });
    expect(isMiniwebVerifier(unknown)).toBe(true);
    const graded = await gradeMiniwebVerifier(unknown, episode({}));
    expect(graded.ok).toBe(false);
    expect(graded.checks.at(-1)!.detail).toMatch(/unknown check type "state_check"/);
    // A slip keeps it of MiniWeb's kind (never read as the sandbox's kind, which would hold no check), and is refused.
    const typo = one({ type: 'request_made', method: 'POST', body_feilds: { a: 1 } });
    expect(isMiniwebVerifier(typo)).toBe(true);
    await expect(gradeMiniwebVerifier(typo, episode({}))).rejects.toMatchObject({ name: 'InputError', field: 'verifier.macros.m.checks[0].body_feilds' });
    await expect(gradeMiniwebVerifier(one({ type: 'answer_matches', expected: 'a', mode: 'exakt' }), episode({}))).rejects.toMatchObject({ field: 'verifier.macros.m.checks[0].mode' });
    for (const other of [{ answer: { type: 'exact', value: 'a' } }, { macros: [] }, { macros: null }, null, 'macros']) expect(isMiniwebVerifier(other), JSON.stringify(other)).toBe(false);
  });

  it('an empty verifier and an empty group fail', async () => {
    expect((await gradeMiniwebVerifier({ task_id: 't', macros: {} }, episode({}))).ok).toBe(false);
    expect((await gradeMiniwebVerifier({ macros: { m: { op: 'AND', checks: [] } } }, episode({}))).ok).toBe(false);
    expect((await gradeMiniwebVerifier({ macros: { m: { op: 'OR', checks: [] } } }, episode({}))).ok).toBe(false);
  });

  it('a check that throws fails with the reason; a bad judge reply is no pass', async () => {
    const broken: MiniwebJudge = async () => {
      throw new Error('judge offline');
    };
    const leaf = { type: 'answer_matches', expected: 'Priya Sharma', mode: 'fuzzy' };
    const graded = await grade(leaf, { answer: 'P. Sharma' }, { judge: broken });
    expect(graded.ok).toBe(false);
    expect(graded.checks.at(-1)!.detail).toMatch(/failed to run: Error: judge offline/);
    const llm = fakeLLM({ replies: ['yes, it matches'] });
    const bad = await grade(leaf, { answer: 'P. Sharma' }, { judge: miniwebJudge(llm) });
    expect(bad.ok).toBe(false);
    expect(bad.checks.at(-1)!.detail).toMatch(/not JSON/);
  });

  it('bad input names the field', async () => {
    await expect(gradeMiniwebVerifier(one(price), { ...BASE, urls: [1] } as never)).rejects.toSatisfy((e) => e instanceof InputError && e.field === 'input.urls[0]');
  });
});

describe('three-valued trees', () => {
  const yes = { type: 'page_visited', url: '/a' };
  const no = { type: 'page_visited', url: '/zzz' };
  const maybe = { type: 'reasoning_contains', expected: 'x' }; // no reasoning: undecided
  const tree = (op: string, checks: unknown[]) => ({ macros: { m: { op, checks } } });
  const ep = episode({ urls: ['/a'] });

  it('AND and OR over true, false and undecided', async () => {
    const cases: Array<[string, unknown[], boolean | null]> = [
      ['AND', [yes, maybe], null], ['AND', [no, maybe], false], ['AND', [yes, yes], true],
      ['OR', [yes, maybe], true], ['OR', [no, maybe], null], ['OR', [no, no], false],
      ['and', [yes, { op: 'OR', checks: [no, yes] }], true], ['AND', [yes, { op: 'OR', checks: [no, maybe] }], null],
    ];
    for (const [op, checks, want] of cases) expect((await gradeMiniwebVerifier(tree(op, checks), ep)).ok, `${op} ${JSON.stringify(checks)}`).toBe(want);
  });

  it('advisory checks are graded and reported but do not gate, unless all are advisory', async () => {
    const graded = await gradeMiniwebVerifier(tree('AND', [yes, { ...no, advisory: true }, { ...maybe, advisory: true }]), ep);
    expect(graded.ok).toBe(true);
    expect(graded.checks.map((c) => [c.check, c.ok])).toEqual([
      ['m', true], ['m: page_visited "/a"', true], ['m: page_visited "/zzz" (advisory)', false], ['m: reasoning_contains "x" (advisory)', false],
    ]);
    expect((await gradeMiniwebVerifier(tree('AND', [{ ...no, advisory: true }]), ep)).ok).toBe(false);
    expect((await gradeMiniwebVerifier(tree('OR', [{ ...no, advisory: true }, { ...yes, advisory: true }]), ep)).ok).toBe(true);
  });

  it('every macro must pass', async () => {
    const two = { macros: { a: { op: 'AND', checks: [yes] }, b: { op: 'AND', checks: [no] } } };
    expect((await gradeMiniwebVerifier(two, ep)).ok).toBe(false);
  });

  it('asks the judge only when the verdict depends on it', async () => {
    const fuzzy = { type: 'reasoning_contains', expected: 'Priya Sharma' };
    const withReasoning = episode({ urls: ['/a'], reasoning: 'the contact is P. Sharma' });
    const judge = countingJudge(true);
    expect((await gradeMiniwebVerifier(tree('AND', [no, fuzzy]), withReasoning, { judge })).ok).toBe(false);
    expect((await gradeMiniwebVerifier(tree('OR', [yes, fuzzy]), withReasoning, { judge })).ok).toBe(true);
    expect(judge.calls).toHaveLength(0);
    expect((await gradeMiniwebVerifier(tree('AND', [yes, fuzzy]), withReasoning, { judge })).ok).toBe(true);
    expect(judge.calls).toHaveLength(1);
  });
});

describe('judge decisions', () => {
  const leaf = { type: 'answer_matches', expected: 'Priya Sharma', mode: 'fuzzy' };
  const ep = { answer: 'Her e-mail is priya@example.com', question: 'Who is the contact?' };

  it('decided: a second grading reuses the first decision', async () => {
    const llm = fakeLLM({ replies: ['```json\n{"match": true, "why": "the address is hers"}\n```'] });
    const decided = new Map<string, MiniwebJudgeDecision>();
    const first = await grade(leaf, ep, { judge: miniwebJudge(llm), decided });
    const again = await grade(leaf, ep, { judge: miniwebJudge(llm), decided });
    expect([first.ok, again.ok]).toEqual([true, true]);
    expect(llm.calls).toHaveLength(1);
    expect(again.checks).toEqual(first.checks);
    const key = miniwebJudgeKey({ kind: 'reported answer', task: ep.question, expected: 'Priya Sharma', text: ep.answer });
    expect(decided.get(key)).toEqual({ match: true, why: 'the address is hers' });
    // Known decisions are used without a judge, too.
    expect((await grade(leaf, ep, { decided })).ok).toBe(true);
  });

  it('decisions kept in a file as [{key, match, why}] are reused by a later grading without a judge', async () => {
    const decided = new Map<string, MiniwebJudgeDecision>();
    const judge = countingJudge(true);
    expect((await grade(leaf, ep, { judge, decided })).ok).toBe(true);
    const text = JSON.stringify(miniwebDecisionsToJson(decided));
    const stored = MiniwebDecisionsSchema.parse(JSON.parse(text));
    expect(stored).toEqual([{ key: expect.stringMatching(/^[0-9a-f]{64}$/), match: true, why: 'same value' }]);
    const again = await grade(leaf, ep, { decided: miniwebDecisionsFromJson(JSON.parse(text)) });
    expect(again.ok).toBe(true);
    expect(judge.calls).toHaveLength(1);
    expect(() => miniwebDecisionsFromJson([{ key: 'k', match: 'yes', why: '' }], 'run/decisions.json')).toThrow(InputError);
    expect(() => miniwebDecisionsFromJson([{ key: 'k', match: true, why: '' }], 'run/decisions.json')).toThrow(/^run\/decisions.json: 0.key: expected a SHA-256/);
  });

  it('miniwebJudge asks in our own words for a JSON reply', async () => {
    const llm = fakeLLM({ replies: ['{"match": false, "why": "another person"}'] });
    expect(await miniwebJudge(llm)({ kind: 'reported answer', task: 'Who?', expected: 'Priya Sharma', text: 'Omar' })).toEqual({ match: false, why: 'another person' });
    const call = llm.calls[0]!;
    expect(call.prompt).toContain('TASK:\nWho?');
    expect(call.prompt).toContain('EXPECTED VALUE:\nPriya Sharma');
    expect(call.options).toMatchObject({ json: true, temperature: 0, maxTokens: 300 });
    expect(call.options.system).toMatch(/Reply with JSON only/);
    await expect(miniwebJudge(fakeLLM({ replies: ['{"match": "yes"}'] }))({ kind: 'k', task: '', expected: 'a', text: 'b' })).rejects.toThrow(/not \{"match"/);
  });
});
