/**
 * Starts a Qwen vision-language model with `vllm serve` as a child process, waits until it is healthy, and
 * stops it again; the child never outlives this process's normal exit.
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { qwenChatTemplate } from './qwen-policy';

/** The agent model of the user's setup. */
export const DEFAULT_QWEN_MODEL = 'Qwen/Qwen3.5-4B';

/** Options of {@link serveQwen}. */
export interface ServeQwenOptions {
  /** The model to serve (a Hugging Face id or a local path). Default {@link DEFAULT_QWEN_MODEL}. */
  readonly model?: string;
  /** The name clients use. Default: `model`. */
  readonly servedModelName?: string;
  /** The port on 127.0.0.1; 0 picks a free one. Default 8000. */
  readonly port?: number;
  /** GPUs: a count (one model copy each, `--data-parallel-size`), or the device ids to use. Default 1. */
  readonly gpus?: number | readonly number[];
  /** The context length. Default 32768 (a screenshot, the page text and the history fit). */
  readonly maxModelLen?: number;
  /** The `vllm` executable. Default `vllm`. */
  readonly vllmPath?: string;
  /**
   * The server's default chat-template arguments (`--default-chat-template-kwargs`). Default
   * `{enable_thinking: false}`; `null` leaves the flag out (vLLM versions before it existed).
   */
  readonly defaultChatTemplateKwargs?: Readonly<Record<string, unknown>> | null;
  /** More `vllm serve` arguments, appended as given. */
  readonly extraArgs?: readonly string[];
  /** More environment variables for the child. */
  readonly env?: Readonly<Record<string, string>>;
  /** Each line the server writes (stdout and stderr). */
  readonly onLog?: (line: string) => void;
  /** How long to wait for `/health`, in ms. Default 1 200 000 (downloads and compilation take a while). */
  readonly startupTimeoutMs?: number;
  /** How often to poll `/health`, in ms. Default 1000. */
  readonly pollMs?: number;
  /** How long `stop()` waits after SIGTERM before SIGKILL, in ms. Default 30 000. */
  readonly stopGraceMs?: number;
}

/** A running vLLM server. */
export interface QwenServer {
  /** The OpenAI-compatible API root, `http://127.0.0.1:<port>/v1`, for `qwenPolicy({baseURL})`. */
  readonly baseURL: string;
  /** The served model name, for `qwenPolicy({model})`. */
  readonly model: string;
  /** The child's process id. */
  readonly pid: number;
  /** Stops the server (SIGTERM, then SIGKILL after the grace period); resolves when it has exited. */
  stop(): Promise<void>;
}

/** The `vllm serve` arguments {@link serveQwen} uses, for logs and tests. */
export function vllmArgs(options: ServeQwenOptions & { readonly port: number }): string[] {
  const model = options.model ?? DEFAULT_QWEN_MODEL;
  const gpuCount = typeof options.gpus === 'number' ? options.gpus : (options.gpus?.length ?? 1);
  const kwargs = options.defaultChatTemplateKwargs === undefined ? qwenChatTemplate(false).chat_template_kwargs : options.defaultChatTemplateKwargs;
  return [
    'serve',
    model,
    '--host',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--served-model-name',
    options.servedModelName ?? model,
    '--max-model-len',
    String(options.maxModelLen ?? 32768),
    // one screenshot per request, no video: vLLM reserves memory for what a prompt may hold
    '--limit-mm-per-prompt',
    JSON.stringify({ image: 1, video: 0 }),
    ...(gpuCount > 1 ? ['--data-parallel-size', String(gpuCount)] : []),
    ...(kwargs ? ['--default-chat-template-kwargs', JSON.stringify(kwargs)] : []),
    ...(options.extraArgs ?? []),
  ];
}

/**
 * Starts `vllm serve <model>` on 127.0.0.1 and resolves once `GET /health` answers 200. Rejects (and kills
 * the child) when the child exits first or the startup time runs out; the error carries the server's last
 * output lines.
 * @example
 * const server = await serveQwen({ gpus: 2, onLog: (l) => log.write(l + '\n') });
 * const policy = qwenPolicy({ baseURL: server.baseURL, model: server.model });
 * try { await attempt(tasks, { policy, ... }); } finally { await server.stop(); }
 */
export async function serveQwen(options: ServeQwenOptions = {}): Promise<QwenServer> {
  const port = options.port === 0 ? await freePort() : (options.port ?? 8000);
  const args = vllmArgs({ ...options, port });
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  if (Array.isArray(options.gpus)) env.CUDA_VISIBLE_DEVICES = options.gpus.join(',');
  const child = spawn(options.vllmPath ?? 'vllm', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const tail: string[] = [];
  const onLine = (line: string) => {
    tail.push(line);
    if (tail.length > 20) tail.shift();
    options.onLog?.(line);
  };
  lines(child.stdout!, onLine);
  lines(child.stderr!, onLine);
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`));
    child.once('error', (error) => resolve(error.message));
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.off('exit', killOnExit);
    await terminate(child, exited, options.stopGraceMs ?? 30_000);
  };
  const origin = `http://127.0.0.1:${port}`;
  try {
    const outcome = await Promise.race([
      waitHealthy(`${origin}/health`, options.startupTimeoutMs ?? 1_200_000, options.pollMs ?? 1000, exited),
      exited.then((how) => ({ exited: how })),
    ]);
    if (outcome !== true) {
      const why = typeof outcome === 'object' ? `exited (${outcome.exited}) before it was healthy` : `was not healthy after ${options.startupTimeoutMs ?? 1_200_000} ms`;
      throw new Error(`vllm serve ${args[1]} ${why}${tail.length ? `; its last output:\n${tail.join('\n')}` : ''}`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseURL: `${origin}/v1`, model: options.servedModelName ?? args[1]!, pid: child.pid!, stop };
}

// true when healthy; false when the time ran out (or the child exited, which the caller reports).
async function waitHealthy(url: string, timeoutMs: number, pollMs: number, exited: Promise<string>): Promise<boolean> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + timeoutMs;
  while (!gone && Date.now() < deadline) {
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(Math.max(1, Math.min(5000, deadline - Date.now()))) });
      await r.body?.cancel();
      if (r.status === 200) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, Math.max(0, deadline - Date.now()))));
  }
  return false;
}

async function terminate(child: ChildProcess, exited: Promise<string>, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
  if ((await Promise.race([exited, late])) === 'late') {
    child.kill('SIGKILL');
    await exited;
  }
  clearTimeout(timer);
}

function lines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const parts = (rest + chunk).split(/\r?\n/);
    rest = parts.pop() ?? '';
    for (const p of parts) onLine(p);
  });
  stream.on('end', () => {
    if (rest) onLine(rest);
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
