/**
 * Executes one agent action on the page and waits until the page has settled. Mistakes (a bad index, a field
 * that cannot be typed into, an off-site path) come back as an error message for the policy; only a page
 * that is gone throws.
 * @module
 */
import type { Action } from '../core/schemas';
import { actionScript, NAVIGATIONS_STARTED, type ActionReady, type ActionStep } from './action-script';
import { elementExpression } from './page-script';
import { PageGoneError, rethrowGone, within } from './page-util';
import type { PageWatch } from './page-watch';
import { describeBoundary, outsideSite, siteBoundary, type SiteBoundary } from './site-boundary';
import type { ObservedElement } from '../agent/types';

/** What an action needs besides itself. */
export interface ActionContext {
  readonly watch: PageWatch;
  /** The site's origin; `goto` stays on it. */
  readonly origin: string;
  /** The site's path prefix (`/sites/shop/`); `goto` and every navigation stay under it. Default `/`. */
  readonly prefix?: string;
  /** Paths outside the prefix that the server declares open to the site's episodes (`/verify-payment`). */
  readonly reachable?: readonly string[];
  /** The elements of the observation the action was chosen from. */
  readonly elements: readonly ObservedElement[];
  /** The time limit of one element action (click, fill...), in ms. Default 10000. */
  readonly actionTimeoutMs?: number;
  /** The time limit of a page load (goto, back), in ms. Default 30000. */
  readonly navigationTimeoutMs?: number;
  /** The longest wait for the page to settle after an action, in ms. Default 5000. */
  readonly settleMs?: number;
}

/** A mistake of the agent's, reported back to it. */
class ActionError extends Error {}

/**
 * Performs `action` and returns the error to show the policy next (including blocked requests and dialogs
 * seen meanwhile), or null. `done` does nothing here. Throws a {@link PageGoneError} when the page is gone.
 */
export async function performAction(action: Action, ctx: ActionContext): Promise<string | null> {
  const { watch } = ctx;
  const mark = watch.mark();
  let error: string | null = null;
  let navigating = false;
  try {
    navigating = await watch.guard(run(action, ctx));
  } catch (e) {
    error = describe(e, ctx);
  }
  await watch.settle(mark, ctx.settleMs ?? 5000, navigating);
  if (watch.blockedNavigationSince(mark)) {
    // Chromium commits its error page a moment after the blocked request failed: waited for (at most 1 s), so the
    // agent is taken back from it rather than shown it.
    const onErrorPage = (url: URL) => url.protocol === 'chrome-error:';
    await watch.guard(watch.page.waitForURL(onErrorPage, { waitUntil: 'commit', timeout: 1000 })).catch(rethrowGone);
    if (watch.page.url().startsWith('chrome-error://')) await watch.guard(watch.page.goBack({ waitUntil: 'load', timeout: 5000 })).catch(rethrowGone);
  }
  await stayInside(ctx);
  const notes = watch.takeNotes();
  return [error, notes].filter(Boolean).join('; ') || null;
}

