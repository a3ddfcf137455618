/** The sandbox web as a process of its own, so a bench can read its CPU time apart from the client's. @module */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** Starts `sandbox/serve.ts` on a free port; resolves with the process and its base URL once it listens. */
export async function startSandboxProcess(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '..', 'sandbox', 'serve.ts'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (d: Buffer) => {
      text += d.toString();
      const m = /at (http:\/\/127\.0\.0\.1:\d+)\//.exec(text);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}): ${text}`)));
  });
  return { child, url };
}
