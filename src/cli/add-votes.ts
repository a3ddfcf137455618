/**
 * What to run when no judge configuration reaches a precision target (`--min-precision`): the variant file of a
 * votes judge and the `taskgen judge` commands that give the run and its scored runs its records, so the next rows
 * step can measure it. Calibration reads records only; these commands are what calls the model.
 * @module
 */
import { nodeStore } from '../files/node';
import { runTries } from '../files/tries';
import type { FileStore } from '../files/types';
import type { LabelsReport } from '../rows';
import { readRecordSets } from '../rows/calibrate';
import { shellQuote } from '../shards/slurm/plan';

/** The most votes a variant file may ask for (`JudgeVariantSpecSchema`). */
const MAX_VOTES = 25;

/** Input of {@link addVotesHint}. */
export interface AddVotesHintInput {
  /** The run whose judge-only rows the target left out. */
  readonly run: string;
  readonly report: LabelsReport;
  /** What selects the rows again, in words (`this taskgen rows command`, `the pipeline with --only rows`). */
  readonly again: string;
  /** The records are the sandbox's stand-in judge's, which `taskgen judge` cannot call: say how to add them in code. */
  readonly standIn?: boolean;
  readonly store?: FileStore;
}

/**
 * The lines that say how to add votes: a variant file with more votes than any configuration measured (at least 3,
 * at temperature 0.7: votes at temperature 0 are alike), `taskgen judge RUN --variant FILE` for the run (every try)
 * and each scored run, with the judge model of the run's records, then the rows step again. Empty when the target
 * was reached.
 */
export async function addVotesHint(input: AddVotesHintInput): Promise<string[]> {
  const { run, report } = input;
  if (report.target === null) return [];
  const store = input.store ?? nodeStore();
  const votes = Math.min(MAX_VOTES, Math.max(3, ...report.configs.map((c) => c.votes + 2)));
  if (report.configs.some((c) => c.votes >= MAX_VOTES)) return [`to add votes: ${MAX_VOTES} votes, the most a variant may ask for, were measured already; score more episodes instead (--scored)`];
  const name = `votes-${votes}`;
  if (input.standIn) {
    return [
      `to add votes: the stand-in judge answers only in code: runJudge({ run, llm: sandboxJudge({ runDir: run }), variant: { ...(await resolveVariant('seed')), name: '${name}', votes: ${votes}, temperature: 0.7 } }) ` +
        `for the run and its scored runs (as bench/labels.bench.ts does), then ${input.again}`,
    ];
  }
  const file = `${name}.json`;
  const model = (await readRecordSets(store, run)).find((s) => s.records === 'judge')?.model;
  const spec = JSON.stringify({ name, base: 'seed', votes, temperature: 0.7 });
  const tries = (await runTries(store, run)).length > 1 ? ' --tries' : '';
  const scored = report.scored.map((s) => s.run).filter((r) => r !== run);
  const judge = (dir: string, more = '') => `  taskgen judge ${shellQuote(dir)} --variant ${file}${model ? ` --model ${shellQuote(model)}` : ''}${more}`;
  return [
    `to add votes: write ${file} holding ${spec}, judge the run${scored.length ? ' and its scored runs' : ''} with it (add the --endpoint and --api-key-env you judged with), then run ${input.again} again:`,
    judge(run, tries),
    ...scored.map((dir) => judge(dir)),
  ];
}
