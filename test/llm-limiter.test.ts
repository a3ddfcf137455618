import { afterEach, describe, expect, it } from 'vitest';
import { createLimiter, gemini, openaiCompatible, type LimiterEvent } from '../src/index';
import { startFakeGemini, startFakeOpenAI, type FakeServer } from './fakes/index';

const KEY = 'sk-test-SECRET123';
const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A task that runs until released, recording that it started. */
function gate(started: number[], id: number) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { task: async () => { started.push(id); await done; return id; }, release };
}

describe('createLimiter', () => {
  it('runs at most `concurrency` tasks at once, in order', async () => {
    const limiter = createLimiter({ concurrency: 2 });
    const started: number[] = [];
    const gates = [0, 1, 2, 3].map((id) => gate(started, id));
    const results = gates.map((g) => limiter.run(g.task));
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1]);
    expect([limiter.running, limiter.waiting]).toEqual([2, 2]);
    gates[0]!.release();
    await results[0];
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.release();
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3]);
  });

  it('starts no more than requestsPerMinute tasks within a minute', async () => {
    const limiter = createLimiter({ concurrency: 10, requestsPerMinute: 2 });
    const ran: number[] = [];
    const controller = new AbortController();
    const first = await Promise.all([1, 2].map((id) => limiter.run(async () => ran.push(id))));
    expect(first).toHaveLength(2);
    const third = limiter.run(async () => ran.push(3), { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 20));
    expect(ran).toEqual([1, 2]);
    expect(limiter.waiting).toBe(1);
    controller.abort();
    await expect(third).rejects.toThrow();
    expect(ran).toEqual([1, 2]);
  });

  it('keeps adapters within the shared concurrency', async () => {
    let inFlight = 0;
    let most = 0;
    const handler = async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 30));
      inFlight--;
      return 'ok';
    };
    const g = await startFakeGemini({ handler });
    const o = await startFakeOpenAI({ handler });
    servers.push(g, o);
    const limiter = createLimiter({ concurrency: 3 });
    const a = gemini({ apiKey: KEY, baseUrl: g.url, limiter });
    const b = openaiCompatible({ baseURL: o.url, model: 'm', limiter });
    await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map((i) => (i % 2 ? a : b).complete(`call ${i}`)));
    expect(g.requests.length + o.requests.length).toBe(8);
    expect(most).toBeLessThanOrEqual(3);
  });

  it('pauses every caller when one gets a 429, for the Retry-After time', async () => {
    const g = await startFakeGemini({ replies: [{ status: 429, retryAfter: 1 }, 'gemini ok'] });
    const o = await startFakeOpenAI({ replies: ['openai ok'] });
    servers.push(g, o);
    const events: LimiterEvent[] = [];
    const limiter = createLimiter({ concurrency: 4, onEvent: (e) => events.push(e) });
    const other = openaiCompatible({ baseURL: o.url, model: 'm', limiter });
    let otherCall: Promise<unknown> | undefined;
    // The other caller asks while the limiter is paused by the 429.
    const limited = gemini({ apiKey: KEY, baseUrl: g.url, limiter, retry: { onRetry: () => (otherCall = other.complete('meanwhile')) } });

    expect((await limited.complete('hi')).text).toBe('gemini ok');
    expect(await otherCall).toMatchObject({ text: 'openai ok' });
    const rateLimitedAt = g.requests[0]!.receivedAt;
    expect(o.requests).toHaveLength(1);
    expect(o.requests[0]!.receivedAt - rateLimitedAt).toBeGreaterThanOrEqual(1000 - 20);
    expect(events.map((e) => e.type)).toEqual(['paused', 'resumed']);
    expect(events[0]).toMatchObject({ ms: 1000, reason: 'gemini gemini-3.5-flash: HTTP 429' });
  });
});
