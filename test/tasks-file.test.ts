import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { memoryStore, nodeStore } from '../src/index';
import { EpisodeSlots } from '../src/env/recording';
import { attemptSetup } from '../src/attempt/setup';
import { syncRunFiles } from '../src/attempt/run-dir';
import { tempDir } from './helpers/runs';
import { TaskSchema, type Task } from '../src/core/schemas';
import { mergeTasksFile, TasksIndex } from '../src/attempt/tasks-file';
import { rememberSecret } from '../src/core/secrets';

// A run's tasks.jsonl merged into again and again (the env server at every episode's end): the index reads on from
// the lines it has seen, and leaves the file and the ids the whole merge would.

const FILE = '/run/tasks.jsonl';
const task = (i: number, over: Partial<Task> = {}): Task =>
  TaskSchema.parse({ kind: 'miniweb', task_id: `shop-${i}`, site: 'shop', instruction: `buy lamp ${i}`, start_path: '/sites/shop/', ...over });

describe('tasks.jsonl read on by an index', () => {
  it('parses only the lines added since its last read, and gives the ids and file the whole merge gives', async () => {
    const store = memoryStore();
    const index = new TasksIndex(store, '/run');
    const whole = memoryStore();
    const both = async (tasks: Task[]) => {
      const [a, b] = [await index.merge(tasks), await mergeTasksFile(whole, '/run', tasks)];
      expect(await store.readText(FILE)).toBe(await whole.readText(FILE));
      expect(a.ids).toEqual(b.map((t) => t.task_id));
      return a;
    };
    await both(Array.from({ length: 100 }, (_, i) => task(i)));
    const parses = vi.spyOn(TaskSchema, 'safeParse');
    try {
      expect(await both([])).toMatchObject({ graded: false });
      expect(parses).not.toHaveBeenCalled();
      // Another writer adds two tasks; then this one adds one, with a verifier.
      for (const s of [store, whole]) await mergeTasksFile(s, '/run', [task(100), task(101)]);
      const got = await both([task(5), task(102, { verifier: { kind: 'answer', expected: '3' } })]);
      expect(got.ids).toHaveLength(103);
      expect(got.ids.slice(-3)).toEqual(['shop-100', 'shop-101', 'shop-102']);
      expect(got.graded).toBe(true);
      // The two lines another writer added, then the line written and read back: three lines parsed, not 103.
      expect(parses).toHaveBeenCalledTimes(3);
    } finally {
      parses.mockRestore();
    }
  });

  it('reads a file rewritten or mended by another writer afresh, names a changed task by line, and drops a bad line with a warning once', async () => {
    const store = memoryStore();
    const index = new TasksIndex(store, '/run');
    await index.merge([task(1), task(2), task(3)]);
    // Rewritten in another order (not grown at its end): read from its start.
    const lines = (await store.readText(FILE)).trimEnd().split('\n');
    await store.writeAtomic(FILE, `${[lines[2], lines[0], lines[1]].join('\n')}\n`);
    expect((await index.merge([])).ids).toEqual(['shop-3', 'shop-1', 'shop-2']);
    // A task changed since the run recorded it: refused with its line and field.
    await expect(index.merge([task(1, { instruction: 'sell lamp 1' })])).rejects.toThrow(
      `${FILE}:2: instruction: task shop-1 is "buy lamp 1" in the run but "sell lamp 1" now`,
    );
    // A line that is not a task, and a last line without its newline: warned once, the file mended by the whole merge.
    await store.writeAtomic(FILE, `${await store.readText(FILE)}{"task_id": 7\n${JSON.stringify(task(4))}`);
    const warnings: string[] = [];
    expect((await index.merge([task(5)], (m) => warnings.push(m))).ids).toEqual(['shop-3', 'shop-1', 'shop-2', 'shop-4', 'shop-5']);
    expect(warnings).toEqual([expect.stringMatching(/^\/run\/tasks\.jsonl:4: skipped a line that is not a task/)]);
    expect((await store.readText(FILE)).split('\n')).toHaveLength(6);
    expect((await index.merge([], (m) => warnings.push(m))).ids).toHaveLength(5);
    expect(warnings).toHaveLength(1);
  });

  it('writes a new task without a key the process holds, as every text file is written, and reads it back as the same task', async () => {
    const key = 'AIzaSy-tasks-file-test-key-0123456789';
    rememberSecret(key);
    const store = memoryStore();
    await new TasksIndex(store, '/run').merge([task(1), task(2, { instruction: `use ${key} to log in` })]);
    await mergeTasksFile(store, '/run', [task(2, { instruction: `use ${key} to log in` })]);
    const text = await store.readText(FILE);
    expect(text).not.toContain(key);
    expect(text.trimEnd().split('\n')).toHaveLength(2);
  });
});

