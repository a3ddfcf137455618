import { afterEach, describe, expect, it } from 'vitest';
import { resolveModel } from '../src/cli/models';
import { startFakeGemini, startFakeOpenAI, type FakeServer } from './fakes/index';

const KEY = 'sk-test-SECRET123';
let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('resolveModel (CLI model selection)', () => {
  it('uses Gemini for gemini-* models, with the key and GEMINI_BASE_URL from the environment', async () => {
    server = await startFakeGemini({ replies: ['from fake gemini'] });
    const llm = resolveModel({ model: 'gemini-2.5-flash', env: { GEMINI_API_KEY: KEY, GEMINI_BASE_URL: server.url } });
    expect([llm.provider, llm.modelId]).toEqual(['gemini', 'gemini-2.5-flash']);
    expect(llm.description).toBe(`gemini-2.5-flash on the Gemini API at ${server.url} (key from GEMINI_API_KEY)`);
    expect((await llm.complete('hi')).text).toBe('from fake gemini');
    expect(server.requests[0]!.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
  });

  it('defaults to gemini-3.5-flash and fails clearly, naming the variables, without a key', () => {
    expect(() => resolveModel({ env: {} })).toThrow('no API key for gemini-3.5-flash: set GEMINI_API_KEY or GOOGLE_API_KEY in the environment');
    expect(() => resolveModel({ apiKeyEnv: 'MY_KEY', env: { GEMINI_API_KEY: KEY } })).toThrow('set MY_KEY in the environment');
    expect(resolveModel({ env: { GOOGLE_API_KEY: KEY } }).description).toBe('gemini-3.5-flash on the Gemini API (key from GOOGLE_API_KEY)');
  });

  it('uses an OpenAI-compatible server with --endpoint, sending no key unless --api-key-env names one', async () => {
    server = await startFakeOpenAI({ replies: ['from fake vllm'] });
    const env = { OPENAI_API_KEY: 'sk-real-openai-key-not-for-local' };
    const local = resolveModel({ model: 'Qwen/Qwen3.5-4B', endpoint: server.url, env, extraBody: { chat_template_kwargs: { enable_thinking: false } } });
    expect(local.description).toBe(`Qwen/Qwen3.5-4B on the OpenAI-compatible server ${server.url} (no key)`);
    expect((await local.complete('hi')).text).toBe('from fake vllm');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer EMPTY');
    expect(server.requests[0]!.body).toMatchObject({ model: 'Qwen/Qwen3.5-4B', chat_template_kwargs: { enable_thinking: false } });

    const keyed = resolveModel({ model: 'm', endpoint: server.url, apiKeyEnv: 'VLLM_KEY', env: { VLLM_KEY: KEY } });
    await keyed.complete('hi');
    expect(server.requests[1]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(keyed.description).not.toContain(KEY);
  });

  it('refuses a model it cannot place, and an endpoint URL with credentials, without printing them', () => {
    expect(() => resolveModel({ model: 'Qwen/Qwen3.5-4B', env: {} })).toThrow(/needs --endpoint URL/);
    expect(() => resolveModel({ model: 'gpt-4o', env: {} })).toThrow('set OPENAI_API_KEY');
    expect(resolveModel({ model: 'gpt-4o', env: { OPENAI_API_KEY: KEY } }).provider).toBe('openai');
    const refused = (() => {
      try {
        resolveModel({ model: 'm', endpoint: 'http://bob:hunter22@10.0.0.5:8000/v1', env: {} });
      } catch (error) {
        return error as Error;
      }
      return undefined;
    })();
    expect(refused?.message).toMatch(/carries credentials/);
    expect(refused?.message).not.toContain('hunter22');
  });
});
