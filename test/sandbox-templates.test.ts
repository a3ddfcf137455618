/**
 * Every bundled template, every site: the split, the tasks (counts, kinds, ids), every human task's oracle
 * passing its verifier on a fresh session while a do-nothing agent and a wrong answer fail, every crawled page
 * answering 200 with every sitemap control on it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteCatalog, TEMPLATES, normInstruction, sandboxEvidence, sandboxSource, startSandbox, type SandboxServer, type SandboxTask } from '../sandbox/index';
import { parse } from 'node-html-parser';
import { isPlainName } from '../src/index';
import { pageControls } from '../src/sites/crawl';
import { gradeOracle } from './helpers/sandbox';

let sandbox: SandboxServer;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox?.close();
});

const grade = (task: SandboxTask, oracle: SandboxTask['oracle'], answerOverride?: string) => gradeOracle(sandbox, task, oracle, answerOverride);

/** A near miss of the right answer: every digit shifted by one, every word spelled backwards. */
function perturb(answer: string): string {
  return answer.replace(/\d/g, (d) => String((Number(d) + 1) % 10)).replace(/[A-Za-z]+/g, (w) => [...w].reverse().join(''));
}

describe('the split', () => {
  it('lists 7 training sites and 1 held-out site per template, plain names, no overlap', () => {
    const split = sandbox.catalog.split();
    expect(split.train).toHaveLength(7 * TEMPLATES.length);
    expect(split.test).toHaveLength(TEMPLATES.length);
    for (const s of [...split.train, ...split.test]) expect(isPlainName(s)).toBe(true);
    expect(new Set([...split.train, ...split.test]).size).toBe(8 * TEMPLATES.length);
    expect(split.test.every((s) => s.endsWith('-08'))).toBe(true);
  });
});

