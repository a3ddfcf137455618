/**
 * The script `observe()` runs in the page: one pass that numbers the interactive elements and reads the page's
 * text. It is kept as plain JavaScript source, because bundlers and `tsx` rewrite functions (`__name(...)`)
 * in ways that break Playwright's function serialization.
 *
 * The element rules, which the sandbox's oracle mirrors to resolve role + name to an index:
 * - interactive: `a[href]`, `button`, `input` (not type=hidden), `select`, `textarea`, `summary`, and elements
 *   with an explicit `role` of button, link, checkbox, radio, tab, menuitem, option, switch, combobox, textbox,
 *   searchbox; rendered (a non-empty box, not `display:none`, not `visibility:hidden`); in document order,
 *   numbered from 1;
 * - role: the explicit `role` attribute (its first token), else `a[href]` link; `button` and input
 *   button/submit/reset/image button; checkbox; radio; input search searchbox; number spinbutton; other inputs
 *   and textarea textbox; select combobox; summary button;
 * - name: `aria-label`, else the text of `aria-labelledby`; then for inputs (other than buttons), selects and
 *   textareas their `<label>` (for=id or wrapping; the text of the control itself left out), else
 *   `placeholder`, else `title`; for everything else its visible text (input buttons: `value`, then `alt`),
 *   else `title`, else an inner img's `alt`. Whitespace collapsed, trimmed, at most 80 characters.
 *
 * Only the top document is read: elements inside iframes and shadow roots are not numbered.
 * @module
 */

/** Where the numbered elements of the last observation are kept in the page, for the actions. */
export const ELEMENTS_KEY = '__taskgenElements__';

/** The options the page script takes. */
export interface PageScriptOptions {
  /** The most characters of visible text to return. */
  readonly textLimit: number;
  /** The most characters of a field's value or an option's text. */
  readonly valueLimit: number;
  /** The most options listed per select. */
  readonly optionLimit: number;
}

/** What the page script returns. */
export interface PageScan {
  readonly url: string;
  readonly title: string;
  readonly text: string;
  readonly scrollY: number;
  readonly scrollHeight: number;
  readonly viewportHeight: number;
  readonly elements: Array<{
    role: string;
    name: string;
    tag: string;
    value?: string;
    options?: string[];
    checked?: boolean;
    href?: string;
  }>;
}

/**
 * Page-side source of the rule that an element is rendered (a non-empty box, not `display:none`, not
 * `visibility:hidden`): the observation numbers only such elements and an action waits until its element is one.
 */
export const IS_RENDERED = String.raw`(el) => {
  const r = el.getBoundingClientRect();
  if (!(r.width > 0 && r.height > 0)) return false;
  return el.checkVisibility ? el.checkVisibility({ visibilityProperty: true }) : getComputedStyle(el).visibility === 'visible';
}`;

