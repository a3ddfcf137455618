import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { gemini, LLMError, openaiCompatible, type LanguageModel } from '../src/index';
import { startFakeGemini, startFakeOpenAI, type FakeReply, type FakeServer } from './fakes/index';

// Issue 12, bullet 5: the adapters against servers that misbehave on 127.0.0.1, through the real SDKs.

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const fast = { maxRetries: 1, baseDelayMs: 1 };
const adapters: Record<string, { start: typeof startFakeGemini; make: (url: string, key?: string) => LanguageModel; provider: string; model: string }> = {
  gemini: {
    start: startFakeGemini,
    make: (url, key = 'test-key-123456') => gemini({ apiKey: key, baseUrl: url, retry: fast }),
    provider: 'gemini',
    model: 'gemini-3.5-flash',
  },
  openaiCompatible: {
    start: startFakeOpenAI,
    make: (url, key = 'test-key-123456') => openaiCompatible({ baseURL: url, model: 'Qwen/Qwen3.5-4B', apiKey: key, retry: fast }),
    provider: 'openai-compatible',
    model: 'Qwen/Qwen3.5-4B',
  },
};

const malformed: Array<[string, FakeReply]> = [
  ['an empty object', { status: 200, body: {} }],
  ['an empty list of choices or candidates', { status: 200, body: { choices: [], candidates: [] } }],
  ['choices or candidates without a message', { status: 200, body: { choices: [{}], candidates: [{ content: { parts: 'x' } }] } }],
  ['a JSON string', { status: 200, body: 'hello' }],
  ['an HTML page', { raw: '<!doctype html><html><body><h1>Welcome to nginx!</h1></body></html>' }],
  ['text that is not JSON, labelled JSON', { raw: 'upstream connect error', contentType: 'application/json' }],
  ['an empty body', { raw: '', contentType: 'application/json' }],
];

async function failure(llm: LanguageModel): Promise<unknown> {
  return llm.complete('hi').then(
    () => new Error('the call succeeded'),
    (error: unknown) => error,
  );
}

/** Every place a program could print or persist an error from. */
function everything(error: unknown): string {
  const parts: string[] = [inspect(error, { depth: 20 }), JSON.stringify(error)];
  for (let e = error, i = 0; e instanceof Error && i < 10; e = e.cause, i++) parts.push(e.message, e.stack ?? '');
  return parts.join('\n');
}

describe.each(Object.entries(adapters))('%s on a bad server', (_name, adapter) => {
  it.each(malformed)('a 2xx reply that is %s is an LLMError naming the provider and the model', async (_what, reply) => {
    server = await adapter.start({ replies: [reply] });
    const error = await failure(adapter.make(server.url));
    expect(error).toBeInstanceOf(LLMError);
    const e = error as LLMError;
    expect(e.message).toContain(`${adapter.provider} model ${adapter.model}`);
    expect(e.message).toMatch(/malformed reply/);
    expect(e.message).not.toMatch(/TypeError|Cannot read properties/);
    expect(e.isRetryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('a reply whose text part is not a string is an LLMError that says so, not an empty reply', async () => {
    const body = { choices: [{ message: { role: 'assistant', content: 42 }, finish_reason: 'stop' }], candidates: [{ content: { role: 'model', parts: [{ text: 42 }] }, finishReason: 'STOP' }] };
    server = await adapter.start({ replies: [{ status: 200, body }] });
    const error = await failure(adapter.make(server.url));
    expect(error).toBeInstanceOf(LLMError);
    const where = adapter.provider === 'gemini' ? 'candidates[0].content.parts[0].text' : 'choices[0].message.content';
    expect((error as LLMError).message).toBe(`${adapter.provider} model ${adapter.model}: malformed reply: "${where}" is not a string but a number`);
    expect(server.requests).toHaveLength(1);
  });

  it('scrubs the key from messages, causes and stacks in every encoding the server echoes it in', async () => {
    const key = 'sk-live/k3y+with"odd=chars';
    const echoed = [
      key,
      encodeURIComponent(key),
      encodeURIComponent(key).toLowerCase(),
      Buffer.from(key).toString('base64'),
      Buffer.from(`x${key}`).toString('base64url'),
      JSON.stringify(key).slice(1, -1),
    ];
    server = await adapter.start({
      replies: [{ status: 400, message: `bad request ${echoed.join(' | ')}`, headers: { 'x-echo': encodeURIComponent(key) } }],
    });
    const error = await failure(adapter.make(server.url, key));
    expect(error).toBeInstanceOf(LLMError);
    const text = everything(error);
    for (const form of echoed) expect(text).not.toContain(form);
    expect(text).not.toContain('k3y');
    expect(text).toContain('[REDACTED]');
  });

  it('a model that hangs fails after its time limit, tried once more, with a message that says so', async () => {
    server = await adapter.start({ replies: [{ hang: true }] });
    const llm = adapter.provider === 'gemini'
      ? gemini({ apiKey: 'k-123456', baseUrl: server.url, timeoutMs: 200, retry: { baseDelayMs: 1 } })
      : openaiCompatible({ baseURL: server.url, model: adapter.model, timeoutMs: 200, retry: { baseDelayMs: 1 } });
    const error = await failure(llm);
    expect(error).toBeInstanceOf(LLMError);
    expect((error as LLMError).message).toMatch(/timed out after 0\.2 s .*--timeout SECONDS.*\(gave up after 2 attempts\)$/);
    expect((error as LLMError).timedOut).toBe(true);
    expect(server.requests).toHaveLength(2); // not 5 attempts of the full limit
  });

  it('refuses an endpoint URL with user:password@ up front, without calling it or printing the password', async () => {
    server = await adapter.start({ replies: ['{}'] });
    const withCredentials = server.url.replace('http://', 'http://bob:hunter22@');
    let error: unknown;
    try {
      await adapter.make(withCredentials).complete('hi');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LLMError);
    expect((error as LLMError).message).toMatch(/carries credentials/);
    expect((error as LLMError).isRetryable).toBe(false);
    expect(everything(error)).not.toContain('hunter22');
    expect(server.requests).toHaveLength(0);
  });
});

describe('one episode of many calls', () => {
  it('openaiCompatible adds no listener per call to the caller signal (no MaxListenersExceededWarning over 25 steps)', async () => {
    server = await startFakeOpenAI({ replies: ['{"action": "scroll"}'] });
    const llm = openaiCompatible({ baseURL: server.url, model: 'Qwen/Qwen3.5-4B' });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const episode = new AbortController(); // one signal for the whole episode, as attemptTask passes it
      for (let step = 0; step < 25; step++) await llm.complete(`step ${step}`, { signal: episode.signal });
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on a later tick
      expect(server.requests).toHaveLength(25);
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('a caller abort still stops a call in flight', async () => {
    server = await startFakeOpenAI({ replies: [{ hang: true }] });
    const llm = openaiCompatible({ baseURL: server.url, model: 'm' });
    const stop = new AbortController();
    const call = llm.complete('hi', { signal: stop.signal });
    setTimeout(() => stop.abort(new Error('user stop')), 50);
    await expect(call).rejects.toThrow(/aborted/);
  });
});