for (const template of TEMPLATES) {
  describe(`template ${template.id}`, () => {
    const sites = Array.from({ length: 8 }, (_, i) => `${template.id}-0${i + 1}`);

    it('has, per site, >= 10 human tasks (>= 40% info) and a bank of >= 160 distinct tasks with verifiers and oracles', () => {
      const titles = new Set<string>();
      for (const site of sites) {
        const tasks = sandbox.catalog.tasks(site);
        expect(tasks, site).toBeDefined();
        const { human, bank } = tasks as NonNullable<typeof tasks>;
        titles.add(sandbox.catalog.site(site)?.info.title ?? '');
        expect(human.length, site).toBeGreaterThanOrEqual(10);
        expect(human.filter((t) => t.task_kind === 'info').length / human.length, site).toBeGreaterThanOrEqual(0.4);
        expect(new Set(bank.map((t) => normInstruction(t.instruction))).size, site).toBeGreaterThanOrEqual(160);
        for (const t of [...human, ...bank]) {
          expect(isPlainName(t.task_id), t.task_id).toBe(true);
          expect(t.start_path).toBe(`/sites/${site}/`);
          expect(t.verifier).toBeTruthy();
          expect(t.oracle.length).toBeGreaterThan(0);
        }
      }
      expect(titles.size, 'each variant has its own name').toBe(8);
    });

    it('builds the same data and tasks for a site every time (seeded)', async () => {
      const again = new SiteCatalog({ templates: [template] });
      const a = sandbox.catalog.tasks(sites[2] as string)?.bank.map((t) => [t.task_id, t.instruction, t.verifier]);
      const b = again.tasks(sites[2] as string)?.bank.map((t) => [t.task_id, t.instruction, t.verifier]);
      expect(b).toEqual(a);
    });

    it('passes every human oracle on a fresh session; a do-nothing agent fails every action task, a wrong answer every info task', async () => {
      const failures: string[] = [];
      for (const site of sites) {
        for (const task of sandbox.catalog.tasks(site)?.human ?? []) {
          const good = await grade(task, task.oracle);
          if (good.run.error || !good.result.ok) failures.push(`${task.task_id}: oracle ${good.run.error ?? JSON.stringify(good.result.checks.filter((c) => !c.ok))}`);
          const idle = await grade(task, [{ done: { answer: 'I could not find it.' } }]);
          if (idle.result.ok) failures.push(`${task.task_id}: passes without doing anything`);
          if (task.task_kind === 'info') {
            const wrong = await grade(task, task.oracle, perturb(good.run.answer ?? ''));
            if (wrong.result.ok) failures.push(`${task.task_id}: passes with a wrong answer`);
          }
        }
      }
      expect(failures).toEqual([]);
    });

    it('answers 200 on every crawled page and shows every sitemap control on its page', async () => {
      const source = sandboxSource({ url: sandbox.url });
      for (const site of [sites[0], sites[7]] as string[]) {
        const sitemap = await source.sitemap(site);
        expect(sitemap.name).toBe(sandbox.catalog.site(site)?.info.title);
        expect(sitemap.pages.length, site).toBeGreaterThanOrEqual(6);
        expect(sitemap.pages[0]?.path).toBe(`/sites/${site}/`);
        const controls = Array.isArray(sitemap.controls) ? sitemap.controls : Object.values(sitemap.controls);
        expect(controls.some((c) => c.kind === 'select' && (c.options?.length ?? 0) > 1), site).toBe(true);
        for (const page of sitemap.pages) {
          const r = await fetch(sandbox.url + (page.path ?? ''));
          expect(r.status, page.path ?? '').toBe(200);
          const onPage = pageControls(await r.text(), page.path ?? '').map((c) => JSON.stringify([c.kind, c.label, c.name]));
          for (const c of controls.filter((x) => x.page === page.path)) {
            expect(onPage, `${page.path}: ${c.kind} ${String(c.label)}`).toContain(JSON.stringify([c.kind, c.label, c.name]));
          }
        }
      }
    });

    it('never answers 500: every form of every crawled page submitted empty and with junk, every page with junk queries', async () => {
      const site = sites[0] as string;
      const sitemap = await sandboxSource({ url: sandbox.url }).sitemap(site);
      const session = await sandboxEvidence({ url: sandbox.url }).open({ site, taskId: 'fuzz', baseUrl: sandbox.url });
      const headers = { cookie: `${session.cookies[0]?.name}=${session.cookies[0]?.value}` };
      const junk = ['', '-1', '0', '1e309', '99999999999', "' OR 1=1 --", '<script>x</script>', '☃'.repeat(3000), '%00'];
      const statuses: number[] = [];
      const send = async (url: string, init: RequestInit = {}) => {
        const r = await fetch(url, { redirect: 'manual', ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
        // An address too long for Node's HTTP parser is refused (431) before any handler sees it, as real servers do.
        if (r.status !== 431) statuses.push(r.status);
        if (r.status >= 500) throw new Error(`${init.method ?? 'GET'} ${url} ${String(init.body ?? '').slice(0, 80)} -> ${r.status}`);
        return r.text();
      };
      for (const page of sitemap.pages.slice(0, 30)) {
        const url = new URL(sandbox.url + (page.path ?? ''));
        await send(`${url.href}?page=0&sort=%00&q=${encodeURIComponent('<b>')}&category=nope&status=nope&show=x&label=x&max_price=-5`);
        const root = parse(await send(url.href));
        for (const f of root.querySelectorAll('form')) {
          const action = new URL(f.getAttribute('action') ?? url.href, url);
          const names = [...new Set(f.querySelectorAll('[name]').map((e) => e.getAttribute('name') as string))];
          const post = (f.getAttribute('method') ?? 'get').toLowerCase() === 'post';
          for (const value of junk) {
            const body = new URLSearchParams(names.map((n): [string, string] => [n, value])).toString();
            if (post) await send(action.href, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
            else await send(`${action.origin}${action.pathname}?${body}`);
          }
          if (post) await send(action.href, { method: 'POST' });
        }
      }
      const { log } = await session.collect();
      expect(log.map((e) => e.status)).toEqual(statuses);
      expect(statuses.length).toBeGreaterThan(50);
    });
  });
}
