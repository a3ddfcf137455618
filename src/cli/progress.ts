/** What every subcommand shares to show progress: bars and messages on stderr. @module */
import { SingleBar } from 'cli-progress';

/** Options of the subcommands' event printers. */
export interface PrinterOptions {
  /** Draw a progress bar (on a terminal only). Default true. */
  readonly progress?: boolean;
  /** The bar's label, such as `judge` or `validate: judge`. */
  readonly label?: string;
}

/**
 * A progress bar on stderr with the given cli-progress `format`, or `undefined` when stderr is not a terminal
 * (pipes and log files get the plain lines only) or `enabled` is false.
 */
export function progressBar(format: string, enabled = true): SingleBar | undefined {
  if (!enabled || !process.stderr.isTTY) return undefined;
  return new SingleBar({ format, stream: process.stderr, hideCursor: true });
}

/** Writes `line` to `stream`, first clearing the bar's line if a bar is drawn (it redraws itself on its next tick). */
export function printAbove(bar: SingleBar | null | undefined, stream: NodeJS.WritableStream, line: string): void {
  if (bar) process.stderr.write('\r\x1b[2K');
  stream.write(`${line}\n`);
}
