/**
 * Files: the `FileStore` every step reads and writes through (the local disk or memory), the JSON and JSONL
 * readers that name the file, line and field of a bad entry, and the on-disk layout (`src/fs/layout.ts` names
 * every file of a run, episode, judge and rows dir; `judgeDirOf` is public). Internals live in `src/fs/` and
 * `src/io.ts`.
 * @module
 */
export type { CopyMode, DirEntry, FileStore } from './fs/types';
export { nodeStore } from './fs/node';
export { memoryStore, type MemoryStore } from './fs/memory';
export { judgeDirOf } from './fs/layout';
export { readJsonFile, readJsonl, parseJsonl, type JsonlIssue, type ReadJsonlOptions } from './io';
export { episodeIdOf, judgedEpisodeIdOf } from './episode-id';
