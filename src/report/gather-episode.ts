/**
 * Reading one episode for the report: its grade inputs, `episode.json`, screenshots, judge record and verifier
 * result, as an {@link ReportEpisodeSummary} for the list and an {@link ReportEpisodeDetail} for the opened episode.
 * Missing files are normal in a partial run and only noted; unreadable ones are also reported as issues.
 * @module
 */
import path from 'node:path';
import { InputError } from '../core/errors';
import { SYMBOLIC_LINK_PROBLEM, type FileStore } from '../files/types';
import { parseJsonText, readJsonFile } from '../core/io';
import { pyNumber } from '../core/py/float';
import { GradeInputsSchema, TaskSchema, type GradeInputs, type Task } from '../core/schemas';
import { MAX_ITEMS, actionView, changeView, clip, isRecord, judgeView, requestView, showValue } from './format';
import { issueOf, type ReportRunData } from './gather-run';
import type { ReportEpisodeDetail, ReportEpisodeSummary, ReportIssue, ReportShot } from './types';
import { EPISODE_FILES } from '../files/layout';
import { judgedSetupOf } from '../files/episode-id';
import { episodeOutcome, recordedOutcome, type EpisodeOutcome } from '../attempt/reward';
import type { Claim } from '../claims/schema';

/** Options of {@link readReportEpisode}. */
export interface ReadReportEpisodeOptions {
  /** Where the run is read from. */
  readonly store: FileStore;
  /** The try the run dir holds (1-based) and its dir relative to the report's run dir (`''`, `_tries/2`). Default try 1. */
  readonly try?: { readonly n: number; readonly href: string };
  /** The run's written verifiers by task id (`writtenFor`), for tasks without a hand-written one. */
  readonly written?: ReadonlyMap<string, Claim>;
  /** Called for each file of the episode that could not be read. */
  readonly onIssue?: (issue: ReportIssue) => void;
}

/** One episode as the report shows it. */
export interface ReportEpisode {
  /** Its line in the episode list. */
  readonly summary: ReportEpisodeSummary;
  /** What the page shows when the episode is opened. */
  readonly detail: ReportEpisodeDetail;
  /** The agent's tokens from `episode.json`; `null` when it records none. */
  readonly usage: { readonly model: string; readonly inputTokens: number; readonly outputTokens: number } | null;
  /** The set-ups that recorded the episode (`setup` of `episode.json`) and wrote its judge record (its binding); `null` when unknown. */
  readonly setups: { readonly agent: string | null; readonly judge: string | null };
}

type EpisodeFile = Exclude<ReportEpisodeDetail['episode'], null> & {
  readonly stepCount: number | null;
  readonly task: Task | null;
  readonly answer: unknown;
  readonly usage: ReportEpisode['usage'];
  readonly setup: string | null;
};

const STEP_SHOT = /^step_(\d+)\.png$/;
// The episode's own files the report reads or links to (the screenshots dir: it lists it and links into it).
const EPISODE_READ: ReadonlySet<string> = new Set([EPISODE_FILES.gradeInputs, EPISODE_FILES.episode, EPISODE_FILES.final, EPISODE_FILES.screenshots]);