// Runs the action; true when it was input (a click, a key) after which the page started a navigation.
async function run(action: Action, ctx: ActionContext): Promise<boolean> {
  const page = ctx.watch.page;
  const timeout = ctx.actionTimeoutMs ?? 10_000;
  if ('click' in action) {
    observed(ctx, action.click.index);
    return click(ctx, { op: 'point', index: action.click.index }, timeout);
  }
  if ('type' in action) {
    const { index, text, enter } = action.type;
    const target = observed(ctx, index);
    if (target.tag === 'select') throw new ActionError(`[${index}] is a dropdown; use select`);
    if (target.role === 'checkbox' || target.role === 'radio') throw new ActionError(`[${index}] is a ${target.role}; use check`);
    const ready = await readied(ctx, { op: 'fill', index, text }, timeout);
    const before = 'started' in ready ? ready.started : await navigationsStarted(ctx);
    if ('input' in ready) await within(ready.input ? page.keyboard.insertText(ready.input) : page.keyboard.press('Delete'), timeout, unanswered(timeout));
    if (enter) await within(page.keyboard.press('Enter'), timeout, unanswered(timeout));
    return navigationStarted(ctx, before);
  }
  if ('select' in action) {
    await selectOption(ctx, action.select.index, action.select.option, timeout);
    return false;
  }
  if ('check' in action) {
    const { index } = action.check;
    const target = observed(ctx, index);
    if (target.tag === 'input' && (target.role === 'checkbox' || target.role === 'switch' || target.role === 'radio')) {
      const want = target.role === 'radio' ? true : !target.checked;
      const navigating = await click(ctx, { op: 'point', index, want }, timeout);
      if (navigating) return true;
      const after = await readied(ctx, { op: 'checked', index }, timeout);
      if ('checked' in after && after.checked !== want) throw new ActionError(`clicking [${index}] did not change its state`);
      return false;
    }
    if (['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(target.role)) {
      return click(ctx, { op: 'point', index }, timeout);
    }
    throw new ActionError(`[${index}] is a ${target.role}, not a checkbox or radio button; use click`);
  }
  if ('scroll' in action) {
    const sign = action.scroll.direction === 'down' ? 1 : -1;
    const moved = (await page.evaluate(
      `(() => { const y = window.scrollY; window.scrollBy(0, ${sign} * Math.round(window.innerHeight * 0.8)); return window.scrollY !== y; })()`,
    )) as boolean;
    if (!moved) throw new ActionError(`the page did not scroll: already at the ${sign > 0 ? 'bottom' : 'top'}`);
  } else if ('goto' in action) {
    await gotoPath(ctx, action.goto.path);
  } else if ('back' in action) {
    const before = page.url();
    const timeout = ctx.navigationTimeoutMs ?? 30_000;
    const response = await page.goBack({ waitUntil: 'load', timeout });
    if (!response && page.url() === before) throw new ActionError('there is no previous page');
    // The page before the start page is the browser's blank page: stay on the site.
    if (outsideSite(page.url(), boundaryOf(ctx)) !== null && !page.url().startsWith('chrome-error://')) {
      await page.goForward({ waitUntil: 'load', timeout });
      throw new ActionError('there is no previous page');
    }
  }
  return false;
}

// Clicks the element at the point the page gives for it (a box already in the wanted state is left alone).
async function click(ctx: ActionContext, step: ActionStep, timeout: number): Promise<boolean> {
  const ready = await readied(ctx, step, timeout);
  if (!('x' in ready)) return false;
  await within(ctx.watch.page.mouse.click(ready.x, ready.y), timeout, unanswered(timeout));
  return navigationStarted(ctx, ready.started);
}

// Asks the page to ready `step` until it can, as Playwright's actions retry, within `timeout` ms.
async function readied(ctx: ActionContext, step: ActionStep, timeout: number): Promise<ActionReady> {
  const deadline = Date.now() + timeout;
  for (let round = 0; ; round++) {
    const limit = Math.max(1000, deadline - Date.now());
    const ready = (await within(ctx.watch.page.evaluate(actionScript(step)), limit, unanswered(limit))) as ActionReady;
    if ('gone' in ready) throw new ActionError(`element [${step.index}] is no longer on the page`);
    if ('error' in ready) throw new ActionError(`[${step.index}] ${ready.error}`);
    if (!('wait' in ready)) return ready;
    const pause = RETRY_MS[Math.min(round, RETRY_MS.length - 1)]!;
    if (Date.now() + pause >= deadline) throw new ActionError(`[${step.index}] ${ready.wait} (waited ${timeout} ms)`);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

const RETRY_MS = [0, 20, 100, 100, 500];

// The agent's error for a page that did not answer in time: a page whose script never yields holds no action forever.
function unanswered(ms: number): () => Error {
  return () => new ActionError(`the page did not answer within ${ms} ms`);
}

// The page's count of the navigations it started; null when its document is already being replaced.
async function navigationsStarted(ctx: ActionContext): Promise<number | null> {
  return (await ctx.watch.page.evaluate(NAVIGATIONS_STARTED).catch(() => null)) as number | null;
}

// Whether the page started a navigation since `before`: the page answers after the input's handlers have run (a
// document already gone counts: its navigation is under way).
async function navigationStarted(ctx: ActionContext, before: number | null): Promise<boolean> {
  const after = await navigationsStarted(ctx);
  return before !== null && (after === null || after > before);
}

function observed(ctx: ActionContext, index: number): ObservedElement {
  const e = ctx.elements[index - 1];
  if (!e || e.index !== index) {
    const n = ctx.elements.length;
    throw new ActionError(
      n ? `there is no element [${index}]; this page's elements are numbered 1 to ${n}` : `there is no element [${index}]; this page has no interactive elements`,
    );
  }
  return e;
}

// Picks an option by its text or value: exact first, then ignoring case and spacing.
async function selectOption(ctx: ActionContext, index: number, option: string, timeout: number): Promise<void> {
  const target = observed(ctx, index);
  if (target.tag !== 'select') throw new ActionError(`[${index}] is a ${target.role}, not a dropdown`);
  const options = (await ctx.watch.page.evaluate(
    `(() => { const el = ${elementExpression(index)}; return el && el.options ? Array.from(el.options, (o) => [o.text, o.value]) : null; })()`,
  )) as Array<[string, string]> | null;
  if (!options) throw new ActionError(`element [${index}] is no longer on the page`);
  const loose = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
  const want = loose(option);
  let at = options.findIndex(([text, value]) => text === option || value === option);
  if (at < 0) at = options.findIndex(([text, value]) => loose(text) === want || loose(value) === want);
  if (at < 0) {
    const names = options.slice(0, 20).map(([text]) => JSON.stringify(loose(text)));
    throw new ActionError(`[${index}] has no option ${JSON.stringify(option)}; its options are ${names.join(', ')}`);
  }
  await readied(ctx, { op: 'select', index, option: at }, timeout);
}

async function gotoPath(ctx: ActionContext, path: string): Promise<void> {
  const page = ctx.watch.page;
  let url: URL;
  try {
    const here = page.url();
    url = new URL(path, here.startsWith('http') ? here : ctx.origin);
  } catch {
    throw new ActionError(`${JSON.stringify(path)} is not a path`);
  }
  const boundary = boundaryOf(ctx);
  if (outsideSite(url, boundary) !== null) {
    ctx.watch.blockedUrls.push(url.href);
    throw new ActionError(`goto ${JSON.stringify(path)} blocked: only ${describeBoundary(boundary)} is allowed`);
  }
  await page.goto(url.href, { waitUntil: 'load', timeout: ctx.navigationTimeoutMs ?? 30_000 });
}

function boundaryOf(ctx: ActionContext): SiteBoundary {
  return siteBoundary(ctx.origin, ctx.prefix ?? '/', ctx.reachable ?? []);
}

// A navigation the router cannot see (a server redirect: only a redirect's first URL is routed) that left the
// site is undone before anything of that page is observed, and shown to the agent as blocked.
async function stayInside(ctx: ActionContext): Promise<void> {
  const { watch } = ctx;
  const url = watch.page.url();
  if (!/^https?:/i.test(url) || outsideSite(url, boundaryOf(ctx)) === null) return;
  watch.blocked(url, true);
  await watch.guard(watch.page.goBack({ waitUntil: 'load', timeout: 5000 })).catch(rethrowGone);
  if (!/^https?:/i.test(watch.page.url()) || outsideSite(watch.page.url(), boundaryOf(ctx)) !== null) {
    const home = new URL(boundaryOf(ctx).prefix, ctx.origin).href;
    await watch.guard(watch.page.goto(home, { waitUntil: 'load', timeout: 5000 })).catch(rethrowGone);
  }
}

function describe(error: unknown, ctx: ActionContext): string {
  if (error instanceof PageGoneError) throw error;
  if (ctx.watch.goneBecause) throw new PageGoneError(ctx.watch.goneBecause);
  if (error instanceof ActionError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  if (/Target page, context or browser has been closed|Target crashed|Browser has been closed/i.test(message)) {
    throw new PageGoneError(message.split('\n')[0]!);
  }
  const first = message.split('\n')[0]!.replace(/^[\w.]+: /, '');
  return `the action failed: ${first}`;
}
