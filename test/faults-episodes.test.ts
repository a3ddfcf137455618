/**
 * Faults are not episodes: when the agent's model or the site's server fails, the episode is not recorded as
 * finished (a rerun redoes it), the run stops after a few failures in a row naming the cause, and a finished
 * episode is always the agent's own behaviour. The real qwenPolicy (openai SDK) against a fake OpenAI-compatible
 * server, the real browser on the sandbox.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InputError, StageStoppedError, browserHost, openaiCompatible, qwenPolicy, runAttempt, runPipeline, scriptedPolicy, type AttemptEvent, type BrowserHost,
  type PipelineEvent, type Task,
} from '../src/index';
import { sandboxEvidence, sandboxSource, startSandbox, type SandboxServer } from '../sandbox/index';
import { startFakeOpenAI, type FakeReply, type FakeServer } from './fakes/index';
import { tempDir } from './helpers/runs';

let sandbox: SandboxServer;
let host: BrowserHost;
let tasks: Task[];
const servers: FakeServer[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, catalog: { variants: 1, testVariants: [] } });
  host = browserHost();
  await host.browser(); // launched once, before any episode's time limit runs
  const site = sandbox.catalog.sites()[0]!;
  tasks = (sandbox.catalog.tasks(site)?.human ?? []).slice(0, 4);
});
afterAll(async () => {
  await host.close();
  await sandbox.close();
  for (const server of servers) await server.close();
});

async function agentServer(replies: readonly FakeReply[]): Promise<FakeServer> {
  const server = await startFakeOpenAI({ replies });
  servers.push(server);
  return server;
}

const MODEL = 'Qwen/Qwen3.5-4B';

async function finishedEpisodes(out: string): Promise<string[]> {
  const found: string[] = [];
  for (const task of tasks) if (existsSync(path.join(out, task.task_id, 'episode.json'))) found.push(task.task_id);
  return found;
}

describe('faults are not episodes', () => {
  it('an agent server answering HTTP 500 on every call: nothing recorded, the run stops after 3 failures naming the cause, a rerun records them', async () => {
    expect(tasks.length).toBe(4);
    const down = await agentServer([{ status: 500, message: 'CUDA out of memory', retryAfter: 0 }]);
    const out = path.join(await tempDir('faults-500-'), 'run');
    const events: AttemptEvent[] = [];
    const error = await runAttempt({
      tasks, policy: qwenPolicy({ baseURL: down.url, model: MODEL }), source: { baseUrl: sandbox.url }, evidence: sandboxEvidence({ url: sandbox.url }),
      out, browser: host, concurrency: 1, onEvent: (e) => events.push(e),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StageStoppedError);
    const stopped = error as StageStoppedError;
    expect(stopped.message).toMatch(/^attempt stopped: 3 episodes in a row could not run/);
    expect(stopped.message).toMatch(/HTTP 500: CUDA out of memory/);
    expect(stopped.failures[0]).toMatchObject({ stage: 'attempt', status: 500, model: MODEL, provider: 'openai-compatible' });
    // 3 tries of 5 calls each (the adapter's own retries), then nothing more
    expect(down.requests).toHaveLength(15);
    expect(await finishedEpisodes(out)).toEqual([]);
    expect(events.filter((e) => e.type === 'episode-end')).toEqual([]);
    expect(events.filter((e) => e.type === 'stopped')).toHaveLength(1);

    const up = await agentServer(['{"done": {"answer": "not sure"}}']);
    const rerun = await runAttempt({
      tasks, policy: qwenPolicy({ baseURL: up.url, model: MODEL }), source: { baseUrl: sandbox.url }, evidence: sandboxEvidence({ url: sandbox.url }),
      out, browser: host, concurrency: 2,
    });
    expect(rerun).toMatchObject({ recorded: 4, failed: 0, skipped: 0, outcomes: { done: 4, timeout: 0 } });
    expect(await finishedEpisodes(out)).toEqual(tasks.map((t) => t.task_id));
  });

  it('a site server that stops answering mid-run: the run stops after the first failures, naming the server and what to do', async () => {
    const gone = await startSandbox({ port: 0, catalog: { variants: 1, testVariants: [] } });
    const out = path.join(await tempDir('faults-gone-'), 'run');
    let closing: Promise<void> | undefined;
    const events: AttemptEvent[] = [];
    const error = await runAttempt({
      tasks, policy: scriptedPolicy(() => ({ done: { answer: 'x' } })), source: { baseUrl: gone.url }, evidence: sandboxEvidence({ url: gone.url }),
      out, browser: host, concurrency: 1, retries: 0,
      // the server goes away after the first episode
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'episode-end') closing ??= gone.close();
      },
    }).catch((e: unknown) => e);
    await closing;
    expect(error).toBeInstanceOf(StageStoppedError);
    const stopped = error as StageStoppedError;
    expect(stopped.message).toMatch(/^attempt stopped: 3 episodes in a row could not run/);
    // Each episode's failure is the cause and what to do, not the raw chain (`EpisodeFailure: evidence: TypeError: fetch failed: ...`).
    const hint = `start it again (the sites' server is at ${gone.url}), then run the same command again: finished episodes are kept`;
    const cause = new RegExp(`^the site server at ${new URL(gone.url).host.replaceAll('.', '\\.')} stopped answering \\((ECONNREFUSED|ECONNRESET|UND_ERR_SOCKET)\\) during evidence: `);
    const failed = events.flatMap((e) => (e.type === 'episode-failed' ? [e.error] : []));
    expect(failed).toHaveLength(2); // the third stopped the run
    for (const message of [...failed, ...stopped.failures.map((f) => f.message)]) {
      expect(message).toMatch(cause);
      expect(message.endsWith(`: ${hint}`)).toBe(true);
    }
    expect(stopped.failures[0]!.hint).toBe(hint);
    expect(stopped.message).not.toMatch(/TypeError|fetch failed|EpisodeFailure/);
    expect(await finishedEpisodes(out)).toEqual([tasks[0]!.task_id]);
  });

  it('runPipeline passes stopAfterFailures to its attempt stage (checked: a bad value is named before anything runs)', async () => {
    const dir = await tempDir('faults-pipeline-');
    await writeFile(path.join(dir, 'tasks.jsonl'), tasks.map((t) => `${JSON.stringify(t)}\n`).join(''));
    // The sites' server is down: each try fails at its start page, before the agent acts.
    const down = 'http://127.0.0.1:9';
    const tries: string[] = [];
    const config = {
      dir, source: sandboxSource({ url: down }), policy: scriptedPolicy(() => ({ done: {} })), browser: host, only: ['attempt'] as const,
      preflight: false, concurrency: 1, onEvent: (e: PipelineEvent) => void (e.type === 'attempt' && e.event.type === 'episode-start' && tries.push(e.event.taskId)),
    };
    const bad = await runPipeline({ ...config, stopAfterFailures: -1 }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(InputError);
    expect((bad as Error).message).toMatch(/^runPipeline: stopAfterFailures: /);
    expect(tries).toEqual([]);
    const error = await runPipeline({ ...config, stopAfterFailures: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StageStoppedError);
    expect((error as Error).message).toMatch(/^attempt stopped: 1 episodes in a row could not run/);
    expect((error as Error).message).toContain(`check that the sites' server at ${down} is up`);
    expect(tries).toHaveLength(1); // the default, 3, would have tried three times
    expect(await finishedEpisodes(path.join(dir, 'run'))).toEqual([]);
  });

  it("a model call that outlasts the episode's time limit: failing, it is a fault (not recorded); answering, the episode is a timeout", async () => {
    const [failing, slow] = tasks as [Task, Task];
    // The model answers only once the episode's time limit has passed (the limit must leave the harness time to
    // reach the first step).
    const limitMs = 10_000;
    const started = new Map<string, number>();
    const taskOf = (body: unknown) => (JSON.stringify(body).includes(failing.instruction.slice(0, 30)) ? failing : slow);
    const model = await startFakeOpenAI({
      handler: async (request) => {
        const task = taskOf(request.body);
        await new Promise((resolve) => setTimeout(resolve, started.get(task.task_id)! + limitMs + 500 - Date.now()));
        return task === failing ? { status: 500, message: 'worker died' } : '{"done": {}}';
      },
    });
    servers.push(model);
    const out = path.join(await tempDir('faults-late-'), 'run');
    const result = await runAttempt({
      tasks: [failing, slow],
      policy: qwenPolicy({ llm: openaiCompatible({ baseURL: model.url, model: MODEL, retry: { maxRetries: 0 } }) }),
      source: { baseUrl: sandbox.url }, evidence: sandboxEvidence({ url: sandbox.url }),
      out, browser: host, concurrency: 2, retries: 0, episodeTimeoutMs: limitMs,
      onEvent: (e) => void (e.type === 'episode-start' && started.set(e.taskId, Date.now())),
    });
    expect(model.requests.map((r) => taskOf(r.body).task_id).sort()).toEqual([failing.task_id, slow.task_id].sort());
    expect(result).toMatchObject({ recorded: 1, failed: 1, outcomes: { timeout: 1 } });
    expect(result.failures[0]).toMatchObject({ item: failing.task_id, status: 500, model: MODEL });
    expect(await finishedEpisodes(out)).toEqual([slow.task_id]);
    const episode = JSON.parse(await readFile(path.join(out, slow.task_id, 'episode.json'), 'utf8')) as { outcome: string; steps: number };
    expect(episode).toMatchObject({ outcome: 'timeout', steps: 0 });
  });
});

describe("the site's server fails mid-episode", () => {
  const page = (body: string) => `<!doctype html><html><head><title>Shop</title></head><body>${body}</body></html>`;
  const siteTask = (id: string): Task => ({
    kind: 'proposed', task_id: id, site: 'shop', sites: ['shop'], macro: 'proposed', macros: [],
    instruction: 'open the next page', start_path: '/sites/shop/', task_kind: 'info', verifier: null,
  });

  async function site(onNext: 'refuse' | 503): Promise<{ baseUrl: string; close: () => Promise<void> }> {
    const server = createServer((req, res) => {
      if (req.url === '/sites/shop/') return res.writeHead(200, { 'content-type': 'text/html' }).end(page('<a href="/sites/shop/next">Next</a>'));
      if (req.url === '/sites/shop/next' && onNext === 503) return res.writeHead(503, { 'content-type': 'text/html' }).end(page('Service Unavailable'));
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
    const close = async () => {
      if (!server.listening) return closed;
      server.close();
      server.closeAllConnections();
      await closed;
    };
    return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
  }

  for (const onNext of ['refuse', 503] as const) {
    it(`${onNext === 'refuse' ? 'refuses connections' : 'answers 503'} after the start page: not recorded, the cause and the server named`, async () => {
      const server = await site(onNext);
      const out = path.join(await tempDir('faults-site-'), 'run');
      const policy = scriptedPolicy(async (input) => {
        if (input.step === 0) {
          if (onNext === 'refuse') await server.close();
          return { goto: { path: '/sites/shop/next' } };
        }
        return { done: { answer: 'looked' } };
      });
      try {
        const result = await runAttempt({ tasks: [siteTask('next')], policy, source: { baseUrl: server.baseUrl }, out, browser: host, retries: 0 });
        expect(result).toMatchObject({ recorded: 0, failed: 1 });
        expect(result.failures[0]!.message).toMatch(onNext === 'refuse' ? /the site's server failed: net::ERR_CONNECTION_REFUSED/ : /the site's server failed: HTTP 503 on GET .*\/sites\/shop\/next/);
        expect(result.failures[0]!.hint).toContain(server.baseUrl);
        expect(existsSync(path.join(out, 'next', 'episode.json'))).toBe(false);
      } finally {
        await server.close();
      }
    });
  }
});
