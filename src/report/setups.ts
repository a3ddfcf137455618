/**
 * The report's set-up table: when a run or its judge dir holds the outputs of more than one set-up (mixed on
 * purpose, or beside the seed's outputs, which name none), how many episodes and verdicts each one made, so no
 * figure of the page is read as one model's work when it is two.
 * @module
 */
import { readSetups } from '../files/setup';
import { countBySetup, describeSetup } from '../files/setup-counts';
import type { FileStore } from '../files/types';
import type { ReportEpisode } from './gather-episode';
import type { ReportSetupLine } from './types';

/** Per-set-up lines of the run's episodes and judge records; `[]` when each has a single set-up. */
export async function reportSetups(
  store: FileStore,
  dirs: { readonly run: string; readonly judgeDir: string },
  episodes: ReadonlyArray<Pick<ReportEpisode, 'summary' | 'setups'>>,
): Promise<ReportSetupLine[]> {
  const recorded = episodes.filter((e) => e.summary.outcome !== null);
  const judged = episodes.filter((e) => e.summary.verdict !== 'none');
  const stages = [
    { stage: 'attempt' as const, records: await readSetups(store, dirs.run, 'attempt', '.'), items: recorded.map((e) => ({ setup: e.setups.agent, success: e.summary.verifier === true })) },
    { stage: 'judge' as const, records: await readSetups(store, dirs.judgeDir, 'judge', '.'), items: judged.map((e) => ({ setup: e.setups.judge, success: e.summary.verdict === 'success' })) },
  ];
  const lines: ReportSetupLine[] = [];
  for (const { stage, records, items } of stages) {
    const counts = countBySetup(records, items);
    if (counts.length < 2) continue;
    for (const c of counts) lines.push({ stage, setup: describeSetup(c), digest: c.digest, episodes: c.count, success: c.success });
  }
  return lines;
}
