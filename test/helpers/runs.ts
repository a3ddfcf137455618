/**
 * Run dirs on disk for the judge, validate and rows tests and the foundation benchmark: episodes with
 * grade_inputs.json, screenshots, rows and judge records, and seeded random evidence full of the seed's edge
 * cases (integral floats, 0 and False values, unicode, long fields, string and list bodies, JSON pages).
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PyFloat } from '../../src/core/py/float';
import { pyDumps } from '../../src/core/py/dumps';

/** One episode to write. Texts are written as they are, so a test controls every byte. */
export interface EpisodeFixture {
  readonly taskId: string;
  /** `grade_inputs.json`; none when undefined. */
  readonly gradeInputs?: string;
  /** File names under `screenshots/`. */
  readonly shots?: readonly string[];
  /** Whether `final.png` exists. */
  readonly final?: boolean;
  /** `rows/rows.jsonl`; no rows dir when undefined. Each non-blank line gets a `rows/step_<i>.png`. */
  readonly rows?: string;
  /** `<run>_judge/<task_id>.json`; none when undefined. */
  readonly record?: string;
}

/** A fresh temp dir, under the test run's temp root (test/global-setup.ts removes it) when there is one. */
export async function tempDir(prefix = 'taskgen-'): Promise<string> {
  return fs.mkdtemp(path.join(process.env.TASKGEN_TEST_TMP ?? os.tmpdir(), prefix));
}

/** Bytes that stand for a PNG: the PNG signature, then the name, so files differ and order can be checked. */
export function fakePng(name: string): Uint8Array {
  return new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Buffer.from(name)]);
}

/** Writes a run dir: `<run>/tasks.jsonl` (when `tasks` is given), the episodes, their records in `<run>_judge`. */
export async function writeRun(run: string, episodes: readonly EpisodeFixture[], tasks?: readonly object[]): Promise<void> {
  await fs.mkdir(run, { recursive: true });
  if (tasks) await fs.writeFile(path.join(run, 'tasks.jsonl'), tasks.map((t) => `${JSON.stringify(t)}\n`).join(''));
  for (const ep of episodes) {
    const dir = path.join(run, ep.taskId);
    await fs.mkdir(dir, { recursive: true });
    if (ep.gradeInputs !== undefined) await fs.writeFile(path.join(dir, 'grade_inputs.json'), ep.gradeInputs);
    if (ep.shots?.length) {
      await fs.mkdir(path.join(dir, 'screenshots'), { recursive: true });
      for (const shot of ep.shots) await fs.writeFile(path.join(dir, 'screenshots', shot), fakePng(`${ep.taskId}/${shot}`));
    }
    if (ep.final) await fs.writeFile(path.join(dir, 'final.png'), fakePng(`${ep.taskId}/final`));
    if (ep.rows !== undefined) {
      const rows = path.join(dir, 'rows');
      await fs.mkdir(rows, { recursive: true });
      await fs.writeFile(path.join(rows, 'rows.jsonl'), ep.rows);
      await fs.writeFile(path.join(rows, 'episode.json'), JSON.stringify({ task_id: ep.taskId }));
      const n = ep.rows.split('\n').filter((l) => l.trim()).length;
      for (let i = 0; i < n; i++) await fs.writeFile(path.join(rows, `step_${i}.png`), fakePng(`${ep.taskId}/row${i}`));
    }
    if (ep.record !== undefined) {
      await fs.mkdir(`${run}_judge`, { recursive: true });
      await fs.writeFile(path.join(`${run}_judge`, `${ep.taskId}.json`), ep.record);
    }
  }
}

/** A judge record's text as the seed writes it. */
export function recordText(taskId: string, label: 0 | 1, model = 'gemini-3.5-flash'): string {
  const verdict = label ? 'SUCCESS' : 'NOT SUCCESS';
  return pyDumps(
    { task_id: taskId, predicted_label: label, verdict: true, response: `{"verdict": "${verdict}"}`, model },
    { indent: 1, ensureAscii: false },
  );
}