/** Reads episode `id` of a run gathered with `readRunForReport`. Never fails on bad content. */
export async function readReportEpisode(data: ReportRunData, id: string, options: ReadReportEpisodeOptions): Promise<ReportEpisode> {
  const { store } = options;
  const dir = path.join(data.run, id);
  const notes: string[] = [];
  const report = (issue: ReportIssue, note: string) => {
    notes.push(`${note}: ${issue.problem}`);
    options.onIssue?.(issue);
  };

  let inputs: GradeInputs | null = null;
  let episode: EpisodeFile | null = null;
  let shots: ReportShot[] = [];
  if (data.dirs.has(id)) {
    const listing = await store.list(dir);
    // A file that is a symbolic link may point anywhere on the machine: it is named, never read nor linked to.
    const linked = (file: string) => report({ file, problem: SYMBOLIC_LINK_PROBLEM }, `${path.basename(file)} not read`);
    for (const e of listing) if (e.isSymbolicLink && EPISODE_READ.has(e.name)) linked(path.join(dir, e.name));
    const entries = new Set(listing.filter((e) => !e.isSymbolicLink).map((e) => e.name));
    if (entries.has(EPISODE_FILES.gradeInputs)) {
      const file = path.join(dir, EPISODE_FILES.gradeInputs);
      inputs = await readJsonFile(store, file, GradeInputsSchema).catch((error: unknown) => {
        report(issueOf(error, file), 'grade_inputs.json could not be read');
        return null;
      });
    } else if (!listing.some((e) => e.name === EPISODE_FILES.gradeInputs)) {
      notes.push('no grade_inputs.json');
    }
    if (entries.has(EPISODE_FILES.episode)) {
      const file = path.join(dir, EPISODE_FILES.episode);
      episode = await readEpisodeFile(store, file).catch((error: unknown) => {
        report(issueOf(error, file), 'episode.json could not be read');
        return null;
      });
    }
    // A screenshots dir that is a link is named above and not listed (listing it would follow it).
    const shotsLinked = listing.some((e) => e.isSymbolicLink && e.name === EPISODE_FILES.screenshots);
    shots = await screenshots(store, shotsLinked ? null : dir, id, options.try?.href ?? '', entries.has(EPISODE_FILES.final), linked);
    if (shots.length === 0) notes.push('no screenshots');
  } else {
    notes.push('no episode dir in the run');
  }

  const task = data.tasks.get(id) ?? episode?.task ?? null;
  const site = task?.site ?? siteFromTaskId(id) ?? '?';
  const kind = task?.task_kind ?? '?';
  const record = data.judge.get(id);
  const judge = record ? judgeView(record) : null;
  const outcome = task ? await verifierOutcome(data, id, task, options, (issue) => report(issue, 'the verifier could not check it')) : null;
  const verifier = outcome ? outcome.success : (data.results.get(id) ?? null);
  const verifierSource = verifier === null ? null : (outcome?.source ?? 'verifier');
  const verdict = judge?.verdict ?? 'none';
  if (!judge) notes.push('not judged');
  const answer = inputs?.answer ?? episode?.answer;

  const n = options.try?.n ?? 1;
  const key = n === 1 ? id : `${id}@${n}`;
  const summary: ReportEpisodeSummary = {
    id,
    key,
    try: n,
    site,
    kind,
    instruction: clip(task?.instruction ?? '', 600),
    verdict,
    verifier,
    verifierSource,
    disagree: verdict !== 'none' && verifier !== null && (verdict === 'success') !== verifier,
    outcome: episode?.outcome || null,
    steps: episode?.stepCount ?? null,
    shots: shots.length,
  };
  const detail: ReportEpisodeDetail = {
    id,
    key,
    try: n,
    task: task ? { instruction: showValue(task.instruction), site, kind, startPath: showValue(task.start_path) } : null,
    episode: episode ? { outcome: episode.outcome, steps: episode.steps, error: episode.error, model: episode.model } : null,
    shots,
    actions: (inputs?.actions ?? []).slice(0, MAX_ITEMS).map(actionView),
    answer: answer === undefined || answer === null ? null : showValue(answer),
    log: (inputs?.log ?? []).slice(0, MAX_ITEMS).map(requestView),
    changes: (inputs?.changes ?? []).slice(0, MAX_ITEMS).map(changeView),
    judge,
    verifier: verifier === null ? null : { ok: verifier, by: verifierBy(verifierSource, outcome?.recorded ?? true, data.resultsFile) },
    notes: [...notes, ...overflowNotes(inputs)],
  };
  const judgeSetup = judge ? await judgedSetupOf(store, data.judgeDir, id) : null;
  return { summary, detail, usage: episode?.usage ?? null, setups: { agent: episode?.setup ?? null, judge: judgeSetup } };
}

/**
 * The episode's verifier result as every reader counts it (`episodeOutcome`: the one reward on its evidence, else the
 * run's recorded result); `recorded` when it is the results file's. A file it cannot read is reported, and the result
 * recorded for the episode (if any) is shown instead.
 */
async function verifierOutcome(
  data: ReportRunData,
  id: string,
  task: Task,
  options: ReadReportEpisodeOptions,
  report: (issue: ReportIssue) => void,
): Promise<{ success: boolean; source: 'verifier' | 'written-verifier'; recorded: boolean } | null> {
  const written = options.written?.get(id) ?? null;
  const recorded = data.results.get(id);
  const dir = path.join(data.run, id);
  let outcome: EpisodeOutcome | null = null;
  try {
    if (data.dirs.has(id)) outcome = await episodeOutcome(options.store, dir, { task, written, verdict: null, recorded });
  } catch (error) {
    report(issueOf(error, path.join(dir, EPISODE_FILES.gradeInputs)));
  }
  const known = outcome?.from ? outcome : recordedOutcome(task, written, recorded);
  return known ? { success: known.success!, source: known.source as 'verifier' | 'written-verifier', recorded: known.from === 'recorded' } : null;
}

