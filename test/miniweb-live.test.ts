/**
 * The library against a real MiniWeb (`sparklabutah/MiniWeb`), run when `MINIWEB_URL` and `MINIWEB_DB` are set (one
 * worker, `MINIWEB_DB` the file it runs on); skipped otherwise. The same flows as test/miniweb-evidence.test.ts and
 * test/crawl-session.test.ts, checked against MiniWeb's own record: at each session's reset (`POST /_reset_data`) a
 * fetch wrapper takes an independent snapshot of the session's `session_overlay` rows (better-sqlite3, read only) and
 * of its `/_admin/log`, and every episode's recorded changes and log must equal them. Ids and names come from the
 * pages and the database, never from our fake's data. One browser and one evidence provider for the suite.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserHost, crawlSite, gradeMiniwebVerifier, judgePrompt, miniwebCrawlSession, miniwebEvidence, runAttempt, scriptedPolicy,
  type BrowserHost, type EvidenceProvider, type PolicyInput, type Task,
} from 'miniweb-taskgen';
import { overlaySessionId } from '../src/miniweb/cookie';
import { loggedOutSites } from '../src/sites/crawl-session';
import { runPython } from './helpers/python';
import { tempDir } from './helpers/runs';
import { homeTask, stepErrors, wanderPolicy } from './helpers/wander';

const URL_ = process.env.MINIWEB_URL ?? '';
const DB = process.env.MINIWEB_DB ?? '';
type Row = Record<string, unknown>;
type Step = { click: { index: number } } | { type: { index: number; text: string } } | { select: { index: number; option: string } } | { goto: { path: string } } | { done: { answer?: string } };

/** What MiniWeb held for a session the moment it was reset. */
interface Snapshot {
  readonly overlay: Array<{ site: string; collection: string; item_id: string; op: string; data: string | null }>;
  readonly replaced: Array<{ site: string; collection: string }>;
  readonly log: Row[];
}
const snapshots = new Map<string, Snapshot>();
const sessionOf = (cookieHeader: string): { value: string; sid: string | null } => {
  const value = /(?:^|;\s*)session=([^;]*)/.exec(cookieHeader)?.[1] ?? '';
  return { value, sid: value ? overlaySessionId(value) : null };
};
const withDb = <T>(f: (db: Database.Database) => T): T => {
  const db = new Database(DB, { readonly: true, fileMustExist: true });
  try {
    return f(db);
  } finally {
    db.close();
  }
};

/** The fetch given to the provider and the crawl's reset: on `POST /_reset_data`, snapshots the session first. */
const snapshotFetch: typeof globalThis.fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.pathname === '/_reset_data' && (init?.method ?? 'GET').toUpperCase() === 'POST') {
    const { value, sid } = sessionOf(new Headers(init?.headers).get('cookie') ?? '');
    if (sid) {
      const held = withDb((db) => ({
        overlay: db.prepare('SELECT site, collection, item_id, op, data FROM session_overlay WHERE session_id = ? ORDER BY rowid').all(sid) as Snapshot['overlay'],
        replaced: db.prepare('SELECT site, collection FROM session_collection_replaced WHERE session_id = ?').all(sid) as Snapshot['replaced'],
      }));
      const log = (await (await fetch(`${URL_}/_admin/log`, { headers: { cookie: `session=${value}` } })).json()) as { entries: Row[] };
      snapshots.set(sid, { ...held, log: log.entries });
    }
  }
  return fetch(input, init);
};

