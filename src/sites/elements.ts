/**
 * The interactive elements of an HTML page read statically, named as the agent harness names them: the same
 * selection (links, buttons, fields, selects, summaries, explicit widget roles; hidden ones left out), roles
 * and accessible names (aria-label, aria-labelledby, label, placeholder, title; visible text for buttons and
 * links), so a crawled sitemap and a browser observation use the same names.
 * @module
 */
import { parse, type HTMLElement, type Node } from 'node-html-parser';

const WIDGET_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'tab', 'menuitem', 'option', 'switch', 'combobox', 'textbox', 'searchbox']);
const BUTTON_TYPES = new Set(['button', 'submit', 'reset', 'image']);
const NOT_RENDERED = new Set(['head', 'script', 'style', 'template', 'noscript', 'svg']);

/** An option of a select. */
export interface StaticOption {
  /** The option's text, whitespace collapsed. */
  readonly text: string;
  /** Its `value` attribute, else its text. */
  readonly value: string;
  /** Whether the page marks it `selected`. */
  readonly selected: boolean;
}

/** An interactive element of a page, in document order. */
export interface StaticElement {
  /** The ARIA role: explicit, else implicit from the tag and type. */
  readonly role: string;
  /** The accessible name, whitespace collapsed, at most 80 characters. */
  readonly name: string;
  /** The tag name, lower case. */
  readonly tag: string;
  /** An input's type, lower case (`text` when absent). */
  readonly type?: string;
  /** The form field's `name` attribute. */
  readonly field?: string;
  /** A field's value as the page sets it. */
  readonly value?: string;
  /** A select's options, in order. */
  readonly options?: readonly StaticOption[];
  /** A checkbox's or radio's `checked` as the page sets it. */
  readonly checked?: boolean;
  /** A link's `href` as written. */
  readonly href?: string;
  /** The element itself, for callers that follow forms. */
  readonly node: HTMLElement;
}

