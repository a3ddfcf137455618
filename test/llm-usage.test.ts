import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PRICES, fakeLLM, formatUsage, gemini, UsageMeter, withUsage } from '../src/index';
import { priceOf } from '../src/models/prices';
import { startFakeGemini, type FakeServer } from './fakes/index';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('UsageMeter and withUsage', () => {
  it('sums tokens per step, per model and for the run, priced from an overridden table', async () => {
    const meter = new UsageMeter({ prices: { 'judge-model': { input: 2, output: 10 }, 'gemini-3.5-flash': { input: 1, output: 4 } } });
    const proposer = withUsage(
      fakeLLM({ modelId: 'gemini-3.5-flash', replies: [{ text: 'a', usage: { inputTokens: 1000, outputTokens: 200 } }] }),
      meter,
      { step: 'propose' },
    );
    const judge = withUsage(
      fakeLLM({ modelId: 'judge-model', replies: [{ text: 'b', usage: { inputTokens: 500_000, outputTokens: 1000 } }] }),
      meter,
      { step: 'judge' },
    );
    await proposer.complete('p1');
    await proposer.complete('p2');
    await judge.complete('j1');

    const summary = meter.summary();
    expect(summary.steps.propose).toMatchObject({ calls: 2, inputTokens: 2000, outputTokens: 400 });
    expect(summary.steps.judge).toMatchObject({ calls: 1, inputTokens: 500_000, outputTokens: 1000 });
    expect(summary.models['gemini-3.5-flash']!.cost).toBeCloseTo((2000 * 1 + 400 * 4) / 1e6, 12);
    expect(summary.models['judge-model']!.cost).toBeCloseTo((500_000 * 2 + 1000 * 10) / 1e6, 12);
    expect(summary.total).toMatchObject({ calls: 3, inputTokens: 502_000, outputTokens: 1400, priced: true });
    expect(summary.total.cost).toBeCloseTo(0.0036 + 1.01, 12);
    expect(summary.unpriced).toEqual([]);
  });

  it('counts the tokens a real adapter reports, thinking included', async () => {
    server = await startFakeGemini({ replies: [{ text: '{}', usage: { input: 300, output: 20, thoughts: 80 } }] });
    const meter = new UsageMeter();
    const judge = withUsage(gemini({ apiKey: 'sk-test-SECRET123', baseUrl: server.url }), meter, { step: 'judge' });
    expect(judge.modelId).toBe('gemini-3.5-flash');
    await judge.complete('x');
    expect(meter.total).toMatchObject({ calls: 1, inputTokens: 300, outputTokens: 100 });
    const price = DEFAULT_PRICES['gemini-3.5-flash']!;
    expect(meter.total.cost).toBeCloseTo((300 * price.input + 100 * price.output) / 1e6, 12);
  });

  it('prices local servers at zero and marks unknown hosted models as unpriced', async () => {
    const meter = new UsageMeter();
    meter.record({ step: 'attempt', provider: 'openai-compatible', model: 'Qwen/Qwen3.5-4B', usage: { inputTokens: 10, outputTokens: 5 } });
    meter.record({ step: 'judge', provider: 'gemini', model: 'gemini-9-ultra', usage: { inputTokens: 10, outputTokens: 5 } });
    const summary = meter.summary();
    expect(summary.steps.attempt).toMatchObject({ cost: 0, priced: true });
    expect(summary.unpriced).toEqual(['gemini-9-ultra']);
    expect(summary.total.priced).toBe(false);
    expect(priceOf('models/gemini-2.5-flash', 'gemini')).toEqual(DEFAULT_PRICES['gemini-2.5-flash']);
  });

  it("prices the sandbox's stand-in models (provider sandbox-stand-in) at zero", () => {
    const meter = new UsageMeter();
    meter.record({ step: 'judge', provider: 'sandbox-stand-in', model: 'stand-in-judge', usage: { inputTokens: 0, outputTokens: 0 } });
    expect(meter.summary()).toMatchObject({ unpriced: [], total: { cost: 0, priced: true } });
  });

  it('formats a summary the CLI can print', () => {
    const meter = new UsageMeter({ prices: { m: { input: 1, output: 2 } } });
    meter.record({ step: 'propose', provider: 'gemini', model: 'm', usage: { inputTokens: 1_000_000, outputTokens: 500_000 } });
    meter.record({ step: 'judge', provider: 'gemini', model: 'x', usage: { inputTokens: 1234, outputTokens: 5 } });
    const text = formatUsage(meter.summary());
    expect(text.split('\n')).toEqual([
      'tokens: 1,001,234 in, 500,005 out (2 calls), cost >= $2.0000',
      '  propose  m  1 calls  1,000,000 in  500,000 out  $2.0000',
      '  judge    x  1 calls  1,234 in  5 out  price unknown',
      '  (no price known for x: not in the cost)',
    ]);
  });
});
