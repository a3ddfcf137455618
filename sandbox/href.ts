/** Site paths with queries. @module */

/** A query for {@link siteHref}: empty, `null` and `undefined` values are dropped. */
export type HrefQuery = Record<string, string | number | undefined | null>;

/** `base + path` plus the non-empty query parameters, in the order given. */
export function siteHref(base: string, path: string, query?: HrefQuery): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== '') params.append(k, String(v));
  }
  const qs = params.toString();
  return `${base}${path.startsWith('/') ? path : `/${path}`}${qs ? `?${qs}` : ''}`;
}
