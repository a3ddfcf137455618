/**
 * `taskgen rows RUN --out DIR`: the judged successes as training rows up to the step budget (the seed's
 * `cmd_rows`). Prints the seed's report line on stdout; a progress bar (on a terminal) and warnings on stderr.
 * @module
 */
import type { SingleBar } from 'cli-progress';
import { Option, type Command } from 'commander';
import { pyDumps } from '../core/py/dumps';
import { DEFAULT_BUDGET, runRows, type LabelsReport, type RowsEvent } from '../rows';
import { addVotesHint } from './add-votes';
import { integer, numberBetween, progressOption } from './flags';
import { printAbove, progressBar, type PrinterOptions } from './progress';
import { DEFAULT_TASKS_FILE } from './propose';

interface RowsFlags {
  out: string;
  tasks: string;
  budget: number;
  progress: boolean;
  relabel: boolean;
  originalsFirst?: boolean;
  minPrecision?: number;
  scored?: string[];
  pick: 'shortest' | 'first' | 'all';
}

/** Registers `taskgen rows`. */
export function register(program: Command): void {
  progressOption(program.command('rows'))
    .description(
      'copy the judged successes (sites interleaved, tasks in file order, whole episodes) up to the step budget ' +
        'as <out>/<task_id>/{rows.jsonl, step_*.png, episode.json} plus <out>/_report.json, and each episode\'s provenance beside the dir in <out>_provenance.jsonl',
    )
    .argument('<run>', 'the run dir (episodes with rows/; judge records in <run>_judge)')
    .requiredOption('--out <dir>', 'the rows dir; it ends holding exactly this selection (a dir of another selection there is refused)')
    .option('--tasks <file>', 'the tasks file, whose order is the selection order', DEFAULT_TASKS_FILE)
    .option('--budget <n>', 'training steps to select', integer(0), DEFAULT_BUDGET)
    .option('--no-relabel', "leave out the accepted relabels of <run>_relabel/ (by default they are candidates too)")
    .option('--originals-first', 'relabeled tasks only after every task of the run had its turn')
    .option(
      '--min-precision <p>',
      'a precision target for judge-only rows: the judge configuration (variant, votes, agreement threshold) the records allow with the most rows ' +
        'whose lower 95% bound on precision on the scored sets is at least p; judge-only episodes it does not accept are left out (see <out>_labels.json)',
      numberBetween(0, 1),
    )
    .option('--scored <runs...>', 'runs whose verifier results score the judge (default: the run, and a pipeline work dir\'s human run)')
    .addOption(new Option('--pick <which>', "which successful tries of a task become rows (a run with <run>/_tries/): the one with the fewest steps, the first, or all").choices(['shortest', 'first', 'all']).default('shortest'))
    .action(async (run: string, flags: RowsFlags) => {
      const printer = rowsPrinter({ progress: flags.progress });
      const { report, skipped, labels } = await runRows({
        run,
        out: flags.out,
        tasks: flags.tasks,
        budget: flags.budget,
        ...(flags.relabel === false ? { relabel: false } : {}),
        originalsFirst: flags.originalsFirst,
        pick: flags.pick,
        ...(flags.minPrecision !== undefined ? { minPrecision: flags.minPrecision } : {}),
        ...(flags.scored ? { scored: flags.scored } : {}),
        onEvent: printer.onEvent,
      }).finally(
        printer.stop,
      );
      process.stdout.write(`${pyDumps(skipped.length > 0 ? { ...report, skipped: skipped.length } : report)}\n`);
      for (const line of await addVotesHint({ run, report: labels, again: 'this taskgen rows command' })) process.stderr.write(`${line}\n`);
      if (skipped.length > 0) {
        process.stderr.write(`${skipped.length} judged episodes left out of the rows (named above); the rows written are the rest\n`);
        process.exitCode = 1;
      }
    });
}

/** Warnings on stderr and, on a terminal, a bar of the episodes copied. */
export function rowsPrinter(options: PrinterOptions = {}): { onEvent: (event: RowsEvent) => void; stop: () => void } {
  let bar: SingleBar | undefined;
  let started = false;
  const onEvent = (event: RowsEvent) => {
    if (event.type === 'warning') printAbove(bar, process.stderr, `warning: ${event.message}`);
    if (event.type === 'skipped') printAbove(bar, process.stderr, `warning: ${event.taskId} left out: ${event.reason}`);
    if (event.type === 'labels') printAbove(bar, process.stderr, labelsLine(event.report));
    if (event.type !== 'copied') return;
    if (!started) {
      started = true;
      bar = progressBar(`${options.label ?? 'rows'} [{bar}] {value}/{total} episodes copied`, options.progress);
      bar?.start(event.total, 0);
    }
    bar?.update(event.done);
  };
  return { onEvent, stop: () => bar?.stop() };
}

/** One line on the labels: rows per source, the judge configuration and its precision, the estimate; why, when the target took no judge-only rows. */
export function labelsLine(report: LabelsReport): string {
  const sources = report.sources.filter((s) => s.episodes > 0).map((s) => `${s.source} ${s.rows} rows`).join(', ') || 'no rows';
  const judge = report.configs.find((c) => c.name === report.judge)?.precision;
  const est = report.estimate;
  const lines = [
    `labels: ${sources}; judge ${report.judge ?? 'none'}${judge ? ` precision ${judge.precision} [${judge.interval.join(', ')}] (${judge.right}/${judge.n})` : ''}` +
      `${est ? `; estimated label precision ${est.precision} [${est.interval.join(', ')}] over ${est.rows} of ${est.of} rows` : ''}; ${report.left_out.length} left out by their labels`,
  ];
  if (report.target) lines.push(report.target);
  return lines.join('\n');
}
