/**
 * The crawler's cookie jar, kept as a browser keeps one for a single origin: every response's `Set-Cookie` (each
 * redirect hop's too) is applied before the next request, a cookie is sent only on paths under its `Path`, and one
 * that expires (`Max-Age=0`, an `Expires` in the past: how servers log a client out or rewrite a session) is
 * dropped. `Domain` and `Secure` are not checked: the crawl never leaves its origin.
 * @module
 */

interface StoredCookie {
  readonly name: string;
  readonly value: string;
  readonly path: string;
  /** Epoch ms after which it is gone; `undefined` for a session cookie. */
  readonly expires: number | undefined;
  /** Its order of creation, kept when a value is rewritten (browsers send older cookies first). */
  readonly order: number;
}

/** A cookie jar for one origin. */
export class CookieJar {
  private readonly cookies = new Map<string, StoredCookie>();
  private created = 0;

  /** Adds the pairs of a `Cookie` header (`a=1; b=2`), as cookies of path `/`. */
  addHeader(header: string | undefined): void {
    for (const pair of (header ?? '').split(';')) {
      const i = pair.indexOf('=');
      if (i > 0) this.put({ name: pair.slice(0, i).trim(), value: pair.slice(i + 1).trim(), path: '/', expires: undefined });
    }
  }

  /** Applies a response's `Set-Cookie` lines, the response being for a request to `requestPath`. */
  apply(setCookies: readonly string[], requestPath: string): void {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';');
      const i = pair.indexOf('=');
      if (i <= 0) continue;
      let path: string | undefined;
      let maxAge: number | undefined;
      let expires: number | undefined;
      for (const attribute of attributes) {
        const j = attribute.indexOf('=');
        const key = (j < 0 ? attribute : attribute.slice(0, j)).trim().toLowerCase();
        const value = j < 0 ? '' : attribute.slice(j + 1).trim();
        if (key === 'path' && value.startsWith('/')) path = value;
        else if (key === 'max-age' && /^-?\d+$/.test(value)) maxAge = Number(value);
        else if (key === 'expires' && !Number.isNaN(Date.parse(value))) expires = Date.parse(value);
      }
      // Max-Age wins over Expires (RFC 6265 5.3).
      const until = maxAge !== undefined ? Date.now() + maxAge * 1000 : expires;
      this.put({ name: pair.slice(0, i).trim(), value: pair.slice(i + 1).trim(), path: path ?? defaultPath(requestPath), expires: until });
    }
  }

  /** The `Cookie` header for a request to `path` (longer paths first, then older cookies), `''` when none applies. */
  header(path: string): string {
    const now = Date.now();
    return [...this.cookies.values()]
      .filter((c) => (c.expires === undefined || c.expires > now) && pathMatches(path, c.path))
      .sort((a, b) => b.path.length - a.path.length || a.order - b.order)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private put(cookie: Omit<StoredCookie, 'order'>): void {
    const key = `${cookie.name}\u0000${cookie.path}`;
    if (cookie.expires !== undefined && cookie.expires <= Date.now()) {
      this.cookies.delete(key);
      return;
    }
    this.cookies.set(key, { ...cookie, order: this.cookies.get(key)?.order ?? this.created++ });
  }
}

// RFC 6265 5.1.4: the request path up to its last '/', or '/'.
function defaultPath(requestPath: string): string {
  const last = requestPath.lastIndexOf('/');
  return last <= 0 ? '/' : requestPath.slice(0, last);
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  return requestPath.startsWith(cookiePath) && (cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/');
}
