/**
 * `serveEnv`: the environment server (DESIGN.md §10), OpenEnv's protocol over HTTP and WebSocket `/ws`, one
 * session per connection, sessions sharing one Chromium (relaunched when it dies).
 * @module
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { WebSocketServer } from 'ws';
import type { Browser } from 'playwright-core';
import { z } from 'zod';
import type { Task } from '../core/schemas';
import { TaskSchema } from '../core/schemas';
import { parseWith } from '../core/io';
import type { FileStore } from '../files/types';
import { nodeStore } from '../files/node';
import { browserHost, isBrowserHost, type BrowserHost, type BrowserOptions } from '../browser/host';
import { idlePageCount } from '../browser/page-pool';
import { defaultSitePrefix, siteBoundary, startUrlOf } from '../browser/site-boundary';
import type { EvidenceProvider } from '../attempt/types';
import { browserEvidence } from '../attempt/evidence';
import { defaultVerify, type VerifyFunction } from '../attempt/episode';
import { attemptSetup } from '../attempt/setup';
import { writtenFor, type WrittenClaim } from '../claims/grade';
import { EnvTasks } from './tasks';
import { judgeReward } from './judge-reward';
import type { LanguageModel } from '../models/types';
import { EpisodeSlots } from './recording';
import type { SessionContext } from './session';
import { handleHttp } from './routes';
import { SessionPool, serveSocket } from './sockets';
import type { EnvEvent } from './events';

export type { EnvEvent } from './events';

/** Options of {@link serveEnv}. */
export interface ServeEnvOptions {
  /** The tasks served; a task with a `verifier` is rewarded by it. */
  readonly tasks: readonly Task[];
  /** Each task's split (`train`, `test`...). Default `train` for all. */
  readonly splitOf?: (task: Task) => string;
  /** Verifiers written for tasks without one (`verifiers.jsonl`): they reward those tasks. */
  readonly verifiers?: readonly WrittenClaim[];
  /** The sites' server the browser visits (MiniWeb, or the sandbox). */
  readonly baseUrl: string;
  /** The server's record of each episode. Default the browser's requests ({@link browserEvidence}). */
  readonly evidence?: EvidenceProvider;
  /** A site's path prefix on the server. Default `/sites/<site>/`. */
  readonly sitePrefix?: (site: string) => string;
  /** The run dir every session's episode is recorded in (tries past the first under `_tries/<n>/`). */
  readonly out: string;
  /** Sessions at once; one more gets OpenEnv's `CAPACITY_REACHED`. Default 8. */
  readonly maxSessions?: number;
  /** A session with no message for this long is closed (its episode dropped). Default 300000 ms. */
  readonly idleTimeoutMs?: number;
  /** A step (action and next observation) running longer ends the session with an error. Default 120000 ms. */
  readonly stepTimeoutMs?: number;
  /** An episode's time limit, the client's think time included; it then ends as `timeout`. Default 1800000 ms. */
  readonly episodeTimeoutMs?: number;
  /** Per action (click, fill...) time limit in ms. Default 10000. */
  readonly actionTimeoutMs?: number;
  /** Steps per episode. Default 15. */
  readonly maxSteps?: number;
  /** Send the screenshot (base64 PNG) in observations. Default true. */
  readonly screenshot?: boolean;
  /** The port; 0 picks a free one. Default 0. */
  readonly port?: number;
  /** The interface to bind. Default `127.0.0.1`. */
  readonly host?: string;
  /** When set, every route but `/health` needs `Authorization: Bearer <token>`. */
  readonly token?: string;
  /**
   * The judge of episodes no verifier grades: its verdict on the recorded episode (judged as `taskgen judge` judges,
   * the record in `<run>_judge/`) is the reward, 1 or 0. Without it those episodes get reward `null`, source `none`.
   */
  readonly judge?: LanguageModel;
  /** Checks hand-written verifiers. Default {@link defaultVerify}. */
  readonly verify?: VerifyFunction;
  /** A browser to share (its owner closes it), or options for the one the server launches (closed by `close()`). */
  readonly browser?: BrowserHost | BrowserOptions;
  /** Default {@link nodeStore}. */
  readonly store?: FileStore;
  /** Server events; the library never prints. */
  readonly onEvent?: (event: EnvEvent) => void;
  /**
   * Record into tries of `out` that another set-up wrote too (a `taskgen attempt` run of another policy, a server
   * with other max steps) on purpose. Default false: a reset whose try was recorded with another set-up is refused
   * (`EXECUTION_ERROR` naming the differences).
   */
  readonly mixSetup?: boolean;
  /** {@link EnvServer.close}'s default grace period in ms. Default 10000, well under Kubernetes' default 30 s. */
  readonly graceMs?: number;
}

