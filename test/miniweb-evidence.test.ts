/**
 * MiniWeb's own record as each episode's evidence, on a fake MiniWeb of our own (test/fakes/miniweb): the attempt
 * step in Chromium drives its sites, and `miniwebEvidence` reads its `/_admin/log` for the episode's cookie, its
 * session overlay in the SQLite file, its recorder's stream, and resets the session. One fake and one browser for the
 * suite.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHost, connectEnv, fakeLLM, judgePrompt, miniwebEvidence, runAttempt, runPipeline, scriptedPolicy, serveEnv, type BrowserHost, type PolicyInput, type Task } from 'miniweb-taskgen';
import { startFakeMiniweb, type FakeMiniweb } from './fakes/miniweb/index';
import { runPython } from './helpers/python';
import { tempDir } from './helpers/runs';
import { homeTask, stepErrors, wanderPolicy } from './helpers/wander';

type Step = { click: { index: number } } | { type: { index: number; text: string } } | { select: { index: number; option: string } } | { goto: { path: string } } | { done: { answer?: string } };

// The element of the observation with this role whose name matches.
function el(input: PolicyInput, role: string, name: RegExp): number {
  const e = input.observation.elements.find((x) => x.role === role && name.test(x.name));
  if (!e) throw new Error(`step ${input.step}: no ${role} ${name} on ${input.observation.url}`);
  return e.index;
}

// The code mailed to the inbox, as the agent reads it on /sites/email/, kept per task for the code form.
const codes = new Map<string, string>();
const readCode = (input: PolicyInput): Step => {
  codes.set(input.task.task_id, /Verification Code: (\d{6})/.exec(input.observation.text)?.[1] ?? 'no code');
  return { goto: { path: '/verify-payment' } };
};
const typeCode = (input: PolicyInput): Step => ({ type: { index: el(input, 'textbox', /verification code/i), text: codes.get(input.task.task_id)! } });

const SCRIPTS: Record<string, Array<(input: PolicyInput) => Step>> = {
  'mw-forums-vote-post': [
    (i) => ({ click: { index: el(i, 'button', /upvote/i) } }),
    (i) => ({ click: { index: el(i, 'link', /^create post$/i) } }),
    (i) => ({ select: { index: el(i, 'combobox', /community/i), option: 'r/boardgames' } }),
    (i) => ({ type: { index: el(i, 'textbox', /^title$/i), text: 'Evidence probe post' } }),
    (i) => ({ type: { index: el(i, 'textbox', /^body/i), text: 'Created by the attempt step' } }),
    (i) => ({ click: { index: el(i, 'button', /^post$/i) } }),
    () => ({ done: { answer: 'upvoted and posted' } }),
  ],
  'mw-banking-transfer-reveal': [
    () => ({ goto: { path: '/sites/banking/transfer' } }),
    (i) => ({ select: { index: el(i, 'combobox', /from account/i), option: i.observation.elements.find((e) => /from account/i.test(e.name))!.options!.find((o) => /checking/i.test(o))! } }),
    (i) => ({ select: { index: el(i, 'combobox', /to account/i), option: i.observation.elements.find((e) => /to account/i.test(e.name))!.options!.find((o) => /savings/i.test(o))! } }),
    (i) => ({ type: { index: el(i, 'textbox', /amount/i), text: '100' } }),
    (i) => ({ click: { index: el(i, 'button', /^transfer$/i) } }),
    (i) => ({ click: { index: el(i, 'button', /reveal account numbers/i) } }),
    () => ({ goto: { path: '/sites/email/' } }),
    readCode,
    typeCode,
    (i) => ({ click: { index: el(i, 'button', /verify/i) } }),
    () => ({ done: { answer: 'transferred and revealed' } }),
  ],
  'mw-shop-purchase': purchase(false),
  'mw-shop-purchase-extra': purchase(true),
};

function purchase(extraWrite: boolean): Array<(input: PolicyInput) => Step> {
  return [
    () => ({ goto: { path: '/sites/e-commerce/product/1' } }),
    (i) => ({ click: { index: el(i, 'button', /add to cart/i) } }),
    () => ({ goto: { path: '/sites/e-commerce/cart' } }),
    (i) => ({ click: { index: el(i, 'button', /checkout/i) } }),
    () => ({ goto: { path: '/sites/email/' } }),
    readCode,
    typeCode,
    (i) => ({ click: { index: el(i, 'button', /verify/i) } }),
    ...(extraWrite ? [() => ({ goto: { path: '/sites/e-commerce/product/2' } }) as Step, (i: PolicyInput) => ({ click: { index: el(i, 'button', /add to cart/i) } }) as Step] : []),
    () => ({ done: { answer: 'bought the bottle' } }),
  ];
}

const scripted = scriptedPolicy((input) => SCRIPTS[input.task.task_id]![input.step]!(input), { name: 'miniweb-script' });

function task(id: string, site: string, instruction: string, verifier: Task['verifier'] = null): Task {
  return { kind: 'human', task_id: id, site, sites: [site], macro: 'human', macros: [], instruction, start_path: `/sites/${site}/`, task_kind: 'action', verifier };
}

const BOTTLE_ORDER = { state: [{ table: 'orders', where: { status: 'processing' }, values: { total: 18.99 } }] };

describe('MiniWeb evidence (a fake MiniWeb, Chromium)', () => {
  let fake: FakeMiniweb;
  let host: BrowserHost;
  let evidence: ReturnType<typeof miniwebEvidence>;
  let out: string;
  beforeAll(async () => {
    fake = await startFakeMiniweb({ dir: await tempDir('fake-miniweb-') });
    host = browserHost();
    evidence = miniwebEvidence({ url: fake.url, database: fake.database });
    out = await tempDir('miniweb-run-');
    await runAttempt({
      tasks: [
        task('mw-forums-vote-post', 'forums', 'Upvote the top post and post "Evidence probe post" in r/boardgames.'),
        task('mw-banking-transfer-reveal', 'banking', 'Move $100 from checking to savings, then show the full account numbers.'),
        task('mw-shop-purchase', 'e-commerce', 'Buy one Trail Water Bottle 1L.', BOTTLE_ORDER),
        task('mw-shop-purchase-extra', 'e-commerce', 'Buy one Trail Water Bottle 1L.', BOTTLE_ORDER),
      ],
      policy: scripted,
      source: { baseUrl: fake.url },
      evidence,
      browser: host,
      out,
      concurrency: 2,
    });
  });
  afterAll(async () => {
    evidence?.close();
    await host?.close();
    await fake?.close();
  });

  const read = async (id: string, file: string) => JSON.parse(await readFile(path.join(out, id, file), 'utf8')) as Record<string, unknown>;

  it('the vote-and-post episode records exactly the changes the overlay held, and its judge prompt lists them as the seed formats them', async () => {
    const inputs = await read('mw-forums-vote-post', 'grade_inputs.json');
    const changes = inputs.changes as Array<Record<string, unknown>>;
    expect(changes.map((c) => [c.site, c.collection, c.op])).toEqual([['forums', 'posts', 'update'], ['forums', 'posts', 'create']]);
    expect(changes[0]!.changed).toEqual({ score: [30, 31] });
    expect((changes[0]!.before as { tags: unknown }).tags).toEqual(['boardgames', 'co-op']); // a JSON column read as MiniWeb reads it
    expect(changes[1]!.after).toMatchObject({ id: 'rd_post_004', title: 'Evidence probe post', subreddit: 'boardgames', author: 'user1', score: 1 });
    const log = inputs.log as Array<{ method: string; path: string; body: unknown; status: number; response?: unknown }>;
    expect(log.filter((e) => e.method === 'POST').map((e) => [e.path, e.status])).toEqual([['/sites/forums/api/posts/3/vote', 200], ['/sites/forums/submit', 302]]);
    expect(log.find((e) => e.path.endsWith('/vote'))).toMatchObject({ body: { direction: 'up' }, response: { score: 31, user_vote: 'up' } });
    const prompt = judgePrompt('Upvote the top post.', inputs);
    const seedChanges = runPython<string>('import seed_bridge as b\nemit(b.seed._fmt_changes(INPUT))', changes);
    expect(seedChanges).toContain('update posts (Our group’s favourite co-op games): {"score": [30, 31]}');
    expect(prompt).toContain(`DATA CHANGES OF THE SESSION:\n${seedChanges}\n`);
  });

  it('tells the agent nothing of what the pages did by themselves; their recorder posts reached MiniWeb, counted in episode.json', async () => {
    for (const id of ['mw-forums-vote-post', 'mw-banking-transfer-reveal', 'mw-shop-purchase']) {
      const steps = (await read(id, 'agent_steps.json')).steps as Array<{ step: number; error: string | null }>;
      expect(stepErrors(steps), id).toEqual([]);
      const episode = await read(id, 'episode.json');
      expect(episode.page_posts as number, id).toBeGreaterThan(0);
      expect(episode.blocked, id).toEqual([]);
    }
    const record = await read('mw-forums-vote-post', 'site_record.json');
    const actions = (record.records as Array<{ type: string; action?: string; target?: string }>).filter((r) => r.type === 'action');
    expect(actions.some((a) => a.action === 'click' && /upvote/i.test(a.target ?? ''))).toBe(true);
    expect((record.beacons as unknown[]).length).toBeGreaterThan(0);
  });

  it('records the banking transfer and reveal as the overlay holds them: 2 balances, 2 transactions, the code mail, the replaced collection\'s delete', async () => {
    type Row = Record<string, unknown>;
    const changes = (await read('mw-banking-transfer-reveal', 'grade_inputs.json')).changes as Array<{ op: string; site: string; collection: string; before: Row | null; after: Row | null; changed: Row }>;
    const shape = changes.map((c) => `${c.op} ${c.site}/${c.collection} ${String((c.after ?? c.before)!.id)}`).sort();
    expect(shape).toEqual(['create banking/transactions 4', 'create banking/transactions 5', 'create email/sent_messages 30003', 'delete banking/accounts 3', 'update banking/accounts 1', 'update banking/accounts 2'].sort());
    expect(changes.find((c) => c.op === 'update' && c.after!.id === 1)!.changed).toEqual({ balance: [2450.75, 2350.75] });
    expect(changes.find((c) => c.op === 'delete')!.before).toMatchObject({ user_id: 2, account_number: 'CHK-552031' });
    expect(changes.find((c) => c.site === 'email')!.after).toMatchObject({ from_addr: 'security@miniweb.local', subject: expect.stringMatching(/^Verification Code: \d{6}$/) });
  });

  it('a purchase with a code on e-commerce is done and rewarded; the same episode with another write added is not', async () => {
    const results = (await readFile(path.join(out, 'results.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { task_id: string; ok: boolean });
    expect(Object.fromEntries(results.map((r) => [r.task_id, r.ok]))).toEqual({ 'mw-shop-purchase': true, 'mw-shop-purchase-extra': false });
    const honest = await read('mw-shop-purchase', 'episode.json');
    expect((honest.checks as Array<{ ok: boolean }>).every((c) => c.ok)).toBe(true);
    const extra = await read('mw-shop-purchase-extra', 'episode.json');
    const footprint = (extra.checks as Array<{ check: string; ok: boolean; detail: string }>).find((c) => /no change but/.test(c.check))!;
    expect(footprint).toMatchObject({ ok: false, detail: expect.stringMatching(/unrequested: create cart/) });
    const changes = (await read('mw-shop-purchase', 'grade_inputs.json')).changes as Array<Record<string, unknown>>;
    // the code mail at checkout, then the order once the code was entered: the order first seen
    expect(changes.map((c) => `${c.op} ${c.site}/${c.collection}`)).toEqual(['create email/sent_messages', 'create e-commerce/orders']);
  });

  it('the environment server on MiniWeb: the purchase with a code rewarded 1, the same with another write 0, an upvote graded by its verifier.json from the recorder', async () => {
    const vote = { macros: { vote: { op: 'AND', checks: [{ type: 'action_included', action: 'click', target: 'upvote' }] } } };
    const tasks = [
      task('mw-shop-purchase', 'e-commerce', 'Buy one Trail Water Bottle 1L.', BOTTLE_ORDER),
      task('mw-shop-purchase-extra', 'e-commerce', 'Buy one Trail Water Bottle 1L.', BOTTLE_ORDER),
      task('mw-env-vote', 'forums', 'Upvote the top post.', vote),
    ];
    const server = await serveEnv({ tasks, baseUrl: fake.url, evidence, out: await tempDir('miniweb-env-'), browser: host });
    const steps: Record<string, Array<(input: PolicyInput) => Step>> = { ...SCRIPTS, 'mw-env-vote': [(i) => ({ click: { index: el(i, 'button', /upvote/i) } }), () => ({ done: { answer: 'upvoted' } })] };
    try {
      const rewards: Record<string, unknown> = {};
      for (const t of tasks) {
        const client = await connectEnv(server.url);
        let r = await client.reset({ task_id: t.task_id });
        for (let step = 0; !r.done && step < steps[t.task_id]!.length; step++) {
          r = await client.step({ action: steps[t.task_id]![step]!({ task: t, step, observation: r.observation } as unknown as PolicyInput) });
        }
        rewards[t.task_id] = r.reward;
        await client.close();
      }
      expect(rewards).toEqual({ 'mw-shop-purchase': 1, 'mw-shop-purchase-extra': 0, 'mw-env-vote': 1 });
    } finally {
      await server.close();
    }
  });

  it("MiniWeb's annotated tasks through the pipeline's validate: action_included and request_made pass on the episode that voted and fail on the one that did not; a qa_answer decided by the judge model", async () => {
    const dir = await tempDir('miniweb-human-');
    const vote = { op: 'AND', checks: [{ type: 'action_included', action: 'click', target: 'upvote' }, { type: 'request_made', method: 'POST', url: '/api/posts/3/vote', body_contains: 'up' }] };
    const human: Record<string, { task: Record<string, unknown>; macros: Record<string, unknown> }> = {
      'hv-vote': { task: { instruction: 'Upvote the top post.', macros: ['vote'] }, macros: { vote } },
      'hv-vote-not': { task: { instruction: 'Upvote the top post.', macros: ['vote'] }, macros: { vote } },
      'hv-score': { task: { instruction: 'What is the score of the top post?', expected_answer: '30', macros: ['answer'] }, macros: { answer: { op: 'AND', checks: [{ type: 'qa_answer', expected: '30' }] } } },
    };
    for (const [id, { task: t, macros }] of Object.entries(human)) {
      await mkdir(path.join(dir, 'tasks', 'minh', id), { recursive: true });
      await writeFile(path.join(dir, 'tasks', 'minh', id, 'task.json'), JSON.stringify({ task_id: id, sites: ['forums'], starting_url: '/sites/forums/', ...t }));
      await writeFile(path.join(dir, 'tasks', 'minh', id, 'verifier.json'), JSON.stringify({ task_id: id, macros }));
    }
    const policy = scriptedPolicy((input) => {
      if (input.task.task_id === 'hv-vote' && input.step === 0) return { click: { index: el(input, 'button', /upvote/i) } };
      return { done: { answer: input.task.task_id === 'hv-score' ? 'thirty points' : 'done' } };
    });
    // the episodes' judge (a SUCCESS for each), and the same model deciding the qa_answer check
    const judge = fakeLLM({ replies: (call) => (call.prompt.includes('DATA CHANGES OF THE SESSION') ? '{"verdict": "SUCCESS"}' : '{"match": true, "why": "thirty points is the score 30"}') });
    const notUsed = async (): Promise<never> => { throw new Error('not used by validate'); };
    const summary = await runPipeline({
      dir: path.join(dir, 'work'),
      source: { baseUrl: fake.url, split: notUsed, sitemap: notUsed, fetchPage: notUsed },
      sites: ['forums'],
      only: ['validate'],
      humanTasks: path.join(dir, 'tasks'),
      policy,
      judge,
      evidence,
      browser: host,
    });
    expect(summary.complete, JSON.stringify(summary.incomplete)).toBe(true);
    const results = (await readFile(path.join(summary.layout.human, 'results.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { task_id: string; ok: boolean });
    expect(Object.fromEntries(results.map((r) => [r.task_id, r.ok]))).toEqual({ 'hv-score': true, 'hv-vote': true, 'hv-vote-not': false });
    const checksOf = async (id: string) => (JSON.parse(await readFile(path.join(summary.layout.human, id, 'episode.json'), 'utf8')) as { checks: Array<{ check: string; ok: boolean }> }).checks;
    const leaves = (checks: Array<{ check: string; ok: boolean }>) => checks.filter((c) => /action_included|request_made/.test(c.check)).map((c) => c.ok);
    expect(leaves(await checksOf('hv-vote'))).toEqual([true, true]);
    expect(leaves(await checksOf('hv-vote-not'))).toEqual([false, false]);
    const decided = JSON.parse(await readFile(path.join(summary.layout.human, 'hv-score', 'verifier_decisions.json'), 'utf8')) as Array<{ match: boolean }>;
    expect(decided).toEqual([expect.objectContaining({ match: true })]);
    // the judge against the verifiers: 3 SUCCESS verdicts, 2 of them right
    expect(summary.stages.validate!.score).toMatchObject({ episodes: 3, verifier_pass: 2, judge_pass: 3, tp: 2, fp: 1 });
    expect(judge.calls.filter((c) => !c.prompt.includes('DATA CHANGES OF THE SESSION'))).toHaveLength(1);
  });

  it('resets every session it used: no overlay rows are left', () => {
    const db = new Database(fake.database, { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) AS n FROM session_overlay').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('0 errors the agent did not cause over one episode on every MiniWeb site; navigation outside the site still refused', async () => {
    const wander = await tempDir('miniweb-wander-');
    const sites = ['banking', 'e-commerce', 'email', 'forums'];
    await runAttempt({ tasks: sites.map(homeTask), policy: wanderPolicy(3), source: { baseUrl: fake.url }, evidence, browser: host, out: wander, concurrency: 2 });
    for (const site of sites) {
      const steps = JSON.parse(await readFile(path.join(wander, `wander-${site}`, 'agent_steps.json'), 'utf8')) as { steps: Array<{ step: number; error: string | null }> };
      expect(stepErrors(steps.steps), site).toEqual([]);
    }
    const refused = await tempDir('miniweb-refused-');
    const escapes = scriptedPolicy([{ goto: { path: '/sites/email/' } }, { goto: { path: '/_admin/log' } }, { goto: { path: '/verify-payment' } }, { done: {} }]);
    await runAttempt({ tasks: [homeTask('forums')], policy: escapes, source: { baseUrl: fake.url }, evidence, browser: host, out: refused });
    const steps = JSON.parse(await readFile(path.join(refused, 'wander-forums', 'agent_steps.json'), 'utf8')) as { steps: Array<{ error: string | null }> };
    expect(steps.steps.slice(0, 3).map((s) => s.error)).toEqual([
      expect.stringMatching(/^goto "\/sites\/email\/" blocked/),
      expect.stringMatching(/^goto "\/_admin\/log" blocked/),
      expect.stringMatching(/^goto "\/verify-payment" blocked/),
    ]);
  });
});
