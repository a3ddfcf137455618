import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { gemini, LLMError, type RetryEvent } from '../src/index';
import { toJsonSchema } from '../src/models/json-schema';
import { base64Of, makeImage, startFakeGemini, type FakeServer } from './fakes/index';

const KEY = 'sk-test-SECRET123';
const FAST = { baseDelayMs: 1, maxDelayMs: 5 };
let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface GeminiBody {
  contents: Array<{ role: string; parts: Array<{ text?: string; inlineData?: { mimeType: string; data: string } }> }>;
  systemInstruction?: { parts: Array<{ text: string }> };
  generationConfig?: Record<string, unknown>;
}

describe('gemini adapter against a fake Gemini server', () => {
  it('sends the system instruction, JSON mode, schema, temperature, max tokens and every image in order', async () => {
    server = await startFakeGemini({ replies: [{ text: '{"verdict": "SUCCESS"}', usage: { input: 1200, output: 40, thoughts: 60 } }] });
    const llm = gemini({ apiKey: KEY, baseUrl: server.url, model: 'gemini-3.5-flash' });
    const images = [
      await makeImage({ seed: 1 }),
      await makeImage({ seed: 2, format: 'jpeg' }),
      await makeImage({ seed: 3 }),
    ];
    const schema = toJsonSchema(z.object({ verdict: z.enum(['SUCCESS', 'FAILURE']), reason: z.string() }));
    const reply = await llm.complete('TASK: buy a lamp', {
      system: 'You are a strict judge.', json: true, jsonSchema: schema, temperature: 0, maxTokens: 8192, images,
    });

    expect(reply).toEqual({ text: '{"verdict": "SUCCESS"}', usage: { inputTokens: 1200, outputTokens: 100 }, model: 'gemini-3.5-flash' });
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1beta/models/gemini-3.5-flash:generateContent');
    expect(request.headers['x-goog-api-key']).toBe(KEY);
    expect(request.query).toEqual({});
    const body = request.body as GeminiBody;
    expect(body.systemInstruction?.parts).toEqual([{ text: 'You are a strict judge.' }]);
    expect(body.generationConfig).toEqual({
      temperature: 0, maxOutputTokens: 8192, responseMimeType: 'application/json', responseJsonSchema: schema,
    });
    expect(body.contents).toHaveLength(1);
    const parts = body.contents[0]!.parts;
    expect(parts[0]).toEqual({ text: 'TASK: buy a lamp' });
    expect(parts.slice(1)).toEqual(
      images.map((image) => ({ inlineData: { mimeType: image.mediaType, data: base64Of(image) } })),
    );
    expect(parts.slice(1).map((part) => part.inlineData?.mimeType)).toEqual(['image/png', 'image/jpeg', 'image/png']);
  });

  it('sends no JSON mode or system instruction when not asked, and takes the media type from the bytes', async () => {
    server = await startFakeGemini({ replies: ['plain text'] });
    const llm = gemini({ apiKey: KEY, baseUrl: server.url });
    const jpeg = await makeImage({ format: 'jpeg' });
    const reply = await llm.complete('hello', { images: [{ ...jpeg, mediaType: 'image/png' }] });
    expect(reply.text).toBe('plain text');
    const body = server.requests[0]!.body as GeminiBody;
    expect(body.systemInstruction).toBeUndefined();
    expect(body.generationConfig?.responseMimeType).toBeUndefined();
    expect(body.contents[0]!.parts[1]!.inlineData?.mimeType).toBe('image/jpeg');
  });

  it('downscales images past `downscale` pixels, keeping the aspect and the format', async () => {
    server = await startFakeGemini({ replies: ['ok'] });
    const llm = gemini({ apiKey: KEY, baseUrl: server.url, downscale: 100 });
    const big = await makeImage({ width: 400, height: 250 });
    const small = await makeImage({ width: 80, height: 50, seed: 4 });
    await llm.complete('look', { images: [big, small] });
    const parts = (server.requests[0]!.body as GeminiBody).contents[0]!.parts.slice(1);
    const { default: sharp } = await import('sharp');
    const sent = await sharp(Buffer.from(parts[0]!.inlineData!.data, 'base64')).metadata();
    expect([sent.format, sent.width, sent.height]).toEqual(['png', 100, 63]);
    expect(parts[1]!.inlineData!.data).toBe(base64Of(small));
  });

  it('retries a 429 after its Retry-After', async () => {
    server = await startFakeGemini({ replies: [{ status: 429, retryAfter: 1, message: 'quota' }, 'done'] });
    const events: RetryEvent[] = [];
    const llm = gemini({ apiKey: KEY, baseUrl: server.url, retry: { onRetry: (e) => events.push(e) } });
    const reply = await llm.complete('hi');
    expect(reply.text).toBe('done');
    expect(server.requests).toHaveLength(2);
    expect(events.map((e) => [e.attempt, e.delayMs, e.error.status])).toEqual([[1, 1000, 429]]);
    const [first, second] = server.requests;
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(1000 - 20);
  });

  it("honours Gemini's RetryInfo retryDelay when there is no Retry-After header", async () => {
    server = await startFakeGemini({ replies: [{ status: 429, retryDelay: '0.25s' }, 'done'] });
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    const llm = gemini({ apiKey: KEY, baseUrl: server.url, retry: { sleep } });
    expect((await llm.complete('hi')).text).toBe('done');
    expect(waits).toEqual([250]);
  });

  it('does not retry a 400 and says what the server said', async () => {
    server = await startFakeGemini({ replies: [{ status: 400, message: 'Invalid JSON payload received.' }, 'unreachable'] });
    const llm = gemini({ apiKey: KEY, baseUrl: server.url, retry: FAST });
    const error = await llm.complete('hi').then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(LLMError);
    expect(error).toMatchObject({ status: 400, isRetryable: false, model: 'gemini-3.5-flash', provider: 'gemini' });
    expect((error as LLMError).message).toBe('gemini model gemini-3.5-flash: HTTP 400: Invalid JSON payload received.');
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after maxRetries 5xx answers with an error naming the model', async () => {
    server = await startFakeGemini({ replies: [{ status: 500, message: 'internal' }] });
    const llm = gemini({ apiKey: KEY, baseUrl: server.url, model: 'gemini-2.5-flash', retry: { ...FAST, maxRetries: 2 } });
    const error = (await llm.complete('hi').catch((e: unknown) => e)) as LLMError;
    expect(error).toBeInstanceOf(LLMError);
    expect(server.requests).toHaveLength(3);
    expect(error.status).toBe(500);
    expect(error.isRetryable).toBe(true);
    expect(error.message).toContain('gemini-2.5-flash');
    expect(error.message).toContain('HTTP 500');
    expect(error.message).toContain('gave up after 3 attempts');
  });

  it('treats a dropped connection and a closed server as retryable network errors', async () => {
    server = await startFakeGemini({ replies: [{ disconnect: true }, 'after the drop'] });
    const llm = gemini({ apiKey: KEY, baseUrl: server.url, retry: FAST });
    expect((await llm.complete('hi')).text).toBe('after the drop');
    expect(server.requests).toHaveLength(2);

    const url = server.url;
    await server.close();
    server = undefined;
    const closed = gemini({ apiKey: KEY, baseUrl: url, retry: { ...FAST, maxRetries: 1 } });
    const error = (await closed.complete('hi').catch((e: unknown) => e)) as LLMError;
    expect(error).toBeInstanceOf(LLMError);
    expect(error.isRetryable).toBe(true);
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(/network error \((ECONNREFUSED|UND_ERR_SOCKET|ECONNRESET)\)/);
  });

  it('retries an attempt that runs past timeoutMs', async () => {
    server = await startFakeGemini({ replies: [{ text: 'too slow', delayMs: 1500 }, 'in time'] });
    const llm = gemini({ apiKey: KEY, baseUrl: server.url, timeoutMs: 200, retry: FAST });
    expect((await llm.complete('hi')).text).toBe('in time');
    expect(server.requests).toHaveLength(2);
  });

  it('stops when the signal fires, without retrying', async () => {
    server = await startFakeGemini({ replies: [{ status: 503 }] });
    const controller = new AbortController();
    const sleep = async () => controller.abort();
    const llm = gemini({ apiKey: KEY, baseUrl: server.url, retry: { sleep } });
    const error = (await llm.complete('hi', { signal: controller.signal }).catch((e: unknown) => e)) as LLMError;
    expect(error).toBeInstanceOf(LLMError);
    expect(error.message).toContain('aborted');
    expect(error.isRetryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('needs a key, from the option or the environment, and names the variables when there is none', () => {
    expect(() => gemini({ env: {} })).toThrow(/GEMINI_API_KEY or GOOGLE_API_KEY/);
    expect(gemini({ env: { GOOGLE_API_KEY: KEY } }).modelId).toBe('gemini-3.5-flash');
  });
});
