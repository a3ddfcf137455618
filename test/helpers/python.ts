/** Runs Python 3 for parity tests: the seed's own functions and Python's builtins are the reference. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The directory holding `seed_bridge.py` and the copy of the seed. */
export const PARITY_DIR = path.resolve(here, '../parity');

/**
 * Runs `script` (Python source) with `input` as JSON on stdin and returns its stdout parsed as JSON.
 * The script reads `INPUT` and calls `emit(value)`; `seed_bridge` is importable (the seed with its research
 * imports stubbed).
 */
export function runPython<T = unknown>(script: string, input: unknown = null, cwd?: string): T {
  const prelude = [
    'import sys, json',
    `sys.path.insert(0, ${JSON.stringify(PARITY_DIR)})`,
    'INPUT = json.loads(sys.stdin.read())',
    'def emit(v): sys.stdout.write(json.dumps(v, ensure_ascii=True))',
  ].join('\n');
  const r = spawnSync('python3', ['-c', `${prelude}\n${script}`], {
    input: JSON.stringify(input),
    encoding: 'utf8',
    cwd,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`python3 failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}
