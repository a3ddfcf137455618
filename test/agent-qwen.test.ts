import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAttempt, browserHost, qwenPolicy, type BrowserHost } from '../src/index';
import { AGENT_SYSTEM_PROMPT } from '../src/agent/prompt';
import { fakeLLM } from '../src/models/fake';
import { RowSchema } from '../src/core/schemas';
import { startFakeOpenAI, type FakeServer } from './fakes/index';
import { fixtureTask, startFixtureSite, type FixtureSite } from './agent-fixture';

let site: FixtureSite;
let host: BrowserHost;
let tmp: string;
let server: FakeServer | undefined;

beforeAll(async () => {
  site = await startFixtureSite();
  host = browserHost();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'agent-qwen-'));
});
afterAll(async () => {
  await server?.close();
  await host.close();
  await site.close();
  await rm(tmp, { recursive: true, force: true });
});

interface ChatBody {
  model: string;
  temperature?: number;
  max_tokens?: number;
  chat_template_kwargs?: { enable_thinking: boolean };
  messages: Array<{ role: string; content: string | Array<{ type: string; text?: string; image_url?: { url: string } }> }>;
}

describe('qwenPolicy', () => {
  it('sends the prompt, history and screenshot to an OpenAI-compatible server and parses Qwen-style replies', async () => {
    server = await startFakeOpenAI({
      replies: [
        '{"click": {"index": 15}}', // plain JSON
        '```json\n{"click": {"index": 2}}\n```', // fenced
        '<think>\nThe cart now has the kettle.\n</think>\n\n{"done": {"answer": "added"}}', // a thinking block
      ],
    });
    const out = path.join(tmp, 'run');
    const summary = await runAttempt({
      tasks: [fixtureTask('kettle', 'Add the Blue Kettle to the cart')],
      policy: qwenPolicy({ baseURL: server.url, model: 'Qwen/Qwen3.5-4B' }),
      source: { baseUrl: site.baseUrl },
      out,
      browser: host,
    });
    expect(summary).toMatchObject({ recorded: 1, failed: 0, steps: 3, outcomes: { done: 1 }, usage: { inputTokens: 30, outputTokens: 15 } });
    const episode = JSON.parse(await readFile(path.join(out, 'kettle', 'episode.json'), 'utf8'));
    expect(episode).toMatchObject({ outcome: 'done', answer: 'added', model: 'Qwen/Qwen3.5-4B', policy: 'qwen' });

    const bodies = server.requests.map((r) => r.body as ChatBody);
    expect(bodies).toHaveLength(3);
    const rows = (await readFile(path.join(out, 'kettle', 'rows', 'rows.jsonl'), 'utf8')).trim().split('\n').map((l) => RowSchema.parse(JSON.parse(l)));
    for (const [n, body] of bodies.entries()) {
      expect(body.model).toBe('Qwen/Qwen3.5-4B');
      expect(body.temperature).toBe(0);
      expect(body.max_tokens).toBe(512);
      expect(body.chat_template_kwargs).toEqual({ enable_thinking: false });
      expect(body.messages[0]).toEqual({ role: 'system', content: AGENT_SYSTEM_PROMPT });
      const parts = body.messages[1]!.content as Array<{ type: string; text?: string; image_url?: { url: string } }>;
      expect(parts.map((p) => p.type)).toEqual(['text', 'image_url']);
      expect(parts[0]!.text).toMatch(/^TASK: Add the Blue Kettle to the cart\n/);
      expect(parts[0]!.text).toContain(`CURRENT PAGE (step ${n + 1} of 15):`);
      // the screenshot sent is the one recorded for the step
      const png = Buffer.from(parts[1]!.image_url!.url.replace(/^data:image\/png;base64,/, ''), 'base64');
      expect(png.equals(await readFile(path.join(out, 'kettle', 'screenshots', `step_${n}.png`)))).toBe(true);
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1280, 800]);
      // the row holds exactly what the model got, the image tag where the image went
      expect(rows[n]!.messages[0]!.content).toBe(body.messages[0]!.content);
      expect(rows[n]!.messages[1]!.content).toBe(`${parts[0]!.text}<image>`);
    }
    const texts = bodies.map((b) => (b.messages[1]!.content as Array<{ text?: string }>)[0]!.text!);
    expect(texts[0]).toContain('PREVIOUS ACTIONS:\n(none)\n');
    expect(texts[1]).toContain('PREVIOUS ACTIONS:\n1. {"click":{"index":15}}\n');
    expect(texts[2]).toContain('PREVIOUS ACTIONS:\n1. {"click":{"index":15}}\n2. {"click":{"index":2}}\n');
    expect(texts[2]).toContain('URL: /sites/shop/cart');
    expect(rows.map((r) => r.messages[2]!.content)).toEqual(['{"click":{"index":15}}', '{"click":{"index":2}}', '{"done":{"answer":"added"}}']);
  });

  it('turns thinking on when asked, and takes any LanguageModel', async () => {
    const thinking = await startFakeOpenAI({ replies: ['<think>ok</think>{"done": {}}'] });
    try {
      await runAttempt({
        tasks: [fixtureTask('think', 'Just finish')],
        policy: qwenPolicy({ baseURL: thinking.url, model: 'Qwen/Qwen3.5-4B', thinking: true, temperature: 0.6 }),
        source: { baseUrl: site.baseUrl },
        out: path.join(tmp, 'think'),
        browser: host,
      });
      const body = thinking.requests[0]!.body as ChatBody;
      expect(body.chat_template_kwargs).toEqual({ enable_thinking: true });
      expect(body.max_tokens).toBe(4096);
      expect(body.temperature).toBe(0.6);
    } finally {
      await thinking.close();
    }
    const llm = fakeLLM({ replies: ['{"done": {"answer": "x"}}'], modelId: 'local-qwen' });
    const policy = qwenPolicy({ llm, maxTokens: 64 });
    expect(policy.model).toBe('local-qwen');
    await runAttempt({ tasks: [fixtureTask('fake', 'Just finish')], policy, source: { baseUrl: site.baseUrl }, out: path.join(tmp, 'fake'), browser: host });
    expect(llm.calls).toHaveLength(1);
    expect(llm.calls[0]!.options).toMatchObject({ system: AGENT_SYSTEM_PROMPT, maxTokens: 64, temperature: 0 });
    expect(llm.calls[0]!.options.images?.[0]).toMatchObject({ mediaType: 'image/png', name: 'step_0.png' });
  });
});
