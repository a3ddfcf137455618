/**
 * Writes one episode's directory of the run (DESIGN.md §3) through the file store: screenshots as the
 * episode goes, then `grade_inputs.json`, the rows, and `episode.json` last, so an episode directory without
 * `episode.json` is known to be unfinished.
 * @module
 */
import path from 'node:path';
import type { FileStore } from '../files/types';
import type { Episode, GradeInputs, Row } from '../core/schemas';
import { EPISODE_FILES, stepImageName } from '../files/layout';

/** Everything written when an episode ends. */
export interface EpisodeRecord {
  readonly gradeInputs: GradeInputs;
  readonly rows: readonly Row[];
  readonly episode: Episode;
  /** The agent's steps as its prompt showed them (`agent_steps.json`, beside the seed's files). */
  readonly agentSteps?: unknown;
}


/** Writes one episode directory; screenshots go out in the background while the episode runs. */
export class EpisodeRecorder {
  private readonly writes: Array<Promise<void>> = [];

  constructor(
    private readonly store: FileStore,
    /** The episode directory, `<run>/<task_id>`. */
    readonly dir: string,
  ) {}

  /** Saves the screenshot taken before step `step` (`screenshots/` and `rows/`). */
  screenshot(step: number, png: Uint8Array): void {
    const name = stepImageName(step);
    this.write(`${EPISODE_FILES.screenshots}/${name}`, png);
    this.write(`${EPISODE_FILES.rows}/${name}`, png);
  }

  /** Saves the final state's screenshot. */
  final(png: Uint8Array): void {
    this.write(EPISODE_FILES.final, png);
  }

  /** Waits for the screenshots, then writes the grade inputs, the rows and, last, `episode.json`. */
  async finish(record: EpisodeRecord): Promise<void> {
    await this.flush();
    const json = (value: unknown) => `${JSON.stringify(value, null, 1)}\n`;
    const rows = record.rows.map((r) => JSON.stringify(r)).join('\n');
    await Promise.all([
      this.store.writeAtomic(this.file(EPISODE_FILES.gradeInputs), json(record.gradeInputs)),
      this.store.writeAtomic(this.file(EPISODE_FILES.rowsFile), rows ? `${rows}\n` : ''),
      this.store.writeAtomic(this.file(EPISODE_FILES.rowsEpisode), json(record.episode)),
      ...(record.agentSteps === undefined ? [] : [this.store.writeAtomic(this.file(EPISODE_FILES.agentSteps), json(record.agentSteps))]),
    ]);
    await this.store.writeAtomic(this.file(EPISODE_FILES.episode), json(record.episode));
  }

  /** Waits for the background writes; rejects with the first failure. */
  async flush(): Promise<void> {
    const results = await Promise.allSettled(this.writes.splice(0));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** Removes the directory (an episode that will be redone). */
  async discard(): Promise<void> {
    await Promise.allSettled(this.writes.splice(0));
    await this.store.remove(this.dir);
  }

  private write(name: string, data: Uint8Array): void {
    const p = this.store.writeAtomic(this.file(name), data);
    p.catch(() => {});
    this.writes.push(p);
  }

  private file(name: string): string {
    return path.posix.join(this.dir, name);
  }
}
