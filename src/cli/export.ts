/**
 * `taskgen export RUN --out DIR`: the run as a Hugging Face dataset folder (configs `steps` and `episodes` as
 * Parquet shards, a `README.md` dataset card). Prints the folder and its counts; progress on stderr.
 * @module
 */
import type { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { runExport } from '../export/dataset';
import { integer, progressOption } from './flags';
import { progressBar } from './progress';

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
  license?: string;
  progress: boolean;
}

/** Registers `taskgen export`. */
export function register(program: Command): void {
  progressOption(program.command('export'))
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
    .option('--license <id>', "the dataset's license for the card, an SPDX id such as cc-by-4.0 (default none: the card says none was set)")
    .option('--overwrite', 'replace an existing folder once the new one is complete', false)
    .action(async (run: string, flags: ExportFlags) => {
      let bar: SingleBar | undefined;
      let current = '';
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
        ...(flags.license ? { license: flags.license } : {}),
        onEvent: (event) => {
          if (event.type === 'planned') {
            process.stderr.write(`export: ${event.steps} steps of ${event.stepEpisodes} episodes, ${event.episodes} episodes in all\n`);
            return;
          }
          const part = `${event.config}/${event.split}`;
          if (part !== current) {
            bar?.stop();
            current = part;
            bar = event.total > 0 ? progressBar(`export ${part} [{bar}] {value}/{total} rows`, flags.progress) : undefined;
            bar?.start(event.total, 0);
          }
          bar?.update(event.done);
        },
      }).finally(() => bar?.stop());
      process.stdout.write(`${result.dir}\n`);
      for (const [config, splits] of Object.entries(result.counts)) {
        for (const [split, n] of Object.entries(splits)) process.stdout.write(`  ${config}/${split}: ${n} rows\n`);
      }
    });
}
