import { describe, expect, it } from 'vitest';
import { LLMError, type RetryEvent } from '../src/index';
import { callWithRetry } from '../src/models';
import { parseRetryAfter, toLLMError } from '../src/models/errors';
import { retryDelay } from '../src/models/retry';

const who = { provider: 'test', model: 'm-1' };
const httpError = (status: number, retryAfter?: number) =>
  new LLMError(`HTTP ${status}`, { ...who, status, retryAfter, isRetryable: status === 429 || status >= 500 });

describe('retryDelay', () => {
  it('is full jitter: random() times the doubling ceiling, capped at maxDelayMs', () => {
    const error = httpError(500);
    const top = { random: () => 0.999999, baseDelayMs: 100, maxDelayMs: 1000 };
    expect([0, 1, 2, 3, 4, 5].map((n) => retryDelay(n, error, top))).toEqual([99, 199, 399, 799, 999, 999]);
    expect(retryDelay(3, error, { ...top, random: () => 0 })).toBe(0);
    expect(retryDelay(1, error, { ...top, random: () => 0.5 })).toBe(100);
  });

  it("uses the server's Retry-After instead, and refuses one longer than maxRetryAfterMs", () => {
    expect(retryDelay(0, httpError(429, 2.5), { random: () => 0 })).toBe(2500);
    expect(retryDelay(0, httpError(429, 400), { maxRetryAfterMs: 60_000 })).toBeUndefined();
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds, Google durations and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3);
    expect(parseRetryAfter('1.5s', now)).toBe(1.5);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:10 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('toLLMError', () => {
  it('classifies statuses and network errors', () => {
    const status = (s: number) => toLLMError(Object.assign(new Error('x'), { status: s }), who).isRetryable;
    expect([408, 429, 500, 503, 400, 401, 403, 404, 422].map(status)).toEqual([true, true, true, true, false, false, false, false, false]);
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    expect(toLLMError(refused, who)).toMatchObject({ isRetryable: true, status: undefined });
    expect(toLLMError(new SyntaxError('Unexpected token'), who).isRetryable).toBe(false);
  });
});

describe('callWithRetry', () => {
  const noWait = { sleep: async () => {}, baseDelayMs: 1 };

  it('retries retryable errors until success, reporting each retry', async () => {
    const failures = [httpError(503), httpError(429, 0.01)];
    const events: RetryEvent[] = [];
    const result = await callWithRetry(
      async () => {
        const next = failures.shift();
        if (next) throw next;
        return 'ok';
      },
      { ...who, retry: { ...noWait, onRetry: (e) => events.push(e) } },
    );
    expect(result).toBe('ok');
    expect(events.map((e) => [e.attempt, e.error.status])).toEqual([[1, 503], [2, 429]]);
    expect(events[1]!.delayMs).toBe(10);
  });

  it('throws a non-retryable error at once, and a retryable one after maxRetries', async () => {
    let calls = 0;
    const bad = await callWithRetry(async () => { calls++; throw httpError(404); }, { ...who, retry: noWait }).catch((e: unknown) => e);
    expect([calls, (bad as LLMError).status, (bad as LLMError).message]).toEqual([1, 404, 'HTTP 404']);

    calls = 0;
    const busy = await callWithRetry(async () => { calls++; throw httpError(502); }, { ...who, retry: { ...noWait, maxRetries: 3 } }).catch((e: unknown) => e);
    expect(calls).toBe(4);
    expect((busy as LLMError).message).toBe('HTTP 502 (gave up after 4 attempts)');
    expect((busy as LLMError).isRetryable).toBe(true);
  });

  it('fails at once when the server asks for a wait past maxRetryAfterMs', async () => {
    let calls = 0;
    const error = (await callWithRetry(async () => { calls++; throw httpError(429, 3600); }, { ...who, retry: noWait }).catch((e: unknown) => e)) as LLMError;
    expect(calls).toBe(1);
    expect(error.isRetryable).toBe(false);
    expect(error.message).toContain('3600 s');
  });

  it('stops waiting when the signal fires', async () => {
    const controller = new AbortController();
    let calls = 0;
    const pending = callWithRetry(async () => { calls++; throw httpError(500); }, {
      ...who, signal: controller.signal, retry: { baseDelayMs: 60_000, random: () => 0.99 },
    });
    setImmediate(() => controller.abort());
    const error = (await pending.catch((e: unknown) => e)) as LLMError;
    expect(error).toBeInstanceOf(LLMError);
    expect(error.message).toBe('test model m-1: call aborted');
    expect(calls).toBe(1);
  });
});
