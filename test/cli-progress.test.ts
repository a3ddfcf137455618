/** Every long-running command takes `--no-progress` (its bar drawn on stderr otherwise, when it is a terminal). */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { register as attempt } from '../src/cli/attempt';
import { register as exportCommand } from '../src/cli/export';
import { register as judge } from '../src/cli/judge';
import { register as judgeLab } from '../src/cli/judge-lab';
import { register as pipeline } from '../src/cli/pipeline';
import { register as propose } from '../src/cli/propose';
import { register as report } from '../src/cli/report';
import { register as rows } from '../src/cli/rows';
import { register as validate } from '../src/cli/validate';

const LONG = { propose, attempt, judge, validate, 'judge-lab': judgeLab, rows, pipeline, report, export: exportCommand };

describe('--no-progress', () => {
  it.each(Object.keys(LONG))('taskgen %s takes it, and draws a bar by default', (name) => {
    const program = new Command();
    LONG[name as keyof typeof LONG](program);
    const command = program.commands.find((c) => c.name() === name)!;
    const option = command.options.find((o) => o.long === '--no-progress');
    expect(option, `${name} has no --no-progress`).toBeDefined();
    expect(option!.negate).toBe(true);
    // commander gives a negated flag a default of true: the bar is on unless the flag is given
    expect(command.opts().progress ?? command.getOptionValue('progress')).toBe(true);
  });
});
