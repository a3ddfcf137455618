/** The file store on the local disk. @module */
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { compareCodePoints } from '../py/text';
import type { CopyMode, DirEntry, FileStore } from './types';

/** A {@link FileStore} over `node:fs`. Relative paths resolve against the process's working directory. */
export function nodeStore(): FileStore {
  return {
    readText: (p) => fs.readFile(p, 'utf8'),
    readBytes: async (p) => new Uint8Array(await fs.readFile(p)),
    async exists(p) {
      try {
        await fs.stat(p);
        return true;
      } catch {
        return false;
      }
    },
    async list(dir) {
      let entries;
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      return entries
        .map((e): DirEntry => ({ name: e.name, isDirectory: e.isDirectory() }))
        .sort((a, b) => compareCodePoints(a.name, b.name));
    },
    async writeAtomic(p, data) {
      await fs.mkdir(path.dirname(p), { recursive: true });
      const tmp = `${p}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
      try {
        await fs.writeFile(tmp, data);
        await fs.rename(tmp, p);
      } catch (error) {
        await fs.rm(tmp, { force: true });
        throw error;
      }
    },
    async appendLines(p, lines) {
      if (lines.length === 0) return;
      await fs.mkdir(path.dirname(p), { recursive: true });
      await fs.appendFile(p, lines.map((l) => `${l}\n`).join(''));
    },
    copyDir: (src, dst, options) => copyTree(src, dst, options?.mode ?? 'link'),
    remove: (p) => fs.rm(p, { recursive: true, force: true }),
    async mkdir(p) {
      await fs.mkdir(p, { recursive: true });
    },
  };
}

async function copyTree(src: string, dst: string, mode: CopyMode): Promise<void> {
  await fs.mkdir(dst, { recursive: true });
  for (const entry of await fs.readdir(src, { withFileTypes: true })) {
    const from = path.join(src, entry.name);
    const to = path.join(dst, entry.name);
    if (entry.isDirectory()) await copyTree(from, to, mode);
    else await placeFile(from, to, mode);
  }
}

// A hard link where the file system allows, else a copy-on-write clone, else a plain copy.
async function placeFile(from: string, to: string, mode: CopyMode): Promise<void> {
  await fs.rm(to, { force: true });
  if (mode === 'link') {
    try {
      await fs.link(from, to);
      return;
    } catch {
      // another device or a file system without hard links: fall through to a copy
    }
  }
  await fs.copyFile(from, to, constants.COPYFILE_FICLONE);
}
