/**
 * The judge's reward of an episode no verifier grades: the episode judged as `taskgen judge` judges it (its record
 * in `<run>_judge/`), 1 or 0 from the verdict, `null` when the judge gave none.
 * @module
 */
import type { LanguageModel } from '../models/types';
import type { FileStore } from '../files/types';
import { readTextIfExists } from '../files/types';
import { judgeDirOf, judgeRecordFile } from '../files/layout';
import { parseJsonText, parseWith } from '../core/io';
import { JudgeRecordSchema } from '../core/schemas';
import { runJudge } from '../judge/run';

/** Rewards with `llm`'s verdicts; one judging pass at a time, so two episodes of one run dir never race. */
export function judgeReward(llm: LanguageModel, store: FileStore): (input: { readonly run: string; readonly taskId: string }) => Promise<number | null> {
  let chain: Promise<unknown> = Promise.resolve();
  return ({ run, taskId }) => {
    const next = chain.then(async () => {
      await runJudge({ run, llm, workers: 1, store });
      const file = judgeRecordFile(judgeDirOf(run), taskId);
      const text = await readTextIfExists(store, file);
      return text === null ? null : parseWith(JudgeRecordSchema, parseJsonText(text, { file }), { file }).predicted_label;
    });
    chain = next.catch(() => {});
    return next;
  };
}
