/** An in-memory file store for tests and notebooks. @module */
import path from 'node:path';
import { compareCodePoints } from '../core/py/text';
import { guardText, notFound, type DirEntry, type FileStore } from './types';

/** A {@link FileStore} in memory, with its files exposed for tests. */
export interface MemoryStore extends FileStore {
  /** Every file, keyed by normalized path. */
  readonly files: Map<string, Uint8Array>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** An in-memory {@link FileStore}, optionally seeded with files (`{path: text or bytes}`). */
export function memoryStore(initial: Record<string, string | Uint8Array> = {}): MemoryStore {
  const files = new Map<string, Uint8Array>();
  const dirs = new Set<string>(['.', '/']);
  const norm = (p: string) => path.posix.normalize(p).replace(/\/+$/, '') || '/';
  const addParents = (p: string) => {
    for (let d = path.posix.dirname(p); !dirs.has(d); d = path.posix.dirname(d)) dirs.add(d);
  };
  const put = (p: string, data: string | Uint8Array) => {
    const key = norm(p);
    addParents(key);
    files.set(key, typeof data === 'string' ? encoder.encode(data) : new Uint8Array(data));
  };
  const get = (p: string) => {
    const data = files.get(norm(p));
    if (!data) throw notFound(p);
    return data;
  };
  for (const [p, data] of Object.entries(initial)) put(p, data);

  const store: MemoryStore = {
    files,
    readText: async (p) => decoder.decode(get(p)),
    readBytes: async (p) => new Uint8Array(get(p)),
    exists: async (p) => files.has(norm(p)) || dirs.has(norm(p)),
    async list(dir) {
      const d = norm(dir);
      const out = new Map<string, DirEntry>();
      const prefix = d === '/' ? '/' : `${d}/`;
      for (const key of [...files.keys(), ...dirs]) {
        if (!key.startsWith(prefix) || key === d) continue;
        const rest = key.slice(prefix.length);
        const name = rest.split('/')[0]!;
        const isDirectory = rest.includes('/') || dirs.has(key);
        if (!out.has(name) || isDirectory) out.set(name, { name, isDirectory });
      }
      return [...out.values()].sort((a, b) => compareCodePoints(a.name, b.name));
    },
    writeAtomic: async (p, data) => put(p, guardText(data)),
    async appendLines(p, lines) {
      if (lines.length === 0) return;
      const key = norm(p);
      const old = files.get(key) ?? new Uint8Array();
      const add = encoder.encode(guardText(lines.map((l) => `${l}\n`).join('')));
      const both = new Uint8Array(old.length + add.length);
      both.set(old);
      both.set(add, old.length);
      put(key, both);
    },
    async copyDir(src, dst) {
      const s = norm(src);
      if (!dirs.has(s)) throw notFound(src);
      for (const [key, data] of [...files]) {
        if (key.startsWith(`${s}/`)) put(path.posix.join(norm(dst), key.slice(s.length + 1)), data);
      }
      dirs.add(norm(dst));
      addParents(norm(dst));
    },
    async remove(p) {
      const key = norm(p);
      files.delete(key);
      dirs.delete(key);
      for (const k of [...files.keys()]) if (k.startsWith(`${key}/`)) files.delete(k);
      for (const k of [...dirs]) if (k.startsWith(`${key}/`)) dirs.delete(k);
    },
    async mkdir(p) {
      const key = norm(p);
      dirs.add(key);
      addParents(key);
    },
    async createExclusive(p, data) {
      if (await store.exists(p)) return false;
      put(p, guardText(data));
      return true;
    },
    async rename(from, to) {
      const src = norm(from);
      const dst = norm(to);
      const inside = (key: string) => key === src || key.startsWith(`${src}/`);
      if (!files.has(src) && !dirs.has(src)) throw notFound(from);
      if ([...files.keys()].some((k) => k.startsWith(`${dst}/`))) {
        throw Object.assign(new Error(`ENOTEMPTY: directory not empty, rename '${from}' -> '${to}'`), { code: 'ENOTEMPTY' });
      }
      for (const [key, data] of [...files]) {
        if (!inside(key)) continue;
        files.delete(key);
        put(dst + key.slice(src.length), data);
      }
      for (const key of [...dirs]) {
        if (!inside(key)) continue;
        dirs.delete(key);
        dirs.add(dst + key.slice(src.length));
      }
      addParents(dst);
    },
  };
  return store;
}
