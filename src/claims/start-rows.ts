/**
 * `<episode>/start_rows.json` (beside the seed's files, which stay as they are): the rows of the tables the site's
 * evidence can read, as the episode's session saw them before its first action. The state at any step prefix is
 * these rows with the session's changes up to it applied, which is what a `state` claim reads. A provider without
 * a state reader records no such file; a state claim is then not checkable.
 * @module
 */
import { z } from 'zod';
import { episodeFile } from '../files/layout';
import type { FileStore } from '../files/types';
import { ConsequenceSchema, type Consequence } from './schema';

/** A table's row. */
export type Row = Readonly<Record<string, unknown>>;

/** The start rows by table name. */
export type StartRows = Readonly<Record<string, ReadonlyArray<Readonly<Record<string, unknown>>>>>;

/** `<episode>/start_rows.json`: `tables` maps each readable table to its rows at the start. */
export const StartRowsSchema = z.looseObject({
  /** The format's version. */
  version: z.literal(1),
  /** Every table the evidence provider could read, with its rows before the first action. */
  tables: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))),
  /** What the site declares it does by itself as a consequence of a task's changes; absent when it declares nothing. */
  consequences: z.array(ConsequenceSchema).optional(),
});
/** The start rows file of one episode. */
export type StartRowsFile = z.infer<typeof StartRowsSchema>;

/** Writes an episode's start rows, and the site's declared consequences when it has any, into its dir (atomically). */
export async function writeStartRows(store: FileStore, dir: string, tables: StartRows, consequences: readonly Consequence[] = []): Promise<void> {
  const file: StartRowsFile = { version: 1, tables: tables as StartRowsFile['tables'], ...(consequences.length ? { consequences: [...consequences] } : {}) };
  await store.writeAtomic(episodeFile(dir, 'startRows'), `${JSON.stringify(file)}\n`);
}