/** Whitespace collapsed and trimmed. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function isElement(node: Node): node is HTMLElement {
  return node.nodeType === 1;
}

function hiddenByStyle(el: HTMLElement): boolean {
  const style = (el.getAttribute('style') ?? '').toLowerCase().replace(/\s+/g, '');
  return style.includes('display:none') || style.includes('visibility:hidden');
}

/** The role of an element, or `undefined` when it is not interactive. */
function roleOf(el: HTMLElement): string | undefined {
  const tag = el.tagName.toLowerCase();
  const explicit = (el.getAttribute('role') ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  const type = (el.getAttribute('type') ?? 'text').toLowerCase();
  let implicit: string | undefined;
  if (tag === 'a' && el.hasAttribute('href')) implicit = 'link';
  else if (tag === 'button' || tag === 'summary') implicit = 'button';
  else if (tag === 'input') {
    if (type === 'hidden') return undefined;
    implicit = BUTTON_TYPES.has(type) ? 'button' : type === 'checkbox' ? 'checkbox' : type === 'radio' ? 'radio'
      : type === 'search' ? 'searchbox' : type === 'number' ? 'spinbutton' : 'textbox';
  } else if (tag === 'textarea') implicit = 'textbox';
  else if (tag === 'select') implicit = 'combobox';
  if (implicit) return explicit || implicit;
  return WIDGET_ROLES.has(explicit) ? explicit : undefined;
}

// The first `<label for=id>` of the page in document order: one scan of its labels, made when first needed.
function labelLookup(root: HTMLElement): (id: string) => HTMLElement | undefined {
  let byFor: Map<string, HTMLElement> | undefined;
  return (id) => {
    if (!byFor) {
      byFor = new Map();
      for (const label of root.querySelectorAll('label')) {
        const target = label.getAttribute('for');
        if (target !== undefined && !byFor.has(target)) byFor.set(target, label);
      }
    }
    return byFor.get(id);
  };
}

/** The page an element is named in: its root, and its labels by `for`. */
interface NamingScope {
  readonly root: HTMLElement;
  readonly labelFor: (id: string) => HTMLElement | undefined;
}

function labelText(el: HTMLElement, scope: NamingScope): string {
  const id = el.getAttribute('id');
  if (id) {
    const label = scope.labelFor(id);
    if (label) return collapse(label.text);
  }
  for (let p = el.parentNode; p; p = p.parentNode) {
    if (p.tagName?.toLowerCase() === 'label') return collapse(p.text);
  }
  return '';
}

function nameOf(el: HTMLElement, role: string, scope: NamingScope): string {
  const tag = el.tagName.toLowerCase();
  const aria = collapse(el.getAttribute('aria-label') ?? '');
  if (aria) return aria;
  const ids = (el.getAttribute('aria-labelledby') ?? '').trim();
  if (ids) {
    const text = collapse(ids.split(/\s+/).map((i) => scope.root.getElementById(i)?.text ?? '').join(' '));
    if (text) return text;
  }
  const type = (el.getAttribute('type') ?? '').toLowerCase();
  const isField = (tag === 'input' && !BUTTON_TYPES.has(type)) || tag === 'select' || tag === 'textarea';
  if (isField) {
    const label = labelText(el, scope);
    if (label) return label;
    const ph = collapse(el.getAttribute('placeholder') ?? '');
    if (ph) return ph;
    return collapse(el.getAttribute('title') ?? '');
  }
  const text = tag === 'input' ? collapse(el.getAttribute('value') ?? '') : collapse(el.text);
  if (text) return text;
  const title = collapse(el.getAttribute('title') ?? '');
  if (title) return title;
  const img = el.querySelector('img');
  return collapse(img?.getAttribute('alt') ?? '') || (role === 'button' && tag === 'input' && type === 'submit' ? 'Submit' : '');
}

function optionsOf(select: HTMLElement): StaticOption[] {
  return select.querySelectorAll('option').map((o) => ({
    text: collapse(o.text),
    value: o.getAttribute('value') ?? collapse(o.text),
    selected: o.hasAttribute('selected'),
  }));
}

/** The interactive elements of a parsed page, in document order. */
export function scanElements(root: HTMLElement): StaticElement[] {
  const out: StaticElement[] = [];
  const scope: NamingScope = { root, labelFor: labelLookup(root) };
  const visit = (el: HTMLElement): void => {
    const tag = el.tagName?.toLowerCase() ?? '';
    if (NOT_RENDERED.has(tag) || el.hasAttribute('hidden') || hiddenByStyle(el)) return;
    const role = tag ? roleOf(el) : undefined;
    if (role) {
      const type = tag === 'input' ? (el.getAttribute('type') ?? 'text').toLowerCase() : undefined;
      const field = el.getAttribute('name');
      const options = tag === 'select' ? optionsOf(el) : undefined;
      let value: string | undefined;
      if (tag === 'textarea') value = el.text;
      else if (tag === 'select') value = (options?.find((o) => o.selected) ?? options?.[0])?.value;
      else if (tag === 'input') value = el.getAttribute('value') ?? (type === 'checkbox' || type === 'radio' ? 'on' : '');
      out.push({
        role,
        name: nameOf(el, role, scope).slice(0, 80),
        tag,
        ...(type ? { type } : {}),
        ...(field ? { field } : {}),
        ...(value !== undefined ? { value } : {}),
        ...(options ? { options } : {}),
        ...(type === 'checkbox' || type === 'radio' ? { checked: el.hasAttribute('checked') } : {}),
        ...(tag === 'a' && el.hasAttribute('href') ? { href: el.getAttribute('href') } : {}),
        node: el,
      });
    }
    if (tag === 'details' && !el.hasAttribute('open')) {
      const summary = el.childNodes.find((c): c is HTMLElement => isElement(c) && c.tagName.toLowerCase() === 'summary');
      if (summary) visit(summary);
      return;
    }
    for (const child of el.childNodes) if (isElement(child)) visit(child);
  };
  visit(root);
  return out;
}

/** Parses a page's HTML (a lenient HTML parser; comments dropped). */
export function parseHtml(html: string): HTMLElement {
  return parse(html, { comment: false, blockTextElements: { script: true, style: true, noscript: true, pre: true, textarea: true } });
}

/** The interactive elements of a page's HTML, in document order. */
export function pageElements(html: string): StaticElement[] {
  return scanElements(parseHtml(html));
}

/** The `<title>` of a parsed page, whitespace collapsed. */
export function pageTitle(root: HTMLElement): string {
  return collapse(root.querySelector('title')?.text ?? '');
}
