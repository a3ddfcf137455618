/**
 * Executes one agent action on the page and waits until the page has settled. Mistakes (a bad index, a field
 * that cannot be typed into, an off-site path) come back as an error message for the policy; only a page
 * that is gone throws.
 * @module
 */
import type { ElementHandle } from 'playwright-core';
import type { Action } from '../core/schemas';
import { elementExpression } from './page-script';
import { PageGoneError, rethrowGone } from './page-util';
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
  try {
    await watch.guard(run(action, ctx));
  } catch (e) {
    error = describe(e, ctx);
  }
  await watch.settle(mark, ctx.settleMs ?? 5000);
  if (watch.blockedNavigationSince(mark) && watch.page.url().startsWith('chrome-error://')) {
    await watch.guard(watch.page.goBack({ waitUntil: 'load', timeout: 5000 })).catch(rethrowGone);
  }
  await stayInside(ctx);
  const notes = watch.takeNotes();
  return [error, notes].filter(Boolean).join('; ') || null;
}

async function run(action: Action, ctx: ActionContext): Promise<void> {
  const page = ctx.watch.page;
  const timeout = ctx.actionTimeoutMs ?? 10_000;
  if ('click' in action) {
    await (await element(ctx, action.click.index)).click({ timeout });
  } else if ('type' in action) {
    const { index, text, enter } = action.type;
    const target = observed(ctx, index);
    if (target.tag === 'select') throw new ActionError(`[${index}] is a dropdown; use select`);
    if (target.role === 'checkbox' || target.role === 'radio') throw new ActionError(`[${index}] is a ${target.role}; use check`);
    const handle = await element(ctx, index);
    await handle.fill(text, { timeout });
    if (enter) await handle.press('Enter', { timeout });
  } else if ('select' in action) {
    await selectOption(ctx, action.select.index, action.select.option, timeout);
  } else if ('check' in action) {
    const { index } = action.check;
    const target = observed(ctx, index);
    const handle = await element(ctx, index);
    if (target.tag === 'input' && (target.role === 'checkbox' || target.role === 'switch')) {
      await handle.setChecked(!target.checked, { timeout });
    } else if (target.tag === 'input' && target.role === 'radio') {
      await handle.check({ timeout });
    } else if (['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(target.role)) {
      await handle.click({ timeout });
    } else {
      throw new ActionError(`[${index}] is a ${target.role}, not a checkbox or radio button; use click`);
    }
  } else if ('scroll' in action) {
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

async function element(ctx: ActionContext, index: number): Promise<ElementHandle> {
  observed(ctx, index);
  const handle = (await ctx.watch.page.evaluateHandle(elementExpression(index))).asElement();
  if (!handle) throw new ActionError(`element [${index}] is no longer on the page`);
  return handle as ElementHandle;
}

// Picks an option by its text or value: exact first, then ignoring case and spacing.
async function selectOption(ctx: ActionContext, index: number, option: string, timeout: number): Promise<void> {
  const target = observed(ctx, index);
  if (target.tag !== 'select') throw new ActionError(`[${index}] is a ${target.role}, not a dropdown`);
  const handle = await element(ctx, index);
  // A function with no named inner functions, so that tsx's name helpers never reach the page.
  const options = (await handle.evaluate((el) =>
    Array.from((el as unknown as { options: ArrayLike<{ text: string; value: string }> }).options, (o) => [o.text, o.value]),
  )) as Array<[string, string]>;
  const loose = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
  const want = loose(option);
  let at = options.findIndex(([text, value]) => text === option || value === option);
  if (at < 0) at = options.findIndex(([text, value]) => loose(text) === want || loose(value) === want);
  if (at < 0) {
    const names = options.slice(0, 20).map(([text]) => JSON.stringify(loose(text)));
    throw new ActionError(`[${index}] has no option ${JSON.stringify(option)}; its options are ${names.join(', ')}`);
  }
  await handle.selectOption({ index: at }, { timeout });
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
  return siteBoundary(ctx.origin, ctx.prefix ?? '/');
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
