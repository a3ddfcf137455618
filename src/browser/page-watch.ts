/**
 * Watches one episode's page: requests in flight, navigations, requests blocked for leaving the site, dialogs,
 * popups and crashes, so an action can wait until the page has settled and report what happened.
 * @module
 */
import type { Dialog, Frame, Page, Request } from 'playwright-core';
import { Listeners, PageGoneError, rethrowGone, sameOrigin, withTimeout } from './page-util';

export { PageGoneError } from './page-util';

/** How many URLs of the requests a page made by itself and that were stopped are kept (all are counted). */
export const PAGE_BLOCKED_KEPT = 20;

/** A point in the page's activity, taken before an action. */
export interface ActivityMark {
  readonly started: number;
  readonly navigations: number;
  readonly blockedNavigations: number;
}

/** Tracks a page's activity; see the module comment. */
export class PageWatch {
  private readonly inflight = new Set<Request>();
  private readonly pending = new Set<Promise<unknown>>();
  private readonly notes: string[] = [];
  private readonly waiters = new Set<() => void>();
  private started = 0;
  private navigations = 0;
  private blockedNavigations = 0;
  private goneReason: string | null = null;
  private over = false;
  private onGone: ((reason: string) => void) | null = null;
  /** Rejects with a {@link PageGoneError} when the page crashes or closes. */
  readonly gone: Promise<never>;

  constructor(
    readonly page: Page,
    private readonly origin: string,
    /** What the agent is told it may reach. Default the origin. */
    private readonly scope: string = origin,
    /** Where its listeners go, so the episode that owns the page can remove them when it ends. */
    listeners: Listeners = new Listeners(),
  ) {
    this.gone = new Promise<never>((_, reject) => {
      this.onGone = (reason) => reject(new PageGoneError(reason));
    });
    this.gone.catch(() => {});
    // Requests of the whole context, so a popup's count too.
    const context = page.context();
    listeners.on(context, 'request', (r: Request) => {
      this.inflight.add(r);
      this.started++;
      this.wake();
    });
    listeners.on(context, 'requestfinished', (r: Request) => this.ended(r));
    listeners.on(context, 'requestfailed', (r: Request) => this.ended(r));
    listeners.on(page, 'framenavigated', (f: Frame) => {
      if (f === page.mainFrame()) this.navigations++;
    });
    listeners.on(page, 'dialog', (d: Dialog) => {
      this.notes.push(`the page showed a ${d.type()} dialog ${JSON.stringify(d.message().slice(0, 200))}; it was accepted`);
      this.track(d.accept().catch(() => {}));
    });
    listeners.on(page, 'popup', (popup: Page) => this.track(this.adoptPopup(popup)));
    listeners.on(page, 'crash', () => this.markGone('the page crashed'));
    listeners.on(page, 'close', () => this.markGone('the page was closed'));
  }

  /** Why the page is gone, or null while it lives. */
  get goneBecause(): string | null {
    return this.goneReason;
  }

  /**
   * Ends the watch with its episode: a popup it was still adopting is not opened in the page, which the next
   * episode may have by then (src/browser/page-pool.ts).
   */
  end(): void {
    this.over = true;
  }

  /** Marks the page as gone (also called when the browser disconnects). */
  markGone(reason: string): void {
    if (this.goneReason) return;
    this.goneReason = reason;
    this.onGone?.(reason);
  }

  /** Every URL outside the site that the agent's actions tried to reach (a navigation, a `goto`), in order. */
  readonly blockedUrls: string[] = [];

  /**
   * What the page did by itself that was stopped at the site's boundary (a script's request, an image, a frame's
   * navigation): counted, and the first {@link PAGE_BLOCKED_KEPT} URLs kept; never a note for the agent, whose
   * action did not cause it.
   */
  readonly pageBlocked = { count: 0, urls: [] as string[] };

  /** Requests the page's own scripts sent to the paths the server lets through from them (a site's recorder). */
  pagePosts = 0;

  /** Records a navigation outside the site that was blocked, with a note for the agent. */
  blocked(url: string, isNavigation = true): void {
    this.blockedUrls.push(url);
    if (isNavigation) this.blockedNavigations++;
    this.notes.push(`blocked ${isNavigation ? 'navigation' : 'a request'} to ${url.slice(0, 200)}: only ${this.scope} is allowed`);
  }

  /** Records a request the page made by itself that was stopped (see {@link pageBlocked}). */
  blockedByPage(url: string): void {
    this.pageBlocked.count++;
    if (this.pageBlocked.urls.length < PAGE_BLOCKED_KEPT) this.pageBlocked.urls.push(url.slice(0, 300));
  }