const SOURCE = String.raw`(opts) => {
  const ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'tab', 'menuitem', 'option', 'switch', 'combobox',
    'textbox', 'searchbox']);
  const INPUT_BUTTONS = new Set(['button', 'submit', 'reset', 'image']);
  const SKIP_IN_LABEL = new Set(['SELECT', 'TEXTAREA', 'INPUT', 'BUTTON', 'SCRIPT', 'STYLE', 'TEMPLATE']);
  const collapse = (s) => (s == null ? '' : String(s)).replace(/\s+/g, ' ').trim();
  const cut = (s, n) => (s.length > n ? s.slice(0, n).replace(/[\uD800-\uDBFF]$/, '') : s);
  const explicitRole = (el) => {
    const r = (el.getAttribute('role') || '').trim().toLowerCase().split(/\s+/)[0];
    return r || '';
  };
  const isCandidate = (el) => {
    const tag = el.tagName;
    if (tag === 'A') return el.hasAttribute('href') || ROLES.has(explicitRole(el));
    if (tag === 'INPUT') return el.type !== 'hidden';
    if (tag === 'BUTTON' || tag === 'SELECT' || tag === 'TEXTAREA' || tag === 'SUMMARY') return true;
    return ROLES.has(explicitRole(el));
  };
  const isRendered = ${IS_RENDERED};
  const implicitRole = (el) => {
    const tag = el.tagName;
    if (tag === 'A') return 'link';
    if (tag === 'BUTTON' || tag === 'SUMMARY') return 'button';
    if (tag === 'SELECT') return 'combobox';
    if (tag === 'TEXTAREA') return 'textbox';
    if (tag === 'INPUT') {
      const t = el.type;
      if (INPUT_BUTTONS.has(t)) return 'button';
      if (t === 'checkbox' || t === 'radio') return t;
      if (t === 'search') return 'searchbox';
      if (t === 'number') return 'spinbutton';
      return 'textbox';
    }
    return '';
  };
  const isField = (el) => el.tagName === 'SELECT' || el.tagName === 'TEXTAREA'
    || (el.tagName === 'INPUT' && !INPUT_BUTTONS.has(el.type));
  const labelText = (node) => {
    let s = '';
    for (const child of node.childNodes) {
      if (child.nodeType === 3) s += child.data;
      else if (child.nodeType === 1 && !SKIP_IN_LABEL.has(child.tagName)) {
        s += ' ' + (child.querySelector('select,textarea,input,button') ? labelText(child)
          : (child.innerText ?? child.textContent)) + ' ';
      }
    }
    return s;
  };
  const nameOf = (el) => {
    const aria = collapse(el.getAttribute('aria-label'));
    if (aria) return aria;
    const ids = collapse(el.getAttribute('aria-labelledby'));
    if (ids) {
      const t = collapse(ids.split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' '));
      if (t) return t;
    }
    if (isField(el)) {
      const labels = el.labels ? Array.from(el.labels) : [];
      const t = collapse(labels.map(labelText).join(' '));
      if (t) return t;
      return collapse(el.getAttribute('placeholder')) || collapse(el.getAttribute('title'));
    }
    let t = '';
    if (el.tagName === 'INPUT') t = collapse(el.value) || collapse(el.getAttribute('alt'));
    else t = collapse(el.innerText);
    if (t) return t;
    t = collapse(el.getAttribute('title'));
    if (t) return t;
    const img = Array.from(el.querySelectorAll('img[alt]')).find((i) => collapse(i.getAttribute('alt')));
    return img ? collapse(img.getAttribute('alt')) : '';
  };
  const pathOf = (href) => {
    try {
      const u = new URL(href, location.href);
      return u.origin === location.origin ? u.pathname + u.search + u.hash : u.href;
    } catch (e) {
      return String(href);
    }
  };
  const found = [];
  const elements = [];
  for (const el of document.querySelectorAll('a,button,input,select,textarea,summary,[role]')) {
    if (!isCandidate(el) || !isRendered(el)) continue;
    const role = explicitRole(el) || implicitRole(el);
    const item = { role, name: cut(nameOf(el), 80), tag: el.tagName.toLowerCase() };
    if (el.tagName === 'SELECT') {
      const options = Array.from(el.options);
      item.options = options.slice(0, opts.optionLimit).map((o) => cut(collapse(o.text) || o.value, opts.valueLimit));
      const sel = options[el.selectedIndex];
      if (sel) item.value = cut(collapse(sel.text) || sel.value, opts.valueLimit);
    } else if (el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')) {
      item.checked = el.checked;
    } else if (isField(el)) {
      if (el.value) item.value = cut(el.value, opts.valueLimit);
    } else if (el.hasAttribute('aria-checked')) {
      item.checked = el.getAttribute('aria-checked') === 'true';
    }
    if (el.tagName === 'A' && el.hasAttribute('href')) item.href = pathOf(el.getAttribute('href'));
    found.push(el);
    elements.push(item);
  }
  Object.defineProperty(window, '__KEY__', { value: found, configurable: true, enumerable: false, writable: true });
  const lines = [];
  let size = 0;
  for (const raw of (document.body ? document.body.innerText : '').split('\n')) {
    const line = raw.replace(/\s+/g, ' ').trim();
    if (!line || lines[lines.length - 1] === line) continue;
    lines.push(line);
    size += line.length + 1;
    if (size > opts.textLimit) break;
  }
  const doc = document.scrollingElement || document.documentElement;
  return {
    url: location.href,
    title: document.title,
    text: cut(lines.join('\n'), opts.textLimit),
    scrollY: Math.round(window.scrollY),
    scrollHeight: doc ? doc.scrollHeight : 0,
    viewportHeight: window.innerHeight,
    elements,
  };
}`.replace('__KEY__', ELEMENTS_KEY);

/**
 * The page script as an expression that calls it with `options`, for `page.evaluate`, once the page's fonts have
 * loaded (the screenshot taken after it shows the text in its own font, as `page.screenshot()` waits for).
 */
export function pageScript(options: PageScriptOptions): string {
  return `document.fonts.ready.then(() => (${SOURCE})(${JSON.stringify(options)}))`;
}

/** An expression that yields the element numbered `index` (1-based) by the last observation, or null. */
export function elementExpression(index: number): string {
  return `(window[${JSON.stringify(ELEMENTS_KEY)}] || [])[${Math.trunc(index) - 1}] || null`;
}
