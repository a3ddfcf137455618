/** Flag parsers the subcommands share. @module */
import { InvalidArgumentError, type Command } from 'commander';
import { DEFAULT_STOP_AFTER_FAILURES } from '../attempt/setup';
import { DEFAULT_TIMEOUT_MS } from '../models/types';

/** A commander parser for an integer flag of at least `min`. */
export function integer(min: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min) {
      throw new InvalidArgumentError(`expected an integer >= ${min}, got "${value}"`);
    }
    return n;
  };
}

/** A commander parser for a number flag between `min` and `max`. */
export function numberBetween(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max) {
      throw new InvalidArgumentError(`expected a number from ${min} to ${max}, got "${value}"`);
    }
    return n;
  };
}

/** The default of `--timeout`, in seconds: {@link DEFAULT_TIMEOUT_MS}. */
export const DEFAULT_TIMEOUT_S = DEFAULT_TIMEOUT_MS / 1000;

/** Adds `--timeout SECONDS`, the time limit of one model call, to a command that calls a model. */
export function timeoutOption(command: Command): Command {
  return command.option(
    '--timeout <s>',
    'time limit of one model call attempt in seconds (a call that runs out is tried once more, then fails)',
    numberBetween(0.001, 86_400),
    DEFAULT_TIMEOUT_S,
  );
}

/** Adds `--no-progress` (no progress bar; bars are drawn only when stderr is a terminal anyway). */
export function progressOption(command: Command): Command {
  return command.option('--no-progress', 'no progress bar (one is drawn on stderr when it is a terminal)');
}

/** The default of `--site-prefix`: MiniWeb's and the sandbox's layout. */
export const DEFAULT_SITE_PREFIX = '/sites/{site}/';

/** A commander parser for `--site-prefix`: a path pattern with `{site}`, starting and ending with `/`. */
export function sitePrefixPattern(value: string): string {
  if (!value.startsWith('/') || !value.endsWith('/')) throw new InvalidArgumentError(`expected a path that starts and ends with "/", got "${value}"`);
  return value;
}

/** A site's prefix from a `--site-prefix` pattern. */
export function sitePrefixOf(pattern: string): (site: string) => string {
  return (site) => pattern.split('{site}').join(site);
}

/** `--stop-after-failures N` of the commands that attempt episodes (`attempt`, `pipeline`). */
export function stopAfterFailuresOption(command: Command): Command {
  return command.option(
    '--stop-after-failures <n>',
    'stop after this many episodes in a row could not run (model or site server down); 0: never',
    integer(0),
    DEFAULT_STOP_AFTER_FAILURES,
  );
}
