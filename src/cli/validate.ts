/**
 * `taskgen validate RUN`: the judge measured against the task verifiers on a human-task run (the seed's
 * `cmd_validate`). Prints the seed's lines on stdout, then intervals and the per-site and per-kind figures on
 * stderr.
 * @module
 */
import type { Command } from 'commander';
import { checkBeforeSpending } from './doctor';
import { formatJudgeSummary } from '../judge/run';
import { formatUsage } from '../models/usage';
import type { JudgeScoreWithIntervals } from '../core/schemas';
import { formatScore, runValidate } from '../validate';
import { interval } from './format';
import { exitIfUnjudged, judgeOptions, judgePass, type JudgeFlags } from './judge';
import { judgeDirOf, validateFile } from '../files/layout';

function scoreRow(name: string, s: JudgeScoreWithIntervals): string {
  return (
    `${name.padEnd(24)} n=${String(s.episodes).padStart(4)}  precision ${s.precision.toFixed(3)} ${interval(s.precision_ci)}  ` +
    `recall ${s.recall.toFixed(3)} ${interval(s.recall_ci)}  agreement ${s.agreement.toFixed(3)} ${interval(s.agreement_ci)}`
  );
}

/** Registers `taskgen validate`. */
export function register(program: Command): void {
  judgeOptions(
    program
      .command('validate')
      .description(
        'judge a human-task run and score the judge against results_regraded.jsonl (or results.jsonl): agreement, ' +
          'precision, recall with 95% Wilson intervals, per site and task kind, into <run>_judge/_validate.json; ' +
          'the figures cover the judged episodes, and the command exits 1 when some were not judged',
      ),
  ).action(async (run: string, flags: JudgeFlags) => {
    const { options, meter, stop } = await judgePass(flags);
    await checkBeforeSpending({ models: [{ role: 'judge', llm: options.llm }], outDirs: [judgeDirOf(run)] });
    const { report, judged } = await runValidate({ run, ...options }).finally(stop);
    if (report === null) {
      // A shard judges its part; the figures are the whole run's, scored by the pass without a shard.
      process.stdout.write(`${formatJudgeSummary(judged.summary)}\n`);
      process.stderr.write(`shard judged; run \`taskgen validate ${run}\` without a shard once every shard is done to score the judge\n`);
      process.stderr.write(`${formatUsage(meter.summary())}\n`);
      exitIfUnjudged(judged.summary, judged);
      return;
    }
    process.stdout.write(`${formatJudgeSummary(judged.summary)}\n${formatScore(report.overall)}\n`);
    const rows = [
      scoreRow('overall', report.overall),
      ...Object.entries(report.by_site).map(([site, s]) => scoreRow(`site ${site}`, s)),
      ...Object.entries(report.by_kind).map(([kind, s]) => scoreRow(`kind ${kind}`, s)),
    ];
    process.stderr.write(`${rows.join('\n')}\nreport: ${validateFile(judged.judgeDir)}\n`);
    process.stderr.write(`${formatUsage(meter.summary())}\n`);
    exitIfUnjudged(judged.summary, judged);
  });
}
