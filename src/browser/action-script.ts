/**
 * The script an action runs in the page before the input goes out: the element the observation numbered is
 * checked to be actionable as Playwright's element actions check it (visible, enabled, editable, still for a frame,
 * the click point not covered), scrolled into view the way they scroll (`scrollIntoViewIfNeeded`, centered when
 * hidden), and readied (a field's text selected and focused, a dropdown's option chosen). The input itself then goes
 * out through `page.mouse` and `page.keyboard`, the same CDP input events Playwright's `click` and `fill` send.
 *
 * Why not Playwright's `ElementHandle` actions: each one on a new document first builds Playwright's injected script
 * in a world of its own (an `ElementHandle` alone does, for its preview), about 0.1 CPU s of Chromium per action on
 * the sandbox sites, and nearly every step of an episode acts on a new document.
 *
 * Plain JavaScript source, for the reason page-script.ts gives.
 * @module
 */
import { ELEMENTS_KEY, IS_RENDERED } from './page-script';

/** Where the page's own cross-document navigations are counted (by the init script, from the Navigation API). */
export const NAVIGATIONS_KEY = '__taskgenNavigations__';

/**
 * Init-script source that counts the navigations the page itself starts to another document (a link, a script, a
 * form: its `submit` event, since the navigation of a form is started by a task of its own), so an action can tell
 * that it started one before the browser reports its request. The `navigate` event of the Navigation API fires in
 * the page before the request leaves it.
 */
export const COUNT_NAVIGATIONS = `(() => {
  const count = { n: 0, last: null };
  const seen = (e) => { count.n++; count.last = e; };
  Object.defineProperty(window, '${NAVIGATIONS_KEY}', { value: count, configurable: true, enumerable: false });
  if (window.navigation) window.navigation.addEventListener('navigate', (e) => { if (!e.destination.sameDocument) seen(e); });
  document.addEventListener('submit', seen, true);
})();`;

// How many navigations the page has started (see COUNT_NAVIGATIONS), the last one not counted when the page's own
// listener cancelled it.
const NAVIGATIONS_NOW = `(() => { const c = window['${NAVIGATIONS_KEY}']; return c ? c.n - (c.last && c.last.defaultPrevented ? 1 : 0) : 0; })()`;

/**
 * An expression that yields how many navigations the page has started, after the tasks already queued have run (a
 * form's `submit()` starts its navigation in one).
 */
export const NAVIGATIONS_STARTED = `new Promise((resolve) => setTimeout(() => resolve(${NAVIGATIONS_NOW}), 0))`;

/** What the page is asked to ready. */
export type ActionStep =
  | { readonly op: 'point'; readonly index: number; readonly want?: boolean }
  | { readonly op: 'fill'; readonly index: number; readonly text: string }
  | { readonly op: 'select'; readonly index: number; readonly option: number }
  | { readonly op: 'checked'; readonly index: number };

/** What the page answers. */
export type ActionReady =
  /** The element is gone (removed, or the document replaced). */
  | { readonly gone: true }
  /** Not actionable yet (not visible, disabled, read-only, moving, covered): asked again until the time limit. */
  | { readonly wait: string }
  /** The action cannot be done on this element. */
  | { readonly error: string }
  /** Click here (viewport CSS pixels); `started` is the page's count of navigations so far. */
  | { readonly x: number; readonly y: number; readonly started: number }
  /** Type this into the focused field, its old text selected (an empty text deletes it). */
  | { readonly input: string; readonly started: number }
  /** Done in the page; `checked` is a box's state. */
  | { readonly done: true; readonly checked?: boolean };