/** Options of {@link EnvServer.close}. */
export interface EnvCloseOptions {
  /**
   * How long a session answering a message (a step, a reset, an episode's grading) may take to finish it; past it
   * the session is cut, its episode dropped. Default the server's `graceMs`.
   */
  readonly graceMs?: number;
  /** Why, named in the sessions' `SESSION_ERROR` (`SIGTERM`). */
  readonly reason?: string;
}

// close()'s default grace period: well under Kubernetes' default terminationGracePeriodSeconds (30 s).
const DEFAULT_ENV_GRACE_MS = 10_000;

// How long close() waits for cut episodes, then for the browser, before it returns anyway.
const ABANDON_MS = 5000;

/** A running environment server. */
export interface EnvServer {
  /** `http://<host>:<port>`; OpenEnv's clients take it as `base_url`. */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** Sessions open now. */
  readonly sessions: number;
  /**
   * Shuts the server down within a bounded time: from the call on, new sessions are refused (`/health` answers 503,
   * a WebSocket upgrade 503); a session between messages gets `SESSION_ERROR` naming the shutdown at once, one
   * answering a message when that reply has gone out (an episode that ends in it is recorded), and one still
   * answering after the grace period is cut (its episode dropped: nothing of it is published, `_aside/` keeps what
   * was written). Then the server and its browser close. Returns after at most the grace period and about 11 s;
   * calling it again returns the same promise.
   */
  close(options?: EnvCloseOptions): Promise<void>;
}

const OptionsSchema = z.looseObject({
  tasks: z.array(TaskSchema).min(1),
  baseUrl: z.string().url(),
  out: z.string().min(1),
  maxSessions: z.number().int().positive().optional(),
  idleTimeoutMs: z.number().int().positive().optional(),
  stepTimeoutMs: z.number().int().positive().optional(),
  episodeTimeoutMs: z.number().int().positive().optional(),
  actionTimeoutMs: z.number().int().positive().optional(),
  maxSteps: z.number().int().positive().optional(),
  port: z.number().int().min(0).max(65535).optional(),
  host: z.string().min(1).optional(),
  token: z.string().min(8, 'a token of at least 8 characters').optional(),
  graceMs: z.number().int().nonnegative().optional(),
});

/**
 * Serves `tasks` as an OpenEnv environment: each session's `reset` starts an episode of the attempt step whose
 * actions come from the client's `step` messages; the episode is recorded in `out` as `runAttempt` records it
 * (marked `env` with its reward) and rewarded 1 or 0 by the task's verifier at its end.
 * @example
 * const server = await serveEnv({ tasks, baseUrl: sandbox.url, evidence: sandbox.evidence, out: 'rollouts' });
 * // python: GenericEnvClient(base_url=server.url)
 */
