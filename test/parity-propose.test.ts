/**
 * The seed's `propose_site` and `cmd_propose` (through seed_bridge, its LLMClient scripted) against proposeSite and
 * runPropose with fakeLLM scripted with the same replies: every prompt, option, task and written byte.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SYSTEM_PROPOSE, fakeLLM, memorySource, nodeStore, proposePrompt, proposeSite, runPropose, type FakeReply, type ProposeEvent, type SiteContext } from '../src/index';
import { pyDumps } from '../src/core/py/dumps';
import { runPython } from './helpers/python';

type Reply = string | { raise: string };

const toFake = (replies: readonly Reply[]): FakeReply[] =>
  replies.map((r) => (typeof r === 'string' ? r : Object.assign(new Error(r.raise), { name: 'RuntimeError' })));
const tasksReply = (items: unknown[], bare = false) => JSON.stringify(bare ? items : { tasks: items });
const many = (prefix: string, count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => ({
    instruction: `${prefix} task number ${from + i}: find the 😀 item and report its price, then compare it with the others on the page`,
    kind: i % 3 ? 'action' : 'info',
  }));

const SHOP: SiteContext = {
  site: 'shop',
  name: 'Lamp Shop',
  home: '/sites/shop/',
  paths: ['/sites/shop/', '/sites/shop/lamps', '/sites/shop/cart', '/sites/shop/account', '/sites/shop/help', '/sites/shop/lamps/red'],
  text: 'PAGES\n/sites/shop/ Home\n\nCONTROLS BY PAGE\n/sites/shop/lamps: select \'Sort\' [{n}, {{x}}, $& $1]\n\nPAGE TEXT\n--- /sites/shop/\nRed lamp €12',
};
const MAIL: SiteContext = { site: 'mail', name: 'mail', home: '/sites/mail/', paths: ['/sites/mail/'], text: 'PAGES\n/sites/mail/ \n\nCONTROLS BY PAGE\n\n\nPAGE TEXT\n' };
const BIG: SiteContext = {
  site: 'big',
  name: 'Big Site',
  home: '/sites/big/',
  paths: ['/sites/big/', ...Array.from({ length: 30 }, (_, i) => `/sites/big/section/${i}`)],
  text: 'PAGES\n(many)',
};

const RUNS: Array<{ ctx: SiteContext; perSite: number; batch: number; seed: number; replies: Reply[] }> = [
  {
    ctx: SHOP,
    perSite: 12,
    batch: 5,
    seed: 20261008,
    replies: [
      tasksReply([
        { instruction: 'Find the price of the red lamp and report it', kind: 'info' },
        { instruction: 'Too short', kind: 'info' },
        { instruction: '  Find the PRICE of the red-lamp, and report it!  ', kind: 'info' },
        { instruction: "Book a table for two at Luigi's on Friday", kind: 'booking' },
        // eslint-disable-next-line no-loss-of-precision -- a float the seed's str() prints differently from JS
        { instruction: 12345678901234567, kind: 'action' },
        { kind: 'info' },
        { instruction: '\u3000\x85Añadir el artículo 😀 a mi carrito, por favor\x1c', kind: 'action' },
        { instruction: 'Short but ok?!!', kind: null },
      ]),
      'Sure! Here are some tasks: 1. Find the red lamp.',
      { raise: '503 the model is overloaded, please try again later '.repeat(4) },
      tasksReply(many('bare', 3), true),
      tasksReply(many('more', 10)),
    ],
  },
  {
    ctx: MAIL,
    perSite: 14,
    batch: 4,
    seed: 7,
    replies: [
      '',
      '{"tasks": null}',
      '{"tasks": {}}',
      '{"result": [{"instruction": "Archive every email from Bob in the inbox"}]}',
      '\n  {"tasks": 0}  \n',
      `{"tasks": [{"instruction": 1.0}, {"instruction": ["a list", "of strings ok"], "kind": "info"},
        {"instruction": "Report how many unread emails are in the inbox", "kind": NaN},
        {"instruction": "Send an email to Carol with the subject Lunch", "kind": "action", "extra": {"a": 1}},
        {"instruction": "Move the newest email to the Spam folder", "kind": "info"}]}`,
    ],
  },
  {
    ctx: BIG,
    perSite: 140,
    batch: 20,
    seed: 20261008,
    replies: [20, 13, 20, 7, 20, 20, 20, 17, 20].map((count, b) => tasksReply(many(`b${b}`, count))),
  },
  { ctx: BIG, perSite: 30, batch: 8, seed: 99, replies: [tasksReply(many('x', 5)), tasksReply(many('y', 9)), '[]', tasksReply(many('z', 9))] },
];

const PROPOSE_PY = `
import io, contextlib, json
import seed_bridge
out = []
for run in INPUT:
    seed_bridge.script(run["replies"])
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        tasks = seed_bridge.seed.propose_site(run["ctx"], run["perSite"], run["batch"], run["seed"])
    out.append({"tasks": tasks, "lines": [json.dumps(t, ensure_ascii=False) for t in tasks],
                "calls": list(seed_bridge.CALLS), "printed": buf.getvalue()})
emit(out)`;

interface PyRun {
  tasks: unknown[];
  lines: string[];
  calls: Array<{ model: string; temperature: number; prompt: string; system: string; json_mode: boolean; max_tokens: number }>;
  printed: string;
}

describe('proposePrompt and SYSTEM_PROPOSE match the seed', () => {
  it('formats byte for byte', () => {
    const input = { name: 'N {x}', home: '/h/', context: 'ctx {n} $& $1 {{', n: 17, nInfo: 7, nAct: 10, focus: 'F', avoid: 'A; B' };
    const py = runPython<{ system: string; prompt: string }>(
      `from seed_bridge import seed
i = INPUT
emit({"system": seed.SYSTEM_PROPOSE, "prompt": seed.PROMPT_PROPOSE.format(name=i["name"], home=i["home"], context=i["context"],
      n=i["n"], n_info=i["nInfo"], n_act=i["nAct"], focus=i["focus"], avoid=i["avoid"])})`,
      input,
    );
    expect(SYSTEM_PROPOSE).toBe(py.system);
    expect(proposePrompt(input)).toBe(py.prompt);
  });
});

describe('proposeSite matches the seed propose_site', () => {
  const py = runPython<PyRun[]>(PROPOSE_PY, RUNS);

  it.each(RUNS.map((run, i) => [i, run.ctx.site, run.seed, run] as const))('run %i: %s seed %i', async (i, _site, _seed, run) => {
    const llm = fakeLLM({ replies: toFake(run.replies) });
    const events: ProposeEvent[] = [];
    const tasks = await proposeSite(run.ctx, { llm, perSite: run.perSite, batch: run.batch, seed: run.seed, onEvent: (e) => events.push(e) });
    const ref = py[i]!;

    expect(llm.calls.map((c) => c.prompt)).toEqual(ref.calls.map((c) => c.prompt));
    for (const [k, call] of llm.calls.entries()) {
      const r = ref.calls[k]!;
      expect(call.options).toEqual({ system: r.system, json: r.json_mode, maxTokens: r.max_tokens, temperature: r.temperature });
    }
    expect(tasks).toEqual(ref.tasks);
    expect(tasks.map((t) => pyDumps(t, { ensureAscii: false }))).toEqual(ref.lines);
    const printed = events.flatMap((e) => (e.type === 'batch-failed' ? [`  ${e.site} batch ${e.batch}: ${e.reason}\n`] : []));
    expect(printed.join('')).toBe(ref.printed);
    expect(events.filter((e) => e.type === 'task-skipped')).toEqual([]);
  });

  it('the runs exercise what they should', () => {
    expect(py[0]!.printed).toContain('JSONDecodeError');
    expect(py[0]!.printed).toContain('RuntimeError');
    expect(py[2]!.tasks).toHaveLength(140);
    expect(py[2]!.calls.length).toBe(9);
    expect(py[1]!.calls.length).toBe(6);
    expect(py[1]!.tasks.length).toBe(4);
  });
});

describe('runPropose writes the file cmd_propose writes', () => {
  const SITEMAPS: Record<string, string> = {
    alpha: '{"name": "Alpha", "pages": [{"path": "/sites/alpha/", "title": "Home"}, {"path": "/sites/alpha/a"}, {"path": "/sites/alpha/b"}], "controls": {"2": {"kind": "button", "label": "Go", "page": "/sites/alpha/b"}, "1": {"kind": "link", "label": "A", "page": "/sites/alpha/a"}}}',
    beta: '{"pages": [{"path": "/sites/beta/"}], "controls": []}',
    gamma: '{"pages": [{"path": "/sites/gamma/"}, {"path": "/sites/gamma/x"}], "controls": [{"kind": "k", "page": "/sites/gamma/x"}]}',
  };
  const PAGES = { '/sites/alpha/': '<h1>Alpha</h1>', '/sites/alpha/b': '<p>B &amp; b</p>', '/sites/gamma/': '<p>G</p>' };
  const sites = ['gamma', 'alpha', 'beta'];
  // Positional replies (one worker on both sides, so calls come in the same order); beta gets only failures.
  const replies: Reply[] = [
    tasksReply(many('g', 4)), tasksReply(many('g2', 4)),
    tasksReply([...many('a', 3), { instruction: 'Ünïcödé tâsk wïth émojï 😀 and "quotes" and \\ backslash\n', kind: 'info' }]), tasksReply(many('a2', 5)),
    'not json', { raise: 'boom' }, '{"tasks": []}', 'still not json',
  ];

  it('same bytes, same printed lines', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'taskgen-propose-'));
    for (const [site, text] of Object.entries(SITEMAPS)) writeFileSync(path.join(dir, `${site}.json`), text);
    const pyOut = path.join(dir, 'py', 'tasks.jsonl');
    const printed = runPython<string>(
      `import io, contextlib, argparse, types
import seed_bridge
from pathlib import Path
seed_bridge.config.SITEMAP_DIR = Path(INPUT["dir"])
seed_bridge._module("miniweb")
seed_bridge._module("miniweb.app", create_app=lambda: types.SimpleNamespace(test_client=lambda: seed_bridge.PageClient(INPUT["pages"])))
seed_bridge.script(INPUT["replies"])
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    seed_bridge.seed.cmd_propose(argparse.Namespace(out=INPUT["out"], per_site=8, batch=4, sites=",".join(INPUT["sites"]), workers=1, seed=5))
emit(buf.getvalue())`,
      { dir, pages: PAGES, replies, out: pyOut, sites },
    );

    const ours = path.join(dir, 'ts', 'tasks.jsonl');
    const lines: string[] = [];
    const summary = await runPropose({
      sites, source: memorySource({ sitemaps: SITEMAPS, pages: PAGES }), llm: fakeLLM({ replies: toFake(replies) }),
      out: ours, perSite: 8, batch: 4, seed: 5, workers: 1, store: nodeStore(),
      onEvent: (e) => {
        if (e.type === 'start') lines.push(`proposing for ${e.sites.length} sites (${e.done.length} already done), 8 each`);
        if (e.type === 'batch-failed') lines.push(`  ${e.site} batch ${e.batch}: ${e.reason}`);
        if (e.type === 'site-done') lines.push(`  ${e.site}: ${e.tasks} tasks (${e.info} info)`);
      },
    });
    expect(readFileSync(ours, 'utf8')).toBe(readFileSync(pyOut, 'utf8'));
    // The seed's worker thread prints batch failures while its main thread prints finished sites: compare each kind
    // of line in order, not their interleaving.
    const kinds = (all: string[]) => [all.filter((l) => / batch \d+: /.test(l)), all.filter((l) => !/ batch \d+: /.test(l))];
    expect(kinds(lines)).toEqual(kinds(printed.split('\n').filter(Boolean)));
    expect(summary.sites.map((s) => s.site)).toEqual(sites);
    expect(summary.failedBatches).toBe(3);
  });
});
