import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LLMError, openaiCompatible } from '../src/index';
import { toJsonSchema } from '../src/models/json-schema';
import { base64Of, makeImage, startFakeOpenAI, type FakeServer } from './fakes/index';

const KEY = 'sk-test-SECRET123';
const FAST = { baseDelayMs: 1, maxDelayMs: 5 };
let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Part = { type: string; text?: string; image_url?: { url: string } };
interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string | Part[] }>;
  max_tokens?: number;
  temperature?: number;
  response_format?: Record<string, unknown>;
  chat_template_kwargs?: Record<string, unknown>;
}

describe('openaiCompatible adapter against a fake OpenAI-compatible server', () => {
  it('sends the system message, images as data URLs after the text, JSON mode, max_tokens, temperature and extraBody', async () => {
    server = await startFakeOpenAI({ replies: [{ text: '{"action": "click", "x": 3}', usage: { input: 900, output: 12 } }] });
    const llm = openaiCompatible({
      baseURL: server.url,
      model: 'Qwen/Qwen3.5-4B',
      apiKey: KEY,
      extraBody: { chat_template_kwargs: { enable_thinking: false } },
    });
    const images = [await makeImage({ seed: 1 }), await makeImage({ seed: 2, format: 'jpeg' })];
    const reply = await llm.complete('Goal: buy a lamp', { system: 'You control a browser.', json: true, maxTokens: 512, temperature: 0.2, images });

    expect(reply).toEqual({ text: '{"action": "click", "x": 3}', usage: { inputTokens: 900, outputTokens: 12 }, model: 'Qwen/Qwen3.5-4B' });
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    const body = request.body as ChatBody;
    expect(body.model).toBe('Qwen/Qwen3.5-4B');
    expect(body.max_tokens).toBe(512);
    expect(body.temperature).toBe(0.2);
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(body.chat_template_kwargs).toEqual({ enable_thinking: false });
    expect(body.messages).toEqual([
      { role: 'system', content: 'You control a browser.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Goal: buy a lamp' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${base64Of(images[0]!)}` } },
          { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${base64Of(images[1]!)}` } },
        ],
      },
    ]);
  });

  it('sends a JSON schema as response_format json_schema, or json_object when structured outputs are off', async () => {
    server = await startFakeOpenAI({ replies: ['{}'] });
    const schema = toJsonSchema(z.object({ tasks: z.array(z.string()) }));
    await openaiCompatible({ baseURL: server.url, model: 'm' }).complete('p', { jsonSchema: schema });
    await openaiCompatible({ baseURL: server.url, model: 'm', structuredOutputs: false }).complete('p', { jsonSchema: schema });
    await openaiCompatible({ baseURL: server.url, model: 'm', supportsJsonMode: false }).complete('p', { json: true });
    const formats = server.requests.map((r) => (r.body as ChatBody).response_format);
    expect(formats).toEqual([
      { type: 'json_schema', json_schema: { name: 'response', schema, strict: true } },
      { type: 'json_object' },
      undefined,
    ]);
  });

  it('sends a plain prompt as a string, and uses EMPTY as the key when none is given', async () => {
    server = await startFakeOpenAI({ replies: ['hi'] });
    const llm = openaiCompatible({ baseURL: server.url, model: 'local', env: {} });
    await llm.complete('hello');
    const body = server.requests[0]!.body as ChatBody;
    expect(body.messages).toEqual([{ role: 'user', content: 'hello' }]);
    expect(body.max_tokens).toBeUndefined();
    expect(body.response_format).toBeUndefined();
    expect(server.requests[0]!.headers.authorization).toBe('Bearer EMPTY');
  });

  it('retries a 429 after its Retry-After', async () => {
    server = await startFakeOpenAI({ replies: [{ status: 429, retryAfter: 1, message: 'slow down' }, 'done'] });
    const llm = openaiCompatible({ baseURL: server.url, model: 'm', apiKey: KEY });
    expect((await llm.complete('hi')).text).toBe('done');
    const [first, second] = server.requests;
    expect(server.requests).toHaveLength(2);
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(1000 - 20);
  });

  it('reads Retry-After as an HTTP date too', async () => {
    const when = new Date(Date.now() + 3000).toUTCString();
    server = await startFakeOpenAI({ replies: [{ status: 503, retryAfter: when }, 'done'] });
    const waits: number[] = [];
    const llm = openaiCompatible({ baseURL: server.url, model: 'm', retry: { sleep: async (ms) => void waits.push(ms) } });
    expect((await llm.complete('hi')).text).toBe('done');
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[0]).toBeLessThanOrEqual(3000);
  });

  it('does not retry a 400, and names the model and the server message', async () => {
    server = await startFakeOpenAI({ replies: [{ status: 400, message: "max_tokens is too large" }] });
    const llm = openaiCompatible({ baseURL: server.url, model: 'Qwen/Qwen3.5-4B', retry: FAST });
    const error = (await llm.complete('hi').catch((e: unknown) => e)) as LLMError;
    expect(error).toBeInstanceOf(LLMError);
    expect(error).toMatchObject({ status: 400, isRetryable: false, provider: 'openai-compatible', model: 'Qwen/Qwen3.5-4B' });
    expect(error.message).toBe('openai-compatible model Qwen/Qwen3.5-4B: HTTP 400: max_tokens is too large');
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after maxRetries 5xx answers, naming the model', async () => {
    server = await startFakeOpenAI({ replies: [{ status: 500 }, { status: 502 }, { status: 500 }, 'too late'] });
    const llm = openaiCompatible({ baseURL: server.url, model: 'Qwen/Qwen3.5-4B', retry: { ...FAST, maxRetries: 2 } });
    const error = (await llm.complete('hi').catch((e: unknown) => e)) as LLMError;
    expect(server.requests).toHaveLength(3);
    expect(error).toBeInstanceOf(LLMError);
    expect(error.status).toBe(500);
    expect(error.message).toMatch(/Qwen\/Qwen3\.5-4B: HTTP 500.*gave up after 3 attempts/);
  });

  it('retries an attempt that runs past timeoutMs', async () => {
    server = await startFakeOpenAI({ replies: [{ text: 'too slow', delayMs: 1500 }, 'in time'] });
    const llm = openaiCompatible({ baseURL: server.url, model: 'm', timeoutMs: 200, retry: FAST });
    expect((await llm.complete('hi')).text).toBe('in time');
    expect(server.requests).toHaveLength(2);
  });

  it('stops when the signal fires, without retrying', async () => {
    server = await startFakeOpenAI({ replies: [{ text: 'slow', delayMs: 1000 }] });
    const controller = new AbortController();
    const llm = openaiCompatible({ baseURL: server.url, model: 'm', retry: FAST });
    const pending = llm.complete('hi', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = (await pending.catch((e: unknown) => e)) as LLMError;
    expect(error).toBeInstanceOf(LLMError);
    expect([error.message, error.isRetryable]).toEqual(['openai-compatible model m: call aborted', false]);
  });

  it('treats a dropped connection and a closed server as retryable network errors', async () => {
    server = await startFakeOpenAI({ replies: [{ disconnect: true }, 'after the drop'] });
    const llm = openaiCompatible({ baseURL: server.url, model: 'm', retry: FAST });
    expect((await llm.complete('hi')).text).toBe('after the drop');

    const url = server.url;
    await server.close();
    server = undefined;
    const closed = openaiCompatible({ baseURL: url, model: 'm', retry: { ...FAST, maxRetries: 1 } });
    const error = (await closed.complete('hi').catch((e: unknown) => e)) as LLMError;
    expect(error).toBeInstanceOf(LLMError);
    expect(error.isRetryable).toBe(true);
    expect(error.message).toMatch(/network error/);
  });
});
