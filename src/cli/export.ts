/**
 * `taskgen export RUN --out DIR`: the run as a Hugging Face dataset folder (configs `steps` and `episodes` as
 * Parquet shards, a `README.md` dataset card). Prints the folder and its counts; progress on stderr.
 * @module
 */
import type { Command } from 'commander';
import { runExport } from '../export/dataset';
import { integer } from './flags';

interface ExportFlags {
  out: string;
  rows?: string;
  validate?: string;
  humanRun?: string;
  runId?: string;
  proposerModel?: string;
  judgeVariant?: string;
  shardSteps: number;
  shardEpisodes: number;
  rowGroup: number;
  overwrite: boolean;
}

/** Registers `taskgen export`. */
export function register(program: Command): void {
  program
    .command('export')
    .description(
      'write the run as a Hugging Face dataset folder: data/steps/ (training rows in chat form with screenshots), ' +
        'data/episodes/ (every episode, successes and failures) as Parquet, and a README.md dataset card; every row ' +
        'carries its provenance, and a row whose provenance does not hold stops the export',
    )
    .argument('<run>', 'a pipeline work dir (run/, rows/, human/ inside), or a run dir with --rows')
    .requiredOption('--out <dir>', 'the dataset folder (written whole, or not at all)')
    .option('--rows <dir>', 'the rows dir of `taskgen rows` (default <work dir>/rows)')
    .option('--validate <file>', "the judge's _validate.json (default <work dir>/human_judge/_validate.json)")
    .option('--human-run <dir>', 'a human-task run, as split `human` of config episodes (default <work dir>/human)')
    .option('--run-id <name>', 'the run id the rows carry (default the dir name)')
    .option('--proposer-model <name>', 'the proposer model (the tasks do not record it)')
    .option('--judge-variant <name>', 'the judge variant the run was judged with (default seed)')
    .option('--shard-steps <n>', 'steps per Parquet shard', integer(1), 2000)
    .option('--shard-episodes <n>', 'episodes per Parquet shard', integer(1), 200)
    .option('--row-group <n>', 'rows per Parquet row group', integer(1), 100)
    .option('--overwrite', 'replace an existing folder once the new one is complete', false)
    .action(async (run: string, flags: ExportFlags) => {
      const result = await runExport({
        run,
        out: flags.out,
        rows: flags.rows,
        validate: flags.validate,
        humanRun: flags.humanRun,
        recipe: { runId: flags.runId, proposerModel: flags.proposerModel, judgeVariant: flags.judgeVariant },
        shardRows: { steps: flags.shardSteps, episodes: flags.shardEpisodes },
        rowGroupRows: flags.rowGroup,
        overwrite: flags.overwrite,
        onEvent: (event) => {
          if (event.type === 'planned') {
            process.stderr.write(`export: ${event.steps} steps of ${event.stepEpisodes} episodes, ${event.episodes} episodes in all\n`);
          }
        },
      });
      process.stdout.write(`${result.dir}\n`);
      for (const [config, splits] of Object.entries(result.counts)) {
        for (const [split, n] of Object.entries(splits)) process.stdout.write(`  ${config}/${split}: ${n} rows\n`);
      }
    });
}
