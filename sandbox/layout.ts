/**
 * The shared page shell and form widgets of sandbox sites. Every widget gives its control a clear accessible
 * name (a `<label>`, a legend or an `aria-label`), as the agent harness and the oracles name elements by it.
 * @module
 */
import { attr, html, raw, type HtmlValue, type SafeHtml } from './html';
import type { NavLink, SearchBox, SiteInfo } from './template';

const CSS = `
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f6f7f9}
header{background:#1f3a5f;color:#fff;padding:10px 24px;display:flex;gap:20px;align-items:center;flex-wrap:wrap}
header a{color:#fff;text-decoration:none}header .brand{font-weight:700;font-size:19px;margin-right:8px}
header nav{display:flex;gap:14px;flex-wrap:wrap}header form{margin-left:auto;display:flex;gap:6px}
main{max-width:1080px;margin:20px auto;background:#fff;padding:20px 28px;border-radius:8px;box-shadow:0 1px 3px #0002}
h1{font-size:24px;margin:0 0 14px}h2{font-size:18px;margin:20px 0 8px}a{color:#0b5cad}
table{border-collapse:collapse;width:100%;margin:8px 0}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e3e6ea;vertical-align:top}
.field{margin:10px 0}.field label,.field legend{display:block;font-weight:600;margin-bottom:3px}
input,select,textarea{font:inherit;padding:5px 8px;border:1px solid #b8bec6;border-radius:5px}textarea{width:100%;min-height:90px}
button,.button{font:inherit;padding:6px 14px;border-radius:5px;border:1px solid #1f3a5f;background:#1f3a5f;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1f3a5f}button.danger{background:#b42318;border-color:#b42318}
fieldset{border:1px solid #dde1e6;border-radius:6px;margin:10px 0}.error{color:#b42318}.muted{color:#667}
.flash{background:#e6f4ea;border:1px solid #9bd3ae;padding:8px 12px;border-radius:6px;margin-bottom:12px}
.errors{background:#fdecea;border:1px solid #f3aaa5;padding:8px 12px;border-radius:6px;margin-bottom:12px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:14px}
.card{border:1px solid #e3e6ea;border-radius:8px;padding:12px}.row{display:flex;gap:12px;align-items:flex-end;flex-wrap:wrap}
.pager{display:flex;gap:8px;margin:14px 0}.badge{background:#eef2f7;border-radius:10px;padding:1px 8px;font-size:13px}
footer{text-align:center;color:#778;font-size:13px;margin:24px}`;

/** The HTML document of a page in a site's layout. */
export function layout(input: {
  site: SiteInfo;
  nav: readonly NavLink[];
  search?: SearchBox | undefined;
  searchValue?: string;
  title: string;
  body: SafeHtml;
  flashes?: readonly string[];
}): string {
  const { site } = input;
  const link = (p: string): string => site.base + p;
  const search = input.search
    ? html`<form role="search" method="get" action="${link(input.search.action)}">
<input type="search" name="${input.search.param}" aria-label="${input.search.label}" placeholder="${input.search.label}" value="${input.searchValue ?? ''}">
<button type="submit">Search</button></form>`
    : '';
  const flashes = (input.flashes ?? []).map((m) => html`<div class="flash" role="status">${m}</div>`);
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="application-name" content="${site.title}">
<title>${input.title.includes(site.title) ? input.title : `${input.title} · ${site.title}`}</title><style>${raw(CSS)}</style></head>
<body><header><a class="brand" href="${site.home}">${site.title}</a>
<nav aria-label="Main">${input.nav.map((n) => html`<a href="${link(n.path)}">${n.label}</a>`)}</nav>${search}</header>
<main>${flashes}<h1>${input.title}</h1>
${input.body}</main>
<footer>${site.title} · a sandbox site (${site.name}) · data as of ${site.today}</footer></body></html>`.value;
}

/** A plain error page outside any site (unknown site, bad request before routing). */
export function bareErrorPage(status: number, title: string, message: string): string {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>${raw(CSS)}</style></head><body><main><h1>${title}</h1><p>${message}</p>
<p><a href="/">All sandbox sites</a></p><p class="muted">Error ${status}</p></main></body></html>`.value;
}

