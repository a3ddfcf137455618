/**
 * Judge configurations measured on the run's scored sets: every set of judge records the runs have (the judge's own,
 * `<run>_judge/`, and each judge-lab variant's, `<run>_judge/lab/<variant>/`), read with each agreement threshold
 * of their votes (SUCCESS when at least `a` of `k` votes say so; a split below that abstains), scored against the
 * verifiers (precision with its 95% Wilson interval) and counted on the run's judge-only candidates. Reads records
 * only: no model is called.
 * @module
 */
import path from 'node:path';
import { readJsonFileIfExists } from '../core/io';
import { JudgeRecordSchema } from '../core/schemas';
import { episodeIdOf, judgeRecordState } from '../files/episode-id';
import { episodeDirOf, judgeDirOf, judgeRecordFile, labDirOf } from '../files/layout';
import type { FileStore } from '../files/types';
import { judgedIds } from '../judge/run';
import { wilsonInterval } from '../validate';
import type { JudgeConfig, Precision } from './labels-format';

/** One episode's votes: how many said SUCCESS, of how many. */
export interface VoteTally {
  readonly yes: number;
  readonly k: number;
}

/** A run's records of one judge set-up, as vote tallies by task id. */
export interface RecordSet {
  readonly records: 'judge' | 'lab';
  readonly variant: string;
  /** The judge model of its records (the first record's): a scored set measures only records of the same model. */
  readonly model: string;
  readonly tallies: ReadonlyMap<string, VoteTally>;
}

/**
 * The judge records of a run: its own judge's and each lab variant's, each record read as a tally of its votes
 * (`votes` when the record has several, else its one verdict). A record made from another recording of the episode
 * (stale) or that does not parse is not read.
 */
export async function readRecordSets(store: FileStore, run: string): Promise<RecordSet[]> {
  const main = judgeDirOf(run);
  if (!(await store.exists(main))) return [];
  const lab = labDirOf(run);
  const variants = (await store.exists(lab)) ? (await store.list(lab)).filter((e) => e.isDirectory && !e.name.startsWith('_')).map((e) => e.name).sort() : [];
  const sets: RecordSet[] = [];
  const own = await readTallies(store, run, main);
  if (own.tallies.size > 0) sets.push({ records: 'judge', variant: own.variant ?? 'seed', model: own.model ?? '', tallies: own.tallies });
  for (const variant of variants) {
    const read = await readTallies(store, run, path.posix.join(lab, variant));
    if (read.tallies.size > 0) sets.push({ records: 'lab', variant, model: read.model ?? '', tallies: read.tallies });
  }
  return sets;
}

async function readTallies(store: FileStore, run: string, dir: string): Promise<{ variant: string | undefined; model: string | undefined; tallies: Map<string, VoteTally> }> {
  const tallies = new Map<string, VoteTally>();
  let variant: string | undefined;
  let model: string | undefined;
  for (const taskId of [...(await judgedIds(store, dir))].sort()) {
    const record = await readJsonFileIfExists(store, judgeRecordFile(dir, taskId), JudgeRecordSchema).catch(() => null);
    if (!record || !record.verdict) continue;
    const episodeId = await episodeIdOf(store, episodeDirOf(run, taskId));
    if ((await judgeRecordState(store, dir, taskId, episodeId)) === 'stale') continue;
    if (typeof record.variant === 'string') variant ??= record.variant;
    model ??= record.model;
    const votes = Array.isArray(record.votes) && record.votes.length > 1 ? (record.votes as unknown[]) : null;
    tallies.set(taskId, votes ? { yes: votes.filter((v) => v === 'SUCCESS').length, k: votes.length } : { yes: record.predicted_label, k: 1 });
  }
  return { variant, model, tallies };
}

/** A judge configuration: a record set's variant read with `threshold` of `votes`. */
export interface ConfigKey {
  readonly records: 'judge' | 'lab';
  readonly variant: string;
  readonly votes: number;
  readonly threshold: number;
}

/** A configuration's name: `<variant> <a>/<k>`, `lab:` before a lab variant's. */
export function configName(c: ConfigKey): string {
  return `${c.records === 'lab' ? 'lab:' : ''}${c.variant} ${c.threshold}/${c.votes}`;
}

/** What a configuration says of an episode: SUCCESS, NOT SUCCESS, or abstain (votes split short of the threshold). */
export function verdictOf(t: VoteTally, c: ConfigKey): 'yes' | 'no' | 'abstain' | undefined {
  if (t.k !== c.votes) return undefined;
  if (t.yes >= c.threshold) return 'yes';
  return t.yes <= t.k - c.threshold ? 'no' : 'abstain';
}

