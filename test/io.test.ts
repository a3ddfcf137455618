import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, UnsafeNameError, assertPlainName, memoryStore, nodeStore, readJsonl, type FileStore, type JsonlIssue } from '../src/index';
import { TaskSchema, SitemapSchema } from '../src/formats';
import { readJsonFile, readJsonFileIfExists } from '../src/core/io';

const task = (id: string) =>
  JSON.stringify({ kind: 'proposed', task_id: id, site: 's', sites: ['s'], macro: 'proposed', macros: [], instruction: 'Find the price of X', start_path: '/sites/s/', task_kind: 'info', verifier: null });

describe('readJsonl', () => {
  it('reads good lines and skips blank ones', async () => {
    const store = memoryStore({ 't.jsonl': `${task('a')}\n\n  \n${task('b')}\n` });
    const rows = await readJsonl(store, 't.jsonl', TaskSchema);
    expect(rows.map((r) => r.task_id)).toEqual(['a', 'b']);
  });

  it('reports and skips a torn last line', async () => {
    const store = memoryStore({ 't.jsonl': `${task('a')}\n${task('b').slice(0, 30)}` });
    const issues: JsonlIssue[] = [];
    const rows = await readJsonl(store, 't.jsonl', TaskSchema, { onIssue: (i) => issues.push(i) });
    expect(rows.map((r) => r.task_id)).toEqual(['a']);
    expect(issues).toEqual([expect.objectContaining({ file: 't.jsonl', line: 2, torn: true })]);
  });

  it('names file and line for a malformed line in the middle', async () => {
    const store = memoryStore({ 't.jsonl': `${task('a')}\n{"task_id": \n${task('b')}\n` });
    await expect(readJsonl(store, 't.jsonl', TaskSchema)).rejects.toThrow(/^t\.jsonl:2: .*not valid JSON: Expecting value/);
  });

  it('names file, line and field for a schema problem', async () => {
    const bad = JSON.stringify({ ...JSON.parse(task('a')), task_kind: 'chat' });
    const store = memoryStore({ 't.jsonl': `${task('a')}\n${bad}\n` });
    const error = await readJsonl(store, 't.jsonl', TaskSchema).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ file: 't.jsonl', line: 2, field: 'task_kind' });
  });

  it('lenient: every bad line is reported with file, line and field, and the good ones kept', async () => {
    const bad = JSON.stringify({ ...JSON.parse(task('c')), task_id: 7 });
    const store = memoryStore({ 't.jsonl': `${task('a')}\nnot json\n${bad}\n${task('b')}\n{"torn` });
    const issues: JsonlIssue[] = [];
    const rows = await readJsonl(store, 't.jsonl', TaskSchema, { lenient: true, onIssue: (i) => issues.push(i) });
    expect(rows.map((r) => r.task_id)).toEqual(['a', 'b']);
    expect(issues.map((i) => [i.line, i.torn])).toEqual([[2, false], [3, false], [5, true]]);
    expect(issues[1]!.problem).toMatch(/^task_id: .*: skipped$/);
    expect(issues[2]!.problem).toBe('torn last line (no newline, not valid JSON): skipped');
    await expect(readJsonl(store, 't.jsonl', TaskSchema)).rejects.toThrow(/t\.jsonl:2/);
  });

  it('a missing file is empty only when asked', async () => {
    const store = memoryStore();
    expect(await readJsonl(store, 'none.jsonl', TaskSchema, { missingOk: true })).toEqual([]);
    await expect(readJsonl(store, 'none.jsonl', TaskSchema)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('readJsonFile', () => {
  it('a sitemap without pages names the field', async () => {
    const store = memoryStore({ 'sm/shop.json': '{"name": "Shop", "controls": []}' });
    await expect(readJsonFile(store, 'sm/shop.json', SitemapSchema)).rejects.toThrow(/^sm\/shop\.json: pages: /);
  });
  it('accepts controls as a list or a dict', async () => {
    const store = memoryStore({
      'a.json': '{"pages": [{"path": "/"}], "controls": [{"kind": "button", "page": "/"}]}',
      'b.json': '{"pages": [], "controls": {"c1": {"kind": "select", "options": [{"value": 0}]}}}',
    });
    expect((await readJsonFile(store, 'a.json', SitemapSchema)).controls).toHaveLength(1);
    expect((await readJsonFile(store, 'b.json', SitemapSchema)).controls).toHaveProperty('c1');
  });
  it('readJsonFileIfExists: null for a missing file, the same checks for one that exists', async () => {
    const store = memoryStore({ 'a.json': '{"pages": [{"path": "/"}], "controls": []}', 'bad.json': '{"controls": []}' });
    expect(await readJsonFileIfExists(store, 'none.json', SitemapSchema)).toBeNull();
    expect((await readJsonFileIfExists(store, 'a.json', SitemapSchema))?.pages).toHaveLength(1);
    await expect(readJsonFileIfExists(store, 'bad.json', SitemapSchema)).rejects.toThrow(/^bad\.json: pages: /);
  });
});

describe('plain names', () => {
  it.each(['../x', 'a/b', '..', '.hidden', '', 'a\0b', 'a\\b'])('refuses %j', (name) => {
    expect(() => assertPlainName(name, 'site')).toThrow(UnsafeNameError);
  });
  it.each(['shop-01', 'tg-shop-01-a1b2c3d4', 'h.task_3'])('accepts %j', (name) => {
    expect(() => assertPlainName(name, 'site')).not.toThrow();
  });
});

describe.each([
  ['memory', () => memoryStore()],
  ['node', () => nodeStore()],
])('%s file store', (_, make) => {
  const root = () => mkdtempSync(path.join(tmpdir(), 'tg-store-'));
  it('writes atomically, appends lines, lists, copies and removes', async () => {
    const store: FileStore = make();
    const dir = root();
    await store.writeAtomic(`${dir}/a/b.txt`, 'hi');
    await store.appendLines(`${dir}/a/l.jsonl`, ['1', '2']);
    await store.appendLines(`${dir}/a/l.jsonl`, ['3']);
    await store.writeAtomic(`${dir}/a/sub/c.bin`, Uint8Array.of(1, 2));
    expect(await store.readText(`${dir}/a/b.txt`)).toBe('hi');
    expect(await store.readText(`${dir}/a/l.jsonl`)).toBe('1\n2\n3\n');
    expect((await store.list(`${dir}/a`)).map((e) => [e.name, e.isDirectory])).toEqual([
      ['b.txt', false],
      ['l.jsonl', false],
      ['sub', true],
    ]);
    await store.copyDir(`${dir}/a`, `${dir}/copy`);
    expect(await store.readBytes(`${dir}/copy/sub/c.bin`)).toEqual(Uint8Array.of(1, 2));
    await store.remove(`${dir}/a`);
    expect(await store.exists(`${dir}/a/b.txt`)).toBe(false);
    expect(await store.exists(`${dir}/copy/b.txt`)).toBe(true);
    expect(await store.list(`${dir}/missing`)).toEqual([]);
  });
});
