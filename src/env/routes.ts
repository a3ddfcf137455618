/**
 * The HTTP routes, as OpenEnv's `HTTPEnvServer.register_routes` serves them in simulation mode: `/health`,
 * `/metadata`, `/schema`, `/openapi.json`, and the one-shot `POST /reset`, `POST /step`, `GET /state` (each on a
 * fresh environment, closed after the call); plus `GET /tasks` and `GET /tasks/<id>` (ours: OpenEnv has no task
 * listing yet) so that a trainer builds its dataset from the server.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describeError } from '../core/errors';
import { EnvActionSchema, EnvResetSchema, envJsonSchemas } from './protocol';
import { EnvSessionError } from './session';
import { EnvRequestError, type EnvTasks } from './tasks';
import type { SessionPool } from './sockets';

/** What the routes need. */
export interface RouteContext {
  readonly pool: SessionPool;
  readonly tasks: EnvTasks;
  readonly authorized: boolean;
  readonly judge: boolean;
  readonly maxSteps: number;
  /** The server's browser contexts and pages open now (a shared browser's: all its users'). */
  readonly browserOpen: () => { readonly contexts: number; readonly pages: number };
}

const MAX_BODY = 1024 * 1024;

/** Answers one HTTP request. */
export async function handleHttp(req: IncomingMessage, res: ServerResponse, ctx: RouteContext): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  const route = `${req.method ?? 'GET'} ${url.pathname}`;
  // Shutting down: 503 takes the server out of a load balancer's (and Kubernetes' readiness) rotation.
  if (route === 'GET /health') {
    if (ctx.pool.closing !== null) return json(res, 503, { status: 'unhealthy', detail: 'shutting down' });
    const open = ctx.browserOpen();
    return json(res, 200, { status: 'healthy', sessions: ctx.pool.active, browser_contexts: open.contexts, browser_pages: open.pages });
  }
  if (!ctx.authorized) return json(res, 401, { detail: 'this server needs Authorization: Bearer <token>' });
  switch (route) {
    case 'GET /metadata':
      return json(res, 200, metadata(ctx));
    case 'GET /schema':
      return json(res, 200, envJsonSchemas());
    case 'GET /openapi.json':
      return json(res, 200, openApi());
    case 'GET /state':
      return json(res, 200, { episode_id: null, step_count: 0, task_id: null, split: null, max_steps: ctx.maxSteps, done: false, episode_dir: null });
    case 'GET /tasks': {
      const split = url.searchParams.get('split') ?? undefined;
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 1000);
      if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 1 || limit > 10_000) {
        return json(res, 422, { detail: 'offset must be an integer >= 0 and limit an integer from 1 to 10000' });
      }
      return json(res, 200, { splits: ctx.tasks.splits(), ...ctx.tasks.list({ ...(split ? { split } : {}), offset, limit, judge: ctx.judge }) });
    }
    case 'POST /reset':
      return oneShotReset(req, res, ctx);
    case 'POST /step':
      return oneShotStep(req, res);
  }
  if (req.method === 'GET' && url.pathname.startsWith('/tasks/')) {
    const task = ctx.tasks.get(decodeURIComponent(url.pathname.slice('/tasks/'.length)));
    return task ? json(res, 200, { ...task, split: ctx.tasks.splitOf(task.task_id) }) : json(res, 404, { detail: `no task ${url.pathname.slice(7)}` });
  }
  return json(res, 404, { detail: 'Not Found' });
}

// OpenEnv's POST /reset: a fresh environment, reset, then closed; here its episode is dropped, nothing recorded.
async function oneShotReset(req: IncomingMessage, res: ServerResponse, ctx: RouteContext): Promise<void> {
  const body = await readBody(req, res);
  if (body === undefined) return;
  const parsed = EnvResetSchema.safeParse(body ?? {});
  if (!parsed.success) return json(res, 422, { detail: parsed.error.issues });
  const entry = ctx.pool.add(() => {});
  if (!entry && ctx.pool.closing !== null) return json(res, 503, { detail: 'the server is shutting down' });
  if (!entry) return json(res, 503, { detail: `Server at capacity: ${ctx.pool.active}/${ctx.pool.limits.maxSessions} sessions active.` });
  entry.busy++; // never idle while it resets
  try {
    return json(res, 200, await entry.session.reset(parsed.data));
  } catch (error) {
    const status = error instanceof EnvRequestError ? 422 : error instanceof EnvSessionError ? 503 : 500;
    return json(res, status, { detail: describeError(error) });
  } finally {
    await ctx.pool.remove(entry, 'one-shot reset');
  }
}

// OpenEnv's POST /step runs on a fresh environment; an episode here lives in a browser page, so it needs /ws.
async function oneShotStep(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req, res);
  if (body === undefined) return;
  const action = (body as { action?: unknown } | null)?.action;
  const parsed = EnvActionSchema.safeParse(action);
  if (!parsed.success) return json(res, 422, { detail: parsed.error.issues });
  return json(res, 409, { detail: 'a step needs the session of its episode: HTTP /step is one-shot (a fresh environment per call); step over the WebSocket /ws' });
}

// The JSON body; `undefined` when an error was answered.
async function readBody(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) {
      json(res, 413, { detail: `the body is over ${MAX_BODY} bytes` });
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    json(res, 422, { detail: `Invalid JSON: ${describeError(error)}` });
    return undefined;
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function metadata(ctx: RouteContext) {
  const splits = Object.entries(ctx.tasks.splits()).map(([k, v]) => `${k} ${v}`).join(', ');
  return {
    name: 'miniweb-taskgen',
    description: `Web tasks on offline websites in Chromium, rewarded by their verifiers (${ctx.tasks.size} tasks: ${splits}). Actions: the agent's action language or its raw reply text; observations: the page's elements and text, a PNG screenshot, the agent prompt.`,
    readme_content: null,
    version: '0.1.0',
    author: null,
    documentation_url: 'docs/env-server.md',
  };
}

function openApi() {
  const schemas = envJsonSchemas();
  const ok = (description: string) => ({ '200': { description, content: { 'application/json': {} } } });
  return {
    openapi: '3.1.0',
    info: { title: 'miniweb-taskgen environment (OpenEnv protocol)', version: '0.1.0' },
    paths: {
      '/health': { get: { summary: 'Health check', responses: ok('healthy') } },
      '/metadata': { get: { summary: 'Get environment metadata', responses: ok('metadata') } },
      '/schema': { get: { summary: 'Get all JSON schemas', responses: ok('action, observation and state schemas') } },
      '/state': { get: { summary: 'Get current environment state (a fresh one: one-shot)', responses: ok('state') } },
      '/reset': { post: { summary: 'Reset the environment (one-shot: the episode is not kept)', requestBody: { content: { 'application/json': { schema: { type: 'object' } } } }, responses: ok('observation, reward, done') } },
      '/step': { post: { summary: 'One-shot step (refused: steps need the WebSocket session)', responses: { '409': { description: 'use /ws' }, '422': { description: 'invalid action' } } } },
      '/tasks': { get: { summary: 'List the tasks (split, offset, limit)', responses: ok('tasks') } },
      '/tasks/{task_id}': { get: { summary: 'One task', responses: ok('task') } },
    },
    components: { schemas: { Action: schemas.action, Observation: schemas.observation, State: schemas.state } },
  };
}
