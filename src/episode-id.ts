/**
 * Episode identity (DESIGN.md §9), at the signature branch `rel-data` owns. This is export's stand-in until that
 * branch lands (its module replaces this one whole): an episode's id is a digest of its `episode.json`, which is
 * written last and anew whenever the episode is recorded again; the id a judge record was made from is kept in
 * `<judgeDir>/<task_id>.episode_id` beside the seed's record, which stays byte-identical.
 * @module
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { readTextIfExists, type FileStore } from './fs/types';
import { assertPlainName } from './names';

/** The identity of the episode recorded in `episodeDir`: a short hex digest; null when there is no episode. */
export async function episodeIdOf(store: FileStore, episodeDir: string): Promise<string | null> {
  const text = await readTextIfExists(store, path.posix.join(episodeDir, 'episode.json'));
  return text === null ? null : createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The identity of the episode the judge record of `taskId` was made from; null when none was kept. */
export async function judgedEpisodeIdOf(store: FileStore, judgeDir: string, taskId: string): Promise<string | null> {
  assertPlainName(taskId, 'task id');
  const text = await readTextIfExists(store, path.posix.join(judgeDir, `${taskId}.episode_id`));
  return text === null ? null : text.trim() || null;
}