  /** The notes (blocked requests, dialogs) since the last call, as one line, or null. */
  takeNotes(): string | null {
    if (this.notes.length === 0) return null;
    const uniq = [...new Set(this.notes)];
    this.notes.length = 0;
    return uniq.length > 4 ? `${uniq.slice(0, 4).join('; ')}; and ${uniq.length - 4} more` : uniq.join('; ');
  }

  /** The activity so far, to compare with after an action. */
  mark(): ActivityMark {
    return { started: this.started, navigations: this.navigations, blockedNavigations: this.blockedNavigations };
  }

  /** Whether a navigation to another origin was blocked since `mark`. */
  blockedNavigationSince(mark: ActivityMark): boolean {
    return this.blockedNavigations > mark.blockedNavigations;
  }

  /** Races `work` against the page going away, so a crashed page never hangs the episode. */
  guard<T>(work: Promise<T>): Promise<T> {
    if (this.goneReason) {
      work.catch(() => {});
      return Promise.reject(new PageGoneError(this.goneReason));
    }
    return Promise.race([work, this.gone]);
  }

  /**
   * Waits until the page has settled after an action: after one round trip to the page, nothing to wait for
   * when the action started no request and no navigation (the common case); otherwise the load event and a
   * quiet network, within `capMs`. `navigating`: the page said it started a navigation, whose request the browser
   * may not have reported yet: waited for (at most 2 s) before anything else.
   */
  async settle(mark: ActivityMark, capMs: number, navigating = false, quietMs = 40): Promise<void> {
    const idle = () => this.started === mark.started && this.navigations === mark.navigations && this.pending.size === 0;
    const deadline = Date.now() + capMs;
    const reported = Math.min(deadline, Date.now() + 2000);
    while (navigating && idle() && Date.now() < reported && !this.goneReason) await this.nextEvent(reported - Date.now());
    // One round trip to the page first, so the events of what its handlers started have come in.
    if (idle()) await this.guard(this.page.evaluate('0')).catch(rethrowGone);
    if (idle()) return;
    if (this.navigations !== mark.navigations) {
      await this.guard(this.page.waitForLoadState('load', { timeout: capMs })).catch(rethrowGone);
    }
    // Driven by the request events: wait for the last request in flight to end, then for `quietMs` in which none
    // starts; each wait ends early on the event it waits for, and all of them by the deadline.
    while (Date.now() < deadline && !this.goneReason) {
      if (this.pending.size > 0) {
        await withTimeout(Promise.allSettled([...this.pending]), deadline - Date.now());
        continue;
      }
      if (this.inflight.size === 0) {
        const before = this.started;
        await this.nextEvent(Math.min(quietMs, Math.max(0, deadline - Date.now())));
        if (this.inflight.size === 0 && this.started === before && this.pending.size === 0) break;
      } else {
        await this.nextEvent(deadline - Date.now());
      }
    }
    if (this.goneReason) throw new PageGoneError(this.goneReason);
    // The page's own callbacks on what came back (`fetch(...).then(update)`) run in tasks after the response:
    // let a frame and a task pass so the observation sees their result.
    await this.guard(this.page.evaluate(AFTER_A_FRAME)).catch(rethrowGone);
  }

  // Resolves on the next request event (started, finished, failed) or after `ms`, whichever is first.
  private async nextEvent(ms: number): Promise<void> {
    let done: () => void = () => {};
    const event = new Promise<void>((resolve) => {
      done = resolve;
      this.waiters.add(resolve);
    });
    try {
      await withTimeout(Promise.race([event, this.gone.catch(() => {})]), ms);
    } finally {
      this.waiters.delete(done);
    }
  }

  private wake(): void {
    for (const resolve of this.waiters) resolve();
    this.waiters.clear();
  }

  private ended(r: Request): void {
    this.inflight.delete(r);
    this.wake();
  }

  private track(p: Promise<unknown>): void {
    const tracked = p.finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  // A page the site opened (target=_blank, window.open): the agent keeps one tab, so the popup's address is
  // opened in it instead.
  private async adoptPopup(popup: Page): Promise<void> {
    await popup.waitForURL((u) => u.href !== 'about:blank', { timeout: 3000 }).catch(() => {});
    const url = popup.url();
    await popup.close().catch(() => {});
    if (this.over || !sameOrigin(url, this.origin)) return;
    const target = new URL(url);
    this.notes.push(`the page opened ${target.pathname}${target.search} in a new tab; it was opened here instead`);
    await this.page.goto(target.href, { waitUntil: 'load', timeout: 10_000 }).catch(() => {});
  }
}

const AFTER_A_FRAME = 'new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))';