const SOURCE = String.raw`async (a) => {
  const el = (window['${ELEMENTS_KEY}'] || [])[a.index - 1];
  if (!el || !el.isConnected) return { gone: true };
  const started = ${NAVIGATIONS_NOW};
  if (a.op === 'checked') return { done: true, checked: !!el.checked };
  if (!(${IS_RENDERED})(el)) return { wait: 'is not visible' };
  if (el.matches(':disabled') || el.closest('[aria-disabled="true"]')) return { wait: 'is disabled' };
  const fire = () => {
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  };
  if (a.op === 'select') {
    if (el.tagName !== 'SELECT') return { error: 'is not a dropdown' };
    const option = el.options[a.option];
    if (!option) return { gone: true };
    if (option.disabled) return { error: 'has that option disabled' };
    el.value = undefined;
    option.selected = true;
    fire();
    return { done: true };
  }
  if (a.op === 'fill') {
    const tag = el.tagName;
    let text = a.text;
    if (tag === 'INPUT') {
      const type = el.type.toLowerCase();
      const setValue = ['color', 'date', 'time', 'datetime-local', 'month', 'range', 'week'].includes(type);
      if (!setValue && !['', 'email', 'number', 'password', 'search', 'tel', 'text', 'url'].includes(type)) {
        return { error: 'is an input of type "' + type + '", which cannot be typed into' };
      }
      if (el.readOnly) return { wait: 'is read-only' };
      if (type === 'number') {
        text = text.trim();
        if (isNaN(Number(text))) return { error: 'is a number field: type a number' };
      }
      if (setValue) {
        el.focus();
        el.value = text.trim();
        fire();
        return { done: true };
      }
      el.select();
      el.focus();
      return { input: text, started };
    }
    if (tag === 'TEXTAREA') {
      if (el.readOnly) return { wait: 'is read-only' };
      el.selectionStart = 0;
      el.selectionEnd = el.value.length;
      el.focus();
      return { input: text, started };
    }
    if (!el.isContentEditable) return { error: 'is not a text field (an <input>, a <textarea> or [contenteditable])' };
    let top = el;
    while (top.parentElement && top.parentElement.isContentEditable) top = top.parentElement;
    top.focus();
    const range = document.createRange();
    range.selectNodeContents(el);
    const selection = window.getSelection();
    if (selection) { selection.removeAllRanges(); selection.addRange(range); }
    return { input: text, started };
  }
  if (a.want !== undefined && !!el.checked === a.want) return { done: true, checked: a.want };
  const before = el.getBoundingClientRect();
  await new Promise((resolve) => requestAnimationFrame(resolve));
  const after = el.getBoundingClientRect();
  if (before.x !== after.x || before.y !== after.y || before.width !== after.width || before.height !== after.height) return { wait: 'is moving' };
  if (el.scrollIntoViewIfNeeded) el.scrollIntoViewIfNeeded(true); else el.scrollIntoView({ block: 'center', inline: 'center' });
  const vw = window.visualViewport ? window.visualViewport.width : window.innerWidth;
  const vh = window.visualViewport ? window.visualViewport.height : window.innerHeight;
  let point = null;
  for (const r of el.getClientRects()) {
    const left = Math.max(r.left, 0), top = Math.max(r.top, 0), right = Math.min(r.right, vw), bottom = Math.min(r.bottom, vh);
    if (right > left && bottom > top && (right - left) * (bottom - top) > 0.99) { point = { x: (left + right) / 2, y: (top + bottom) / 2 }; break; }
  }
  if (!point) return { wait: 'is outside the visible part of the page' };
  // off a half pixel, so rounding cannot move the point onto a neighbour (as Playwright does)
  for (const k of ['x', 'y']) { const f = point[k] - Math.floor(point[k]); if (f > 0.49 && f < 0.51) point[k] -= 0.02; }
  const hit = document.elementFromPoint(point.x, point.y);
  for (let h = hit; h; h = h.parentElement || (h.getRootNode() instanceof ShadowRoot ? h.getRootNode().host : null)) {
    if (h === el) return { x: point.x, y: point.y, started };
  }
  if (!hit) return { wait: 'is not under its own click point' };
  const id = hit.id ? '#' + hit.id : '';
  const cls = typeof hit.className === 'string' && hit.className.trim() ? '.' + hit.className.trim().split(/\s+/).join('.') : '';
  const words = (hit.innerText || '').replace(/\s+/g, ' ').trim().slice(0, 40);
  return { wait: 'is covered by <' + hit.tagName.toLowerCase() + id + cls + '>' + (words ? ' "' + words + '"' : '') };
}`;

/** The page expression that readies `step` (see the module comment). */
export function actionScript(step: ActionStep): string {
  return `(${SOURCE})(${JSON.stringify(step)})`;
}