describe('tasks.jsonl and results.jsonl with several writers', () => {
  it('lists again the task of a published episode that a rewrite from an older read dropped', async () => {
    const episode = (t: Task) => JSON.stringify({ task: t, outcome: 'done', steps: 1, ok: true, timings: { started: 'a', ended: 'b', ms: 1 } });
    const store = memoryStore({ '/run/shop-2/episode.json': episode(task(2)), '/run/shop-3/episode.json': '{"task": ' });
    await store.writeAtomic(FILE, `${JSON.stringify(task(1))}\n`);
    expect((await mergeTasksFile(store, '/run', [])).map((t) => t.task_id)).toEqual(['shop-1', 'shop-2']);
    await store.writeAtomic('/run/shop-4/episode.json', episode(task(4)));
    expect((await new TasksIndex(store, '/run').merge([task(5)])).ids).toEqual(['shop-1', 'shop-2', 'shop-5', 'shop-4']);
  });

  it("a reader deriving a run's files (validate, the judge lab) names a line of tasks.jsonl that is not a task before dropping it", async () => {
    const graded = task(1, { verifier: { kind: 'answer', expected: '1' } });
    const store = memoryStore({
      '/run/_work/.keep': '',
      [FILE]: `${JSON.stringify(graded)}\n{"task_id": 2\n`,
      '/run/shop-1/episode.json': JSON.stringify({ task: graded, outcome: 'done', steps: 1, ok: true, timings: { started: 'a', ended: 'b', ms: 1 } }),
    });
    const warnings: string[] = [];
    expect(await syncRunFiles(store, '/run', (m) => warnings.push(m))).toBe(true);
    expect(warnings).toEqual([expect.stringMatching(/^\/run\/tasks\.jsonl:2: skipped a line that is not a task/)]);
    expect(await store.readText(FILE)).toBe(`${JSON.stringify(graded)}\n`);
    expect(await store.readText('/run/results.jsonl')).toBe('{"task_id":"shop-1","ok":true}\n');
  });

  it('a results line with no finished episode behind it is still named and kept aside; one another writer saw on disk is not', async () => {
    const graded = (i: number) => task(i, { verifier: { kind: 'answer', expected: `${i}` } });
    const episode = (i: number) => JSON.stringify({ task: graded(i), outcome: 'done', steps: 1, ok: true, timings: { started: 'a', ended: 'b', ms: 1 } });
    const line = (i: number) => `{"task_id":"shop-${i}","ok":true}\n`;
    const store = memoryStore({ '/run/_work/.keep': '', [FILE]: `${JSON.stringify(graded(1))}\n`, '/run/shop-1/episode.json': episode(1), '/run/results.jsonl': line(1) + line(9) });
    const warnings: string[] = [];
    await syncRunFiles(store, '/run', (m) => warnings.push(m));
    expect(warnings).toEqual([expect.stringMatching(/^\/run\/results\.jsonl: shop-9 has ok true there but no verified finished episode; rewritten from the episodes/)]);
    // Another writer publishes shop-2 and writes its results right after this writer listed the run: that line says
    // what shop-2's episode says, so it is not set aside, and the next round takes shop-2 in.
    let raced = false;
    const racing = { ...store, list: async (dir: string) => {
      const listed = await store.list(dir);
      if (dir === '/run' && !raced) {
        raced = true;
        await store.writeAtomic('/run/shop-2/episode.json', episode(2));
        await store.writeAtomic('/run/results.jsonl', line(1) + line(2));
      }
      return listed;
    } };
    await syncRunFiles(racing, '/run', (m) => warnings.push(m));
    expect(raced).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(await store.readText('/run/results.jsonl')).toBe(line(1) + line(2));
  });

  it('two servers recording 160 tasks at once into one out dir: every task listed once, every episode in results.jsonl', async () => {
    const out = await tempDir('tasks-file-');
    const store = nodeStore();
    const setup = attemptSetup({ policy: { name: 'env', decide: () => Promise.reject(new Error('unused')) }, maxSteps: 15, baseUrl: 'http://127.0.0.1:9/' });
    const warnings: string[] = [];
    const servers = [0, 1].map(() => new EpisodeSlots({ store, out, staleMs: 600_000, setup, onWarning: (m) => warnings.push(m) }));
    const graded = (i: number) => task(i, { verifier: { kind: 'answer', expected: `${i}` } });
    // Four sessions per server, each a task of its own per episode (an RL run's every episode lists a task in its try).
    await Promise.all(servers.flatMap((slots, s) => [0, 1, 2, 3].map(async (k) => {
      for (let i = s * 1000 + k; i < s * 1000 + 80; i += 4) {
        const claimed = await slots.claim(graded(i));
        await store.writeAtomic(path.join(claimed.claim.staging, 'episode.json'), JSON.stringify({ task: graded(i), outcome: 'done', steps: 1, ok: i % 3 > 0, timings: { started: 'a', ended: 'b', ms: 1 } }));
        expect(await claimed.claim.commit()).toBe('committed');
        await claimed.claim.release();
        await slots.syncResults(claimed.run);
      }
    })));
    const ids = (await readFile(path.join(out, 'tasks.jsonl'), 'utf8')).trimEnd().split('\n').map((l) => (JSON.parse(l) as Task).task_id);
    const want = [...Array.from({ length: 80 }, (_, i) => `shop-${i}`), ...Array.from({ length: 80 }, (_, i) => `shop-${1000 + i}`)];
    expect(ids.slice().sort()).toEqual(want.slice().sort());
    const results = (await readFile(path.join(out, 'results.jsonl'), 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l) as { task_id: string; ok: boolean });
    expect(results.map((r) => r.task_id)).toEqual(ids);
    expect(results.every((r) => r.ok === Number(r.task_id.slice(5)) % 3 > 0)).toBe(true);
    expect(warnings).toEqual([]);
  });
});
