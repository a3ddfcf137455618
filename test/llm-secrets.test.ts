import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { gemini, LLMError, openaiCompatible, type LanguageModel, type RetryEvent } from '../src/index';
import { scrubSecrets } from '../src/models/errors';
import { startFakeGemini, startFakeOpenAI, type FakeReply, type FakeServer } from './fakes/index';

const KEY = 'sk-test-SECRET123';
const GOOGLE_LIKE = 'AIzaSyA1234567890abcdefghijklmnopqrstu';
let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Everything about an error a program could print, log or persist. */
function everything(error: unknown): string {
  const parts: string[] = [inspect(error, { depth: 20 }), JSON.stringify(error)];
  for (let e = error, i = 0; e instanceof Error && i < 10; e = e.cause, i++) {
    parts.push(e.message, e.stack ?? '', JSON.stringify(Object.fromEntries(Object.entries(e))));
  }
  return parts.join('\n');
}

// Servers and proxies sometimes echo the request, key and all, into their error messages.
const echoes: FakeReply[] = [
  { status: 500, message: `upstream failed for https://example.test/v1beta/models/m:generateContent?key=${KEY}`, headers: { 'x-echo': KEY } },
  { status: 503, message: `key ${KEY} is overloaded; also ${GOOGLE_LIKE}` },
  { status: 400, message: `API key not valid: ${KEY}` },
];

async function failWithEvents(llm: LanguageModel, events: RetryEvent[]): Promise<LLMError> {
  const error = await llm.complete('hi').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LLMError);
  expect(events.length).toBeGreaterThan(0);
  return error as LLMError;
}

describe('API keys never leak', () => {
  it('gemini: not in the error message, properties, stack, cause chain or retry events', async () => {
    server = await startFakeGemini({ replies: echoes });
    const events: RetryEvent[] = [];
    const llm = gemini({ apiKey: KEY, baseUrl: server.url, retry: { baseDelayMs: 1, onRetry: (e) => events.push(e) } });
    const error = await failWithEvents(llm, events);
    expect(error.status).toBe(400);
    expect(error.message).toContain('API key not valid: [REDACTED]');
    const text = everything(error) + events.map((e) => everything(e.error) + JSON.stringify(e)).join('\n');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('SECRET123');
    expect(text).not.toContain(GOOGLE_LIKE);
    expect(server.requests[0]!.headers['x-goog-api-key']).toBe(KEY); // it was sent, in the header only
    expect(server.requests[0]!.query).toEqual({});
  });

  it('openaiCompatible: not in the error message, properties, stack, cause chain or retry events', async () => {
    server = await startFakeOpenAI({ replies: echoes });
    const events: RetryEvent[] = [];
    const llm = openaiCompatible({ baseURL: server.url, model: 'm', apiKey: KEY, retry: { baseDelayMs: 1, onRetry: (e) => events.push(e) } });
    const error = await failWithEvents(llm, events);
    const text = everything(error) + events.map((e) => everything(e.error) + JSON.stringify(e)).join('\n');
    expect(text).not.toContain('SECRET123');
    expect(text).not.toContain(GOOGLE_LIKE);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('network errors and a log file written from errors and events hold no key', async () => {
    server = await startFakeOpenAI({ replies: [{ disconnect: true }] });
    const url = server.url;
    const events: RetryEvent[] = [];
    const dir = mkdtempSync(path.join(tmpdir(), 'llm-secrets-'));
    try {
      const llm = openaiCompatible({ baseURL: url, model: 'm', apiKey: KEY, retry: { maxRetries: 1, baseDelayMs: 1, onRetry: (e) => events.push(e) } });
      const error = await failWithEvents(llm, events);
      const log = path.join(dir, 'events.jsonl');
      const lines = [...events.map((e) => ({ ...e, error: { message: e.error.message, stack: e.error.stack } })), { error: inspect(error, { depth: 20 }) }];
      writeFileSync(log, lines.map((line) => JSON.stringify(line)).join('\n'));
      expect(readFileSync(log, 'utf8')).not.toContain('SECRET123');
      expect(readFileSync(log, 'utf8')).toContain('network error');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('scrubSecrets removes given secrets and key-like strings', () => {
    const text = [
      `https://host/v1?alt=json&key=${GOOGLE_LIKE}&x=1`,
      `Authorization: Bearer ${KEY}`,
      `x-goog-api-key: abc123def`,
      `http://user:pa55word@proxy:8080/`,
      `"api_key": "zzz-top"`,
      'plain my-own-secret-value',
    ].join('\n');
    const out = scrubSecrets(text, ['my-own-secret-value']);
    for (const secret of [GOOGLE_LIKE, KEY, 'abc123def', 'pa55word', 'zzz-top', 'my-own-secret-value']) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('alt=json');
    expect(out).toContain('&x=1');
    expect(scrubSecrets('task-123 risk-free desk-42')).toBe('task-123 risk-free desk-42');
  });
});
