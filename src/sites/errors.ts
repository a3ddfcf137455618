/** Why a site source could not give a page. The error's `name` is what a site context shows. @module */

/** The page could not be fetched at all (no connection, a timeout...). */
export class PageFetchError extends Error {
  /** Always `PageFetchError`. */
  override readonly name = 'PageFetchError';
  constructor(
    /** The page's path, as asked of the source. */
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${path}: ${message}`, options);
  }
}

/**
 * The page's body is not UTF-8. Named as Python names it (`UnicodeDecodeError`): the seed's Flask client decodes
 * strictly, so its site context shows `(could not render: UnicodeDecodeError)` for such a page, and so does ours.
 */
export class PageDecodeError extends Error {
  /** `UnicodeDecodeError`, Python's name (see above), not the class name. */
  override readonly name = 'UnicodeDecodeError';
  constructor(
    /** The page's path, as asked of the source. */
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(`${path}: the page is not valid UTF-8`, options);
  }
}

/** An in-memory source has no page at this path. */
export class PageNotFoundError extends Error {
  /** Always `PageNotFoundError`. */
  override readonly name = 'PageNotFoundError';
  constructor(
    /** The page's path, as asked of the source. */
    readonly path: string,
  ) {
    super(`no page at ${path}`);
  }
}

/**
 * A site whose pages could not be fetched at all (the server is down, or the base URL is wrong): proposing from
 * `(could not render)` placeholders would make tasks about a site nobody saw, so the site is refused instead.
 */
export class SiteUnreachableError extends Error {
  override readonly name = 'SiteUnreachableError';
  constructor(
    readonly site: string,
    readonly path: string,
    cause: unknown,
  ) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(`site ${site}: could not fetch its page ${why}; check that the server is up and the base URL (--base-url) is right`, { cause });
  }
}