/** `n` training rows as `rows.jsonl` text. */
export function rowsText(n: number, taskId = 't'): string {
  let out = '';
  for (let i = 0; i < n; i++) {
    const row = {
      messages: [
        { role: 'system', content: 'You are a web agent.' },
        { role: 'user', content: `<image>Task: ${taskId}. Step ${i}.` },
        { role: 'assistant', content: JSON.stringify({ click: { index: i } }) },
      ],
      images: [`step_${i}.png`],
    };
    out += `${JSON.stringify(row)}\n`;
  }
  return out;
}

/** A small seeded generator (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['lamp', 'Café', 'naïve', '😀', '東京', 'שלום', 'blue', 'order #12', 'a"quote', 'back\\slash', 'tab\there', 'x'];
const PATHS = ['/sites/shop/', '/sites/shop/cart', '/sites/shop/search', '/static/app.css', '/_admin/log', '/favicon.ico',
  '/sites/shop/img/a.png', '/sites/shop/api/items', '/sites/shop/fonts/f.woff2', '/sites/shop/x.css\n', '/staticky', ''];
const SCALARS: unknown[] = ['', null, 0, new PyFloat(0), false, true, new PyFloat(10), 2.5, 7, 12345678901234567890n, 'ok', -1];

/** Random evidence with the seed's edge cases; `size` scales the lists (1: ~10-15 actions, 10-40 log entries). */
export function randomGradeInputs(next: () => number, size = 1): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const text = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const value = (): unknown => {
    const r = next();
    if (r < 0.45) return pick(SCALARS);
    if (r < 0.8) return text(1 + Math.floor(next() * 4));
    if (r < 0.9) return [pick(SCALARS), text(2)];
    return { id: Math.floor(next() * 100), name: text(2) };
  };
  const dict = (n: number) => {
    const o: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) o[next() < 0.1 ? String(Math.floor(next() * 20)) : pick(['q', 'page', 'sort', 'csrf_token', 'qty', 'note', 'title', 'id'])] = value();
    return o;
  };
  const kinds = ['click', 'type', 'select', 'check', 'scroll', 'goto', 'back', 'done', 'macro_done'];
  const actions = Array.from({ length: Math.floor((10 + next() * 6) * size) }, () => {
    const k = pick(kinds);
    const r = next();
    if (r < 0.04) return 'not an action';
    if (r < 0.07) return {};
    if (r < 0.1) return { [k]: null };
    return { [k]: { index: pick([0, 3, new PyFloat(0), 12]), text: value(), enter: pick([true, false]), option: value() } };
  });
  const log = Array.from({ length: Math.floor((10 + next() * 31) * size) }, () => {
    const r = next();
    const body = r < 0.5 ? dict(Math.floor(next() * 4)) : r < 0.65 ? text(3) : r < 0.75 ? [1, text(1)] : r < 0.85 ? null : pick(SCALARS);
    return {
      method: pick(['GET', 'POST', 'DELETE', null]),
      path: pick(PATHS),
      query: next() < 0.6 ? dict(Math.floor(next() * 4)) : pick([null, {}, '']),
      body,
      status: pick([200, 302, 404, null, new PyFloat(200)]),
      ...(next() < 0.05 ? { query: { long: text(120) } } : {}),
    };
  });
  const changes = Array.from({ length: Math.floor(next() * 5 * size) }, () => {
    const item = () => (next() < 0.2 ? null : next() < 0.5 ? { title: value(), id: 3 } : { subject: text(1), id: new PyFloat(4) });
    return {
      [pick(['table', 'collection', 'kind', 'other'])]: pick(['orders', 'items', '', null]),
      op: pick([null, 'update', '', 'create']),
      before: item(),
      after: item(),
      changed: next() < 0.2 ? null : next() < 0.9 ? dict(1 + Math.floor(next() * 3)) : { long: text(200) },
    };
  });
  const seenLast = next() < 0.2 ? { items: [{ name: text(2), price: new PyFloat(10) }], total: 2.5 } : text(Math.floor(300 + next() * 200));
  const seen = next() < 0.1 ? [] : [text(20), seenLast];
  const answer = pick<unknown>([null, '', text(5), text(400), [text(1), 2], 'x'.repeat(1499) + '😀😀']);
  return pyDumps({ actions, answer, log, changes, seen }, { ensureAscii: next() < 0.3 });
}
