/** Judging one episode: the seed's `judge_episode`. @module */
import path from 'node:path';
import { bindJudgeRecord, episodeIdOf, judgeRecordStanding, type JudgeRecordState } from '../files/episode-id';
import { InputError } from '../core/errors';
import { nodeStore } from '../files/node';
import type { FileStore } from '../files/types';
import { readJsonFileIfExists } from '../core/io';
import { scrubSecrets } from '../models/errors';
import { stopsStage } from '../models/failures';
import { redactKnownSecrets } from '../core/secrets';
import { LLMError, type ImageInput, type LanguageModel } from '../models/types';
import { assertPlainName } from '../core/names';
import { parsePyJson, pyErrorName } from '../core/py/json';
import { pyDumps } from '../core/py/dumps';
import { isDict, pyDictGet, pyOr, pyStr, pyTypeName } from '../core/py/repr';
import { cpSlice, pyStrip } from '../core/py/text';
import { GradeInputsSchema, JudgeRecordSchema, type JudgeRecord } from '../core/schemas';
import { EvidenceError } from './format';
import { judgePromptParts } from './prompt';
import { JUDGE_READS, listScreenshots, lostStepScreenshots } from './screenshots';
import { refuseLinkedFiles } from '../files/links';
import { PRESETS, fillTemplate, isSeedJudge, type JudgeVariant } from './variant';
import { episodeFile, judgeRecordFile } from '../files/layout';
import { checkEntry } from '../core/check';

/** What the judge model is asked about one episode. */
export interface JudgeRequest {
  /** The judge prompt (byte-identical to the seed's for the seed's judge). */
  readonly prompt: string;
  /** The system prompt. */
  readonly system: string;
  /** The chosen screenshots' paths, in the order they are sent. */
  readonly screenshots: readonly string[];
}

/**
 * Reads `<episode>/grade_inputs.json` and builds the judge prompt and the screenshot list, as `judge_episode`
 * does before calling the model (or as the `variant` asks: its template, parts and screenshots). `null` when the
 * episode has no grade inputs. Bad evidence, or a file of the episode that is a symbolic link, throws an
 * {@link InputError} naming the file (and the field).
 */
export async function buildJudgeRequest(
  episode: string,
  instruction: string,
  options: { readonly store?: FileStore; readonly variant?: JudgeVariant } = {},
): Promise<JudgeRequest | null> {
  const store = options.store ?? nodeStore();
  await refuseLinkedFiles(store, episode, JUDGE_READS);
  return readJudgeRequest(store, episode, instruction, options.variant);
}

/** {@link buildJudgeRequest} on a given store (the library's internal callers always pass theirs). */
export async function readJudgeRequest(store: FileStore, episode: string, instruction: string, variant: JudgeVariant = PRESETS.seed): Promise<JudgeRequest | null> {
  const file = episodeFile(episode, 'gradeInputs');
  const inputs = await readJsonFileIfExists(store, file, GradeInputsSchema);
  if (inputs === null) return null;
  let prompt: string;
  try {
    prompt = fillTemplate(variant.template, judgePromptParts(instruction, inputs, variant.shows));
  } catch (error) {
    if (error instanceof EvidenceError) throw new InputError({ file, field: error.field }, error.problem, { cause: error });
    throw error;
  }
  return { prompt, system: variant.system, screenshots: await listScreenshots(store, episode, variant.screenshots, variant.pick) };
}

/** The two verdicts the judge may give. */
export const VERDICTS = ['SUCCESS', 'NOT SUCCESS'] as const;

/**
 * The verdict of a judge reply as the seed reads it: `str(json.loads(resp or "{}").get("verdict") or "")`,
 * stripped and upper-cased. Throws, as Python would, on a reply that is not JSON or not a JSON object.
 */
export function parseVerdict(reply: string): string {
  const parsed = parsePyJson(reply || '{}');
  if (!isDict(parsed)) throw new AttributeError(`'${pyTypeName(parsed)}' object has no attribute 'get'`);
  return pyStrip(pyStr(pyOr(pyDictGet(parsed, 'verdict'), ''))).toUpperCase();
}

