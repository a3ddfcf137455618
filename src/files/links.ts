/**
 * Symbolic links among an episode's files: found by listing (never by following them), named, refused. A link may
 * point anywhere on the machine, and what a step reads goes to a model, into the rows or into a dataset.
 * @module
 */
import path from 'node:path';
import { InputError } from '../core/errors';
import { EPISODE_FILES } from './layout';
import { SYMBOLIC_LINK_PROBLEM, type FileStore } from './types';

/** A step screenshot's name as the seed globs it: `step_*.png`. */
export const STEP_SHOT = /^step_[\s\S]*\.png$/;

/** Which files of an episode dir a step reads, for {@link linkedEpisodeFiles}. */
export interface EpisodeReads {
  /** Names in the episode dir itself (`episode.json`, `grade_inputs.json`, ...). */
  readonly files: ReadonlySet<string>;
  /** Whether the step reads `screenshots/` (its step screenshots). */
  readonly screenshots?: boolean;
  /** Whether the step reads `rows/` (every file of it: rows, their images, the copied `episode.json`). */
  readonly rows?: boolean;
}

/**
 * The paths of the symbolic links among the files an episode's step reads: `reads.files` of the episode dir, with
 * `reads.screenshots` the `screenshots` dir itself and its step screenshots, and with `reads.rows` the `rows` dir
 * and its files. A dir that is a link is named itself; its entries are not listed (listing would follow it).
 */
export async function linkedEpisodeFiles(store: FileStore, episode: string, reads: EpisodeReads): Promise<string[]> {
  const dirs = new Set<string>([...(reads.screenshots ? [EPISODE_FILES.screenshots] : []), ...(reads.rows ? [EPISODE_FILES.rows] : [])]);
  const linked: string[] = [];
  const followed: string[] = [];
  for (const e of await store.list(episode)) {
    if (e.isSymbolicLink && (reads.files.has(e.name) || dirs.has(e.name))) linked.push(path.posix.join(episode, e.name));
    else if (e.isDirectory && dirs.has(e.name)) followed.push(e.name);
  }
  for (const dir of followed) {
    const picked = (name: string) => dir === EPISODE_FILES.rows || STEP_SHOT.test(name);
    for (const e of await store.list(path.posix.join(episode, dir))) if (e.isSymbolicLink && picked(e.name)) linked.push(path.posix.join(episode, dir, e.name));
  }
  return linked;
}

/**
 * Refuses an episode one of whose files a step reads ({@link linkedEpisodeFiles}) is a symbolic link: throws an
 * {@link InputError} naming the file (`<file>: episode <id>: a symbolic link, never followed ...`), to be called
 * before anything of the episode is read.
 */
export async function refuseLinkedFiles(store: FileStore, episode: string, reads: EpisodeReads): Promise<void> {
  const [first] = await linkedEpisodeFiles(store, episode, reads);
  if (first !== undefined) throw new InputError({ file: first }, `episode ${path.posix.basename(episode)}: ${SYMBOLIC_LINK_PROBLEM}`);
}