// ---- the overlay read on its own (not the library's reader): each row against its base row
const parse = (v: unknown): unknown => {
  if (typeof v !== 'string' || v.length < 2 || !((v[0] === '[' && v.endsWith(']')) || (v[0] === '{' && v.endsWith('}')))) return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
};
const same = (a: unknown, b: unknown): boolean => {
  const x = parse(a);
  const y = parse(b);
  if (typeof x === 'object' && x !== null && typeof y === 'object' && y !== null) return JSON.stringify(x) === JSON.stringify(y);
  const n = (v: unknown) => (v === true ? 1 : v === false ? 0 : v);
  return String(n(x)) === String(n(y));
};
/** `site/collection/key op` of every change the overlay holds for the session, sorted. */
function overlayChanges(snap: Snapshot): string[] {
  return withDb((db) => {
    const reg = (site: string, coll: string) => db.prepare('SELECT table_name AS t, pk_column AS pk FROM site_registry WHERE site = ? AND collection = ?').get(site, coll) as { t: string; pk: string };
    const base = (site: string, coll: string, id: string) => {
      const { t, pk } = reg(site, coll);
      return db.prepare(`SELECT * FROM [${t}] WHERE CAST([${pk}] AS TEXT) = ?`).get(id) as Row | undefined;
    };
    const out: string[] = [];
    for (const r of snap.overlay) {
      const before = base(r.site, r.collection, r.item_id);
      const after = r.data === null ? null : (JSON.parse(r.data) as Row);
      const op = r.op === 'delete' ? (before ? 'delete' : null) : !before ? 'create' : Object.keys(after!).some((k) => !same(before[k], after![k])) ? 'update' : null;
      if (op) out.push(`${r.site}/${r.collection}/${r.item_id} ${op}`);
    }
    for (const { site, collection } of snap.replaced) {
      const { t, pk } = reg(site, collection);
      const kept = new Set(snap.overlay.filter((o) => o.site === site && o.collection === collection).map((o) => o.item_id));
      for (const b of db.prepare(`SELECT CAST([${pk}] AS TEXT) AS id FROM [${t}]`).all() as Array<{ id: string }>) if (!kept.has(b.id)) out.push(`${site}/${collection}/${b.id} delete`);
    }
    return out.sort();
  });
}
/** The same for the episode's recorded changes (the item key from the registry's key column). */
function recordedChanges(changes: Row[]): string[] {
  return withDb((db) =>
    changes.map((c) => {
      const { pk } = db.prepare('SELECT pk_column AS pk FROM site_registry WHERE site = ? AND collection = ?').get(c.site, c.collection) as { pk: string };
      return `${String(c.site)}/${String(c.collection)}/${String(((c.after ?? c.before) as Row)[pk])} ${String(c.op)}`;
    }).sort(),
  );
}

// ---- the scripted episodes: elements found by role and name on the page the agent sees
function el(input: PolicyInput, role: string, name: RegExp): number {
  const e = input.observation.elements.find((x) => x.role === role && name.test(x.name));
  if (!e) throw new Error(`step ${input.step}: no ${role} ${name} on ${input.observation.url}: ${input.observation.elements.map((x) => `${x.role} "${x.name}"`).join(', ').slice(0, 600)}`);
  return e.index;
}
const option = (input: PolicyInput, name: RegExp, want: RegExp): string => {
  const e = input.observation.elements.find((x) => x.role === 'combobox' && name.test(x.name));
  const o = e?.options?.find((x) => want.test(x));
  if (!o) throw new Error(`step ${input.step}: no option ${want} in ${name}: ${JSON.stringify(e?.options)}`);
  return o;
};
const codes = new Map<string, string>();
const readCode = (input: PolicyInput): Step => {
  codes.set(input.task.task_id, /Verification Code: (\d{6})/.exec(input.observation.text)?.[1] ?? 'no code');
  return { goto: { path: '/verify-payment' } };
};
const typeCode = (input: PolicyInput): Step => ({ type: { index: input.observation.elements.find((e) => e.role === 'textbox')!.index, text: codes.get(input.task.task_id)! } });
const verify = (i: PolicyInput): Step => ({ click: { index: el(i, 'button', /verify/i) } });

