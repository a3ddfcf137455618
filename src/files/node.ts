/** The file store on the local disk. @module */
import * as fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { compareCodePoints } from '../core/py/text';
import { SYMBOLIC_LINK_PROBLEM, guardText, namedIsDirectory, type CopyMode, type DirEntry, type FileStore } from './types';

/**
 * A {@link FileStore} over `node:fs`. Relative paths resolve against the process's working directory.
 *
 * Reads, listings and copies use the synchronous calls: the pipeline's files are small (grade inputs, records,
 * screenshots), and each `fs.promises` call costs several thread-pool round trips, which made reading 7,280
 * episodes slower than the seed's Python. Writes of whole files stay asynchronous.
 */
export function nodeStore(): FileStore {
  return {
    // A path given as a file that is a directory (`--tasks DIR`) is named, not a bare EISDIR without its path.
    readText: async (p) => readNamed(p, () => fs.readFileSync(p, 'utf8')),
    readBytes: async (p) => readNamed(p, () => new Uint8Array(fs.readFileSync(p))),
    exists: async (p) => fs.existsSync(p),
    async list(dir) {
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      return entries
        .map((e): DirEntry => ({ name: e.name, isDirectory: e.isDirectory(), ...(e.isSymbolicLink() ? { isSymbolicLink: true } : {}) }))
        .sort((a, b) => compareCodePoints(a.name, b.name));
    },
    async writeAtomic(p, data) {
      await fs.promises.mkdir(path.dirname(p), { recursive: true });
      const tmp = `${p}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
      try {
        await fs.promises.writeFile(tmp, guardText(data));
        await fs.promises.rename(tmp, p);
      } catch (error) {
        await fs.promises.rm(tmp, { force: true });
        throw namedIsDirectory(error, p);
      }
    },
    async appendLines(p, lines) {
      if (lines.length === 0) return;
      await fs.promises.mkdir(path.dirname(p), { recursive: true });
      await fs.promises.appendFile(p, guardText(lines.map((l) => `${l}\n`).join('')));
    },
    copyDir: async (src, dst, options) => copyTree(src, dst, options?.mode ?? 'link'),
    remove: (p) => fs.promises.rm(p, { recursive: true, force: true }),
    async mkdir(p) {
      await fs.promises.mkdir(p, { recursive: true });
    },
    // link(2) fails when the target exists and is atomic on NFS, where O_EXCL was long unreliable.
    async createExclusive(p, data) {
      await fs.promises.mkdir(path.dirname(p), { recursive: true });
      const tmp = `${p}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
      await fs.promises.writeFile(tmp, guardText(data));
      try {
        await fs.promises.link(tmp, p);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw error;
      } finally {
        await fs.promises.rm(tmp, { force: true });
      }
    },
    async rename(from, to) {
      await fs.promises.mkdir(path.dirname(to), { recursive: true });
      await fs.promises.rename(from, to);
    },
  };
}

function readNamed<T>(p: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw namedIsDirectory(error, p);
  }
}

function copyTree(src: string, dst: string, mode: CopyMode): void {
  fs.mkdirSync(dst, { recursive: true });
  for (const entry of fs.readdirSync(src, { withFileTypes: true })) {
    const from = path.join(src, entry.name);
    const to = path.join(dst, entry.name);
    if (entry.isSymbolicLink()) throw symbolicLinkError(from);
    if (entry.isDirectory()) copyTree(from, to, mode);
    else placeFile(from, to, mode);
  }
}

// A link may point out of the run; a copy would take in whatever it points at.
function symbolicLinkError(file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${file}: ${SYMBOLIC_LINK_PROBLEM}`), { code: 'ESYMLINK', path: file });
}

// A hard link where the file system allows, else a copy-on-write clone, else a plain copy; an existing target
// is replaced.
function placeFile(from: string, to: string, mode: CopyMode): void {
  if (mode === 'link') {
    try {
      fs.linkSync(from, to);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        fs.rmSync(to, { force: true });
        return placeFile(from, to, mode);
      }
      // another device or a file system without hard links: fall through to a copy
    }
  }
  fs.copyFileSync(from, to, fs.constants.COPYFILE_FICLONE);
}