/** Python's AttributeError, so a recorded judge error reads as the seed's does. */
class AttributeError extends Error {
  override readonly name = 'AttributeError';
}

// `f"(judge error {type(e).__name__}: {str(e)[:200]})"`
function judgeError(error: unknown): string {
  const name = error instanceof Error ? pyErrorName(error) : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  return `(judge error ${name}: ${cpSlice(message, 0, 200)})`;
}

/** Options of {@link judgeEpisode}. */
export interface JudgeEpisodeOptions {
  /** The episode dir, `<run>/<task_id>`; its name is the task id. */
  readonly episode: string;
  /** The task's instruction. */
  readonly instruction: string;
  /** Where records go: `<run>_judge` (a variant's: `<run>_judge/lab/<name>`). */
  readonly judgeDir: string;
  /** The judge model. */
  readonly llm: LanguageModel;
  /** The model name written into the record. Default `llm.modelId`. */
  readonly model?: string;
  /** Default the local disk. */
  readonly store?: FileStore;
  /** Attempts at a verdict (per vote). Default 3, as the seed. */
  readonly tries?: number;
  /**
   * The task ids that have a record in `judgeDir`, from one listing of it (what {@link runJudge} passes): only
   * those are read, which spares a failed open per new episode. Default: look for the record file.
   */
  readonly recorded?: ReadonlySet<string>;
  /** The judge set-up. Default the seed's ({@link PRESETS}`.seed`), whose records are the seed's byte for byte. */
  readonly variant?: JudgeVariant;
  /**
   * Whether the record carries, beside the seed's fields, the variant's name, the provider, the votes and the
   * calls and tokens spent (what the lab counts). Default: for every variant but the seed's.
   */
  readonly extraFields?: boolean;
  /**
   * The digest of the judge set-up (`_setup/<digest>.json` of `judgeDir`) that makes the record, written in its
   * binding so that a dir judged with several set-ups counts per set-up. {@link runJudge} passes its own.
   */
  readonly setup?: string;
}

/** How {@link judgeEpisodeDetailed} ended. */
export type JudgeOutcome = 'judged' | 'cached' | 'no-verdict' | 'no-inputs';

