/** The file-store interface every step reads and writes through. @module */
import { InputError } from '../core/errors';
import { redactKnownSecrets } from '../core/secrets';

/** An entry of a directory listing. */
export interface DirEntry {
  /** The entry's name, without its directory. */
  readonly name: string;
  /** Whether it is a directory (else a file or other entry). */
  readonly isDirectory: boolean;
  /** Whether it is a symbolic link (never followed out of a run: rows, export, judge, report). Stores without links leave it out. */
  readonly isSymbolicLink?: boolean;
}

/** How {@link FileStore.copyDir} places files: hard links where the file system allows, else copies. */
export type CopyMode = 'link' | 'copy';

/**
 * A small file-store interface. Paths are POSIX-style strings. Writes are atomic (a whole file appears or
 * nothing) or whole appended lines, so a run killed at any moment can be resumed.
 */
export interface FileStore {
  /** The file's text (UTF-8). Rejects with an error whose `code` is `ENOENT` when missing. */
  readText(path: string): Promise<string>;
  /** The file's bytes. */
  readBytes(path: string): Promise<Uint8Array>;
  /** Whether a file or directory exists at `path`. */
  exists(path: string): Promise<boolean>;
  /** The entries of a directory sorted by name (code point order); `[]` when it does not exist. */
  list(dir: string): Promise<DirEntry[]>;
  /** Writes the whole file atomically (temp file + rename), creating parent directories. */
  writeAtomic(path: string, data: string | Uint8Array): Promise<void>;
  /** Appends each line plus `\n` in one write, creating the file and its parents. */
  appendLines(path: string, lines: readonly string[]): Promise<void>;
  /**
   * Copies a directory tree into `dst` (merged, files overwritten); `link` uses hard links where possible. A
   * symbolic link is never followed nor copied: the copy fails naming it (`code` `ESYMLINK`).
   */
  copyDir(src: string, dst: string, options?: { mode?: CopyMode }): Promise<void>;
  /** Removes a file or a directory tree; nothing happens when it does not exist. */
  remove(path: string): Promise<void>;
  /** Creates a directory and its parents. */
  mkdir(path: string): Promise<void>;
  /**
   * Creates the file with `data` only if nothing is at `path`, atomically even on NFS (a complete temp file
   * hard-linked into place): `true` when this call created it, `false` when it was there. Parents are created.
   */
  createExclusive(path: string, data: string): Promise<boolean>;
  /**
   * Moves a file or directory in one atomic step; `to`'s parents are created. Fails (`code` `ENOTEMPTY` or
   * `EEXIST`) when `to` is a directory that is not empty, and with `ENOENT` when `from` is gone.
   */
  rename(from: string, to: string): Promise<void>;
}

/** An error for a missing file, shaped like Node's. */
export function notFound(path: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`ENOENT: no such file or directory, '${path}'`);
  error.code = 'ENOENT';
  error.path = path;
  return error;
}

/** True when `error` says a file does not exist. */
export function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

/** The file's text, or `null` when it does not exist (a directory there is an {@link InputError}; other errors are thrown). */
export async function readTextIfExists(store: FileStore, path: string): Promise<string | null> {
  try {
    return await store.readText(path);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw namedIsDirectory(error, path);
  }
}

/** A file path that is a directory (`EISDIR`), as an {@link InputError} naming it; any other error as it is. */
export function namedIsDirectory(error: unknown, path: string): unknown {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === 'EISDIR' ? new InputError({ file: path }, "is a directory, not a file: give a file's path", { cause: error }) : error;
}

/**
 * Text about to be written, without any API key the process holds (see `rememberSecret`): the last guard behind
 * the adapters, which already drop keys from replies. Bytes (screenshots) are written as they are.
 */
export function guardText<T extends string | Uint8Array>(data: T): T {
  return (typeof data === 'string' ? redactKnownSecrets(data) : data) as T;
}

/** The names of `dir`'s entries that are symbolic links (a file there may point anywhere on the machine). */
export async function symbolicLinksIn(store: FileStore, dir: string): Promise<Set<string>> {
  return new Set((await store.list(dir)).filter((e) => e.isSymbolicLink).map((e) => e.name));
}

/** The problem of a symbolic link found where the library expects a file of the run. */
export const SYMBOLIC_LINK_PROBLEM = 'a symbolic link, never followed (it may point out of the run): replace it with the file';
