/**
 * `npx tsx bench/same-pixels.ts A B`: whether two demo work dirs (`npm run demo -- --out A`, then with another
 * build `--out B`) hold the same step images. Every `run/<task>/screenshots/step_N.png` (the training rows' images
 * are copies of these) of a step that both runs observed alike (the same observation text in `grade_inputs.json`'s
 * `seen`) is decoded with sharp and must have the same RGBA pixels in both. The PNG bytes may differ (the encoder's
 * settings); the pixels may not. Steps where the runs diverged (on a loaded machine an action can time out in one
 * run and not the other) are counted apart, not compared: a step is compared when every step of its episode up to
 * it was seen alike and no action before it timed out. Exits 1 on a difference.
 * @module
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

const [a, b] = process.argv.slice(2);
if (!a || !b) throw new Error('usage: tsx bench/same-pixels.ts DIR_A DIR_B');

const seen = async (dir: string, task: string): Promise<string[]> => {
  try {
    return (JSON.parse(await readFile(path.join(dir, 'run', task, 'grade_inputs.json'), 'utf8')) as { seen: string[] }).seen;
  } catch {
    return [];
  }
};
const pixels = async (file: string) => {
  const { data, info } = await sharp(file).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, size: `${info.width}x${info.height}` };
};

// How far apart two images of one size are: pixels that differ, and the largest difference of one channel (0-255).
const delta = (p: Buffer, q: Buffer): string => {
  let pixelsOff = 0;
  let most = 0;
  for (let i = 0; i < p.length; i += 4) {
    const d = Math.max(...[0, 1, 2, 3].map((c) => Math.abs(p[i + c]! - q[i + c]!)));
    if (d > 0) pixelsOff++;
    most = Math.max(most, d);
  }
  return `${pixelsOff} pixels differ, by at most ${most} of 255 in a channel`;
};

const tasks = (await readdir(path.join(a, 'run'), { withFileTypes: true })).filter((d) => d.isDirectory() && !d.name.startsWith('_')).map((d) => d.name);
const differ: string[] = [];
let same = 0;
let diverged = 0;
for (const task of tasks.sort()) {
  const [sa, sb] = await Promise.all([seen(a, task), seen(b, task)]);
  let alike = true;
  for (let step = 0; step < Math.max(sa.length, sb.length); step++) {
    const name = path.join('run', task, 'screenshots', `step_${step}.png`);
    // From the first step seen differently, or after an action that timed out (it may have got further in one run,
    // say focused a field, with the same text), the two runs are on different pages.
    alike &&= sa[step] !== undefined && sa[step] === sb[step] && !sa[step]!.includes('Timeout');
    if (!alike) {
      diverged++;
      continue;
    }
    const files = await Promise.all([pixels(path.join(a, name)), pixels(path.join(b, name))]).catch(() => null);
    if (!files) continue; // the final state's text, which has no step image
    const [p, q] = files;
    if (p.size === q.size && p.data.equals(q.data)) same++;
    else differ.push(`${name}: ${p.size === q.size ? delta(p.data, q.data) : `sizes differ (${p.size} vs ${q.size})`}`);
  }
}
process.stdout.write(`${same} step images observed alike in both runs decode to the same pixels, ${differ.length} differ; ${diverged} steps diverged (not compared)\n`);
for (const line of differ) process.stdout.write(`${line}\n`);
process.exitCode = differ.length ? 1 : 0;
