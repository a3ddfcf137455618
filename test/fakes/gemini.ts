/**
 * A fake Gemini API server: `POST /v1beta/models/<model>:generateContent` in the Gemini Developer API's wire
 * format (what `@google/genai` v2 sends and parses). Point the SDK at it with `httpOptions.baseUrl` (or the
 * `gemini({baseUrl})` option) set to {@link FakeServer.url}.
 * @module
 */
import {
  errorHeaders,
  startRecordingServer,
  type FakeErrorReply,
  type FakeServer,
  type FakeServerOptions,
  type RecordedRequest,
  type WireFormat,
  type WireResponse,
} from './http';

const GENERATE = /^\/v1beta\/models\/([^/:]+):generateContent$/;

const GOOGLE_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  408: 'DEADLINE_EXCEEDED',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** The model name in a recorded Gemini request's path (`undefined` for other paths). */
export function geminiModelOf(request: RecordedRequest): string | undefined {
  return GENERATE.exec(request.path)?.[1];
}

const geminiWire: WireFormat = {
  check(request) {
    if (request.method === 'POST' && GENERATE.test(request.path)) return undefined;
    return googleError(404, `fake Gemini: no route for ${request.method} ${request.path}`);
  },
  success(reply, request) {
    const usage = reply.usage ?? { input: 10, output: 5 };
    const model = geminiModelOf(request) ?? 'unknown';
    return {
      status: 200,
      body: {
        candidates: [
          { content: { parts: [{ text: reply.text }], role: 'model' }, finishReason: reply.finishReason ?? 'STOP', index: 0 },
        ],
        usageMetadata: {
          promptTokenCount: usage.input,
          candidatesTokenCount: usage.output,
          ...(usage.thoughts !== undefined ? { thoughtsTokenCount: usage.thoughts } : {}),
          totalTokenCount: usage.input + usage.output + (usage.thoughts ?? 0),
        },
        modelVersion: model,
        responseId: `fake-${request.index}`,
      },
    };
  },
  error(reply) {
    if (reply.body !== undefined) return { status: reply.status, headers: errorHeaders(reply), body: reply.body };
    return googleError(reply.status, reply.message ?? `fake error ${reply.status}`, reply);
  },
};

function googleError(status: number, message: string, reply?: FakeErrorReply): WireResponse {
  const details = reply?.retryDelay
    ? [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: reply.retryDelay }]
    : undefined;
  return {
    status,
    headers: reply ? errorHeaders(reply) : {},
    body: { error: { code: status, message, status: GOOGLE_STATUS[status] ?? 'UNKNOWN', ...(details ? { details } : {}) } },
  };
}

/**
 * Starts a fake Gemini server on 127.0.0.1 (free port) that records every request and answers from `replies`
 * (the last repeats) or `handler`.
 * @example
 * const server = await startFakeGemini({ replies: [{ status: 429, retryAfter: 1 }, '{"tasks": []}'] });
 * const llm = gemini({ apiKey: 'test-key', baseUrl: server.url });
 * await llm.complete('hi'); // retried once
 * server.requests[1].body // the generateContent request body
 * await server.close();
 */
export function startFakeGemini(options: FakeServerOptions = {}): Promise<FakeServer> {
  return startRecordingServer(options, geminiWire);
}
