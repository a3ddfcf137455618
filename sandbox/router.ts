/**
 * A tiny router: `get`/`post` patterns such as `/products/:id` matched segment by segment against a site-relative
 * path. Parameters arrive decoded; an undecodable segment does not match (the caller answers 404).
 * @module
 */

/** A route's parameters, decoded. */
export type Params = Record<string, string>;

interface Route<H> {
  readonly method: string;
  readonly parts: readonly string[];
  readonly handler: H;
}

/** What {@link Router.match} finds: a handler, the methods the path allows (405), or nothing (404). */
export type RouteMatch<H> =
  | { readonly kind: 'found'; readonly handler: H; readonly params: Params }
  | { readonly kind: 'method'; readonly allowed: readonly string[] }
  | { readonly kind: 'none' };

function split(path: string): string[] {
  return path.split('/').filter((p) => p !== '');
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Routes by method and path pattern; the first route registered wins. */
export class Router<H> {
  private readonly routes: Route<H>[] = [];

  /** Registers a GET (and HEAD) route. */
  get(pattern: string, handler: H): this {
    return this.add('GET', pattern, handler);
  }

  /** Registers a POST route. */
  post(pattern: string, handler: H): this {
    return this.add('POST', pattern, handler);
  }

  /** Registers a route for any method name (`DELETE`, `PUT`...). */
  add(method: string, pattern: string, handler: H): this {
    this.routes.push({ method: method.toUpperCase(), parts: split(pattern), handler });
    return this;
  }

  /** Finds the route for `method` and a site-relative `path` (`/products/3`). */
  match(method: string, path: string): RouteMatch<H> {
    const want = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
    const parts = split(path);
    const allowed: string[] = [];
    for (const route of this.routes) {
      const params = matchParts(route.parts, parts);
      if (!params) continue;
      if (route.method === want) return { kind: 'found', handler: route.handler, params };
      allowed.push(route.method);
    }
    return allowed.length ? { kind: 'method', allowed: [...new Set(allowed)] } : { kind: 'none' };
  }
}

function matchParts(pattern: readonly string[], parts: readonly string[]): Params | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Params = {};
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i] as string;
    const got = decode(parts[i] as string);
    if (got === undefined) return undefined;
    if (want.startsWith(':')) params[want.slice(1)] = got;
    else if (want !== got) return undefined;
  }
  return params;
}
