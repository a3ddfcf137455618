/**
 * The step screenshot, three ways, on the same sandbox pages in one run: CDP `Page.captureScreenshot` with
 * `optimizeForSpeed` (the harness's), CDP with zlib's default setting, and Playwright's `page.screenshot()`. Per way:
 * Chromium CPU ms and wall ms per screenshot (and the CPU by process: browser, GPU process, renderer), Chromium's
 * minor page faults per screenshot by process (memory touched for the first time: bench/fresh-pages.ts says what one
 * costs this machine), PNG kB, and whether every image decodes to the same RGBA pixels as `page.screenshot()`'s. The ways take turns page by page, so a load that drifts over the run does not favour one.
 * Env: ROUNDS (default 30 screenshots per way per page).
 * @module
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import type { CDPSession, Page } from 'playwright-core';
import { browserHost } from '../src/index';
import { VIEWPORT, chromiumPath } from '../src/browser/host';
import { freshPageCost } from './fresh-pages';
import { descendantsCpuByKind, descendantsFaultsByKind } from './proc-cpu';
import { startSandboxProcess } from './sandbox-process';

const ROUNDS = Number(process.env.ROUNDS ?? 30);
const PAGES = ['/sites/shop-01/', '/sites/mail-01/', '/sites/forum-01/', '/sites/recipes-01/'];
const CHROMIUM = /chrom|headless/i;

type Way = 'cdp fast' | 'cdp default' | 'page.screenshot';
const WAYS: Way[] = ['cdp fast', 'cdp default', 'page.screenshot'];

async function shoot(page: Page, session: CDPSession, way: Way): Promise<Buffer> {
  if (way === 'page.screenshot') return page.screenshot();
  const { data } = await session.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: way === 'cdp fast', captureBeyondViewport: false, fromSurface: true });
  return Buffer.from(data, 'base64');
}

const rgba = async (png: Buffer) => (await sharp(png).ensureAlpha().raw().toBuffer()).toString('base64');

const { child, url } = await startSandboxProcess();
const host = browserHost();
try {
  const browser = await host.browser();
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  await context.addInitScript({ content: `document.addEventListener('DOMContentLoaded',()=>{const s=document.createElement('style');s.textContent='input,textarea,[contenteditable]{caret-color:transparent!important}';document.head.append(s)})` });
  const page = await context.newPage();
  // one session kept for the page, as the harness keeps one
  const session = await context.newCDPSession(page);
  const totals = new Map(WAYS.map((w) => [w, { cpu: 0, wall: 0, bytes: 0, n: 0, samePixels: 0, kinds: new Map<string, number>(), faults: new Map<string, number>() }]));
  for (const p of PAGES) {
    await page.goto(url + p, { waitUntil: 'load' });
    await page.evaluate('document.fonts.ready.then(() => true)');
    const reference = await rgba(await page.screenshot());
    for (let r = 0; r < ROUNDS; r++) {
      for (const way of r % 2 ? [...WAYS].reverse() : WAYS) {
        const faults0 = descendantsFaultsByKind(process.pid, { name: CHROMIUM });
        const cpu0 = descendantsCpuByKind(process.pid, { name: CHROMIUM });
        const t0 = performance.now();
        const png = await shoot(page, session, way);
        const t = totals.get(way)!;
        t.wall += performance.now() - t0;
        for (const [kind, cpu] of descendantsCpuByKind(process.pid, { name: CHROMIUM })) {
          const spent = cpu - (cpu0.get(kind) ?? 0);
          t.cpu += spent;
          t.kinds.set(kind, (t.kinds.get(kind) ?? 0) + spent);
        }
        for (const [kind, n] of descendantsFaultsByKind(process.pid, { name: CHROMIUM })) t.faults.set(kind, (t.faults.get(kind) ?? 0) + n - (faults0.get(kind) ?? 0));
        t.bytes += png.length;
        t.n++;
        if (r === 0 && (await rgba(png)) === reference) t.samePixels++;
      }
    }
  }
  await context.close();
  process.stdout.write(`screenshots: ${PAGES.length} sandbox pages at 1280x800, ${ROUNDS} per way per page, ${chromiumPath()}\n`);
  const cost = freshPageCost();
  process.stdout.write(`this machine: a 4 KiB page written for the first time costs ${cost.fresh.toFixed(2)} µs of CPU, written again ${cost.reused.toFixed(2)} µs\n`);
  process.stdout.write('way              | Chromium CPU ms | wall ms | PNG kB | pages with page.screenshot()\'s pixels | CPU ms by process | page faults by process\n');
  for (const [way, t] of totals) {
    const kinds = [...t.kinds].filter(([, v]) => v * 1000 / t.n >= 0.5).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(v * 1000 / t.n).toFixed(1)}`);
    const faults = [...t.faults].filter(([, v]) => v / t.n >= 10).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(v / t.n).toFixed(0)}`);
    process.stdout.write(`${way.padEnd(16)} | ${(t.cpu * 1000 / t.n).toFixed(1).padStart(15)} | ${(t.wall / t.n).toFixed(1).padStart(7)} | ${(t.bytes / t.n / 1024).toFixed(0).padStart(6)} | ${`${t.samePixels}/${PAGES.length}`.padEnd(38)} | ${kinds.join(', ')} | ${faults.join(', ')}\n`);
  }
} finally {
  await host.close();
  child.kill('SIGTERM');
}
