/**
 * `taskgen pipeline --judge-lab`: after the pipeline, the judge lab on its human-task run (`<dir>/human`, which
 * has verifier results) with the four preset variants; with `--sandbox` and no judge named, on the stand-in judge,
 * whose variants differ in the ways its module documents.
 * @module
 */
import { PRESET_NAMES } from '../judge/variant';
import { formatLab } from '../lab/format';
import { runJudgeLab } from '../lab/lab';
import type { LanguageModel } from '../models/types';
import { pipelineLayout } from '../pipeline/layout';
import { fileUrl } from './format';
import { labPrinter } from './judge-lab';

/** Runs the lab on `<out>/human` with `judge` and prints its figures; true when every variant judged every episode. */
export async function runPipelineLab(
  out: string,
  judge: LanguageModel,
  options: { readonly standIn: boolean; readonly workers: number; readonly progress: boolean },
): Promise<boolean> {
  const run = pipelineLayout(out).human;
  process.stdout.write(`judge lab on ${run} with the variants ${PRESET_NAMES.join(', ')}\n`);
  const printer = labPrinter({ progress: options.progress });
  const { report, json, html } = await runJudgeLab({ run, llm: judge, workers: options.workers, onEvent: printer.onEvent }).finally(printer.stop);
  const lines = [formatLab(report), `lab.json: ${json}`, `lab.html: ${fileUrl(html)}`];
  if (options.standIn) {
    lines.push(
      'NOTE: STAND-IN JUDGE. The lab judged with the sandbox\'s stand-in judge, not a model: its variants differ in set ways',
      '  (evidence hidden: believes action tasks done; no screenshots: accepts info answers; fewer screenshots: flips some),',
      '  and its tokens are estimates. The figures show the lab working, not how real judges compare.',
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return report.variants.every((v) => v.missing === 0);
}