let community = '';
let products: number[] = [];
const purchase = (extra: boolean): Array<(input: PolicyInput) => Step> => [
  () => ({ goto: { path: `/sites/e-commerce/product/${products[0]}` } }),
  (i) => ({ click: { index: el(i, 'button', /add to cart/i) } }),
  () => ({ goto: { path: '/sites/e-commerce/checkout' } }),
  (i) => ({ type: { index: el(i, 'textbox', /street/i), text: '12 Elm St' } }),
  (i) => ({ type: { index: el(i, 'textbox', /city/i), text: 'Provo' } }),
  (i) => ({ type: { index: el(i, 'textbox', /zip/i), text: '84601' } }),
  (i) => ({ click: { index: el(i, 'button', /place your order/i) } }),
  () => ({ goto: { path: '/sites/email/' } }),
  readCode,
  typeCode,
  verify,
  ...(extra ? [() => ({ goto: { path: `/sites/e-commerce/product/${products[1]}` } }) as Step, (i: PolicyInput) => ({ click: { index: el(i, 'button', /add to cart/i) } }) as Step] : []),
  () => ({ done: { answer: 'bought it' } }),
];
const SCRIPTS: Record<string, Array<(input: PolicyInput) => Step>> = {
  'live-forums-vote-post': [
    (i) => ({ click: { index: el(i, 'button', /upvote/i) } }),
    (i) => ({ click: { index: el(i, 'link', /^create post$/i) } }),
    (i) => ({ select: { index: el(i, 'combobox', /community/i), option: option(i, /community/i, new RegExp(community)) } }),
    (i) => ({ type: { index: el(i, 'textbox', /^title$/i), text: 'Live probe post' } }),
    (i) => ({ type: { index: el(i, 'textbox', /^body/i), text: 'Created by the attempt step' } }),
    (i) => ({ click: { index: el(i, 'button', /^post$/i) } }),
    () => ({ done: { answer: 'upvoted and posted' } }),
  ],
  'live-forums-nothing': [() => ({ done: { answer: 'done' } })],
  'live-banking-transfer-reveal': [
    () => ({ goto: { path: '/sites/banking/transfer' } }),
    (i) => ({ select: { index: el(i, 'combobox', /from account/i), option: option(i, /from account/i, /checking/i) } }),
    (i) => ({ select: { index: el(i, 'combobox', /to account/i), option: option(i, /to account/i, /savings/i) } }),
    (i) => ({ type: { index: el(i, 'spinbutton', /amount/i), text: '100' } }),
    (i) => ({ click: { index: el(i, 'button', /transfer funds/i) } }),
    () => ({ goto: { path: '/sites/banking/accounts' } }),
    (i) => ({ click: { index: el(i, 'button', /reveal account numbers/i) } }),
    () => ({ goto: { path: '/sites/email/' } }),
    readCode,
    typeCode,
    verify,
    () => ({ done: { answer: 'transferred and revealed' } }),
  ],
  'live-shop-purchase': purchase(false),
  'live-shop-purchase-extra': purchase(true),
};

function task(id: string, site: string, instruction: string, verifier: Task['verifier'] = null): Task {
  return { kind: 'human', task_id: id, site, sites: [site], macro: 'human', macros: [], instruction, start_path: `/sites/${site}/`, task_kind: 'action', verifier };
}

