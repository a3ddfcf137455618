/**
 * Evidence recorded on the browser side, for servers with no evidence endpoint: the episode's request log
 * (method, path, parsed query and form or JSON body, status), static assets left out. Such a server tells no
 * data changes, so `changes` stays empty.
 * @module
 */
import type { LogEntry } from '../core/schemas';
import { addField, paramsObject, safeDecode, type RequestFields } from './request-fields';
import type { BrowserRequest } from '../browser/types';
import type { EvidenceProvider, EvidenceSession } from './types';

/** Paths that are not evidence: the server's own admin pages, static files, icons, fonts, source maps. */
export const STATIC_PATH = /^\/(_admin|static|favicon)|\.(css|js|mjs|map|png|jpe?g|gif|webp|svg|ico|woff2?|ttf)$/i;

/** Options of {@link browserEvidence}. */
export interface BrowserEvidenceOptions {
  /** Paths left out of the log. Default {@link STATIC_PATH}. */
  readonly skip?: RegExp;
}

/**
 * An evidence provider that records each episode's requests as the browser saw them. Each episode gets its
 * own session, fed only by its own browser context, so parallel episodes never mix.
 */
export function browserEvidence(options: BrowserEvidenceOptions = {}): EvidenceProvider {
  const skip = options.skip ?? STATIC_PATH;
  return {
    async open(): Promise<EvidenceSession> {
      const log: LogEntry[] = [];
      return {
        cookies: [],
        onRequest(request) {
          const entry = toLogEntry(request, skip);
          if (entry) log.push(entry);
        },
        collect: async () => ({ log: [...log], changes: [] }),
      };
    },
  };
}

/** A browser request as a log entry (`{method, path, query, body, status}`), or null for a static asset. */
export function toLogEntry(request: BrowserRequest, skip: RegExp = STATIC_PATH): LogEntry | null {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return null;
  }
  const path = safeDecode(url.pathname);
  if (skip.test(path)) return null;
  return {
    method: request.method.toUpperCase(),
    path,
    query: paramsObject(url.searchParams),
    body: parseRequestBody(request.postData, request.contentType),
    status: request.status,
  };
}

/** A request body as the server would read it: a form or JSON parsed, anything else as text, none as null. */
export function parseRequestBody(postData: string | null, contentType: string | null): unknown {
  if (postData === null || postData === '') return null;
  const type = (contentType ?? '').toLowerCase();
  if (type.includes('application/x-www-form-urlencoded')) return paramsObject(new URLSearchParams(postData));
  if (type.includes('json')) {
    try {
      return JSON.parse(postData);
    } catch {
      return postData;
    }
  }
  if (type.includes('multipart/form-data')) {
    const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType ?? '');
    if (boundary) return multipartFields(postData, boundary[1] ?? boundary[2]!);
  }
  return postData;
}

// The text fields of a multipart form; a file field gives its file name.
function multipartFields(body: string, boundary: string): RequestFields {
  const out: RequestFields = {};
  for (const part of body.split(`--${boundary}`)) {
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = part.slice(0, split);
    const name = /name="([^"]*)"/i.exec(head)?.[1];
    if (name === undefined) continue;
    const file = /filename="([^"]*)"/i.exec(head)?.[1];
    addField(out, name, file ?? part.slice(split + 4).replace(/\r\n$/, ''));
  }
  return out;
}
