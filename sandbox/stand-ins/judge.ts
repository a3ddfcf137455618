/**
 * The stand-in judge: a {@link LanguageModel} that answers the seed's judge prompt by grading the episode with
 * the task's verifier, then flips a set share of verdicts (seeded, per task) to play a fallible judge.
 *
 * What it reads: the prompt's first line (`TASK: <instruction>`); the task's verifier (the run's `tasks.jsonl`
 * line when it has one, else the site's task bank, the site taken from the run's task or the logged paths);
 * and the evidence. Given the run dir it reads the episode's `grade_inputs.json` and grades exactly as the
 * verifier would (state checks on the site's start rows with the recorded changes applied); without it, it parses the answer, the request lines
 * and the change lines out of the prompt (which may have cut them short) and rebuilds the changed rows from the
 * site's own data.
 *
 * It reads only what the prompt shows, and errs in set, documented ways when shown less (so judge variants differ
 * in the lab as a real judge's might; the sizes are the stand-in's settings, not measurements of any model):
 * - evidence hidden (no request log and no data changes: a live-web judge): it cannot check what the session
 *   changed, so on action tasks it believes the agent finished unless the agent's answer reports a failure
 *   (false positives on episodes that stopped early);
 * - no screenshots (the prompt does not say that screenshots follow): it cannot compare an answer with the page, so on information tasks it accepts any answer that
 *   is not empty and not a failure report (false positives on wrong answers);
 * - fewer screenshots than the episode has (given the run dir): it misses steps and flips `missedShotsNoise` of
 *   verdicts (seeded per task).
 * Its noise is seeded per task, so at temperature 0 every vote of an episode flips alike (as a real judge's votes at 0
 * are alike); above 0 each vote flips on its own draw (the episode's n-th call draws with n), so votes can outvote
 * a flip, as sampled votes of a real judge may.
 * With `estimateUsage` it reports estimated tokens (characters / 4, 1,300 per screenshot), so variants differ
 * in tokens as they would; they are estimates, and the stand-in costs nothing.
 * @module
 */
import path from 'node:path';
import { nodeStore, type FileStore, type CompleteOptions, type Completion, type LanguageModel, type Change, type LogEntry, type Task, type Verifier, verifyEpisode, replayState, type EpisodeEvidence, type StartRows } from 'miniweb-taskgen';
import { GradeInputsSchema, TaskSchema, VerifierSchema } from 'miniweb-taskgen/schemas';
import { ZERO_USAGE } from 'miniweb-taskgen/toolkit';
import { defaultCatalog, type SiteCatalog } from '../catalog';
import { allTableRows, openCopy, tableRows } from '../database';
import { STAND_IN_PROVIDER, bankTask, siteOfPath, unitHash } from './lookup';

/** Options of {@link sandboxJudge}. */
export interface SandboxJudgeOptions {
  /** The share of verdicts flipped, 0 to 1. Default 0. */
  readonly noise?: number;
  /** Seeds which verdicts flip. Default 0. */
  readonly seed?: number | string;
  /** The run dir being judged (`tasks.jsonl`, `<task_id>/grade_inputs.json`). */
  readonly runDir?: string;
  /** Where the run dir is read. Default the local disk. */
  readonly store?: FileStore;
  /** The sites' catalog, for the task bank. Default the bundled templates. */
  readonly catalog?: SiteCatalog;
  /** Default `stand-in-judge`. */
  readonly modelId?: string;
  /** The share of verdicts flipped when the judge is sent fewer screenshots than the episode has. Default 0.15. */
  readonly missedShotsNoise?: number;
  /** Report estimated token counts (characters / 4, 1,300 per screenshot) instead of zero. Default false. */
  readonly estimateUsage?: boolean;
}

/** Tokens the stand-in counts per screenshot when it estimates usage (about what a 1280x800 PNG costs a VLM). */
export const STAND_IN_IMAGE_TOKENS = 1300;

