/**
 * Replies that came back but hold no answer: blocked by a filter, cut at the token limit, or empty. Each is an
 * LLMError naming the provider's reason, through the real SDKs against the fake servers in the wire format; the
 * agent keeps a cut or empty reply as its own step; a judge without a verdict says why.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { LLMError, UsageMeter, gemini, openaiCompatible, qwenPolicy, withUsage, type PolicyInput } from '../src/index';
import { startFakeGemini, startFakeOpenAI, type FakeReply, type FakeServer } from './fakes/index';

const KEY = 'test-key-replies-7c1d';
const servers: FakeServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

async function geminiReply(reply: FakeReply): Promise<{ error: unknown; server: FakeServer }> {
  const server = await startFakeGemini({ replies: [reply] });
  servers.push(server);
  const llm = gemini({ apiKey: KEY, baseUrl: server.url, model: 'gemini-3.5-flash' });
  return { error: await llm.complete('judge this').then(() => undefined, (e: unknown) => e), server };
}

async function openaiReply(reply: FakeReply): Promise<{ error: unknown; server: FakeServer }> {
  const server = await startFakeOpenAI({ replies: [reply] });
  servers.push(server);
  const llm = openaiCompatible({ baseURL: server.url, model: 'Qwen/Qwen3.5-4B' });
  return { error: await llm.complete('act').then(() => undefined, (e: unknown) => e), server };
}

// What the fake servers report for a reply unless told otherwise: the error carries it (the call was billed).
const FAKE_USAGE = { inputTokens: 10, outputTokens: 5 };

const json = (body: unknown): FakeReply => ({ raw: JSON.stringify(body), contentType: 'application/json; charset=UTF-8' });

describe('gemini replies without an answer', () => {
  const cases: ReadonlyArray<[string, FakeReply, RegExp, LLMError['reply']]> = [
    [
      'a prompt blocked for safety',
      json({ promptFeedback: { blockReason: 'SAFETY', blockReasonMessage: 'unsafe image' }, usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 } }),
      /^gemini model gemini-3\.5-flash: the reply was blocked by the provider's filter \(prompt SAFETY: unsafe image\)$/,
      { reason: 'blocked', providerReason: 'prompt SAFETY', text: '', usage: { inputTokens: 9, outputTokens: 0 } },
    ],
    ['a reply stopped for SAFETY', { text: '', finishReason: 'SAFETY' }, /blocked by the provider's filter \(SAFETY\)/, { reason: 'blocked', providerReason: 'SAFETY', text: '', usage: FAKE_USAGE }],
    ['a reply stopped for RECITATION', { text: 'The quick', finishReason: 'RECITATION' }, /\(RECITATION\)/, { reason: 'blocked', providerReason: 'RECITATION', text: 'The quick', usage: FAKE_USAGE }],
    ['a reply stopped for PROHIBITED_CONTENT', { text: '', finishReason: 'PROHIBITED_CONTENT' }, /\(PROHIBITED_CONTENT\)/, { reason: 'blocked', providerReason: 'PROHIBITED_CONTENT', text: '', usage: FAKE_USAGE }],
    ['a reply cut at MAX_TOKENS', { text: '{"verdict": "SUCC', finishReason: 'MAX_TOKENS' }, /cut at the token limit \(MAX_TOKENS\); raise the limit/, { reason: 'cut', providerReason: 'MAX_TOKENS', text: '{"verdict": "SUCC', usage: FAKE_USAGE }],
    ['an empty reply', '', /the reply was empty \(STOP\)/, { reason: 'empty', providerReason: 'STOP', text: '', usage: FAKE_USAGE }],
  ];
  for (const [name, reply, message, problem] of cases) {
    it(`${name} is an error naming the reason, not retried`, async () => {
      const { error, server } = await geminiReply(reply);
      expect(error).toBeInstanceOf(LLMError);
      expect((error as LLMError).message).toMatch(message);
      expect((error as LLMError).reply).toEqual(problem);
      expect((error as LLMError).isRetryable).toBe(false);
      expect(server.requests).toHaveLength(1);
    });
  }

  it("a blocked, cut or empty reply's tokens are counted by the usage meter, as a successful call's are", async () => {
    const server = await startFakeGemini({
      replies: [
        json({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 900, totalTokenCount: 900 } }),
        { text: '', finishReason: 'SAFETY', usage: { input: 1200, output: 0, thoughts: 300 } },
        { text: '{"verdict": "SUCC', finishReason: 'MAX_TOKENS', usage: { input: 1000, output: 8192 } },
        { text: '', usage: { input: 7, output: 1 } },
        { text: '{"verdict": "SUCCESS"}', usage: { input: 10, output: 5 } },
      ],
    });
    servers.push(server);
    const meter = new UsageMeter({ prices: { 'gemini-3.5-flash': { input: 1, output: 2 } } });
    const llm = withUsage(gemini({ apiKey: KEY, baseUrl: server.url, model: 'gemini-3.5-flash' }), meter, { step: 'judge' });
    const reasons: string[] = [];
    for (let i = 0; i < 5; i++) await llm.complete('judge this').catch((e: unknown) => reasons.push((e as LLMError).reply!.reason));
    expect(reasons).toEqual(['blocked', 'blocked', 'cut', 'empty']);
    const inputTokens = 900 + 1200 + 1000 + 7 + 10;
    const outputTokens = 300 + 8192 + 1 + 5;
    expect(meter.summary().steps.judge).toEqual({ calls: 5, inputTokens, outputTokens, cost: (inputTokens + 2 * outputTokens) / 1e6, priced: true });
  });

  it('a normal reply still resolves with its text', async () => {
    const server = await startFakeGemini({ replies: ['{"verdict": "SUCCESS"}'] });
    servers.push(server);
    const llm = gemini({ apiKey: KEY, baseUrl: server.url });
    expect((await llm.complete('judge this')).text).toBe('{"verdict": "SUCCESS"}');
  });
});

describe('openai-compatible replies without an answer', () => {
  const cases: ReadonlyArray<[string, FakeReply, RegExp, LLMError['reply']]> = [
    ['finish_reason content_filter', { text: '', finishReason: 'content_filter' }, /blocked by the provider's filter \(content_filter\)/, { reason: 'blocked', providerReason: 'content_filter', text: '', usage: FAKE_USAGE }],
    ['finish_reason length', { text: '{"click": {"ind', finishReason: 'length' }, /cut at the token limit \(length\)/, { reason: 'cut', providerReason: 'length', text: '{"click": {"ind', usage: FAKE_USAGE }],
    ['empty content', '', /the reply was empty \(stop\)/, { reason: 'empty', providerReason: 'stop', text: '', usage: FAKE_USAGE }],
  ];
  for (const [name, reply, message, problem] of cases) {
    it(`${name} is an error naming the reason`, async () => {
      const { error, server } = await openaiReply(reply);
      expect(error).toBeInstanceOf(LLMError);
      expect((error as LLMError).message).toMatch(message);
      expect((error as LLMError).message).toMatch(/^openai-compatible model Qwen\/Qwen3\.5-4B: /);
      expect((error as LLMError).reply).toEqual(problem);
      expect(server.requests).toHaveLength(1);
    });
  }

  it("the agent keeps a cut reply as its own step (a parse error fed back), but a filtered one is the model's failure", async () => {
    const input = {
      task: { kind: 'proposed', task_id: 't', site: 'shop', sites: [], macro: 'proposed', macros: [], instruction: 'buy', start_path: '/sites/shop/', task_kind: 'action', verifier: null },
      observation: { url: '/sites/shop/', title: 'Shop', prompt: 'page', elements: [], screenshot: new Uint8Array([137, 80, 78, 71]), step: 0 },
      history: [], step: 0, maxSteps: 5,
    } as unknown as PolicyInput;
    const cut = await startFakeOpenAI({ replies: [{ text: '{"click": {"ind', finishReason: 'length' }] });
    const filtered = await startFakeOpenAI({ replies: [{ text: '', finishReason: 'content_filter' }] });
    servers.push(cut, filtered);
    const decision = await qwenPolicy({ baseURL: cut.url, model: 'Qwen/Qwen3.5-4B' }).decide(input);
    expect(decision.text).toBe('{"click": {"ind');
    expect(decision.usage).toEqual(FAKE_USAGE); // its tokens counted in the episode's
    await expect(qwenPolicy({ baseURL: filtered.url, model: 'Qwen/Qwen3.5-4B' }).decide(input)).rejects.toThrow(/content_filter/);
  });
});
