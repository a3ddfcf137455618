/**
 * The recording HTTP server under the fake model servers: binds 127.0.0.1 on a free port, records every
 * request (method, path, headers, JSON body, arrival time) and answers from a script of replies.
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** One request the fake server received. */
export interface RecordedRequest {
  /** 0-based arrival order. */
  readonly index: number;
  /** `POST`, `GET`... */
  readonly method: string;
  /** The path without the query, such as `/v1beta/models/gemini-3.5-flash:generateContent`. */
  readonly path: string;
  /** The query parameters. */
  readonly query: Readonly<Record<string, string>>;
  /** The request headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body (`undefined` when empty or not JSON). */
  readonly body: unknown;
  /** The body as received. */
  readonly rawBody: string;
  /** When the request had been fully read, in `performance.now()` milliseconds. */
  readonly receivedAt: number;
}

/** Token counts a fake success reply reports. */
export interface FakeUsage {
  readonly input: number;
  readonly output: number;
  /** Gemini only: thinking tokens (`thoughtsTokenCount`). */
  readonly thoughts?: number;
}

/** A successful reply: the model's text and the token counts to report. */
export interface FakeTextReply {
  readonly text: string;
  /** Default `{input: 10, output: 5}`. */
  readonly usage?: FakeUsage;
  /** Wait this long before answering. */
  readonly delayMs?: number;
  /** Why the model stopped, in the wire's words (Gemini `SAFETY`, `MAX_TOKENS`; OpenAI `length`). Default a normal stop. */
  readonly finishReason?: string;
}

/** An error reply in the provider's wire format. */
export interface FakeErrorReply {
  /** The HTTP status, such as 429, 500 or 400. */
  readonly status: number;
  /** The error message in the body. */
  readonly message?: string;
  /** Sent as the `Retry-After` header (seconds, or an HTTP date string). */
  readonly retryAfter?: number | string;
  /** Gemini only: a `google.rpc.RetryInfo` detail with this `retryDelay`, such as `"2s"`. */
  readonly retryDelay?: string;
  /** More response headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Replaces the whole JSON body. */
  readonly body?: unknown;
  /** Wait this long before answering. */
  readonly delayMs?: number;
}

/** Drops the connection without answering (a network error for the client). */
export interface FakeDisconnect {
  readonly disconnect: true;
  readonly delayMs?: number;
}

/** Answers these bytes as they are, outside the wire format (an HTML page from a proxy, a body that is not JSON). */
export interface FakeRawReply {
  readonly raw: string;
  /** Default 200. */
  readonly status?: number;
  /** Default `text/html; charset=utf-8`. */
  readonly contentType?: string;
  readonly delayMs?: number;
}

/** Never answers (a model that hangs); the connection stays open until the client gives up or the server closes. */
export interface FakeHang {
  readonly hang: true;
}

/**
 * What the fake server answers to one request: a text (success), a full success, an error, a disconnect, raw
 * bytes, or nothing at all.
 */
export type FakeReply = string | FakeTextReply | FakeErrorReply | FakeDisconnect | FakeRawReply | FakeHang;

/** Computes the reply to a request. */
export type FakeHandler = (request: RecordedRequest, index: number) => FakeReply | Promise<FakeReply>;

/** How a fake server replies: a list (the last one repeats) or a function of the request. */
export interface FakeServerOptions {
  /** Replies in order; the last one repeats. Default: `['ok']`. */
  readonly replies?: readonly FakeReply[];
  /** Computes each reply; wins over `replies`. */
  readonly handler?: FakeHandler;
  /**
   * OpenAI only: the models `GET /v1/models` lists (answered outside `requests` and the replies' order, as a
   * preflight check asks it). Default: no model list (404).
   */
  readonly models?: readonly string[];
}

/** A running fake server. */
export interface FakeServer {
  /** The base URL to give the SDK (Gemini: the origin; OpenAI: the origin plus `/v1`). */
  readonly url: string;
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Every request so far, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

/** A rendered HTTP answer. */
export interface WireResponse {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** The provider-specific part of a fake server: which requests it serves and how replies look on the wire. */
export interface WireFormat {
  /** `undefined` when the request is for this API; otherwise the error answer (such as a 404). */
  check(request: RecordedRequest): WireResponse | undefined;
  /** A success reply on the wire. */
  success(reply: FakeTextReply, request: RecordedRequest): WireResponse;
  /** An error reply on the wire. */
  error(reply: FakeErrorReply, request: RecordedRequest): WireResponse;
  /** Answers a request that is not a model call (a model list) outside the recorded requests; `undefined` for others. */
  direct?(method: string, path: string, options: FakeServerOptions): WireResponse | undefined;
}

/** Starts a recording server speaking `format`, bound to 127.0.0.1 on a free port. */
export async function startRecordingServer(
  options: FakeServerOptions,
  format: WireFormat,
  urlPath = '',
): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const replyFor: FakeHandler =
    options.handler ??
    ((_request, index) => {
      const replies = options.replies ?? ['ok'];
      return replies[Math.min(index, replies.length - 1)] ?? 'ok';
    });

  const server = createServer((req, res) => {
    void serve(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`fake server failed: ${String(error)}`);
    });
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const direct = format.direct?.(req.method ?? 'GET', url.pathname, options);
    if (direct) return send(res, direct);
    const request: RecordedRequest = {
      index: requests.length,
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
      ),
      body: parseJson(rawBody),
      rawBody,
      receivedAt: performance.now(),
    };
    requests.push(request);
    const refused = format.check(request);
    if (refused) return send(res, refused);
    const reply = await replyFor(request, request.index);
    if (typeof reply !== 'string' && 'hang' in reply) return;
    if (typeof reply !== 'string' && reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (typeof reply === 'string') return send(res, format.success({ text: reply }, request));
    if ('raw' in reply) {
      res.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'text/html; charset=utf-8' });
      res.end(reply.raw);
      return;
    }
    if ('disconnect' in reply) {
      req.socket.destroy();
      return;
    }
    if ('status' in reply) return send(res, format.error(reply, request));
    return send(res, format.success(reply, request));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: origin + urlPath,
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Headers common to error replies: `Retry-After` when scripted, plus any extra headers. */
export function errorHeaders(reply: FakeErrorReply): Record<string, string> {
  const headers: Record<string, string> = { ...reply.headers };
  if (reply.retryAfter !== undefined) headers['retry-after'] = String(reply.retryAfter);
  return headers;
}

function send(res: ServerResponse, answer: WireResponse): void {
  const body = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...answer.headers,
  });
  res.end(body);
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
