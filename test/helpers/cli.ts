/** Runs repo scripts (the CLI, the examples) in a child process, as a user would from a clone. @module */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** What a finished child printed, and how it ended (`null` when a signal ended it). */
export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link spawnScript}. */
export interface SpawnScriptOptions {
  /** Set over the test's environment; `undefined` removes a variable. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Its own process group, so `process.kill(-pid, 'SIGKILL')` takes its Chromium down too, as `kill -9` of a job would. */
  readonly detached?: boolean;
}

/** The repo's root, where scripts run. */
export const ROOT = path.resolve(__dirname, '..', '..');

const CLI_SOURCE = 'src/cli.ts';
const CLI_BUILT = 'dist/cli.js';

// The newest modification time under a folder, in ms.
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

let builtCli: boolean | undefined;
// Whether dist/cli.js was built after every source file changed (`npm test` builds before vitest): then the CLI runs
// from the build, as the installed `taskgen` does, without compiling the sources on every start (about 1.5 s of CPU
// a start). A stale or missing build, or TASKGEN_TEST_CLI=src, runs the sources.
function cliIsBuilt(): boolean {
  if (builtCli === undefined) {
    try {
      const built = statSync(path.join(ROOT, CLI_BUILT)).mtimeMs;
      builtCli = process.env.TASKGEN_TEST_CLI !== 'src' && ['src', 'sandbox'].every((d) => newest(path.join(ROOT, d)) < built);
    } catch {
      builtCli = false;
    }
  }
  return builtCli;
}

/**
 * Starts `node --import tsx <script> ...args` in the repo root (the CLI from its build when the build is up to
 * date). Asynchronous, so fake servers of the test keep answering.
 */
export function spawnScript(script: string, args: readonly string[], options: SpawnScriptOptions = {}): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const command = script === CLI_SOURCE && cliIsBuilt() ? [CLI_BUILT] : ['--import', 'tsx', script];
  return spawn(process.execPath, [...command, ...args], {
    cwd: ROOT,
    env,
    detached: options.detached ?? false,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Collects a child's output until its streams close (not just its exit, after which output may still be in flight). */
export function finish(child: ChildProcess): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** `taskgen <args>` from the sources, to its end. */
export function runCli(args: readonly string[], options: SpawnScriptOptions = {}): Promise<Finished> {
  return finish(spawnScript(CLI_SOURCE, args, options));
}
