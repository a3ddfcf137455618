/**
 * The fake MiniWeb's session: Flask's signed cookie `session` (itsdangerous `URLSafeTimedSerializer`, salt
 * `cookie-session`, HMAC key derivation, SHA-1) and a session dict that knows when it was written to, as Flask's
 * does: any set, pop or clear marks it modified, even of a value it already held.
 * @module
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import { flaskDumps } from './pyjson';

/** The cookie's name. */
export const SESSION_COOKIE = 'session';

/** A decoded session: `_data_overlay_sid`, `user_id`, `_uid_<site>`, `_pending_2fa`, ... */
export type SessionData = Record<string, unknown>;

const SALT = 'cookie-session';
/** Flask's `PERMANENT_SESSION_LIFETIME` (31 days): an older signature is refused. */
const MAX_AGE_S = 31 * 24 * 3600;

function b64(bytes: Buffer): string {
  return bytes.toString('base64url');
}

function signature(secret: string, value: string): Buffer {
  const key = createHmac('sha1', secret).update(SALT).digest();
  return createHmac('sha1', key).update(value).digest();
}

/**
 * Signs a session dict as Flask does: the payload is the compact sorted JSON, zlib-compressed (and the cookie then
 * starts with `.`) when that is shorter by 2 bytes or more; then `.timestamp` (big-endian seconds) and `.signature`.
 */
export function signSession(data: SessionData, secret: string, now: number = Date.now()): string {
  const json = Buffer.from(flaskDumps(data), 'utf8');
  const compressed = deflateSync(json);
  const payload = compressed.length < json.length - 1 ? `.${b64(compressed)}` : b64(json);
  const seconds = Math.floor(now / 1000);
  const ts = Buffer.alloc(8);
  ts.writeBigUInt64BE(BigInt(seconds));
  const first = ts.findIndex((b) => b !== 0);
  const value = `${payload}.${b64(ts.subarray(first < 0 ? 7 : first))}`;
  return `${value}.${b64(signature(secret, value))}`;
}

/** The session a cookie carries, without checking its signature; `null` when it is not a Flask session cookie. */
export function decodeSession(cookie: string): SessionData | null {
  const compressed = cookie.startsWith('.');
  const payload = (compressed ? cookie.slice(1) : cookie).split('.')[0];
  if (!payload) return null;
  try {
    const bytes = Buffer.from(payload, 'base64url');
    const data: unknown = JSON.parse((compressed ? inflateSync(bytes) : bytes).toString('utf8'));
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as SessionData) : null;
  } catch {
    return null;
  }
}

/** The session a cookie carries when its signature is ours and under 31 days old; else `null` (Flask starts empty). */
export function verifySession(cookie: string, secret: string, now: number = Date.now()): SessionData | null {
  const cut = cookie.lastIndexOf('.');
  if (cut <= 0) return null;
  const value = cookie.slice(0, cut);
  const given = Buffer.from(cookie.slice(cut + 1), 'base64url');
  const wanted = signature(secret, value);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return null;
  const stamp = Buffer.from(value.slice(value.lastIndexOf('.') + 1), 'base64url');
  const seconds = stamp.reduce((n, b) => n * 256 + b, 0);
  if (now / 1000 - seconds > MAX_AGE_S) return null;
  return decodeSession(value);
}

/** The request's session, as Flask's `session` proxy: reads, and writes that mark it modified. */
export class Session {
  private readonly data: SessionData;
  /** Written to during this request (the cookie is then sent again). */
  modified = false;

  constructor(data: SessionData | null) {
    this.data = { ...(data ?? {}) };
  }

  /** The value of a key, `undefined` when absent. */
  get(key: string): unknown {
    return this.data[key];
  }

  /** Whether the key is present (a logged-out `_uid_<site>` is present with `null`). */
  has(key: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.data, key);
  }

  /** Sets a key (marks the session modified). */
  set(key: string, value: unknown): void {
    this.data[key] = value;
    this.modified = true;
  }

  /** Removes a key, present or not (marks the session modified, as Flask's `pop` does). */
  pop(key: string): unknown {
    const v = this.data[key];
    delete this.data[key];
    this.modified = true;
    return v;
  }

  /** Empties the session. */
  clear(): void {
    for (const k of Object.keys(this.data)) delete this.data[k];
    this.modified = true;
  }

  /** Whether it holds nothing (Flask then deletes the cookie instead of writing it). */
  get empty(): boolean {
    return Object.keys(this.data).length === 0;
  }

  /** A copy of the whole dict. */
  snapshot(): SessionData {
    return structuredClone(this.data);
  }
}

/** The `Set-Cookie` header Flask sends for a modified session: the new value, or an expired one when it is empty. */
export function sessionCookieHeader(session: Session, secret: string): string {
  const attrs = 'HttpOnly; Path=/; SameSite=Lax';
  if (session.empty) return `${SESSION_COOKIE}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; ${attrs}`;
  return `${SESSION_COOKIE}=${signSession(session.snapshot(), secret)}; ${attrs}`;
}

/** The `session` cookie's value in a `Cookie` request header, if any. */
export function cookieFromHeader(header: string | undefined): string | null {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
  }
  return null;
}
