/**
 * Small helpers that the browser, the page watch and the actions share. Not re-exported by `index.ts`, except
 * {@link PageGoneError}, which `page-watch.ts` re-exports.
 * @module
 */

/** The page is gone: closed, crashed, or its browser died. Ends the episode. */
export class PageGoneError extends Error {
  override readonly name = 'PageGoneError';
}

/** A `.catch` handler that lets only a {@link PageGoneError} through; any other failure is ignored. */
export function rethrowGone(error: unknown): void {
  if (error instanceof PageGoneError) throw error;
}

/** Whether `url` parses and has exactly `origin`; a URL that does not parse is not. */
export function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/** `work`, or a rejection with `late()` once `ms` have passed, whichever is first (`work` goes on unawaited). */
export async function within<T>(work: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), ms);
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits until `p` settles or `ms` have passed, whichever is first; `p` must not reject. */
export async function withTimeout(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p, new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))))]);
  clearTimeout(timer);
}

// Playwright's emitters (page, context, browser), loosely: their `on` and `off` are overloaded per event.
interface Emitter {
  on(event: string, listener: never): unknown;
  off(event: string, listener: never): unknown;
}

/**
 * Listeners added through it, removed all at once: an episode's listeners on a page that outlives the episode (kept
 * for the next one), so none of them hears the next episode's events.
 */
export class Listeners {
  private readonly added: Array<() => void> = [];

  /** Adds `listener` for `event` on `target`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each event's listener has its own arguments
  on(target: Emitter, event: string, listener: (...args: any[]) => void): void {
    const emitter = target as unknown as { on(e: string, l: unknown): unknown; off(e: string, l: unknown): unknown };
    emitter.on(event, listener);
    this.added.push(() => emitter.off(event, listener));
  }

  /** Removes every listener added so far. */
  removeAll(): void {
    for (const off of this.added.splice(0)) off();
  }
}
