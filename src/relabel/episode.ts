/**
 * Relabeling one parent episode: the relabeler writes up to K tasks the episode did complete, each claim is
 * checked on the step-tagged evidence, the episode is cut at the first step where it holds (an information task at
 * its answer), the claim is checked again on the cut episode, and the seed's judge judges the cut episode against
 * the new instruction. A claim that does not hold is never judged.
 * @module
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { checkClaim } from '../claims/check';
import { loadStepEvidence } from '../claims/evidence';
import { InputError } from '../core/errors';
import { parseJsonl, readJsonFile, readJsonFileIfExists } from '../core/io';
import { AgentStepsSchema, EpisodeSchema, GradeInputsSchema, RowSchema, type Task } from '../core/schemas';
import { episodeIdOf } from '../files/episode-id';
import { EPISODE_FILES, episodeDirOf, episodeFile, judgeDirOf } from '../files/layout';
import { refuseLinkedFiles, type EpisodeReads } from '../files/links';
import { readTextIfExists, type FileStore } from '../files/types';
import { judgeEpisodeDetailed } from '../judge/episode';
import { listScreenshots } from '../judge/screenshots';
import type { ImageInput, LanguageModel, Usage } from '../models/types';
import { writeCutEpisode, type ParentEpisode } from './cut';
import { SYSTEM_RELABEL, relabelPrompt } from './prompt';
import type { RelabelParent, RelabelProposal } from './record';
import { RenderError } from './render';
import { readRelabelReply, type Proposal } from './reply';

/** What {@link relabelEpisode} needs. */
export interface RelabelEpisodeInput {
  readonly store: FileStore;
  /** The run dir and the parent's task id: the episode is `<run>/<task_id>`. */
  readonly run: string;
  readonly taskId: string;
  /** The relabel dir, `<run>_relabel`. */
  readonly relabelDir: string;
  /** The relabeler. */
  readonly llm: LanguageModel;
  /** The judge. */
  readonly judge: LanguageModel;
  /** The most tasks per episode. */
  readonly k: number;
  /** Tries per model call for a reply that does not parse, or a judgment without a verdict. */
  readonly tries: number;
  /** Screenshots sent to the relabeler. */
  readonly screenshots: number;
  /** The site context text for the prompt, by site (`''` when not at hand). */
  readonly context: (site: string) => Promise<{ name: string; home: string; text: string }>;
  /** The digest of the judge set-up recorded in the relabel dir's judge dir, written in each record's binding. */
  readonly judgeSetup?: string;
}

/** One parent's relabels; `complete: false` when a judgment gave no verdict (a rerun judges it again). */
export async function relabelEpisode(input: RelabelEpisodeInput): Promise<{ record: RelabelParent; complete: boolean }> {
  const { store, taskId } = input;
  const parent = await readParent(store, episodeDirOf(input.run, taskId));
  const task = parent.episode.task;
  const site = await input.context(task.site);
  const proposer = counted(input.llm);
  const judge = counted(input.judge);
  const prompt = relabelPrompt({ name: site.name, home: site.home, context: site.text, instruction: task.instruction, inputs: parent.inputs, k: input.k });
  const images: ImageInput[] = await Promise.all(
    (await listScreenshots(store, parent.dir, input.screenshots)).map(async (shot) => ({ data: await store.readBytes(shot), mediaType: 'image/png' as const, name: `${taskId}/${path.posix.basename(shot)}` })),
  );
  const proposals = await propose(proposer.llm, prompt, images, input);
  let complete = true;
  const out: RelabelProposal[] = [];
  for (const p of proposals) {
    const done = await decide(p, parent, input, judge.llm);
    if (done === null) complete = false;
    else out.push(done);
  }
  const record: RelabelParent = {
    parent_task_id: taskId,
    episode_id: await episodeIdOf(store, parent.dir),
    site: task.site,
    instruction: task.instruction,
    proposer: { model: input.llm.modelId, provider: input.llm.provider, ...proposer.totals },
    judge: { model: input.judge.modelId, provider: input.judge.provider, ...judge.totals },
    proposals: out,
  };
  return { record, complete };
}

async function propose(llm: LanguageModel, prompt: string, images: ImageInput[], input: RelabelEpisodeInput): Promise<Proposal[]> {
  let last: unknown;
  for (let i = 0; i < Math.max(1, input.tries); i++) {
    const reply = await llm.complete(prompt, { system: SYSTEM_RELABEL, json: true, temperature: 0, maxTokens: 8192, images });
    try {
      return readRelabelReply(reply.text, input.k);
    } catch (error) {
      last = error;
    }
  }
  throw new Error(`the relabeler's reply is not a task list after ${input.tries} tries: ${String(last)}`);
}

