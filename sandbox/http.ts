/**
 * Request parsing for the sandbox server: bodies (form, JSON, text) with a size limit, cookies, field values.
 * Queries and form bodies are read by `paramsObject`, as the browser-side evidence reads them.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { paramsObject } from 'miniweb-taskgen/toolkit';

/** The largest request body accepted (413 past it). */
export const MAX_BODY_BYTES = 1 << 20;

/** A request that cannot be read: its status and a message for the error page. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Reads the whole body. Past {@link MAX_BODY_BYTES} the rest is read and dropped (so the client gets the answer
 * instead of a reset connection) and the read rejects with 413; past 16 times that the connection is cut.
 */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 16 * MAX_BODY_BYTES) {
      req.destroy();
      break;
    }
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  if (size > MAX_BODY_BYTES) throw new HttpProblem(413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
  return Buffer.concat(chunks);
}

/**
 * The parsed body: form fields for urlencoded forms, the value for JSON, the text otherwise, `null` when empty.
 * Malformed JSON is a 400.
 */
export function parseBody(contentType: string | undefined, raw: Buffer): unknown {
  if (raw.length === 0) return null;
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const text = raw.toString('utf8');
  if (type === 'application/x-www-form-urlencoded') return paramsObject(new URLSearchParams(text));
  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new HttpProblem(400, 'The request body is not valid JSON.');
    }
  }
  if (type === 'multipart/form-data') throw new HttpProblem(415, 'File uploads are not supported on this site.');
  return text;
}

/** The cookies of a request. */
export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const name = part.slice(0, i).trim();
    if (name && !(name in out)) out[name] = part.slice(i + 1).trim();
  }
  return out;
}

/** The first value of a field, trimmed; `''` when absent. */
export function firstValue(fields: unknown, name: string): string {
  if (!fields || typeof fields !== 'object' || Array.isArray(fields)) return '';
  const v = (fields as Record<string, unknown>)[name];
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === 'string' ? first.trim() : typeof first === 'number' ? String(first) : '';
}

/** Every value of a field. */
export function allValues(fields: unknown, name: string): string[] {
  if (!fields || typeof fields !== 'object' || Array.isArray(fields)) return [];
  const v = (fields as Record<string, unknown>)[name];
  const list = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return list.filter((x): x is string => typeof x === 'string');
}
