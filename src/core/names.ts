/**
 * Site names and task ids become path segments, so they are checked before any path is built.
 * @module
 */

const PLAIN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** True when `value` is a plain name: letters, digits, `.`, `_`, `-`, not starting with `.` and not `..`. */
export function isPlainName(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 200 && PLAIN.test(value);
}

/**
 * Throws a {@link UnsafeNameError} unless `value` is a plain name (no `/`, `\`, `..`, NUL or leading dot).
 * @param what - what the value is, for the message (`"site"`, `"task id"`).
 */
export function assertPlainName(value: unknown, what: string): asserts value is string {
  if (!isPlainName(value)) throw new UnsafeNameError(what, value);
}

/** A site name or task id that would escape its directory. */
export class UnsafeNameError extends Error {
  /** Always `UnsafeNameError`. */
  override readonly name = 'UnsafeNameError';
  constructor(
    /** What the value is (`site`, `task id`), as named in the message. */
    readonly what: string,
    /** The refused value, as given. */
    readonly value: unknown,
  ) {
    super(`refusing ${what} ${JSON.stringify(String(value)).slice(0, 120)}: not a plain name (letters, digits, '.', '_', '-')`);
  }
}