// One proposal's fate; null when the judge gave no verdict.
async function decide(p: Proposal, parent: ParentEpisode, input: RelabelEpisodeInput, judge: LanguageModel): Promise<RelabelProposal | null> {
  const base = { instruction: p.instruction, kind: p.kind, claim: p.claim, task_id: null, first_step: null, prefix_steps: null, rows: null };
  if (p.claim === null) return { ...base, claim: null, status: 'bad-claim', detail: p.claimProblem ?? 'not a claim' };
  const result = checkClaim(p.claim, parent.evidence, { question: p.instruction });
  if (!result.holds || result.firstStep === null) return { ...base, status: 'claim-failed', detail: result.detail };
  // A claim true of an episode that did nothing, or before the first action, labels nothing the agent did.
  if (result.vacuous !== null) return { ...base, first_step: result.firstStep, status: 'vacuous', detail: `the claim ${result.vacuous}` };
  const answerStep = parent.evidence.answerStep;
  if (p.kind === 'info' && answerStep === null) return { ...base, first_step: result.firstStep, status: 'no-answer', detail: 'an information task, but the episode ended without an answer' };
  const prefix = p.kind === 'info' ? Math.max(answerStep!, result.firstStep) : result.firstStep;
  const task = relabeledTask(parent.episode.task, p, prefix);
  const dir = path.posix.join(input.relabelDir, task.task_id);
  const placed = { ...base, task_id: task.task_id, first_step: result.firstStep, prefix_steps: prefix };
  let rows: number;
  try {
    ({ rows } = await writeCutEpisode({ store: input.store, parent, dir, task, prefix }));
  } catch (error) {
    if (!(error instanceof RenderError)) throw error;
    await input.store.remove(dir);
    return { ...placed, status: 'unrenderable', detail: error.message };
  }
  // The claim again, on the cut episode's own evidence: what the rows will carry must hold there.
  const again = checkClaim(p.claim, await loadStepEvidence(input.store, dir), { question: p.instruction });
  if (again.vacuous !== null) return { ...placed, rows, status: 'vacuous', detail: `on the episode cut at ${prefix}, the claim ${again.vacuous}` };
  if (!again.holds) return { ...placed, rows, status: 'claim-failed', detail: `holds at step ${result.firstStep} but not on the episode cut at ${prefix}: ${again.detail}` };
  // Judged anew even when a killed pass left a record: the parent is the unit of resumption, so its record counts
  // every call it took, as one uninterrupted pass would (a kept record would count none).
  const judged = await judgeEpisodeDetailed({ episode: dir, instruction: task.instruction, judgeDir: judgeDirOf(input.relabelDir), llm: judge, store: input.store, tries: input.tries, recorded: new Set(), ...(input.judgeSetup ? { setup: input.judgeSetup } : {}) });
  if (judged.record === null || !judged.record.verdict) return null;
  const accepted = judged.record.predicted_label === 1;
  return { ...placed, rows, status: accepted ? 'accepted' : 'judged-failure', detail: result.detail };
}

/**
 * A relabeled task: a proposed task's shape and id scheme (`tg-<site>-<md5[:8]>`, the md5 over the parent task id
 * and the instruction, so one instruction relabeled from two episodes stays two tasks), `origin: "relabel"`, the
 * parent and the prefix.
 */
export function relabeledTask(parent: Task, p: Pick<Proposal, 'instruction' | 'kind'>, prefix: number): Task {
  const md5 = createHash('md5').update(`${parent.task_id}\n${p.instruction}`, 'utf8').digest('hex');
  return {
    kind: 'proposed',
    task_id: `tg-${parent.site}-${md5.slice(0, 8)}`,
    site: parent.site,
    sites: [parent.site],
    macro: 'proposed',
    macros: [],
    instruction: p.instruction,
    start_path: parent.start_path,
    task_kind: p.kind,
    verifier: null,
    origin: 'relabel',
    parent_task_id: parent.task_id,
    prefix_steps: prefix,
  };
}

/**
 * What relabeling reads of a parent episode: its files, its screenshots (sent to the relabeler) and its rows dir
 * (re-rendered and copied into the cut episodes, hence into the rows).
 */
const RELABEL_READS: EpisodeReads = {
  files: new Set([EPISODE_FILES.episode, EPISODE_FILES.gradeInputs, EPISODE_FILES.agentSteps, EPISODE_FILES.evidenceSteps, EPISODE_FILES.startRows, EPISODE_FILES.final]),
  screenshots: true,
  rows: true,
};

/**
 * A parent episode's files, read and checked. An episode with a symbolic link among the files relabeling reads is
 * refused (an {@link InputError} naming the file) before anything of it is read or copied.
 */
export async function readParent(store: FileStore, dir: string): Promise<ParentEpisode> {
  await refuseLinkedFiles(store, dir, RELABEL_READS);
  const episode = await readJsonFile(store, episodeFile(dir, 'episode'), EpisodeSchema);
  const inputs = await readJsonFile(store, episodeFile(dir, 'gradeInputs'), GradeInputsSchema);
  const agentSteps = await readJsonFileIfExists(store, episodeFile(dir, 'agentSteps'), AgentStepsSchema);
  const rowsFile = episodeFile(dir, 'rowsFile');
  const text = await readTextIfExists(store, rowsFile);
  const rows = text === null ? [] : parseJsonl(text, rowsFile, RowSchema, { onIssue: (issue) => { throw new InputError({ file: rowsFile, line: issue.line }, issue.problem); } });
  return { dir, episode, inputs, agentSteps, rows, evidence: await loadStepEvidence(store, dir) };
}

// A model whose tokens are counted.
function counted(llm: LanguageModel): { llm: LanguageModel; totals: { calls: number; input_tokens: number; output_tokens: number } } {
  const totals = { calls: 0, input_tokens: 0, output_tokens: 0 };
  const add = (u: Usage) => {
    totals.calls++;
    totals.input_tokens += u.inputTokens;
    totals.output_tokens += u.outputTokens;
  };
  return {
    totals,
    llm: {
      provider: llm.provider,
      modelId: llm.modelId,
      complete: async (prompt, call) => {
        const c = await llm.complete(prompt, call);
        add(c.usage);
        return c;
      },
    },
  };
}
