/** Judging one episode: the seed's `judge_episode`. @module */
import path from 'node:path';
import { bindJudgeRecord, episodeIdOf, judgeRecordState, type JudgeRecordState } from '../episode-id';
import { InputError } from '../errors';
import { nodeStore } from '../fs/node';
import type { FileStore } from '../fs/types';
import { readJsonFileIfExists } from '../io';
import { stopsStage } from '../failures';
import { LLMError, type ImageInput, type LanguageModel } from '../llm/types';
import { assertPlainName } from '../names';
import { parsePyJson, pyDumps, pyErrorName } from '../py/json';
import { isDict, pyDictGet, pyOr, pyStr, pyTypeName } from '../py/repr';
import { cpSlice, pyStrip } from '../py/text';
import { GradeInputsSchema, JudgeRecordSchema, type JudgeRecord } from '../schemas';
import { EvidenceError } from './format';
import { SYSTEM_JUDGE, judgePrompt } from './prompt';
import { pickScreenshots } from './screenshots';

/** What the judge model is asked about one episode. */
export interface JudgeRequest {
  /** The judge prompt (byte-identical to the seed's). */
  readonly prompt: string;
  /** The chosen screenshots' paths, in the order they are sent. */
  readonly screenshots: readonly string[];
}

/**
 * Reads `<episode>/grade_inputs.json` and builds the judge prompt and the screenshot list, as `judge_episode`
 * does before calling the model. `null` when the episode has no grade inputs. Bad evidence throws an
 * {@link InputError} naming the file and the field.
 */
export async function buildJudgeRequest(
  episode: string,
  instruction: string,
  options: { readonly store?: FileStore } = {},
): Promise<JudgeRequest | null> {
  const store = options.store ?? nodeStore();
  const file = path.posix.join(episode, 'grade_inputs.json');
  const inputs = await readJsonFileIfExists(store, file, GradeInputsSchema);
  if (inputs === null) return null;
  let prompt: string;
  try {
    prompt = judgePrompt(instruction, inputs);
  } catch (error) {
    if (error instanceof EvidenceError) throw new InputError({ file, field: error.field }, error.problem, { cause: error });
    throw error;
  }
  return { prompt, screenshots: await pickScreenshots(episode, { store }) };
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
  /** Where records go: `<run>_judge`. */
  readonly judgeDir: string;
  /** The judge model. */
  readonly llm: LanguageModel;
  /** The model name written into the record. Default `llm.modelId`. */
  readonly model?: string;
  /** Default the local disk. */
  readonly store?: FileStore;
  /** Attempts at a verdict. Default 3, as the seed. */
  readonly tries?: number;
  /**
   * The task ids that have a record in `judgeDir`, from one listing of it (what {@link judgeRun} passes): only
   * those are read, which spares a failed open per new episode. Default: look for the record file.
   */
  readonly recorded?: ReadonlySet<string>;
}

/** How {@link judgeEpisodeDetailed} ended. */
export type JudgeOutcome = 'judged' | 'cached' | 'no-verdict' | 'no-inputs';

/** {@link judgeEpisode} with how it ended and how the record on disk stood against the episode before. */
export async function judgeEpisodeDetailed(
  options: JudgeEpisodeOptions,
): Promise<{ record: JudgeRecord | null; outcome: JudgeOutcome; identity: JudgeRecordState }> {
  const store = options.store ?? nodeStore();
  const taskId = path.posix.basename(options.episode);
  assertPlainName(taskId, 'task id');
  const dst = path.posix.join(options.judgeDir, `${taskId}.json`);
  const episodeId = await episodeIdOf(store, options.episode);
  const identity: JudgeRecordState =
    options.recorded && !options.recorded.has(taskId) ? 'none' : await judgeRecordState(store, options.judgeDir, taskId, episodeId);
  // A stale record (its episode was recorded again) is judged again; an unbound one is kept as the seed keeps it,
  // and bound to this episode so a later change is caught.
  const cached = identity === 'current' || identity === 'unbound' ? await readJsonFileIfExists(store, dst, JudgeRecordSchema) : null;
  if (cached) {
    if (identity === 'unbound' && episodeId !== null) {
      await bindJudgeRecord(store, options.judgeDir, taskId, episodeId, await store.readBytes(dst));
    }
    return { record: cached, outcome: 'cached', identity };
  }
  const request = await buildJudgeRequest(options.episode, options.instruction, { store });
  if (!request) return { record: null, outcome: 'no-inputs', identity };
  const images: ImageInput[] = await Promise.all(
    request.screenshots.map(async (shot) => ({
      data: await store.readBytes(shot),
      mediaType: 'image/png' as const,
      name: `${taskId}/${path.posix.relative(options.episode, shot)}`,
    })),
  );
  let response: string | null = null;
  let verdict = '';
  for (let i = 0; i < (options.tries ?? 3); i++) {
    try {
      const completion = await options.llm.complete(request.prompt, {
        system: SYSTEM_JUDGE,
        maxTokens: 8192,
        json: true,
        temperature: 0,
        images,
      });
      response = completion.text;
      verdict = parseVerdict(response);
      if ((VERDICTS as readonly string[]).includes(verdict)) break;
    } catch (error) {
      // A bad key or an unknown model fails every episode alike: the stage stops instead (see StageGuard).
      if (stopsStage(error)) throw error;
      response = judgeError(error);
      verdict = '';
      // The adapter already gave a model that hangs a second chance; a third and fourth would only wait longer.
      if (error instanceof LLMError && error.timedOut) break;
    }
  }
  const ok = (VERDICTS as readonly string[]).includes(verdict);
  const record: JudgeRecord = {
    task_id: taskId,
    predicted_label: verdict === 'SUCCESS' ? 1 : 0,
    verdict: ok,
    response,
    model: options.model ?? options.llm.modelId,
  };
  // No verdict: nothing is written, so the next pass judges the episode again. The binding goes first (see
  // bindJudgeRecord); grade inputs were read, so the episode has an id.
  if (ok) {
    const text = pyDumps(record, { indent: 1, ensureAscii: false });
    await bindJudgeRecord(store, options.judgeDir, taskId, episodeId ?? (await episodeIdOf(store, options.episode))!, text);
    await store.writeAtomic(dst, text);
  }
  return { record, outcome: ok ? 'judged' : 'no-verdict', identity };
}

/**
 * Judges one episode as the seed's `judge_episode`: a record already in `judgeDir` is returned without calling
 * the model; no grade inputs gives `null`; else up to 3 tries (temperature 0, JSON mode, 8,192 tokens, the
 * chosen screenshots as PNG images) until the reply carries a verdict. The record
 * (`{task_id, predicted_label, verdict, response, model}`) is written, as `json.dumps(rec, indent=1,
 * ensure_ascii=False)`, only when there is a verdict; without one it is returned with `verdict: false`.
 * Episode identity (`src/episode-id.ts`): the record is bound to the episode it judged in
 * `<judgeDir>/_episodes/<task_id>.json`; a record bound to another episode is stale and judged again.
 * @example
 * const rec = await judgeEpisode({ episode: 'runs/r1/tg-shop-1a2b3c4d', instruction, judgeDir: 'runs/r1_judge', llm });
 */
export async function judgeEpisode(options: JudgeEpisodeOptions): Promise<JudgeRecord | null> {
  return (await judgeEpisodeDetailed(options)).record;
}
