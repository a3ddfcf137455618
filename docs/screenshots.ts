/**
 * Regenerates the screenshots of docs/reports.md from the demo: `npm run demo -- --judge-lab`, then
 * `npx tsx docs/screenshots.ts [demo dir]`. Opens the run and human reports, the rows page and the judge lab in headless
 * Chromium (CHROMIUM_PATH, default /usr/bin/chromium) and writes docs/<page>.png (the charts' part of each page),
 * palette-quantised to stay small.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import sharp from 'sharp';

const demo = process.argv[2] ?? 'demo';
const lab = path.join(demo, 'human_judge', 'lab', 'lab.html');
const pages = [
  { name: 'run-report', file: path.join(demo, 'run_report', 'index.html'), from: '#summary', to: '#validate' },
  { name: 'human-report', file: path.join(demo, 'human_report', 'index.html'), from: '#fig-judge-verifier', to: '#validate' },
  { name: 'rows-report', file: path.join(demo, 'run_report', 'rows.html'), from: 'header', to: '#fates' },
  { name: 'judge-lab', file: lab, from: 'header', to: '#variants' },
  { name: 'judge-lab-groups', file: lab, from: '#groups', to: '#by-site' },
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  for (const p of pages) {
    await page.goto(pathToFileURL(path.resolve(p.file)).href);
    // the part of the page from `from` down to just before `to` (or the end), as one image
    const box = await page.evaluate(({ from, to }) => {
      const top = document.querySelector(from)!.getBoundingClientRect().top + window.scrollY;
      const end = to ? document.querySelector(to)!.getBoundingClientRect().top + window.scrollY : document.body.scrollHeight;
      return { top, height: Math.min(end - top, 3000) };
    }, p);
    const png = await page.screenshot({ fullPage: true, clip: { x: 0, y: box.top, width: 1100, height: box.height } });
    const out = path.join('docs', `${p.name}.png`);
    await sharp(png).png({ palette: true, colours: 64, compressionLevel: 9 }).toFile(out);
    process.stdout.write(`${out}\n`);
  }
} finally {
  await browser.close();
}
