/**
 * The client side of the sandbox's `/_admin/` endpoints, shared by the evidence provider, the site source and
 * the oracle replay, so a session is created one way everywhere.
 * @module
 */

/** A session as `POST /_admin/sessions` answers it: its id and the cookie that joins it. */
export interface CreatedSession {
  readonly id: string;
  readonly cookie: { readonly name: string; readonly value: string };
}

/** Fetches `url` and parses its JSON; a non-2xx answer is an error naming the method, path and status. */
export async function getJson<T>(doFetch: typeof globalThis.fetch, url: string, init?: RequestInit): Promise<T> {
  const r = await doFetch(url, init);
  const text = await r.text();
  if (!r.ok) throw new Error(`sandbox ${init?.method ?? 'GET'} ${new URL(url).pathname} answered ${r.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** Creates a fresh session on the sandbox at `root` (`http://127.0.0.1:8000`) through `POST /_admin/sessions`. */
export function createSession(root: string, doFetch: typeof globalThis.fetch = globalThis.fetch): Promise<CreatedSession> {
  return getJson<CreatedSession>(doFetch, `${root}/_admin/sessions`, { method: 'POST' });
}
