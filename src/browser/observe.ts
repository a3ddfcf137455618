/**
 * What the agent sees before each step: the screenshot, and a text view of the page (URL, title, scroll
 * position, the last action's error, the visible text and the numbered interactive elements).
 * @module
 */
import type { Page } from 'playwright-core';
import { pageScript, type PageScan } from './page-script';
import { captureViewport } from './screenshot';
import type { Observation, ObservedElement } from '../agent/types';

const NAVIGATED = /Execution context was destroyed|navigat/i;

/** Options of {@link observe}. */
export interface ObserveOptions {
  /** 0-based step number. */
  readonly step: number;
  /** The last action's error, shown to the policy. */
  readonly error?: string | null;
  /** The most characters of visible text. Default 2500. */
  readonly textLimit?: number;
  /** The most elements listed in the prompt (all are numbered and usable). Default 300. */
  readonly maxElements?: number;
  /** Screenshot time limit in ms. Default 30000 (a loaded machine is slow, not broken). */
  readonly timeoutMs?: number;
}

/** The parts of an observation its prompt text is made from. */
export interface ObservationParts {
  readonly url: string;
  readonly title: string;
  readonly text: string;
  readonly elements: readonly ObservedElement[];
  readonly error?: string | null;
  readonly scroll?: { readonly y: number; readonly height: number; readonly viewport: number };
  readonly maxElements?: number;
}

/**
 * Observes the page: one pass of the page script (elements, text, URL, title, scroll), then a 1280x800 PNG
 * screenshot through CDP.
 * Rejects when the page is gone (closed or crashed).
 */
export async function observe(page: Page, options: ObserveOptions): Promise<Observation> {
  const textLimit = options.textLimit ?? 2500;
  const script = pageScript({ textLimit, valueLimit: 200, optionLimit: 50 });
  let screenshot: Buffer;
  let scan: PageScan;
  for (let attempt = 1; ; attempt++) {
    try {
      // One pass of the page script, then the screenshot: two round trips in all.
      scan = (await page.evaluate(script)) as PageScan;
      screenshot = await captureViewport(page, options.timeoutMs ?? 30_000);
      break;
    } catch (error) {
      // A navigation the page started late (a timer, a script) replaced the document mid-observation: look again.
      if (attempt >= 3 || !NAVIGATED.test(String(error))) throw error;
      await page.waitForLoadState('load', { timeout: options.timeoutMs ?? 30_000 }).catch(() => {});
    }
  }
  const elements: ObservedElement[] = scan.elements.map((e, i) => ({ index: i + 1, ...e }));
  const url = displayUrl(scan.url);
  const parts: ObservationParts = {
    url,
    title: scan.title,
    text: scan.text,
    elements,
    error: options.error ?? null,
    scroll: { y: scan.scrollY, height: scan.scrollHeight, viewport: scan.viewportHeight },
    ...(options.maxElements !== undefined ? { maxElements: options.maxElements } : {}),
  };
  return {
    step: options.step,
    url,
    title: scan.title,
    elements,
    text: scan.text,
    error: options.error ?? null,
    screenshot: new Uint8Array(screenshot.buffer, screenshot.byteOffset, screenshot.byteLength),
    prompt: formatObservation(parts),
  };
}

/**
 * The observation text the model gets (and `grade_inputs.seen` keeps): URL, title, scroll position when the
 * page is taller than the window, the last action's error, the visible text, then the elements.
 */
export function formatObservation(parts: ObservationParts): string {
  const lines = [`URL: ${parts.url}`, `TITLE: ${parts.title}`];
  const s = parts.scroll;
  if (s && s.height > s.viewport) {
    lines.push(`SCROLL: showing ${s.y}-${Math.min(s.height, s.y + s.viewport)} of ${s.height} px`);
  }
  if (parts.error) lines.push(`ERROR: ${parts.error}`);
  lines.push('TEXT:', parts.text || '(none)', 'ELEMENTS:');
  const max = parts.maxElements ?? 300;
  for (const e of parts.elements.slice(0, max)) lines.push(formatElement(e));
  if (parts.elements.length > max) lines.push(`(${parts.elements.length - max} more elements not listed)`);
  if (parts.elements.length === 0) lines.push('(none)');
  return lines.join('\n');
}

/** One element line: `[12] button "Add to cart"`, with a field's value, a select's options, a box's state. */
export function formatElement(e: ObservedElement): string {
  let line = `[${e.index}] ${e.role} ${JSON.stringify(e.name)}`;
  if (e.value !== undefined && e.value !== '') line += ` value=${JSON.stringify(e.value)}`;
  if (e.options) line += ` options=${JSON.stringify(e.options)}`;
  if (e.checked !== undefined) line += e.checked ? ' checked' : ' unchecked';
  if (e.href !== undefined) line += ` -> ${e.href}`;
  return line;
}

// The path of a page (what `goto` takes); other URLs (about:blank, error pages) as they are.
function displayUrl(href: string): string {
  try {
    const u = new URL(href);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.pathname + u.search + u.hash : href;
  } catch {
    return href;
  }
}
