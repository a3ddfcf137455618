/**
 * One agent action, two ways, on the same sandbox pages in one run: the harness's (`performAction`: the page
 * readies the element, the input goes out through `page.mouse` / `page.keyboard`) and Playwright's element actions
 * (`ElementHandle.click()` / `fill()`, which build Playwright's injected script in each new document). Each action
 * comes on a freshly loaded page, as nearly every step of an episode does. Per way and kind (a click on a link of the
 * site, typing into a field): Chromium CPU ms (by process) and the harness's own CPU ms per action, from the input to
 * 300 ms after the page settled; and whether both ways ended in the same place (URL, field value).
 * Env: ROUNDS (default 12 per page per way).
 * @module
 */
import { browserHost } from '../src/index';
import { performAction } from '../src/browser/actions';
import { openEpisodePage } from '../src/browser/host';
import { observe } from '../src/browser/observe';
import { elementExpression } from '../src/browser/page-script';
import type { Action } from '../src/core/schemas';
import type { ObservedElement } from '../src/agent/types';
import { descendantsCpuByKind } from './proc-cpu';
import { startSandboxProcess } from './sandbox-process';

const ROUNDS = Number(process.env.ROUNDS ?? 12);
const SITES = ['shop-01', 'mail-01', 'forum-01', 'recipes-01'];
const CHROMIUM = /chrom|headless/i;
type Way = 'harness' | 'ElementHandle';
type Kind = 'click a link' | 'type into a field';

const { child, url } = await startSandboxProcess();
const host = browserHost();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const totals = new Map<string, { cpu: Map<string, number>; node: number; n: number }>();
const ends = new Map<string, string>();
let differ = 0;
let compared = 0;
try {
  for (const site of SITES) {
    const prefix = `/sites/${site}/`;
    const ep = await openEpisodePage(host, { origin: url, prefix });
    try {
      for (let r = 0; r < ROUNDS; r++) {
        for (const way of (r % 2 ? ['ElementHandle', 'harness'] : ['harness', 'ElementHandle']) as Way[]) {
          for (const kind of ['click a link', 'type into a field'] as Kind[]) {
            await ep.page.goto(url + prefix, { waitUntil: 'load' });
            const { elements } = await observe(ep.page, { step: 0 });
            const target = pick(elements, kind, prefix, r);
            if (!target) continue;
            const action: Action = kind === 'click a link' ? { click: { index: target.index } } : { type: { index: target.index, text: `word ${r}` } };
            await pause(300);
            const cpu0 = descendantsCpuByKind(process.pid, { name: CHROMIUM });
            const node0 = process.cpuUsage();
            if (way === 'harness') {
              await performAction(action, { watch: ep.watch, origin: url, prefix, elements });
            } else {
              const mark = ep.watch.mark();
              const handle = (await ep.page.evaluateHandle(elementExpression(target.index))).asElement()!;
              if ('click' in action) await handle.click({ timeout: 10_000 });
              else await handle.fill(action.type.text, { timeout: 10_000 });
              await ep.watch.settle(mark, 5000);
            }
            await pause(300);
            const node = process.cpuUsage(node0);
            const cpu1 = descendantsCpuByKind(process.pid, { name: CHROMIUM });
            const key = `${kind}|${way}`;
            const t = totals.get(key) ?? { cpu: new Map<string, number>(), node: 0, n: 0 };
            for (const [k, v] of cpu1) t.cpu.set(k, (t.cpu.get(k) ?? 0) + v - (cpu0.get(k) ?? 0));
            t.node += (node.user + node.system) / 1e6;
            t.n++;
            totals.set(key, t);
            const end = kind === 'click a link' ? ep.page.url() : await ep.page.evaluate(`(${elementExpression(target.index)} || {}).value`);
            const other = ends.get(`${site}|${r}|${kind}`);
            if (other === undefined) ends.set(`${site}|${r}|${kind}`, String(end));
            else {
              compared++;
              if (other !== String(end)) differ++;
            }
          }
        }
      }
    } finally {
      await ep.close();
    }
  }
  process.stdout.write(`actions: ${SITES.length} sandbox sites' start pages, ${ROUNDS} rounds per way, each action on a freshly loaded page; CPU from the input to 300 ms after the page settled\n`);
  process.stdout.write('kind              | way           | n  | Chromium CPU ms | harness CPU ms | Chromium CPU ms by process\n');
  for (const kind of ['click a link', 'type into a field'] as Kind[]) {
    const per = new Map<Way, number>();
    for (const way of ['harness', 'ElementHandle'] as Way[]) {
      const t = totals.get(`${kind}|${way}`);
      if (!t) continue;
      const sum = [...t.cpu.values()].reduce((a, b) => a + b, 0);
      per.set(way, sum / t.n);
      const kinds = [...t.cpu].filter(([, v]) => (v * 1000) / t.n >= 0.5).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${((v * 1000) / t.n).toFixed(1)}`);
      process.stdout.write(`${kind.padEnd(17)} | ${way.padEnd(13)} | ${String(t.n).padEnd(2)} | ${((sum * 1000) / t.n).toFixed(1).padStart(15)} | ${((t.node * 1000) / t.n).toFixed(1).padStart(14)} | ${kinds.join(', ')}\n`);
    }
    if (per.size === 2) process.stdout.write(`${kind}: the harness's Chromium CPU ${(per.get('harness')! / per.get('ElementHandle')!).toFixed(2)}x ElementHandle's\n`);
  }
  process.stdout.write(`same end (URL after the click, the field's value after typing): ${compared - differ} of ${compared} pairs\n`);
  if (differ) process.exitCode = 1;
} finally {
  await host.close();
  child.kill('SIGTERM');
}

// The same element for both ways: a link of the site (a different one each round), or the first text field.
function pick(elements: readonly ObservedElement[], kind: Kind, prefix: string, round: number): ObservedElement | undefined {
  if (kind === 'type into a field') return elements.find((e) => e.role === 'textbox' || e.role === 'searchbox');
  const links = elements.filter((e) => e.role === 'link' && e.href?.startsWith(prefix) && e.href !== prefix);
  return links.length ? links[(round * 5) % links.length] : undefined;
}
