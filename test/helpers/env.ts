/** Driving the environment server in tests: `taskgen env` as a child process, and oracle steps as element numbers. @module */
import type { ChildProcess } from 'node:child_process';
import type { EnvAction } from '../../src/index';
import { spawnScript } from './cli';

/** A `taskgen env` child process, its URL once it serves, and what it printed so far. */
export interface EnvCli {
  readonly child: ChildProcess;
  readonly url: string;
  /** stdout and stderr so far. */
  output(): string;
}

/** Starts `taskgen env --port 0 ...args` and waits (at most 60 s) until it says where it serves. */
export async function startEnvCli(args: readonly string[]): Promise<EnvCli> {
  const child = spawnScript('src/cli.ts', ['env', '--port', '0', ...args]);
  let text = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`taskgen env did not start: ${text}`)), 60_000);
    const look = (chunk: Buffer) => {
      text += chunk.toString();
      const m = /serving \S+ tasks at (http:\/\/\S+)/.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => reject(new Error(`taskgen env exited ${code}: ${text}`)));
  });
  return { child, url, output: () => text };
}

/** How a child ended; rejects when it has not ended after `limitMs` (a bound, not a timing). */
export function exited(child: ChildProcess, limitMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`pid ${child.pid} still running after ${limitMs} ms`)), limitMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

/** An oracle step's role+name target as the element number of the observation. */
export function resolveStep(step: object, elements: readonly { index: number; role: string; name: string }[]): EnvAction['action'] & object {
  const kind = Object.keys(step)[0]!;
  const body = (step as Record<string, { role?: string; name: string; nth?: number }>)[kind]!;
  if (!['click', 'type', 'select', 'check'].includes(kind)) return step as EnvAction['action'] & object;
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
  const hit = elements.filter((e) => norm(e.name) === norm(body.name) && (!body.role || e.role === body.role))[body.nth ?? 0];
  if (!hit) throw new Error(`no ${body.role} ${body.name}`);
  const { role: _r, name: _n, nth: _x, ...rest } = body;
  return { [kind]: { index: hit.index, ...rest } } as EnvAction['action'] & object;
}
