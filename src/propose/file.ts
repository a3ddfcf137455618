/**
 * Resuming a tasks file: which sites it already holds, and what to keep of a file a crash left torn.
 * @module
 */
import { z } from 'zod';
import { InputError } from '../core/errors';
import { readTextIfExists, type FileStore } from '../files/types';
import { parseJsonText, parseWith } from '../core/io';
import { pyIsBlank } from '../core/py/text';

/** What reading an existing tasks file reports. */
export type TasksFileEvent =
  /** The file already holds these sites (in file order); they are kept and not proposed again. */
  | { readonly type: 'resumed'; readonly file: string; readonly sites: readonly string[] }
  /**
   * The last line was cut short by a crash: it is dropped, and so is `dropped` (the trailing lines of the site
   * being written when the crash came), which is proposed again.
   */
  | {
      readonly type: 'torn-line';
      readonly file: string;
      readonly line: number;
      readonly dropped: { readonly site: string; readonly lines: number } | null;
    };

/** The part of an existing tasks file to keep. */
export interface TasksFile {
  /** The text to keep, every line ending with a newline. */
  readonly text: string;
  /** The sites it holds, in first-seen order. */
  readonly sites: string[];
}

const SiteLineSchema = z.looseObject({ site: z.string() });
const SITE_FIELD = /"site": "((?:[^"\\]|\\.)*)"/;

/**
 * Reads the tasks file `file` for resuming (missing: empty). Sites in it are done, as in the seed. A bad line
 * throws an `InputError` (`file:line: field`). A torn last line (no newline, not JSON) is reported and dropped;
 * the seed appends a site's lines in one write, so the lines just before a torn line may be a site's incomplete
 * block: they are dropped too, unless the torn fragment names another site (then it began a new block and the
 * lines before it are whole). Files written by {@link runPropose} are replaced atomically and never torn.
 * When something is dropped, the file is rewritten (atomically) without it, so it never keeps a partial site.
 */
export async function readTasksFile(
  store: FileStore,
  file: string,
  onEvent?: (event: TasksFileEvent) => void,
): Promise<TasksFile> {
  const text = await readTextIfExists(store, file);
  if (text === null) return { text: '', sites: [] };
  const lines = text.split('\n');
  const last = lines.pop()!; // what follows the last newline: '' when the file ends with one
  const entries = lines.map((line, i) => ({ line, site: siteOf(line, file, i + 1) }));
  let torn: TasksFileEvent | undefined;
  if (!pyIsBlank(last)) {
    const lineNo = lines.length + 1;
    const value = tryJson(last, { file, line: lineNo });
    if (value === TORN) torn = { type: 'torn-line', file, line: lineNo, dropped: dropPartialBlock(entries, last) };
    else entries.push({ line: last, site: parseWith(SiteLineSchema, value, { file, line: lineNo }).site }); // only its newline missing
  }
  const kept = entries.map((e) => `${e.line}\n`).join('');
  const sites = [...new Set(entries.flatMap((e) => (e.site === null ? [] : [e.site])))];
  if (torn) {
    onEvent?.(torn);
    await store.writeAtomic(file, kept);
  }
  if (sites.length) onEvent?.({ type: 'resumed', file, sites });
  return { text: kept, sites };
}

const TORN = Symbol('torn');
function tryJson(text: string, where: { file: string; line?: number }): unknown {
  try {
    return parseJsonText(text, where);
  } catch (error) {
    if (error instanceof InputError) return TORN;
    throw error;
  }
}

// The site of a line, or null for a blank one; a line that is not JSON or has no site throws an InputError.
function siteOf(line: string, file: string, lineNo: number): string | null {
  if (pyIsBlank(line)) return null;
  const where = { file, line: lineNo };
  return parseWith(SiteLineSchema, parseJsonText(line, where), where).site;
}

// Removes the trailing lines of the last site from `entries` unless the torn fragment names another site.
function dropPartialBlock(entries: Array<{ line: string; site: string | null }>, fragment: string): { site: string; lines: number } | null {
  let end = entries.length;
  while (end > 0 && entries[end - 1]!.site === null) end--;
  if (end === 0) return null;
  const site = entries[end - 1]!.site!;
  const named = SITE_FIELD.exec(fragment);
  const other = named ? tryJson(`"${named[1]}"`, { file: '' }) : TORN;
  if (other !== TORN && other !== site) return null;
  let start = end;
  while (start > 0 && (entries[start - 1]!.site === site || entries[start - 1]!.site === null)) start--;
  const lines = entries.splice(start).filter((e) => e.site !== null).length;
  return { site, lines };
}