/** The configurations a record set gives: each vote count its records have, each threshold above half of it. */
export function configsOf(set: RecordSet): ConfigKey[] {
  const ks = [...new Set([...set.tallies.values()].map((t) => t.k))].sort((a, b) => a - b);
  return ks.flatMap((k) => Array.from({ length: k - Math.floor(k / 2) }, (_, i) => ({ records: set.records, variant: set.variant, votes: k, threshold: Math.floor(k / 2) + 1 + i })));
}

/** The run's own judge as it judged (a strict majority of its votes): the configuration of rows chosen without a target. */
export function asJudged(set: RecordSet): ConfigKey | undefined {
  const k = Math.max(0, ...[...set.tallies.values()].map((t) => t.k));
  return k > 0 ? { records: set.records, variant: set.variant, votes: k, threshold: Math.floor(k / 2) + 1 } : undefined;
}

/** A scored set: a run's verifier results and its record sets. */
export interface ScoredSet {
  readonly run: string;
  readonly results: ReadonlyMap<string, boolean>;
  readonly sets: readonly RecordSet[];
}

/** Precision of `right` of `n`, with its interval and set; null for `n` 0. */
export function precisionOf(right: number, n: number, set: string): Precision | null {
  const interval = wilsonInterval(right, n);
  return interval ? { right, n, precision: Math.round((right / n) * 1000) / 1000, interval, set } : null;
}

/**
 * Every configuration the training run's records give, measured on the scored sets (pooled) and counted on the
 * run's judge-only candidates (`candidates`: key to its rows). `tallyOf` finds a candidate's votes in the records of
 * the configuration's set-up (default: the set's own, by key); a candidate of a try past the first has them in its
 * try's records.
 */
export function measureConfigs(
  run: readonly RecordSet[],
  scored: readonly ScoredSet[],
  candidates: ReadonlyMap<string, number>,
  tallyOf: (key: string, set: RecordSet) => VoteTally | undefined = (key, set) => set.tallies.get(key),
): JudgeConfig[] {
  const out: JudgeConfig[] = [];
  for (const set of run) {
    for (const key of configsOf(set)) {
      let tp = 0;
      let fp = 0;
      let abstained = 0;
      for (const s of scored) {
        const same = s.sets.find((r) => r.records === key.records && r.variant === key.variant && r.model === set.model);
        if (!same) continue;
        for (const [taskId, ok] of s.results) {
          const tally = same.tallies.get(taskId);
          const v = tally && verdictOf(tally, key);
          if (v === 'yes' && ok) tp++;
          else if (v === 'yes') fp++;
          else if (v === 'abstain') abstained++;
        }
      }
      let episodes = 0;
      let rows = 0;
      for (const [candidate, n] of candidates) {
        const tally = tallyOf(candidate, set);
        if (tally && verdictOf(tally, key) === 'yes') {
          episodes++;
          rows += n;
        }
      }
      const sets = scored.map((s) => path.posix.basename(s.run)).join(' + ');
      out.push({ name: configName(key), ...key, tp, fp, abstained, precision: precisionOf(tp, tp + fp, `judge SUCCESS verdicts on the scored sets (${sets}) against their verifiers`), episodes, rows });
    }
  }
  return out;
}

/**
 * The configuration with the most judge-only rows whose lower 95% bound on precision is at least `target` (ties:
 * the higher bound); undefined when none reaches it.
 */
export function chooseConfig(configs: readonly JudgeConfig[], target: number): JudgeConfig | undefined {
  const reaching = configs.filter((c) => c.precision !== null && c.precision.interval[0] >= target);
  reaching.sort((a, b) => b.rows - a.rows || b.precision!.interval[0] - a.precision!.interval[0] || a.name.localeCompare(b.name));
  return reaching[0];
}

/** Why no configuration reaches `target`: the best lower bound there was, or that nothing was measured. */
export function shortOfTarget(configs: readonly JudgeConfig[], target: number): string {
  const measured = configs.filter((c) => c.precision !== null);
  if (measured.length === 0) {
    return `no judge configuration reaches the precision target ${target}: none could be measured (no judged SUCCESS on a scored set with verifier results): no judge-only rows selected`;
  }
  const best = measured.reduce((a, b) => (b.precision!.interval[0] > a.precision!.interval[0] ? b : a));
  const p = best.precision!;
  return (
    `no judge configuration reaches the precision target ${target}: the best lower 95% bound is ${p.interval[0]} ` +
    `(${best.name}: ${p.right} of ${p.n} right on the scored sets); no judge-only rows selected. More scored episodes or more votes narrow the interval`
  );
}
