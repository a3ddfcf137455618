/**
 * A MiniWeb human task graded on a recorded episode: its `verifier.json` ({@link gradeMiniwebVerifier}) on the
 * episode's trail (the pages the agent was on, the last page's text, MiniWeb's recorder stream, the agent's last
 * reasoning), then the footprint rule every reward keeps: an information task may write nothing, an action task
 * only on its own sites, besides the site's declared consequences (MiniWeb's verifiers check requests, never the
 * data). The LLM's decisions on fuzzy checks are kept in the episode dir, so a reader of the episode gets the verdict
 * the attempt step got without a second paid call; a check that needs the LLM where none was given is undecided.
 * @module
 */
import { readJsonFileIfExists } from '../core/io';
import { AgentStepsSchema, type Change, type LogEntry, type Task } from '../core/schemas';
import { episodeFile } from '../files/layout';
import type { FileStore } from '../files/types';
import type { Consequence } from '../claims/schema';
import type { StartRows } from '../claims/start-rows';
import { unrequestedChanges } from '../claims/footprint';
import type { CheckResult } from '../attempt/verify';
import { gradeMiniwebVerifier, isMiniwebVerifier } from './verifier';
import { MiniwebDecisionsSchema, miniwebDecisionsFromJson, miniwebDecisionsToJson, type MiniwebJudge, type MiniwebJudgeDecision } from './verifier-judge';
import { z } from 'zod';

export { isMiniwebVerifier } from './verifier';

/** What MiniWeb's verifiers read of an episode besides its evidence. */
export interface EpisodeTrail {
  /** The pages the agent was on, in order (paths with their query). */
  readonly urls: readonly string[];
  /** The last page's text the agent saw; null when none. */
  readonly lastPageText: string | null;
  /** MiniWeb's recorder stream of the session (`site_record.json`). */
  readonly records: readonly unknown[];
  /** Its beacons. */
  readonly beacons: readonly unknown[];
  /** The agent's last reasoning (a `<think>` block of its last reply); null when none. */
  readonly reasoning: string | null;
}

/** The evidence a MiniWeb task is graded on. */
export interface MiniwebTaskEvidence {
  readonly answer: string | null;
  readonly log: readonly LogEntry[];
  readonly changes: readonly Change[];
  readonly start?: StartRows | null;
  readonly consequences?: readonly Consequence[];
}

/** How fuzzy checks are decided: a judge (paid), and the decisions already made for this episode. */
export interface MiniwebDecisionOptions {
  readonly judge?: MiniwebJudge;
  readonly decided?: Map<string, MiniwebJudgeDecision>;
}

/** A MiniWeb task's verdict: `ok` null when a check needs a judge and none was given. */
export interface MiniwebTaskVerdict {
  readonly ok: boolean | null;
  readonly checks: CheckResult[];
}

/** Grades `task` (whose verifier is MiniWeb's) on the episode (see the module notes). */
export async function gradeMiniwebTask(task: Task, evidence: MiniwebTaskEvidence, trail: EpisodeTrail, options: MiniwebDecisionOptions = {}): Promise<MiniwebTaskVerdict> {
  if (!isMiniwebVerifier(task.verifier)) throw new TypeError(`task ${task.task_id}: its verifier is not MiniWeb's`);
  const graded = await gradeMiniwebVerifier(
    task.verifier,
    {
      answer: evidence.answer,
      question: task.instruction,
      log: [...evidence.log],
      urls: [...trail.urls],
      lastPageText: trail.lastPageText,
      records: [...trail.records],
      beacons: [...trail.beacons],
      reasoning: trail.reasoning,
      start: evidence.start ?? null,
    },
    options,
  );
  const footprint = footprintCheck(task, evidence);
  const checks = [...graded.checks, footprint];
  const ok = !footprint.ok ? false : graded.ok;
  return { ok, checks };
}

// No write but the task's kind allows: none for an information task, on its own sites for an action task.
function footprintCheck(task: Task, evidence: MiniwebTaskEvidence): CheckResult {
  const sites = new Set([task.site, ...task.sites]);
  const info = task.task_kind === 'info';
  const own = info ? [] : evidence.changes.filter((c) => sites.has(String(c.site ?? task.site)));
  const rest = evidence.changes.filter((c) => !own.includes(c));
  const bad = unrequestedChanges(rest, [], { consequences: evidence.consequences ?? [], log: evidence.log });
  return {
    check: info ? 'no change but the site\'s consequences (an information task)' : `no change outside the task's sites (${[...sites].join(', ')}) but the site's consequences`,
    ok: bad.length === 0,
    detail: bad.length ? `unrequested: ${bad.slice(0, 3).map((b) => b.what).join('; ')}${bad.length > 3 ? ` and ${bad.length - 3} more` : ''}` : `${evidence.changes.length} change(s), none unrequested`,
  };
}

/** The agent's last reasoning in its replies: the text of the last `<think>` block; null when none. */
export function lastReasoning(replies: readonly string[]): string | null {
  for (let i = replies.length - 1; i >= 0; i--) {
    const m = /<think>([\s\S]*?)(?:<\/think>|$)/.exec(replies[i]!);
    if (m && m[1]!.trim()) return m[1]!.trim();
  }
  return null;
}

const SiteRecordSchema = z.looseObject({ records: z.array(z.unknown()).default([]), beacons: z.array(z.unknown()).default([]) });

/** An episode dir's trail: its steps (`agent_steps.json`), last page text, `site_record.json`. */
export async function readEpisodeTrail(store: FileStore, dir: string, seen: readonly unknown[]): Promise<EpisodeTrail> {
  const [steps, record] = await Promise.all([
    readJsonFileIfExists(store, episodeFile(dir, 'agentSteps'), AgentStepsSchema),
    readJsonFileIfExists(store, episodeFile(dir, 'siteRecord'), SiteRecordSchema),
  ]);
  const last = seen.at(-1);
  return {
    urls: (steps?.steps ?? []).map((s) => s.url),
    lastPageText: typeof last === 'string' ? last : last === undefined ? null : JSON.stringify(last),
    records: record?.records ?? [],
    beacons: record?.beacons ?? [],
    reasoning: lastReasoning((steps?.steps ?? []).map((s) => s.raw)),
  };
}

/** The judge's decisions recorded for an episode (`verifier_decisions.json`); empty when none. */
export async function readDecisions(store: FileStore, dir: string): Promise<Map<string, MiniwebJudgeDecision>> {
  const file = episodeFile(dir, 'verifierDecisions');
  const got = await readJsonFileIfExists(store, file, MiniwebDecisionsSchema);
  return got ? miniwebDecisionsFromJson(got, file) : new Map();
}

/** Writes an episode's judge decisions (atomically); nothing when there are none. */
export async function writeDecisions(store: FileStore, dir: string, decided: ReadonlyMap<string, MiniwebJudgeDecision>): Promise<void> {
  if (decided.size) await store.writeAtomic(episodeFile(dir, 'verifierDecisions'), `${JSON.stringify(miniwebDecisionsToJson(decided))}\n`);
}
