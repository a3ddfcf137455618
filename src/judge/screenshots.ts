/** Which screenshots of an episode the judge sees: the seed's `_shots`. @module */
import path from 'node:path';
import { nodeStore } from '../files/node';
import type { FileStore } from '../files/types';
import { STEP_SHOT, type EpisodeReads } from '../files/links';
import { pyStrip } from '../core/py/text';
import { EPISODE_FILES, episodeFile } from '../files/layout';
import { InputError } from '../core/errors';
import { readJsonFileIfExists } from '../core/io';
import { EpisodeSchema } from '../core/schemas';

/** Options of {@link pickScreenshots}. */
export interface PickScreenshotsOptions {
  /** Where the episode lives. Default the local disk. */
  readonly store?: FileStore;
  /** How many screenshots at most. Default 10, as the seed; 0 picks none. */
  readonly k?: number;
  /** Which, when there are more than `k`: `seed` (the first quarter, then the end; the default) or `last`. */
  readonly pick?: 'seed' | 'last';
}

const PY_INT = /^[+-]?[0-9]+(?:_[0-9]+)*$/;

// `int(p.stem.split("_")[1])`; undefined where Python's int() would raise.
function stepNumber(name: string): number | undefined {
  const part = pyStrip(name.slice(0, -'.png'.length).split('_')[1] ?? '');
  return PY_INT.test(part) ? Number(part.replace(/_/g, '')) : undefined;
}

/**
 * The seed's choice among `shots` (in episode order): all of them when there are at most `k`, else the first
 * `max(1, k // 4)` and the last `k - head` (the start, then the end of the episode); with `pick: 'last'` the
 * last `k`; none when `k` is 0.
 */
export function chooseScreenshots<T>(shots: readonly T[], k = 10, pick: 'seed' | 'last' = 'seed'): T[] {
  if (k <= 0) return [];
  if (shots.length <= k) return [...shots];
  if (pick === 'last') return shots.slice(-k);
  const head = Math.max(1, Math.floor(k / 4));
  return [...shots.slice(0, head), ...shots.slice(-(k - head))];
}

/**
 * The screenshots the judge sees for an episode dir, as paths, in the seed's order: `screenshots/step_<n>.png`
 * sorted by `n` (numerically), then `final.png`, cut by {@link chooseScreenshots}. A `step_*.png` whose number
 * does not parse (the seed would crash) is left out.
 */
export async function pickScreenshots(episode: string, options: PickScreenshotsOptions = {}): Promise<string[]> {
  return listScreenshots(options.store ?? nodeStore(), episode, options.k, options.pick);
}

/** {@link pickScreenshots} on a given store (the library's internal callers always pass theirs). */
export async function listScreenshots(store: FileStore, episode: string, k = 10, pick: 'seed' | 'last' = 'seed'): Promise<string[]> {
  const dir = episodeFile(episode, 'screenshots');
  const steps: Array<{ name: string; n: number }> = [];
  for (const entry of await store.list(dir)) {
    if (entry.isDirectory || !STEP_SHOT.test(entry.name)) continue;
    const n = stepNumber(entry.name);
    if (n !== undefined) steps.push({ name: entry.name, n });
  }
  steps.sort((a, b) => a.n - b.n); // stable: equal numbers stay in name order
  const shots = steps.map((s) => path.posix.join(dir, s.name));
  const final = episodeFile(episode, 'final');
  if (await store.exists(final)) shots.push(final);
  return chooseScreenshots(shots, k, pick);
}

/**
 * Whether the judge sees an episode through its `final.png` alone because every step screenshot
 * (`screenshots/step_<n>.png`) is gone: `null` when not (a step screenshot is there, `chosen` holds another, or the
 * episode's `episode.json` records no step, so none was ever taken); else the steps its `episode.json` records
 * (`null` when it has none that reads, as in a run of the seed's own harness). `chosen` is what the judge picked.
 */
export async function lostStepScreenshots(store: FileStore, episode: string, chosen: readonly string[]): Promise<{ readonly steps: number | null } | null> {
  const final = episodeFile(episode, 'final');
  if (chosen.length === 0 || chosen.some((shot) => shot !== final)) return null;
  // A variant that picks fewer than all may have left step screenshots out: only the listing tells.
  if ((await listScreenshots(store, episode, Number.MAX_SAFE_INTEGER)).length > chosen.length) return null;
  const steps = await recordedSteps(store, episode);
  return steps === 0 ? null : { steps };
}

const StepsSchema = EpisodeSchema.pick({ steps: true });

// The steps `episode.json` records; `null` when there is none, or it does not read (named elsewhere).
async function recordedSteps(store: FileStore, episode: string): Promise<number | null> {
  try {
    return (await readJsonFileIfExists(store, episodeFile(episode, 'episode'), StepsSchema))?.steps ?? null;
  } catch (error) {
    if (error instanceof InputError) return null;
    throw error;
  }
}

/**
 * The episode's own files the judge reads (its evidence, its identity, the final screenshot; the step screenshots
 * always): an episode with a symbolic link among them is refused (`refuseLinkedFiles`) before anything is read.
 */
export const JUDGE_READS: EpisodeReads = { files: new Set([EPISODE_FILES.gradeInputs, EPISODE_FILES.episode, EPISODE_FILES.final]), screenshots: true };