describe.skipIf(!process.env.MINIWEB_URL || !process.env.MINIWEB_DB)('the library on a real MiniWeb (MINIWEB_URL, MINIWEB_DB)', () => {
  let host: BrowserHost;
  let evidence: ReturnType<typeof miniwebEvidence>;
  const sidOf = new Map<string, string>();
  let tracked: EvidenceProvider;
  let out: string;
  let orderName = '';
  let price = 0;
  beforeAll(async () => {
    withDb((db) => {
      community = String((db.prepare('SELECT subreddit FROM forums_posts ORDER BY score DESC LIMIT 1').get() as Row).subreddit);
    });
    // e-commerce numbers its products in name order: the first two ids of the home page's links, their rows by that order
    const home = await (await fetch(`${URL_}/sites/e-commerce/`)).text();
    products = [...new Set([...home.matchAll(/\/sites\/e-commerce\/product\/(\d+)/g)].map((m) => Number(m[1])))].slice(0, 2);
    const byName = withDb((db) => db.prepare('SELECT name, pricing FROM e_commerce_products ORDER BY lower(trim(name))').all() as Array<{ name: string; pricing: string }>);
    orderName = byName[products[0]! - 1]!.name.trim();
    price = Number(/\$(\d+(?:\.\d{1,2})?)/.exec(byName[products[0]! - 1]!.pricing)![1]);
    host = browserHost();
    evidence = miniwebEvidence({ url: URL_, database: DB, fetch: snapshotFetch });
    // the provider, noting each episode's session id (its cookie) by task
    tracked = {
      ...evidence,
      check: (input) => evidence.check!(input),
      async open(o) {
        const s = await evidence.open(o);
        sidOf.set(o.taskId, overlaySessionId(s.cookies[0]!.value)!);
        return s;
      },
    };
    out = await tempDir('miniweb-live-');
    // MiniWeb keeps a user's orders in its users row (a JSON list): the finished purchase is the bank's debit of the
    // item's price (standard shipping is free), the order saved in the user's row the change it allows besides
    const shopOrder = {
      state: [{ table: 'transactions', where: { description: 'MiniWeb Store', type: 'debit', status: 'posted' }, values: { amount: price } }],
      allow: [{ table: 'users', op: 'update', where: { id: 1 }, fields: ['orders'] }],
    };
    await runAttempt({
      tasks: [
        task('live-forums-vote-post', 'forums', 'Upvote the top post and create a post.'),
        task('live-forums-nothing', 'forums', 'Upvote the top post.'),
        task('live-banking-transfer-reveal', 'banking', 'Move $100 from checking to savings, then show the full account numbers.'),
        task('live-shop-purchase', 'e-commerce', `Buy one ${orderName}.`, shopOrder),
        task('live-shop-purchase-extra', 'e-commerce', `Buy one ${orderName}.`, shopOrder),
      ],
      policy: scriptedPolicy((input) => SCRIPTS[input.task.task_id]![input.step]!(input), { name: 'miniweb-live-script' }),
      source: { baseUrl: URL_ },
      evidence: tracked,
      browser: host,
      out,
      concurrency: 1,
    });
  }, 600_000);
  afterAll(async () => {
    evidence?.close();
    await host?.close();
  });

  const read = async (id: string, file: string) => JSON.parse(await readFile(path.join(out, id, file), 'utf8')) as Row;
  const snapOf = (id: string): Snapshot => {
    const snap = snapshots.get(sidOf.get(id) ?? '');
    if (!snap) throw new Error(`no snapshot of ${id}'s session ${sidOf.get(id)}`);
    return snap;
  };
  const report = (line: string) => process.stdout.write(`[miniweb-live] ${line}\n`);

  it('a. vote-and-post on forums: the recorded changes are exactly the overlay\'s at the reset, the log is MiniWeb\'s, the judge prompt lists them as the seed formats them', async () => {
    const inputs = await read('live-forums-vote-post', 'grade_inputs.json');
    const changes = inputs.changes as Row[];
    const snap = snapOf('live-forums-vote-post');
    report(`forums vote+post: ${changes.length} changes ${JSON.stringify(recordedChanges(changes))}; overlay rows ${snap.overlay.length}, replaced ${JSON.stringify(snap.replaced)}`);
    expect(recordedChanges(changes)).toEqual(overlayChanges(snap));
    expect(changes.map((c) => [c.collection, c.op])).toEqual([['posts', 'update'], ['posts', 'create']]);
    expect(changes[0]!.changed).toEqual({ score: [expect.any(Number), expect.any(Number)] });
    expect(changes[1]!.after).toMatchObject({ title: 'Live probe post', subreddit: community });
    const log = inputs.log as Row[];
    const theirs = snap.log.map((e) => ({ method: e.method, path: e.path, query: e.query ?? {}, body: e.body ?? null, status: e.status, ...(e.response === undefined ? {} : { response: e.response }) }));
    report(`forums vote+post: log ${log.length} entries, MiniWeb's ${theirs.length}`);
    expect(log).toEqual(theirs);
    expect(log.filter((e) => e.method === 'POST').map((e) => String(e.path).replace(/\/api\/posts\/[^/]+\//, '/api/posts/ID/'))).toEqual(['/sites/forums/api/posts/ID/vote', '/sites/forums/submit']);
    const seedChanges = runPython<string>('import seed_bridge as b\nemit(b.seed._fmt_changes(INPUT))', changes);
    expect(judgePrompt('Upvote the top post and create a post.', inputs)).toContain(`DATA CHANGES OF THE SESSION:\n${seedChanges}\n`);
    expect(seedChanges).toContain('Live probe post');
  });

  it('b. no errors the agent did not cause; site_record.json holds the recorder\'s actions: action_included passes on the vote, fails on nothing', async () => {
    for (const id of ['live-forums-vote-post', 'live-forums-nothing', 'live-banking-transfer-reveal', 'live-shop-purchase', 'live-shop-purchase-extra']) {
      const steps = (await read(id, 'agent_steps.json')).steps as Array<{ step: number; error: string | null }>;
      const episode = await read(id, 'episode.json');
      report(`${id}: ${steps.length} steps, errors ${JSON.stringify(stepErrors(steps))}, page_posts ${String(episode.page_posts)}, page_blocked ${JSON.stringify(episode.page_blocked ?? null)}`);
      expect(stepErrors(steps), id).toEqual([]);
      if (id !== 'live-forums-nothing') expect(episode.page_posts as number, id).toBeGreaterThan(0);
    }
    const verifier = { task_id: 'live-vote', macros: { vote: { op: 'AND', checks: [{ type: 'action_included', action: 'click', target: 'upvote' }] } } };
    const grade = async (id: string) => {
      const inputs = await read(id, 'grade_inputs.json');
      const record = await read(id, 'site_record.json');
      report(`${id}: site_record ${(record.records as unknown[]).length} records, ${(record.beacons as unknown[]).length} beacons`);
      return gradeMiniwebVerifier(verifier, {
        answer: 'done', question: 'Upvote the top post.', log: inputs.log as never, urls: [], lastPageText: null,
        records: record.records as unknown[], beacons: record.beacons as unknown[], reasoning: null,
      });
    };
    expect((await grade('live-forums-vote-post')).ok).toBe(true);
    expect((await grade('live-forums-nothing')).ok).toBe(false);
  });

  it('c. the banking transfer and reveal as the overlay holds them, the replaced collection\'s delete included', async () => {
    const changes = (await read('live-banking-transfer-reveal', 'grade_inputs.json')).changes as Row[];
    const snap = snapOf('live-banking-transfer-reveal');
    report(`banking: ${changes.length} changes ${JSON.stringify(recordedChanges(changes))}; replaced ${JSON.stringify(snap.replaced)}`);
    expect(recordedChanges(changes)).toEqual(overlayChanges(snap));
    const shape = changes.map((c) => `${String(c.op)} ${String(c.site)}/${String(c.collection)}`).sort();
    expect(shape).toEqual(expect.arrayContaining(['update banking/accounts', 'create email/sent_messages', 'delete banking/accounts']));
    const deleted = changes.find((c) => c.op === 'delete' && c.collection === 'accounts')!;
    expect(Number((deleted.before as Row).user_id)).not.toBe(1);
    expect(changes.find((c) => c.site === 'email')!.after).toMatchObject({ from_addr: 'security@miniweb.local', subject: expect.stringMatching(/^Verification Code: \d{6}$/) });
  });

  it('d. a purchase with a code on e-commerce is rewarded; the same episode with one more add to cart is not', async () => {
    const results = (await readFile(path.join(out, 'results.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { task_id: string; ok: boolean });
    const ok = Object.fromEntries(results.filter((r) => r.task_id.startsWith('live-shop')).map((r) => [r.task_id, r.ok]));
    for (const id of ['live-shop-purchase', 'live-shop-purchase-extra']) {
      const changes = (await read(id, 'grade_inputs.json')).changes as Row[];
      const checks = (await read(id, 'episode.json')).checks as Array<{ check: string; ok: boolean; detail: string }>;
      report(`${id}: debit ${JSON.stringify(changes.find((c) => c.collection === 'transactions')?.after)}`);
      report(`${id}: ok ${String(ok[id])}, ${changes.length} changes ${JSON.stringify(recordedChanges(changes))}; checks ${JSON.stringify(checks.map((c) => [c.ok, c.detail]))}`);
      expect(recordedChanges(changes)).toEqual(overlayChanges(snapOf(id)));
    }
    expect(ok).toEqual({ 'live-shop-purchase': true, 'live-shop-purchase-extra': false });
    const extra = (await read('live-shop-purchase-extra', 'episode.json')).checks as Array<{ check: string; ok: boolean; detail: string }>;
    expect(extra.find((c) => /no change but/.test(c.check))).toMatchObject({ ok: false, detail: expect.stringMatching(/unrequested: update users/) });
  });

  for (const site of ['forums', 'banking']) {
    it(`e. crawlSite on ${site}: never requests a logout link, ends logged in, leaves no data change`, async () => {
      const seen: string[] = [];
      const recorded: typeof globalThis.fetch = async (input, init) => {
        seen.push(new URL(String(input)).pathname);
        return fetch(input, init);
      };
      const reset = miniwebCrawlSession({ baseUrl: URL_, fetch: snapshotFetch });
      let last = '';
      const sitemap = await crawlSite({ baseUrl: URL_, home: `/sites/${site}/`, fetch: recorded, session: { end: async (cookie) => { last = cookie; await reset.end?.(cookie); } } });
      const { sid } = sessionOf(last);
      const snap = snapshots.get(sid ?? '');
      const logout = seen.filter((p) => /logout|sign-?out/i.test(p)).length + (snap?.log.filter((e) => /logout|sign-?out/i.test(String(e.path))).length ?? 0);
      const left = withDb((db) => (db.prepare('SELECT COUNT(*) AS n FROM session_overlay WHERE session_id = ?').get(sid) as { n: number }).n);
      report(`crawl ${site}: ${sitemap.pages.length} pages, ${seen.length} requests, MiniWeb logged ${snap?.log.length}, ${logout} logout requests, ${snap?.overlay.length} overlay rows before the reset (${JSON.stringify(snap ? overlayChanges(snap) : null)}), ${left} after`);
      expect(sid).toBeTruthy();
      expect(snap).toBeDefined();
      expect(logout).toBe(0);
      expect(loggedOutSites(last)).toEqual([]);
      expect(left).toBe(0);
    }, 300_000);
  }

  it('f. 0 errors the agent did not cause over one episode on every MiniWeb site that renders; navigation outside the site refused', async () => {
    const portal = await (await fetch(`${URL_}/`)).text();
    const listed = [...new Set([...portal.matchAll(/\/sites\/([a-z0-9-]+)\//g)].map((m) => m[1]!))].sort();
    const sites: string[] = [];
    for (const site of listed) if ((await fetch(`${URL_}/sites/${site}/`)).status < 400) sites.push(site);
    const wander = await tempDir('miniweb-live-wander-');
    const run = await runAttempt({ tasks: sites.map(homeTask), policy: wanderPolicy(3), source: { baseUrl: URL_ }, evidence: tracked, browser: host, out: wander, concurrency: 2, stopAfterFailures: 0 });
    let steps = 0;
    let blocked = 0;
    let posts = 0;
    const errors: string[] = [];
    const missing: string[] = [];
    for (const site of sites) {
      const dir = path.join(wander, `wander-${site}`);
      const episode = JSON.parse(await readFile(path.join(dir, 'episode.json'), 'utf8').catch(() => 'null')) as Row | null;
      if (!episode || !(await readFile(path.join(dir, 'agent_steps.json'), 'utf8').catch(() => null))) {
        missing.push(`${site}: ${run.failures.find((f) => f.item === `wander-${site}`)?.message ?? 'not recorded'}`);
        continue;
      }
      const agent = (JSON.parse(await readFile(path.join(dir, 'agent_steps.json'), 'utf8')) as { steps: Array<{ step: number; error: string | null }> }).steps;
      steps += agent.length;
      for (const e of stepErrors(agent)) errors.push(`${site} step ${e.step}: ${e.error}`);
      blocked += (episode.page_blocked as { count: number } | undefined)?.count ?? 0;
      posts += (episode.page_posts as number | undefined) ?? 0;
    }
    report(`wander: ${listed.length} sites listed, ${sites.length} render, ${steps} steps, ${errors.length} errors, page_blocked ${blocked}, page_posts ${posts}, ${missing.length} not recorded`);
    for (const line of [...errors, ...missing]) report(`  ${line}`);
    expect(errors).toEqual([]);
    expect(missing).toEqual([]);
    const refused = await tempDir('miniweb-live-refused-');
    const escapes = scriptedPolicy([{ goto: { path: '/sites/email/' } }, { goto: { path: '/_admin/log' } }, { goto: { path: '/verify-payment' } }, { done: {} }]);
    await runAttempt({ tasks: [homeTask('forums')], policy: escapes, source: { baseUrl: URL_ }, evidence: tracked, browser: host, out: refused });
    const agent = (JSON.parse(await readFile(path.join(refused, 'wander-forums', 'agent_steps.json'), 'utf8')) as { steps: Array<{ error: string | null }> }).steps;
    expect(agent.slice(0, 3).map((s) => s.error)).toEqual([
      expect.stringMatching(/^goto "\/sites\/email\/" blocked/),
      expect.stringMatching(/^goto "\/_admin\/log" blocked/),
      expect.stringMatching(/^goto "\/verify-payment" blocked/),
    ]);
  }, 900_000);
});