export async function serveEnv(options: ServeEnvOptions): Promise<EnvServer> {
  parseWith(OptionsSchema, options, { file: 'serveEnv options' });
  const store = options.store ?? nodeStore();
  const emit = options.onEvent ?? (() => {});
  const prefixOf = options.sitePrefix ?? defaultSitePrefix;
  for (const task of options.tasks) startUrlOf(task, options.baseUrl, siteBoundary(options.baseUrl, prefixOf(task.site)));
  const warn = (message: string) => emit({ type: 'warning', message });
  const tasks = new EnvTasks(options.tasks, options.splitOf, writtenFor(options.tasks, options.verifiers ?? [], warn));
  const evidence = options.evidence ?? browserEvidence();
  // A server that cannot give the evidence is named before the environment opens.
  if (evidence.check && options.tasks.length) await evidence.check({ baseUrl: options.baseUrl, sites: [...new Set(options.tasks.map((t) => t.site))] });
  const maxSteps = options.maxSteps ?? 15;
  const episodeTimeoutMs = options.episodeTimeoutMs ?? 1_800_000;
  const policyName = 'env';
  const owned = !isBrowserHost(options.browser);
  const shared = isBrowserHost(options.browser) ? options.browser : browserHost({ ...options.browser, onLaunch: (launches) => emit({ type: 'browser-launch', launches }) });
  // The browser last handed out, so /health can count its open contexts and pages without launching one.
  let lastBrowser: Browser | null = null;
  const host: BrowserHost = {
    browser: async () => (lastBrowser = await shared.browser()),
    get launches() {
      return shared.launches;
    },
    ...(shared.keepPages === undefined ? {} : { keepPages: shared.keepPages }),
    close: () => shared.close(),
  };
  const browserOpen = () => {
    if (!lastBrowser?.isConnected()) return { contexts: 0, pages: 0 };
    // an emptied page kept for the next episode (one context, one page) serves none
    const contexts = lastBrowser.contexts();
    const kept = idlePageCount(lastBrowser);
    return { contexts: contexts.length - kept, pages: contexts.reduce((n, c) => n + c.pages().length, 0) - kept };
  };
  const setup = attemptSetup({ policy: { name: policyName, decide: () => Promise.reject(new Error('unused')) }, maxSteps, baseUrl: options.baseUrl, sitePrefix: options.sitePrefix });
  const ctx: SessionContext = {
    tasks,
    slots: new EpisodeSlots({ store, out: options.out, staleMs: episodeTimeoutMs, setup, mixSetup: options.mixSetup ?? false, onWarning: warn }),
    host,
    evidence,
    baseUrl: options.baseUrl,
    sitePrefix: prefixOf,
    store,
    maxSteps,
    episodeTimeoutMs,
    stepTimeoutMs: options.stepTimeoutMs ?? 120_000,
    ...(options.actionTimeoutMs ? { actionTimeoutMs: options.actionTimeoutMs } : {}),
    screenshot: options.screenshot ?? true,
    verify: options.verify ?? defaultVerify,
    ...(options.judge ? { judgeReward: judgeReward(options.judge, store) } : {}),
    policyName,
    onWarning: warn,
  };
  const pool = new SessionPool(ctx, { maxSessions: options.maxSessions ?? 8, idleTimeoutMs: options.idleTimeoutMs ?? 300_000, emit });
  const authorized = (req: IncomingMessage) => options.token === undefined || bearerMatches(req.headers.authorization, options.token);
  const http: Server = createServer((req, res) => {
    void handleHttp(req, res, { pool, tasks, authorized: authorized(req), judge: options.judge !== undefined, maxSteps, browserOpen }).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: error instanceof Error ? error.message : String(error) }));
    });
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 * 1024 });
  http.on('upgrade', (req, socket, head) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    if (pathname === '/ws' && pool.closing !== null) {
      emit({ type: 'refused', reason: 'the server is shutting down' });
      socket.end(`HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    if (pathname !== '/ws' || !authorized(req)) {
      const status = pathname !== '/ws' ? '404 Not Found' : '401 Unauthorized';
      if (pathname === '/ws') emit({ type: 'refused', reason: 'no or wrong bearer token' });
      socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws, pool));
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | null = null;
  const shutDown = async (given: EnvCloseOptions): Promise<void> => {
    const graceMs = given.graceMs ?? options.graceMs ?? DEFAULT_ENV_GRACE_MS;
    const why = `the server is shutting down${given.reason ? ` (${given.reason})` : ''}: this session is closed; an episode still in progress is dropped, nothing of it recorded`;
    emit({ type: 'shutdown', sessions: pool.active, graceMs });
    const drained = await pool.drain(why, graceMs, ABANDON_MS);
    // Each session was sent its error and a close frame: a moment for them to go out before the sockets are cut.
    await bounded(Promise.all([...wss.clients].map((c) => new Promise((resolve) => c.once('close', resolve)))), 1000);
    for (const client of wss.clients) client.terminate();
    wss.close();
    const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
    http.closeAllConnections();
    await stopped;
    if (owned) await bounded(host.close(), ABANDON_MS);
    emit({ type: 'stopped', ...drained });
  };
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    get sessions() {
      return pool.active;
    },
    close(given: EnvCloseOptions = {}) {
      closing ??= shutDown(given);
      return closing;
    },
  };
}

// `work`, or nothing once `ms` have passed (it goes on in the background).
async function bounded(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work.catch(() => {}), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim() ?? '');
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}