function fieldId(name: string): string {
  return `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

function errorLine(error: string | undefined): SafeHtml | '' {
  return error ? html`<div class="error" role="alert">${error}</div>` : '';
}

/** A labelled input (`type` text, email, number, date, time, tel, search...). */
export function textField(f: {
  label: string;
  name: string;
  value?: string | number | null;
  type?: string;
  required?: boolean;
  error?: string;
  placeholder?: string;
  min?: number;
  max?: number;
  step?: string;
}): SafeHtml {
  const id = fieldId(f.name);
  const extra = [
    f.min !== undefined ? html` min="${f.min}"` : '',
    f.max !== undefined ? html` max="${f.max}"` : '',
    f.step !== undefined ? html` step="${f.step}"` : '',
    f.placeholder ? html` placeholder="${f.placeholder}"` : '',
  ];
  return html`<div class="field"><label for="${id}">${f.label}</label>
<input id="${id}" type="${f.type ?? 'text'}" name="${f.name}" value="${f.value ?? ''}"${attr('required', !!f.required)}${extra}>${errorLine(f.error)}</div>`;
}

/** A labelled textarea. */
export function textArea(f: { label: string; name: string; value?: string | null; error?: string; rows?: number }): SafeHtml {
  const id = fieldId(f.name);
  return html`<div class="field"><label for="${id}">${f.label}</label>
<textarea id="${id}" name="${f.name}" rows="${f.rows ?? 5}">${f.value ?? ''}</textarea>${errorLine(f.error)}</div>`;
}

/** An option of a select or radio group. */
export interface Choice {
  /** The value submitted. */
  readonly value: string;
  /** The text shown. */
  readonly text: string;
}

/** A labelled select. */
export function selectField(f: {
  label: string;
  name: string;
  options: readonly Choice[];
  value?: string | null;
  error?: string;
}): SafeHtml {
  const id = fieldId(f.name);
  const options = f.options.map(
    (o) => html`<option value="${o.value}"${attr('selected', o.value === (f.value ?? ''))}>${o.text}</option>`,
  );
  return html`<div class="field"><label for="${id}">${f.label}</label>
<select id="${id}" name="${f.name}">${options}</select>${errorLine(f.error)}</div>`;
}

/** A checkbox wrapped in its label. */
export function checkbox(f: { label: string; name: string; value?: string; checked?: boolean }): SafeHtml {
  return html`<div class="field"><label><input type="checkbox" name="${f.name}" value="${f.value ?? '1'}"${attr('checked', !!f.checked)}> ${f.label}</label></div>`;
}

/** A group of radio buttons under a legend, each wrapped in its label. */
export function radioGroup(f: {
  legend: string;
  name: string;
  options: readonly Choice[];
  value?: string | null;
  error?: string;
}): SafeHtml {
  const radios = f.options.map(
    (o) =>
      html`<label><input type="radio" name="${f.name}" value="${o.value}"${attr('checked', o.value === f.value)}> ${o.text}</label> `,
  );
  return html`<fieldset class="field"><legend>${f.legend}</legend>${radios}${errorLine(f.error)}</fieldset>`;
}

/** A submit button; `label` is its accessible name unless `text` differs (then `label` goes in aria-label). */
export function submit(text: string, opts: { label?: string; name?: string; value?: string; variant?: 'secondary' | 'danger' } = {}): SafeHtml {
  return html`<button type="submit"${opts.variant ? html` class="${opts.variant}"` : ''}${opts.name ? html` name="${opts.name}" value="${opts.value ?? ''}"` : ''}${opts.label && opts.label !== text ? html` aria-label="${opts.label}"` : ''}>${text}</button>`;
}

/** A POST form around `fields`. */
export function postForm(action: string, fields: HtmlValue, opts: { label?: string; inline?: boolean } = {}): SafeHtml {
  return html`<form method="post" action="${action}"${opts.label ? html` aria-label="${opts.label}"` : ''}${opts.inline ? raw(' style="display:inline"') : ''}>${fields}</form>`;
}

/** A summary of form errors at the top of a form. */
export function errorSummary(errors: Record<string, string>): SafeHtml | '' {
  const list = Object.values(errors);
  if (!list.length) return '';
  return html`<div class="errors" role="alert"><strong>Please fix the following:</strong><ul>${list.map((e) => html`<li>${e}</li>`)}</ul></div>`;
}

/** Pagination links: "Previous page", "Page N", "Next page" (accessible names are unique on the page). */
export function pager(input: { page: number; pages: number; href: (page: number) => string }): SafeHtml | '' {
  const { page, pages } = input;
  if (pages <= 1) return '';
  const items: SafeHtml[] = [];
  if (page > 1) items.push(html`<a href="${input.href(page - 1)}">Previous page</a>`);
  for (let p = 1; p <= pages; p++) {
    items.push(
      p === page
        ? html`<span aria-current="page" class="badge">Page ${p}</span>`
        : html`<a href="${input.href(p)}" aria-label="Page ${p}">${p}</a>`,
    );
  }
  if (page < pages) items.push(html`<a href="${input.href(page + 1)}">Next page</a>`);
  return html`<nav class="pager" aria-label="Pagination">${items}</nav>`;
}

/** How many pages `total` items fill at `size` a page: at least 1, so an empty list still has its first page. */
export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/** Page `page` (1-based) of a list: its items, the page count and the number of its first item (0 for an empty list). */
export interface ListPage<T> {
  /** The items on this page. */
  readonly items: T[];
  /** Pages in all (at least 1). */
  readonly pages: number;
  /** 1-based position of this page's first item in the whole list; 0 for an empty list. */
  readonly first: number;
}

/** Page `page` of `list` at `size` items a page; `undefined` when there is no such page (callers answer 404). */
export function paginate<T>(list: readonly T[], page: number, size: number): ListPage<T> | undefined {
  const pages = pageCount(list.length, size);
  if (page > pages) return undefined;
  return { items: list.slice((page - 1) * size, page * size), pages, first: list.length ? (page - 1) * size + 1 : 0 };
}

/** `$1,234.50` */
export function money(amount: number, currency = '$'): string {
  const sign = amount < 0 ? '-' : '';
  return `${sign}${currency}${Math.abs(amount).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** Paragraphs of a plain-text body: blank lines split paragraphs, single newlines become `<br>`. */
export function bodyHtml(text: string): SafeHtml[] {
  return text.split(/\n{2,}/).map((p) => html`<p>${p.split('\n').map((line, i) => (i ? html`<br>${line}` : line))}</p>`);
}

/** `4.3 ★ (12 reviews)` or `No reviews yet`, for an average of star ratings. */
export function ratingText(r: { readonly rating: number | null; readonly reviews: number }): string {
  if (!r.reviews) return 'No reviews yet';
  return `${(r.rating ?? 0).toFixed(1)} ★ (${r.reviews} review${r.reviews === 1 ? '' : 's'})`;
}

/** `12 threads`, `1 reply` (`many` defaults to `one` + s). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** An accessible name as the harness sees it: whitespace collapsed, at most 80 characters (clipped with an ellipsis). */
export function clip(name: string): string {
  const text = name.replace(/\s+/g, ' ').trim();
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** A 1-based page number from a query value; `undefined` when it is not a positive integer. */
export function pageNumber(value: string): number | undefined {
  if (value === '') return 1;
  if (!/^\d{1,6}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= 1 ? n : undefined;
}

/** A positive integer id from a path or form value; `undefined` when it is not one. */
export function idOf(raw: string | undefined): number | undefined {
  return raw && /^\d{1,9}$/.test(raw) ? Number(raw) : undefined;
}
