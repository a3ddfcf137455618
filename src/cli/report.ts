/** `taskgen report RUN [--out DIR] [--rows DIR] [--judge DIR] [--tasks FILE]`: a static HTML report of a run. @module */
import type { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { runReport, type ReportEvent } from '../report';
import { progressOption } from './flags';
import { fileUrl } from './format';
import { progressBar, type PrinterOptions } from './progress';

/** Problems printed one by one before the rest are only counted (they are all listed in the report). */
const MAX_PRINTED_ISSUES = 20;

interface ReportFlags {
  out?: string;
  rows?: string;
  judge?: string;
  tasks?: string;
  progress: boolean;
}

/** Registers `taskgen report`. */
export function register(program: Command): void {
  progressOption(program.command('report'))
    .description('write a static HTML report of a run: episodes, screenshots, evidence, judge and verifier results')
    .argument('<run>', 'the run dir (episode dirs, tasks.jsonl, results.jsonl)')
    .option('--out <dir>', 'where to write the report (default <run>_report)')
    .option('--rows <dir>', "a rows dir whose _report.json to show")
    .option('--judge <dir>', 'the judge records (default <run>_judge)')
    .option('--tasks <file>', "the tasks file the run was made from: its verifiers.jsonl checks tasks without a hand-written verifier (default <run>/tasks.jsonl)")
    .action(async (run: string, flags: ReportFlags) => {
      let issues = 0;
      const print = reportPrinter({ progress: flags.progress });
      const file = await runReport({
        run,
        out: flags.out,
        rows: flags.rows,
        judgeDir: flags.judge,
        tasksFile: flags.tasks,
        onEvent: (event) => {
          if (event.type === 'done') issues = event.issues;
          print(event);
        },
      });
      process.stdout.write(`report: ${file}\nopen ${fileUrl(file)}\n`);
      // The report is written either way; a run whose files have problems did not fully succeed.
      if (issues > 0) {
        process.stderr.write(`taskgen: the run's files have ${plural(issues, 'problem')} (each named above and in the report)\n`);
        process.exitCode = 1;
      }
    });
}

/** Prints problems and, on a terminal, a progress bar, all on stderr. */
export function reportPrinter(options: PrinterOptions = {}): (event: ReportEvent) => void {
  let printed = 0;
  let bar: SingleBar | undefined;
  const held: string[] = []; // problems met while the bar is drawn, printed after it
  return (event) => {
    switch (event.type) {
      case 'issue':
        if (printed++ < MAX_PRINTED_ISSUES) {
          const where = `${event.file}${event.line === undefined ? '' : `:${event.line}`}`;
          const line = `warning: ${where}: ${event.problem}\n`;
          if (bar) held.push(line);
          else process.stderr.write(line);
        }
        break;
      case 'start':
        bar = event.episodes > 0 ? progressBar(`${options.label ?? 'report'} [{bar}] {value}/{total} episodes`, options.progress) : undefined;
        bar?.start(event.episodes, 0);
        break;
      case 'episode':
        bar?.update(event.done);
        break;
      case 'done':
        bar?.stop();
        for (const line of held) process.stderr.write(line);
        if (printed > MAX_PRINTED_ISSUES) {
          process.stderr.write(`warning: ${printed - MAX_PRINTED_ISSUES} more problems (all listed in the report)\n`);
        }
        process.stderr.write(`${plural(event.episodes, 'episode')}, ${plural(event.issues, 'problem')}\n`);
        break;
    }
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
