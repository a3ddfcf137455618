/**
 * Files: the `FileStore` every step reads and writes through (the local disk or memory), the JSON and JSONL
 * readers that name the file, line and field of a bad entry, and the on-disk layout (`src/files/layout.ts` names
 * every file of a run, episode, judge and rows dir; `judgeDirOf` is public). Internals live in `src/files/`;
 * the JSON and JSONL reader is the shared `src/core/io.ts`.
 * @module
 */
export type { CopyMode, DirEntry, FileStore } from './files/types';
export { nodeStore } from './files/node';
export { memoryStore, type MemoryStore } from './files/memory';
export { judgeDirOf, relabelDirOf, tryRunDir, runLayout, type RunLayout } from './files/layout';
export { runTries, nextFreeTry, type RunTry } from './files/tries';
export { readJsonFile, readJsonl, parseJsonl, type JsonlIssue, type ReadJsonlOptions } from './core/io';
export { episodeIdOf, judgedEpisodeIdOf } from './files/episode-id';
export { SetupMismatchError, type SetupDifference, type SetupValue } from './files/setup';
export type { SetupCount } from './files/setup-counts';
