/**
 * Where a run's tasks come from: a JSONL file of tasks (the library's format), or a directory of MiniWeb's annotated
 * tasks (`task.json` dirs, read by {@link readMiniwebTasks}). One reader for every flag and option that takes tasks.
 * @module
 */
import { readJsonl, type ReadJsonlOptions } from '../core/io';
import { TaskSchema, type Task } from '../core/schemas';
import type { FileStore } from '../files/types';
import { readMiniwebTasks } from './tasks';

/** The tasks at `path`: a directory is read as MiniWeb's tasks, anything else as a tasks JSONL file. */
export async function readTaskSource(store: FileStore, path: string, options: Pick<ReadJsonlOptions, 'onIssue'> = {}): Promise<Task[]> {
  // A file, or a path that is not there, lists nothing (or throws ENOTDIR): read as JSONL, whose error names it.
  const entries = await store.list(path).catch(() => []);
  if (entries.length > 0) return await readMiniwebTasks(path, { store });
  return await readJsonl(store, path, TaskSchema, options);
}
