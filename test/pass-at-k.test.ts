/**
 * Several tries per task, the parts without a browser: the unbiased pass@k estimator against its definition, the
 * curve and its interval, the shard split of tries (every try of every task in exactly one shard), and the policies'
 * tries (qwenPolicy's seed per try, the stand-in's own draw per try, both recorded apart in the set-up).
 */
import { describe, expect, it } from 'vitest';
import { fakeLLM, passAtK, qwenPolicy, shardTasks, type PolicyInput, type Task } from '../src/index';
import { defaultCatalog, oraclePolicy } from '../sandbox/index';
import { passAtKCurve } from '../src/validate';
import { attemptSetup } from '../src/attempt/setup';

// 1 - C(n-c, k) / C(n, k), by counting subsets.
function byDefinition(n: number, c: number, k: number): number {
  const comb = (a: number, b: number): number => (b < 0 || b > a ? 0 : b === 0 ? 1 : (comb(a - 1, b - 1) * a) / b);
  return 1 - comb(n - c, k) / comb(n, k);
}

describe('pass@k', () => {
  it('is the unbiased estimator of Chen et al. for every n, c, k up to 8, and refuses what is not one', () => {
    for (let n = 1; n <= 8; n++) for (let c = 0; c <= n; c++) for (let k = 1; k <= n; k++) expect(passAtK(n, c, k)).toBeCloseTo(byDefinition(n, c, k), 12);
    expect(passAtK(4, 1, 1)).toBe(0.25);
    expect(passAtK(4, 0, 4)).toBe(0);
    for (const [n, c, k] of [[4, 5, 1], [4, 1, 5], [0, 0, 1], [4, 1, 0], [4, 1.5, 1]] as const) expect(() => passAtK(n, c, k)).toThrow(RangeError);
  });

  it('averages tasks with at least k counted tries; the interval holds the estimate; sometimes-but-not-always counted', () => {
    const curve = passAtKCurve([{ counted: 4, successes: 0 }, { counted: 4, successes: 2 }, { counted: 4, successes: 4 }, { counted: 2, successes: 1 }, { counted: 0, successes: 0 }]);
    expect(curve.tasks).toBe(4);
    expect(curve.points.map((p) => p.tasks)).toEqual([4, 4, 3, 3]);
    expect(curve.points[0]!.estimate).toBeCloseTo((0 + 0.5 + 1 + 0.5) / 4, 12);
    expect(curve.points[2]!.estimate).toBeCloseTo((0 + 1 + 1) / 3, 12);
    for (const p of curve.points) expect(p.low <= p.estimate && p.estimate <= p.high).toBe(true);
    expect(curve).toMatchObject({ solved: 3, sometimes: 2, sometimesShare: 0.5 });
    expect(passAtKCurve([{ counted: 3, successes: 1 }])).toEqual(passAtKCurve([{ counted: 3, successes: 1 }])); // seeded
  });
});

describe('tries in shards', () => {
  it('splits tries, not only tasks: every try of every task in exactly one shard, one try per task as before', () => {
    const tasks = ['a', 'b', 'c'];
    const units = [0, 1, 2, 3, 4].flatMap((index) => [1, 2, 3, 4].flatMap((n) => shardTasks(tasks, { index, count: 5 }, { n, of: 4 }).map((t) => `${t}${n}`)));
    expect(units.sort()).toEqual(tasks.flatMap((t) => [1, 2, 3, 4].map((n) => `${t}${n}`)).sort());
    // 3 tasks x 4 tries over 5 shards: every shard has work, though there are fewer tasks than shards
    for (let index = 0; index < 5; index++) expect([1, 2, 3, 4].some((n) => shardTasks(tasks, { index, count: 5 }, { n, of: 4 }).length > 0)).toBe(true);
    expect(shardTasks(tasks, { index: 1, count: 2 }, { n: 1, of: 1 })).toEqual(shardTasks(tasks, { index: 1, count: 2 }));
    expect(() => shardTasks(tasks, { index: 0, count: 2 }, { n: 3, of: 2 })).toThrow(/try 3 of 2/);
  });
});

describe("policies' tries", () => {
  const task: Task = { kind: 'proposed', task_id: 'tg-shop-01-0000abcd', site: 'shop-01', sites: ['shop-01'], macro: 'proposed', macros: [], instruction: 'Find the cheapest lamp', start_path: '/', task_kind: 'info', verifier: null };
  const input = { task, step: 0, maxSteps: 5, history: [], observation: { step: 0, url: '/', title: '', elements: [], text: '', error: null, screenshot: new Uint8Array(), prompt: '' } } as PolicyInput;

  it('qwenPolicy sends seed + n - 1 on try n and records temperature and seed in the set-up; a greedy one records neither', async () => {
    const llm = fakeLLM({ replies: Array(3).fill('{"done": {}}'), modelId: 'q' });
    const policy = qwenPolicy({ llm, temperature: 0.8, seed: 10 });
    expect(policy.forTry!(1)).toBe(policy);
    for (const n of [1, 3]) await policy.forTry!(n).decide(input);
    expect(llm.calls.map((c) => [c.options.temperature, c.options.seed])).toEqual([[0.8, 10], [0.8, 12]]);
    const fields = (p: typeof policy) => attemptSetup({ policy: p, maxSteps: 5, baseUrl: 'http://x' }).fields;
    expect(fields(policy.forTry!(3))).toMatchObject({ sampling_temperature: 0.8, sampling_seed: 12 });
    expect(Object.keys(fields(qwenPolicy({ llm })))).toEqual(['policy', 'model', 'max_steps', 'site_prefix']);
    expect(() => qwenPolicy({ llm, temperature: -1 })).toThrow(/temperature/);
    expect(() => qwenPolicy({ llm, seed: 1.5 })).toThrow(/seed/);
  });

  it("the stand-in agent draws per task and try: try 1 is the stand-in's own, later tries fail on their own draws", async () => {
    const base = oraclePolicy({ failureRate: 0.5, seed: 1 });
    expect(base.sampling).toBeUndefined();
    expect(base.forTry!(2).sampling).toEqual({ try: 2 });
    // over the site's bank of tasks, tries 1 and 2 deviate on different tasks
    const tasks = defaultCatalog().tasks('shop-01')!.bank.slice(0, 40);
    expect(tasks.length).toBeGreaterThan(10);
    const replies = async (n: number) => Promise.all(tasks.map(async (t) => (await (n === 1 ? base : base.forTry!(n)).decide({ ...input, task: t })).text));
    const [one, again, two] = [await replies(1), await replies(1), await replies(2)];
    expect(again).toEqual(one);
    expect(two).not.toEqual(one);
    expect(await Promise.all(tasks.map(async (t) => (await oraclePolicy({ failureRate: 0.5, seed: 1, try: 1 }).decide({ ...input, task: t })).text))).toEqual(one);
  });
});
