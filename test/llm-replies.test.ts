/**
 * Replies that came back but hold no answer: blocked by a filter, cut at the token limit, or empty. Each is an
 * LLMError naming the provider's reason, through the real SDKs against the fake servers in the wire format; the
 * agent keeps a cut or empty reply as its own step; a judge without a verdict says why.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { LLMError, gemini, openaiCompatible, qwenPolicy, type PolicyInput } from '../src/index';
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

const json = (body: unknown): FakeReply => ({ raw: JSON.stringify(body), contentType: 'application/json; charset=UTF-8' });

describe('gemini replies without an answer', () => {
  const cases: ReadonlyArray<[string, FakeReply, RegExp, LLMError['reply']]> = [
    [
      'a prompt blocked for safety',
      json({ promptFeedback: { blockReason: 'SAFETY', blockReasonMessage: 'unsafe image' }, usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 } }),
      /^gemini model gemini-3\.5-flash: the reply was blocked by the provider's filter \(prompt SAFETY: unsafe image\)$/,
      { reason: 'blocked', providerReason: 'prompt SAFETY', text: '' },
    ],
    ['a reply stopped for SAFETY', { text: '', finishReason: 'SAFETY' }, /blocked by the provider's filter \(SAFETY\)/, { reason: 'blocked', providerReason: 'SAFETY', text: '' }],
    ['a reply stopped for RECITATION', { text: 'The quick', finishReason: 'RECITATION' }, /\(RECITATION\)/, { reason: 'blocked', providerReason: 'RECITATION', text: 'The quick' }],
    ['a reply stopped for PROHIBITED_CONTENT', { text: '', finishReason: 'PROHIBITED_CONTENT' }, /\(PROHIBITED_CONTENT\)/, { reason: 'blocked', providerReason: 'PROHIBITED_CONTENT', text: '' }],
    ['a reply cut at MAX_TOKENS', { text: '{"verdict": "SUCC', finishReason: 'MAX_TOKENS' }, /cut at the token limit \(MAX_TOKENS\); raise the limit/, { reason: 'cut', providerReason: 'MAX_TOKENS', text: '{"verdict": "SUCC' }],
    ['an empty reply', '', /the reply was empty \(STOP\)/, { reason: 'empty', providerReason: 'STOP', text: '' }],
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

  it('a normal reply still resolves with its text', async () => {
    const server = await startFakeGemini({ replies: ['{"verdict": "SUCCESS"}'] });
    servers.push(server);
    const llm = gemini({ apiKey: KEY, baseUrl: server.url });
    expect((await llm.complete('judge this')).text).toBe('{"verdict": "SUCCESS"}');
  });
});

describe('openai-compatible replies without an answer', () => {
  const cases: ReadonlyArray<[string, FakeReply, RegExp, LLMError['reply']]> = [
    ['finish_reason content_filter', { text: '', finishReason: 'content_filter' }, /blocked by the provider's filter \(content_filter\)/, { reason: 'blocked', providerReason: 'content_filter', text: '' }],
    ['finish_reason length', { text: '{"click": {"ind', finishReason: 'length' }, /cut at the token limit \(length\)/, { reason: 'cut', providerReason: 'length', text: '{"click": {"ind' }],
    ['empty content', '', /the reply was empty \(stop\)/, { reason: 'empty', providerReason: 'stop', text: '' }],
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
    await expect(qwenPolicy({ baseURL: filtered.url, model: 'Qwen/Qwen3.5-4B' }).decide(input)).rejects.toThrow(/content_filter/);
  });
});
