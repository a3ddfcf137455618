/**
 * `taskgen rows RUN --out DIR`: the judged successes as training rows up to the step budget (the seed's
 * `cmd_rows`). Prints the seed's report line on stdout; a progress bar (on a terminal) and warnings on stderr.
 * @module
 */
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { pyDumps } from '../py/json';
import { DEFAULT_BUDGET, writeRows, type RowsEvent } from '../rows';
import { integer } from './judge';

/** The seed's default tasks file (its `OUT / "tasks.jsonl"`). */
const DEFAULT_TASKS = 'data/webmix/taskgen/tasks.jsonl';

interface RowsFlags {
  out: string;
  tasks: string;
  budget: number;
}

/** Registers `taskgen rows`. */
export function register(program: Command): void {
  program
    .command('rows')
    .description(
      'copy the judged successes (sites interleaved, tasks in file order, whole episodes) up to the step budget ' +
        'as <out>/<task_id>/{rows.jsonl, step_*.png, episode.json} plus <out>/_report.json',
    )
    .argument('<run>', 'the run dir (episodes with rows/; judge records in <run>_judge)')
    .requiredOption('--out <dir>', 'the rows dir (what it already holds is kept)')
    .option('--tasks <file>', 'the tasks file, whose order is the selection order', DEFAULT_TASKS)
    .option('--budget <n>', 'training steps to select', integer(0), DEFAULT_BUDGET)
    .action(async (run: string, flags: RowsFlags) => {
      let bar: SingleBar | undefined;
      const onEvent = (event: RowsEvent) => {
        if (event.type === 'warning') process.stderr.write(`warning: ${event.message}\n`);
        if (event.type !== 'copied') return;
        if (!bar && process.stderr.isTTY) {
          bar = new SingleBar({ format: 'rows [{bar}] {value}/{total} episodes copied', stream: process.stderr, hideCursor: true });
          bar.start(event.total, 0);
        }
        bar?.update(event.done);
      };
      const { report } = await writeRows({ run, out: flags.out, tasks: flags.tasks, budget: flags.budget, onEvent }).finally(
        () => bar?.stop(),
      );
      process.stdout.write(`${pyDumps(report)}\n`);
    });
}