/** What gave the verifier result, in words. */
function verifierBy(source: ReportEpisodeSummary['verifierSource'], recorded: boolean, resultsFile: string | null): string {
  const which = source === 'written-verifier' ? 'written verifier (verifiers.jsonl)' : 'hand-written verifier';
  return recorded ? `${which}, as recorded in ${path.basename(resultsFile ?? 'results.jsonl')}` : `${which}, checked on the episode's evidence`;
}

/** The seed's task ids are `tg-<site>-<md5[:8]>`: the site, when nothing else names it. */
export function siteFromTaskId(id: string): string | null {
  return /^tg-(.+)-[0-9a-f]{8}$/.exec(id)?.[1] ?? null;
}

/**
 * `screenshots/step_<n>.png` in step order, then `final.png` (beside them or in the episode dir); links are passed
 * to `linked`, not shown. `dir` null: the screenshots dir is not listed (it is a link), only `final.png` shown.
 */
async function screenshots(store: FileStore, dir: string | null, id: string, tryHref: string, finalInDir: boolean, linked: (file: string) => void): Promise<ReportShot[]> {
  const shotsDir = dir === null ? null : path.join(dir, EPISODE_FILES.screenshots);
  const files = shotsDir === null ? [] : (await store.list(shotsDir)).filter((e) => !e.isDirectory);
  for (const e of files) if (e.isSymbolicLink && (STEP_SHOT.test(e.name) || e.name === EPISODE_FILES.final)) linked(path.join(shotsDir!, e.name));
  const names = files.filter((e) => !e.isSymbolicLink).map((e) => e.name);
  const steps = names
    .map((name) => ({ name, n: STEP_SHOT.exec(name)?.[1] }))
    .filter((s): s is { name: string; n: string } => s.n !== undefined)
    .sort((a, b) => Number(a.n) - Number(b.n) || a.name.length - b.name.length);
  const base = `${tryHref ? `${tryHref}/` : ''}${encodeURIComponent(id)}`;
  const shots: ReportShot[] = steps.map((s) => ({ label: `step ${Number(s.n)}`, href: `${base}/screenshots/${s.name}` }));
  if (finalInDir) shots.push({ label: 'final', href: `${base}/final.png` });
  else if (names.includes(EPISODE_FILES.final)) shots.push({ label: 'final', href: `${base}/screenshots/final.png` });
  return shots;
}

/** `episode.json`, read loosely: the user's harness may write other fields than ours. */
async function readEpisodeFile(store: FileStore, file: string): Promise<EpisodeFile> {
  const value = parseJsonText(await store.readText(file), { file });
  if (!isRecord(value)) throw new InputError({ file }, 'not a JSON object');
  const steps = pyNumber(value.steps);
  const task = TaskSchema.safeParse(value.task);
  const text = (v: unknown) => (v === null || v === undefined ? '' : showValue(v, 2000));
  return {
    outcome: text(value.outcome),
    steps: text(value.steps),
    stepCount: steps === undefined || !Number.isFinite(steps) ? null : steps,
    error: text(value.error),
    model: text(value.model),
    task: task.success ? task.data : null,
    answer: value.answer,
    usage: usageOf(value),
    setup: typeof value.setup === 'string' && value.setup ? value.setup : null,
  };
}

// The policy's tokens as the agent records them (`usage: {inputTokens, outputTokens}`); other harnesses' shapes are ignored.
function usageOf(value: Record<string, unknown>): ReportEpisode['usage'] {
  const u = value.usage;
  if (!isRecord(u)) return null;
  const inputTokens = Number(u.inputTokens);
  const outputTokens = Number(u.outputTokens);
  if (!Number.isFinite(inputTokens) || !Number.isFinite(outputTokens) || inputTokens + outputTokens <= 0) return null;
  return { model: typeof value.model === 'string' && value.model ? value.model : '(unknown)', inputTokens, outputTokens };
}

function overflowNotes(inputs: GradeInputs | null): string[] {
  const notes: string[] = [];
  const lists = { actions: inputs?.actions, requests: inputs?.log, 'data changes': inputs?.changes };
  for (const [what, list] of Object.entries(lists)) {
    if (list && list.length > MAX_ITEMS) notes.push(`${list.length - MAX_ITEMS} more ${what} not shown`);
  }
  return notes;
}
