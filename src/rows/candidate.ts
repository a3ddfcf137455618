/**
 * The rows step's candidates: a judged success with a rows file that parses, its rows counted; what makes an episode no
 * candidate (no rows file) or a candidate left out (a bad row, an image that is not its file, a judge record of another
 * recording, a symbolic link) named.
 * @module
 */
import path from 'node:path';
import { InputError } from '../core/errors';
import { parseJsonl, readJsonFileIfExists } from '../core/io';
import { pyIsBlank } from '../core/py/text';
import { JudgeRecordSchema, RowSchema } from '../core/schemas';
import { episodeIdOf, judgeRecordState } from '../files/episode-id';
import { EPISODE_FILES, episodeDirOf, episodeFile, judgeRecordFile, ROWS_FILES } from '../files/layout';
import { SYMBOLIC_LINK_PROBLEM, readTextIfExists, type FileStore } from '../files/types';
import { linkedEpisodeFiles, type EpisodeReads } from '../files/links';
import type { TrySource } from './tries';

/** What the rows step found of one judged success. */
export interface Candidate {
  /** Non-blank lines of `rows.jsonl`. */
  readonly rows: number;
  /** Why this judged success is not used. */
  readonly skip?: string;
  /** Its judge record has no episode identity. */
  readonly unbound?: boolean;
  /** Why this judged success is no candidate at all (no rows file, as the seed reads it). */
  readonly missing?: string;
  /** Its `rows.jsonl` starts with a UTF-8 BOM: the copy is written without it (trainers read line 1 as JSON). */
  readonly bom?: boolean;
}

/** An episode's rows dir, `<run>/<task_id>/rows`. */
export function rowsDir(run: string, taskId: string): string {
  return episodeFile(episodeDirOf(run, taskId), 'rows');
}

// What the rows step reads of an episode: its identity, its summary (the provenance) and the whole rows dir (copied).
const ROWS_READS: EpisodeReads = { files: new Set([EPISODE_FILES.episode, EPISODE_FILES.gradeInputs]), rows: true };

// A judged success with a rows file, its rows parsed; undefined for any other task. A file of it that is a
// symbolic link (found in `links`, the run's and judge dir's, or by listing the episode) is never read through.
export async function candidateRows(store: FileStore, { run, judgeDir }: TrySource, links: { run: ReadonlySet<string>; judge: ReadonlySet<string> }, taskId: string): Promise<Candidate | undefined> {
  const recordFile = judgeRecordFile(judgeDir, taskId);
  if (links.judge.has(path.posix.basename(recordFile))) return { rows: 0, missing: `${recordFile}: ${SYMBOLIC_LINK_PROBLEM}: not a candidate` };
  const record = await readJsonFileIfExists(store, recordFile, JudgeRecordSchema);
  if (record?.predicted_label !== 1) return undefined; // the schema admits only the ints 0 and 1
  const episode = episodeDirOf(run, taskId);
  const [link] = links.run.has(taskId) ? [episode] : await linkedEpisodeFiles(store, episode, ROWS_READS);
  if (link !== undefined) return { rows: 0, skip: `${link}: ${SYMBOLIC_LINK_PROBLEM}` };
  const dir = rowsDir(run, taskId);
  const file = path.posix.join(dir, ROWS_FILES.rows);
  const text = await readTextIfExists(store, file);
  // Not a candidate, as in the seed (its report stays the seed's), but named.
  if (text === null) return { rows: 0, missing: `${file}: missing: a judged success without rows (the episode was not recorded whole): not a candidate` };
  const state = await judgeRecordState(store, judgeDir, taskId, await episodeIdOf(store, path.posix.join(run, taskId)));
  if (state === 'stale') {
    return { rows: 0, skip: `${judgeDir}/${taskId}.json: judged another recording of the episode; judge the run again` };
  }
  const entries = await store.list(dir);
  const problem = rowsProblem(text, file, new Set(entries.filter((e) => !e.isDirectory).map((e) => e.name)));
  if (problem !== undefined) return { rows: 0, skip: problem };
  return { rows: countNonBlankLines(text), unbound: state === 'unbound', ...(text.charCodeAt(0) === 0xfeff ? { bom: true } : {}) };
}

// The first problem of a rows file: a line that is not a row, or an image that is not a file of its rows dir.
function rowsProblem(text: string, file: string, files: ReadonlySet<string>): string | undefined {
  try {
    const rows = parseJsonl(text, file, RowSchema, {
      onIssue: (issue) => {
        throw new InputError({ file, line: issue.line }, issue.problem);
      },
    });
    let line = 0;
    for (const [i, raw] of text.split('\n').entries()) {
      if (pyIsBlank(raw)) continue;
      const row = rows[line++]!;
      const image = row.images.findIndex((name) => !files.has(name));
      if (image >= 0) return `${file}:${i + 1}: images.${image}: not a file of the rows dir`;
    }
    return undefined;
  } catch (error) {
    if (error instanceof InputError) return error.message;
    throw error;
  }
}

// `sum(1 for l in text.split("\n") if l.strip())`
function countNonBlankLines(text: string): number {
  let n = 0;
  for (const line of text.split('\n')) if (!pyIsBlank(line)) n++;
  return n;
}
