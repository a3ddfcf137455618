/**
 * MiniWeb's session cookie (`session`): Flask's signed cookie `payload.timestamp.signature`, its payload the
 * session dict as base64url JSON, zlib-compressed when the cookie starts with `.`. It is signed, not encrypted, so
 * its payload reads without the server's key; the signature is not checked here (only the server can).
 * @module
 */
import { inflateSync } from 'node:zlib';

/** The name of MiniWeb's (Flask's) session cookie. */
export const MINIWEB_COOKIE = 'session';

/** A decoded session: `_data_overlay_sid`, `user_id`, `_uid_<site>`, `_pending_2fa`, `_disable_2fa`, ... */
export type MiniwebSessionData = Readonly<Record<string, unknown>>;

/**
 * The session a cookie value carries, or `null` when the value is not a Flask session cookie (no payload, bad
 * base64, bad zlib data, not a JSON object).
 */
export function decodeSessionCookie(value: string): MiniwebSessionData | null {
  const compressed = value.startsWith('.');
  const payload = (compressed ? value.slice(1) : value).split('.')[0] ?? '';
  if (!payload) return null;
  try {
    const bytes = Buffer.from(payload, 'base64url');
    const text = (compressed ? inflateSync(bytes) : bytes).toString('utf8');
    const data: unknown = untag(JSON.parse(text));
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as MiniwebSessionData) : null;
  } catch {
    return null;
  }
}

/**
 * The overlay session id a cookie names (`_data_overlay_sid`): the key of the session's data changes, request
 * log and recorder stream on the server; `null` before the session first touched the data.
 */
export function overlaySessionId(value: string): string | null {
  const sid = decodeSessionCookie(value)?.['_data_overlay_sid'];
  return typeof sid === 'string' && sid ? sid : null;
}

// Flask's tagged JSON: a one-key object whose key is a tag (` t` tuple, ` di` dict, ` b` bytes, ` m` markup,
// ` u` uuid, ` d` date) stands for that value; read as the nearest JSON value.
function untag(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(untag);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value);
  if (entries.length === 1) {
    const [key, inner] = entries[0]!;
    if (key === ' t') return Array.isArray(inner) ? inner.map(untag) : inner;
    if (key === ' di') return untag(inner);
    if (key === ' b' && typeof inner === 'string') return Buffer.from(inner, 'base64').toString('utf8');
    if (key === ' m' || key === ' u' || key === ' d') return inner;
  }
  return Object.fromEntries(entries.map(([k, v]) => [k, untag(v)]));
}
