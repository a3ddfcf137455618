/**
 * A fake OpenAI-compatible server (as vLLM serves): `POST /v1/chat/completions` in the OpenAI wire format.
 * Point the `openai` SDK (or `openaiCompatible({baseURL})`) at {@link FakeServer.url}, which ends in `/v1`.
 * @module
 */
import {
  errorHeaders,
  startRecordingServer,
  type FakeServer,
  type FakeServerOptions,
  type WireFormat,
  type WireResponse,
} from './http';

const COMPLETIONS = '/v1/chat/completions';

const ERROR_TYPE: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  404: 'not_found_error',
  429: 'rate_limit_exceeded',
};

const openaiWire: WireFormat = {
  check(request) {
    if (request.method === 'POST' && request.path === COMPLETIONS) return undefined;
    return openaiError(404, `fake OpenAI: no route for ${request.method} ${request.path}`);
  },
  success(reply, request) {
    const usage = reply.usage ?? { input: 10, output: 5 };
    const body = request.body as { model?: unknown } | undefined;
    return {
      status: 200,
      body: {
        id: `chatcmpl-fake-${request.index}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: typeof body?.model === 'string' ? body.model : 'unknown',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: reply.text, refusal: null },
            logprobs: null,
            finish_reason: reply.finishReason ?? 'stop',
          },
        ],
        usage: {
          prompt_tokens: usage.input,
          completion_tokens: usage.output,
          total_tokens: usage.input + usage.output,
        },
      },
    };
  },
  direct(method, path, options) {
    if (method !== 'GET' || path !== '/v1/models') return undefined;
    if (!options.models) return openaiError(404, 'fake OpenAI: no model list');
    return { status: 200, body: { object: 'list', data: options.models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })) } };
  },
  error(reply) {
    if (reply.body !== undefined) return { status: reply.status, headers: errorHeaders(reply), body: reply.body };
    return { ...openaiError(reply.status, reply.message ?? `fake error ${reply.status}`), headers: errorHeaders(reply) };
  },
};

function openaiError(status: number, message: string): WireResponse {
  return {
    status,
    body: { error: { message, type: ERROR_TYPE[status] ?? 'server_error', param: null, code: null } },
  };
}

/**
 * Starts a fake OpenAI-compatible server on 127.0.0.1 (free port) that records every request and answers
 * from `replies` (the last repeats) or `handler`.
 * @example
 * const server = await startFakeOpenAI({ replies: ['{"action": "click"}'] });
 * const llm = openaiCompatible({ baseURL: server.url, model: 'Qwen/Qwen3.5-4B' });
 * await llm.complete('hi');
 * server.requests[0].body // the chat.completions request body
 * await server.close();
 */
export function startFakeOpenAI(options: FakeServerOptions = {}): Promise<FakeServer> {
  return startRecordingServer(options, openaiWire, '/v1');
}