/** What one vote (the seed's tries) ended with. */
interface Vote {
  response: string | null;
  /** The last reply's own text, kept to say why it gave no verdict. */
  reply: string | null;
  verdict: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

async function vote(llm: LanguageModel, request: JudgeRequest, images: ImageInput[], tries: number, temperature: number): Promise<Vote> {
  const out: Vote = { response: null, reply: null, verdict: '', calls: 0, inputTokens: 0, outputTokens: 0 };
  for (let i = 0; i < tries; i++) {
    try {
      out.calls++;
      const completion = await llm.complete(request.prompt, { system: request.system, maxTokens: 8192, json: true, temperature, images });
      out.inputTokens += completion.usage.inputTokens;
      out.outputTokens += completion.usage.outputTokens;
      out.response = completion.text;
      out.reply = completion.text;
      out.verdict = parseVerdict(out.response);
      if ((VERDICTS as readonly string[]).includes(out.verdict)) break;
    } catch (error) {
      // A bad key or an unknown model fails every episode alike: the stage stops instead (see StageGuard).
      if (stopsStage(error)) throw error;
      // A blocked, cut or empty reply was billed all the same.
      if (error instanceof LLMError && error.reply?.usage) {
        out.inputTokens += error.reply.usage.inputTokens;
        out.outputTokens += error.reply.usage.outputTokens;
      }
      if (error instanceof LLMError) out.reply = null; // else the reply did not parse, and `reply` holds it
      out.response = judgeError(error);
      out.verdict = '';
      // The adapter already gave a model that hangs a second chance; a third and fourth would only wait longer.
      if (error instanceof LLMError && error.timedOut) break;
    }
  }
  return out;
}

/** SUCCESS by a strict majority of the votes (a tie is NOT SUCCESS), or only when every vote says SUCCESS. */
export function combineVotes(verdicts: readonly string[], combine: 'majority' | 'unanimity'): 'SUCCESS' | 'NOT SUCCESS' {
  const yes = verdicts.filter((v) => v === 'SUCCESS').length;
  const success = combine === 'unanimity' ? yes === verdicts.length && yes > 0 : yes * 2 > verdicts.length;
  return success ? 'SUCCESS' : 'NOT SUCCESS';
}

/** {@link judgeEpisode} with how it ended and how the record on disk stood against the episode before. */
export async function judgeEpisodeDetailed(
  options: JudgeEpisodeOptions & { readonly store: FileStore },
): Promise<{
  record: JudgeRecord | null;
  outcome: JudgeOutcome;
  identity: JudgeRecordState;
  setup: string | null;
  why?: string;
  edited?: boolean;
  textOnly?: boolean;
  /** Judged from `final.png` alone, every step screenshot gone; `steps`: those its `episode.json` records. */
  finalOnly?: { readonly steps: number | null };
}> {
  const { store } = options;
  const variant = options.variant ?? PRESETS.seed;
  const taskId = path.posix.basename(options.episode);
  assertPlainName(taskId, 'task id');
  const dst = judgeRecordFile(options.judgeDir, taskId);
  // Before its identity is hashed from its files: none of them is read through a link.
  await refuseLinkedFiles(store, options.episode, JUDGE_READS);
  const episodeId = await episodeIdOf(store, options.episode);
  const standing: { state: JudgeRecordState; setup: string | null; edited?: boolean } =
    options.recorded && !options.recorded.has(taskId) ? { state: 'none', setup: null } : await judgeRecordStanding(store, options.judgeDir, taskId, episodeId);
  const identity = standing.state;
  // A stale record (its episode was recorded again) is judged again; an unbound one is kept as the seed keeps it,
  // and bound to this episode so a later change is caught.
  const cached = identity === 'current' || identity === 'unbound' ? await readRecord(store, dst) : null;
  if (cached) {
    if (identity === 'unbound' && episodeId !== null) {
      await bindJudgeRecord(store, options.judgeDir, taskId, episodeId, await store.readBytes(dst));
    }
    return { record: cached, outcome: 'cached', identity, setup: standing.setup };
  }
  const setup = options.setup ?? null;
  const edited = standing.edited ? { edited: true } : {};
  const request = await readJudgeRequest(store, options.episode, options.instruction, variant);
  if (!request) return { record: null, outcome: 'no-inputs', identity, setup, ...edited };
  // Every screenshot gone (none left, not even final.png) while the variant shows some: judged from text alone.
  // Or every step screenshot gone, `final.png` left: judged from that alone, as the seed does, and said so.
  const finalOnly = variant.screenshots > 0 ? await lostStepScreenshots(store, options.episode, request.screenshots) : null;
  const flags = {
    ...edited,
    ...(variant.screenshots > 0 && request.screenshots.length === 0 ? { textOnly: true } : {}),
    ...(finalOnly ? { finalOnly } : {}),
  };
  const images: ImageInput[] = await Promise.all(
    request.screenshots.map(async (shot) => ({
      data: await store.readBytes(shot),
      mediaType: 'image/png' as const,
      name: `${taskId}/${path.posix.relative(options.episode, shot)}`,
    })),
  );
  const votes: Vote[] = [];
  for (let i = 0; i < variant.votes; i++) votes.push(await vote(options.llm, request, images, options.tries ?? 3, variant.temperature));
  // Every vote needs a verdict; one without leaves the episode without one, to be judged again on the next pass.
  const ok = votes.every((v) => (VERDICTS as readonly string[]).includes(v.verdict));
  const verdict = ok ? combineVotes(votes.map((v) => v.verdict), variant.combine) : '';
  const record: JudgeRecord = {
    task_id: taskId,
    predicted_label: verdict === 'SUCCESS' ? 1 : 0,
    verdict: ok,
    response: votes.at(-1)!.response,
    model: options.model ?? options.llm.modelId,
    // A variant's record carries what made it: the seed's record stays the seed's, field for field.
    ...((options.extraFields ?? !isSeedJudge(options.variant)) ? variantFields(variant, votes, options.llm.provider) : {}),
  };
  // No verdict: nothing is written, so the next pass judges the episode again. The binding goes first (see
  // bindJudgeRecord); grade inputs were read, so the episode has an id.
  if (ok) {
    const text = pyDumps(record, { indent: 1, ensureAscii: false });
    await bindJudgeRecord(store, options.judgeDir, taskId, episodeId ?? (await episodeIdOf(store, options.episode))!, text, options.setup);
    await store.writeAtomic(dst, text);
  }
  if (ok) return { record, outcome: 'judged', identity, setup, ...flags };
  const failed = votes.find((v) => !(VERDICTS as readonly string[]).includes(v.verdict))!;
  return { record, outcome: 'no-verdict', identity, setup, why: whyNoVerdict(failed), ...flags };
}

// A record on disk; one that holds no verdict (`"predicted_label": NaN`) is the user's to mend, never judged over.
async function readRecord(store: FileStore, file: string): Promise<JudgeRecord | null> {
  try {
    return await readJsonFileIfExists(store, file, JudgeRecordSchema);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new InputError({ file, ...(error.field ? { field: error.field } : {}) }, `${error.problem}: the record holds no verdict; mend it, or delete it to have the episode judged again`, { cause: error });
  }
}

// The reply that held no verdict, as a short excerpt (at most 121 characters, keys removed); or the failed call.
function whyNoVerdict(vote: Vote): string {
  if (vote.reply === null) return `the model call failed: ${vote.response?.replace(/^\(judge error |\)$/g, '') ?? 'no reply'}`;
  // Scrubbed before the cut, so no part of a key is left behind.
  const text = scrubSecrets(redactKnownSecrets(vote.reply)).replace(/\s+/g, ' ').trim();
  const points = [...text];
  const excerpt = points.length > 120 ? `${points.slice(0, 120).join('')}…` : text;
  return `the reply did not parse as a verdict (SUCCESS or NOT SUCCESS): ${text ? JSON.stringify(excerpt) : 'an empty reply'}`;
}

function variantFields(variant: JudgeVariant, votes: readonly Vote[], provider: string) {
  const sum = (k: 'calls' | 'inputTokens' | 'outputTokens') => votes.reduce((n, v) => n + v[k], 0);
  return {
    variant: variant.name,
    provider,
    ...(votes.length > 1 ? { votes: votes.map((v) => v.verdict), responses: votes.map((v) => v.response) } : {}),
    usage: { calls: sum('calls'), input_tokens: sum('inputTokens'), output_tokens: sum('outputTokens') },
  };
}

/**
 * Judges one episode as the seed's `judge_episode`: a record already in `judgeDir` is returned without calling
 * the model; no grade inputs gives `null`; else up to 3 tries (temperature 0, JSON mode, 8,192 tokens, the
 * chosen screenshots as PNG images) until the reply carries a verdict. The record
 * (`{task_id, predicted_label, verdict, response, model}`) is written, as `json.dumps(rec, indent=1,
 * ensure_ascii=False)`, only when there is a verdict; without one it is returned with `verdict: false`.
 * Episode identity (`src/files/episode-id.ts`): the record is bound to the episode it judged in
 * `<judgeDir>/_episodes/<task_id>.json`; a record bound to another episode is stale and judged again.
 * @example
 * const rec = await judgeEpisode({ episode: 'runs/r1/tg-shop-1a2b3c4d', instruction, judgeDir: 'runs/r1_judge', llm });
 */
export async function judgeEpisode(options: JudgeEpisodeOptions): Promise<JudgeRecord | null> {
  checkEntry('judgeEpisode', options);
  return (await judgeEpisodeDetailed({ ...options, store: options.store ?? nodeStore() })).record;
}
