/**
 * HTML building with escaping by default: `html` tagged templates escape every interpolated value unless it is
 * already {@link SafeHtml} (the output of another `html` template or of {@link raw}).
 * @module
 */
// One escaping for the sandbox's pages and the run report.
import { escapeHtml } from 'miniweb-taskgen/toolkit';

/** A piece of HTML that is already safe to insert. */
export class SafeHtml {
  constructor(
    /** The markup, trusted to be safe. */
    readonly value: string,
  ) {}
  /** The markup, so that a `SafeHtml` reads as its text wherever a string is expected. */
  toString(): string {
    return this.value;
  }
}

/** Marks trusted markup as safe (never call it on user input). */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/** What may be interpolated: text (escaped), numbers, safe HTML, lists of these; `null`, `undefined`, `false` vanish. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false || value === true) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map((v: HtmlValue) => render(v)).join('');
  return escapeHtml(String(value));
}

/** The `html` tag: `html\`<p>${userText}</p>\`` escapes `userText`. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return new SafeHtml(out);
}

/** `selected`/`checked`/`disabled` style boolean attributes. */
export function attr(name: string, on: boolean): SafeHtml {
  return new SafeHtml(on ? ` ${name}` : '');
}