// An answer in which the agent says it did not get there (the stand-in agent's own failure reports included).
const FAILURE_ANSWER = /^(stand-in oracle:|I could not|I couldn't|unable|failed)/i;

function section(prompt: string, head: string, next: string): string {
  const start = prompt.indexOf(head);
  if (start < 0) return '';
  const end = prompt.indexOf(next, start + head.length);
  return prompt.slice(start + head.length, end < 0 ? undefined : end).trim();
}

function tryJson(text: string | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The name the seed's `_fmt_changes` gives a row: its `title`, `name`, `subject` or `id`, the first that is set. */
function itemName(row: Record<string, unknown>): string {
  for (const k of ['title', 'name', 'subject', 'id']) {
    const v = row[k];
    if (v !== undefined && v !== null && v !== '' && v !== 0 && v !== false) return String(v);
  }
  return 'None';
}

/**
 * The evidence as the judge prompt shows it (the seed's `_fmt_log` and `_fmt_changes` lines). A change line
 * names its row but shows only the changed fields; `rowsOf(table)`, the table's rows before the episode, lets
 * the row be rebuilt whole (found by that name, then each change applied).
 */
export function evidenceFromPrompt(prompt: string, rowsOf?: (table: string) => Record<string, unknown>[] | undefined): EpisodeEvidence {
  const answer = section(prompt, "AGENT'S FINAL ANSWER:", '\n\nSERVER REQUESTS');
  const log: LogEntry[] = [];
  for (const line of section(prompt, 'SERVER REQUESTS OF THE SESSION (method path, parameters):\n', '\n\nDATA CHANGES').split('\n')) {
    const m = /^([A-Z]+) (\S+)(?: \?(\{.*?\}))?(?: body (.*?))? -> (\S+)$/.exec(line);
    if (m) log.push({ method: m[1], path: m[2], query: tryJson(m[3]) ?? {}, body: tryJson(m[4]) ?? m[4] ?? null, status: Number(m[5]) });
  }
  const current = new Map<string, Record<string, unknown>>();
  const changes: Change[] = [];
  for (const line of section(prompt, 'DATA CHANGES OF THE SESSION:\n', '\n\nTEXT ON SCREEN').split('\n')) {
    const m = /^(create|update|delete) (\S+) \((.*)\): (.*)$/.exec(line);
    if (!m) continue;
    const [, op, table, name] = m as unknown as [string, string, string, string];
    const changed = tryJson(m[4]) ?? {};
    const key = `${table}\u0000${name}`;
    const before = current.get(key) ?? rowsOf?.(table)?.find((r) => itemName(r) === name) ?? {};
    let after: Record<string, unknown> | null = null;
    if (op === 'create') after = changed;
    else if (op === 'update') after = { ...before, ...Object.fromEntries(Object.entries(changed).map(([k, v]) => [k, Array.isArray(v) ? v[1] : v])) };
    if (after) current.set(`${table}\u0000${itemName(after)}`, after);
    changes.push({ table, op, before: op === 'create' ? null : before, after, changed });
  }
  return { answer: answer === '(none)' ? '' : answer, log, changes };
}

/** A site's rows as a fresh session sees them, table by table (read once, then kept). */
export function pristineRows(catalog: SiteCatalog, site: string): (table: string) => Record<string, unknown>[] | undefined {
  const cache = new Map<string, Record<string, unknown>[] | undefined>();
  return (table) => {
    if (!cache.has(table)) {
      const runtime = catalog.site(site);
      const db = runtime ? openCopy(runtime.snapshot, { readonly: true }) : undefined;
      try {
        cache.set(table, db ? tableRows(db, table) : undefined);
      } finally {
        db?.close();
      }
    }
    return cache.get(table);
  };
}

/** Every table of a site as a fresh session sees it: the start rows of each of its episodes. */
export function pristineTables(catalog: SiteCatalog, site: string): StartRows {
  const runtime = catalog.site(site);
  if (!runtime) return {};
  const db = openCopy(runtime.snapshot, { readonly: true });
  try {
    return allTableRows(db);
  } finally {
    db.close();
  }
}

/** A stand-in judge (provider `sandbox-stand-in`): verifier plus seeded noise, in the judge's JSON reply format. */
export function sandboxJudge(options: SandboxJudgeOptions = {}): LanguageModel {
  const modelId = options.modelId ?? 'stand-in-judge';
  const store = options.store ?? nodeStore();
  const noise = options.noise ?? 0;
  const seed = String(options.seed ?? 0);
  const catalog = (): SiteCatalog => options.catalog ?? defaultCatalog();
  // Kept across prompts: a site's snapshot never changes, so its rows are read once per judge, not per prompt.
  const rowsBySite = new Map<string, (table: string) => Record<string, unknown>[] | undefined>();
  const rowsOf = (site: string): ((table: string) => Record<string, unknown>[] | undefined) => {
    let rows = rowsBySite.get(site);
    if (!rows) {
      rows = pristineRows(catalog(), site);
      rowsBySite.set(site, rows);
    }
    return rows;
  };
  // Calls so far per prompt, for the votes drawn at a temperature above 0.
  const calls = new Map<string, number>();
  const tablesBySite = new Map<string, StartRows>();
  const startOf = (site: string): StartRows => {
    let tables = tablesBySite.get(site);
    if (!tables) tablesBySite.set(site, (tables = pristineTables(catalog(), site)));
    return tables;
  };
  let runTasks: Promise<Map<string, Task>> | undefined;
  const tasksOfRun = (): Promise<Map<string, Task>> => {
    runTasks ??= (async () => {
      const map = new Map<string, Task>();
      if (!options.runDir) return map;
      const text = await store.readText(path.join(options.runDir, 'tasks.jsonl')).catch(() => '');
      for (const line of text.split('\n')) {
        const parsed = TaskSchema.safeParse(tryJson(line));
        if (parsed.success) map.set(parsed.data.instruction, parsed.data);
      }
      return map;
    })();
    return runTasks;
  };
  const gradeInputs = async (taskId: string): Promise<EpisodeEvidence | undefined> => {
    if (!options.runDir) return undefined;
    const text = await store.readText(path.join(options.runDir, taskId, 'grade_inputs.json')).catch(() => undefined);
    const parsed = GradeInputsSchema.safeParse(tryJson(text));
    if (!parsed.success) return undefined;
    const g = parsed.data;
    return { answer: typeof g.answer === 'string' ? g.answer : '', log: g.log ?? [], changes: g.changes ?? [] };
  };
  // The episode's screenshots (steps and final), to tell when the judge was sent fewer.
  const shotCount = async (taskId: string): Promise<number> => {
    if (!options.runDir) return 0;
    const steps = await store.list(path.join(options.runDir, taskId, 'screenshots')).catch(() => []);
    const final = (await store.exists(path.join(options.runDir, taskId, 'final.png'))) ? 1 : 0;
    return steps.filter((e) => !e.isDirectory && /^step_.*\.png$/.test(e.name)).length + final;
  };
  return {
    provider: STAND_IN_PROVIDER,
    modelId,
    async complete(prompt: string, call: CompleteOptions = {}): Promise<Completion> {
      const instruction = /^TASK: (.*)$/m.exec(prompt)?.[1] ?? '';
      const task = (await tasksOfRun()).get(instruction);
      const hidesEvidence = !prompt.includes('\nSERVER REQUESTS OF THE SESSION') && !prompt.includes('\nDATA CHANGES OF THE SESSION');
      const recorded = task ? await gradeInputs(task.task_id) : undefined;
      const site = task?.site ?? [...prompt.matchAll(/^[A-Z]+ (\/sites\/\S+)/gm)].map((m) => siteOfPath(m[1] ?? '')).find(Boolean);
      const shown = recorded ?? evidenceFromPrompt(prompt, site ? rowsOf(site) : undefined);
      // The state at the cut, as the verifier reads it: the site's start rows with the episode's changes applied.
      // With the question, start rows and declared consequences, as every verifier grades: an answer checked as an
      // answer (no competing candidate of the asked kind) and no change but the task's and the site's own.
      const graded: EpisodeEvidence = { ...shown, question: instruction };
      const evidence: EpisodeEvidence = site
        ? { ...graded, state: replayState(startOf(site), shown.changes ?? []), start: startOf(site), consequences: catalog().site(site)?.template.consequences ?? [] }
        : graded;
      const own = VerifierSchema.safeParse(task?.verifier);
      const verifier: Verifier | undefined = own.success && task?.verifier ? own.data : site ? (bankTask(catalog(), site, instruction)?.verifier as Verifier | undefined) : undefined;
      let parts: Array<{ part: string; done: boolean; evidence: string }>;
      let ok: boolean;
      if (!verifier) {
        parts = [{ part: instruction, done: false, evidence: 'the stand-in judge knows no verifier for this task' }];
        ok = false;
      } else {
        const result = await verifyEpisode(verifier, evidence);
        parts = result.checks.map((c) => ({ part: c.check, done: c.ok, evidence: c.detail }));
        ok = result.ok;
      }
      const drawKey = `${site ?? ''}:${instruction}`;
      const draw = (call.temperature ?? 0) > 0 ? (calls.get(drawKey) ?? 0) : 0;
      if ((call.temperature ?? 0) > 0) calls.set(drawKey, draw + 1);
      if (unitHash(`${seed}:noise:${drawKey}${draw > 0 ? `:${draw}` : ''}`) < noise) {
        ok = !ok;
        parts.push({ part: 'stand-in judge noise', done: ok, evidence: 'the stand-in judge flipped this verdict on purpose' });
      }
      const kind = task?.task_kind ?? (site ? bankTask(catalog(), site, instruction)?.task_kind : undefined);
      const answer = section(prompt, "AGENT'S FINAL ANSWER:", '\n\n');
      const claimed = answer !== '' && answer !== '(none)' && !FAILURE_ANSWER.test(answer);
      const images = call.images?.length ?? 0;
      if (!ok && hidesEvidence && kind === 'action' && !FAILURE_ANSWER.test(answer)) {
        ok = true;
        parts.push({ part: 'stand-in judge without evidence', done: true, evidence: 'no data changes shown: the stand-in believes the agent finished' });
      }
      if (!ok && !prompt.includes('Screenshots of the episode follow') && kind === 'info' && claimed) {
        ok = true;
        parts.push({ part: 'stand-in judge without screenshots', done: true, evidence: 'no screenshots: the stand-in accepts the answer given' });
      }
      const shots = task && images > 0 ? await shotCount(task.task_id) : 0;
      if (images < shots && unitHash(`${seed}:shots:${site ?? ''}:${instruction}`) < (options.missedShotsNoise ?? 0.15)) {
        ok = !ok;
        parts.push({ part: 'stand-in judge missed steps', done: ok, evidence: `saw ${images} of ${shots} screenshots: the stand-in flipped this verdict` });
      }
      const text = JSON.stringify({ parts, verdict: ok ? 'SUCCESS' : 'NOT SUCCESS' });
      const usage = options.estimateUsage
        ? { inputTokens: Math.ceil((prompt.length + (call.system?.length ?? 0)) / 4) + images * STAND_IN_IMAGE_TOKENS, outputTokens: Math.ceil(text.length / 4) }
        : ZERO_USAGE;
      return { text, usage, model: modelId };
    },
  };
}
