/**
 * Files: the `FileStore` every step reads and writes through (the local disk or memory), and the JSON and JSONL
 * readers that name the file, line and field of a bad entry. Internals live in `src/fs/` and `src/io.ts`.
 * @module
 */
export type { CopyMode, DirEntry, FileStore } from './fs/types';
export { nodeStore } from './fs/node';
export { memoryStore, type MemoryStore } from './fs/memory';
export { readJsonFile, readJsonl, parseJsonl, type JsonlIssue, type ReadJsonlOptions } from './io';
export { episodeIdOf, judgedEpisodeIdOf } from './episode-id';
