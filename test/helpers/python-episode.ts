/** An episode as the seed's Python writes it, shared by the file-reliability suites. */
import type { Task } from '../../src/index';

export const ID = 'tg-shop-00000001';
export const TASK: Task = {
  kind: 'proposed', task_id: ID, site: 'shop', sites: ['shop'], macro: 'proposed', macros: [],
  instruction: 'buy a lamp', start_path: '/sites/shop/', task_kind: 'action', verifier: null,
};
export const BOM = '\ufeff';

// episode.json as Python's json.dumps writes it: floats for counts and times, NaN where a clock failed.
export function pythonEpisode(task: object = TASK, ms = 'NaN'): string {
  return `{"task": ${JSON.stringify(task)}, "outcome": "done", "steps": 2.0, "answer": null, "timings": {"started": "a", "ended": "b", "ms": ${ms}}, "model": "m", "error": null, "score": -Infinity}\n`;
}
