/**
 * The charts' common parts: a figure (its id, heading, legend and the SVG), a mark (any shape a reader hovers for
 * its numbers: an SVG `<title>` and a `data-mark` attribute, which tests count), and number formats. Charts are
 * static inline SVG: no script, no fonts, nothing loaded.
 * @module
 */
import { escapeHtml } from '../escape';

/** Text made safe for SVG content and quoted attributes. */
export const esc = (text: string | number): string => escapeHtml(String(text));

/** A count as people read it: `7,280`. */
export const count = (n: number): string => n.toLocaleString('en-US');

/** A coordinate, short: at most one decimal. */
export const px = (n: number): string => String(Math.round(n * 10) / 10);

/** A series of a chart: its name in the legend and its colour. */
export interface Series {
  /** Shown in the legend and in every mark's hover text. */
  readonly name: string;
  /** A CSS colour. */
  readonly color: string;
}

/** The palette: verdicts and outcomes keep one colour everywhere. */
export const COLORS = Object.freeze({
  ok: '#2e8b57',
  bad: '#c0392b',
  none: '#aab2bf',
  warn: '#d98e04',
  blue: '#3a6ea5',
  lightBlue: '#9cc0e6',
  relabel: '#7b5ea7',
  lightRelabel: '#c9b8e2',
  ink: '#1d2330',
  muted: '#5b6475',
  grid: '#e3e6ec',
});

/**
 * A mark: `shape` (SVG elements without the closing `</g>`) wrapped in a group that carries `data-mark="<kind>"`
 * and a `<title>`, so hovering shows its numbers and tests can count it.
 */
export function mark(kind: string, title: string, shape: string, attrs: Readonly<Record<string, string>> = {}): string {
  const extra = Object.entries(attrs).map(([k, v]) => ` ${k}="${esc(v)}"`).join('');
  return `<g data-mark="${esc(kind)}"${extra}><title>${esc(title)}</title>${shape}</g>`;
}

/** An SVG `<text>` element. */
export function text(x: number, y: number, body: string, options: { anchor?: 'start' | 'middle' | 'end'; cls?: string; size?: number } = {}): string {
  const anchor = options.anchor && options.anchor !== 'start' ? ` text-anchor="${options.anchor}"` : '';
  const cls = options.cls ? ` class="${options.cls}"` : '';
  const size = options.size ? ` font-size="${options.size}"` : '';
  return `<text x="${px(x)}" y="${px(y)}"${anchor}${cls}${size}>${esc(body)}</text>`;
}

/** `label` cut to `max` characters with an ellipsis (the full text stays in the mark's hover). */
export function clipLabel(label: string, max = 22): string {
  return label.length <= max ? label : `${label.slice(0, max - 1)}…`;
}

/** An `<svg>` element of the given size that scales down with the page. */
export function svg(width: number, height: number, body: string, label: string, cls = ''): string {
  return `<svg class="chart${cls ? ` ${cls}` : ''}" viewBox="0 0 ${px(width)} ${px(height)}" width="${px(width)}" height="${px(height)}" role="img" aria-label="${esc(label)}">${body}</svg>`;
}

/** The legend: a swatch and a name per series. */
export function legend(series: readonly Series[]): string {
  if (series.length === 0) return '';
  const items = series.map((s) => `<li><span class="swatch" style="background:${esc(s.color)}"></span>${esc(s.name)}</li>`);
  return `<ul class="legend">${items.join('')}</ul>`;
}

/** What a {@link figure} holds. */
export interface FigureParts {
  /** The figure's element id (`fig-...`): tests and links find it by this. */
  readonly id: string;
  /** The heading above the chart. */
  readonly title: string;
  /** A sentence under the heading: what is drawn and where the numbers are. */
  readonly note?: string;
  /** The legend's series, if any. */
  readonly series?: readonly Series[];
  /** The chart (one or more `<svg>`). */
  readonly body: string;
}

/** A chart as a `<figure>` with its id, heading, note and legend. */
export function figure(parts: FigureParts): string {
  const note = parts.note ? `<p class="muted">${esc(parts.note)}</p>` : '';
  return `<figure class="plot" id="${esc(parts.id)}"><figcaption><strong>${esc(parts.title)}</strong>${note}</figcaption>${legend(parts.series ?? [])}${parts.body}</figure>`;
}

/** The charts' stylesheet, added to a page's `<style>`. */
export const PLOT_CSS = `
figure.plot { margin: 1rem 0 1.5rem; }
figure.plot figcaption p { margin: .1rem 0 .3rem; font-size: .85rem; }
svg.chart { display: block; max-width: 100%; height: auto; font: 11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; fill: ${COLORS.ink}; }
svg.chart .axis { fill: ${COLORS.muted}; }
svg.chart .axis-title { fill: ${COLORS.muted}; font-weight: 600; }
svg.chart .bold { font-weight: 700; }
svg.chart .grid { stroke: ${COLORS.grid}; }
svg.chart .est line { stroke: ${COLORS.blue}; stroke-width: 2; }
svg.chart .est circle { fill: #fff; stroke: ${COLORS.blue}; stroke-width: 1.5; }
svg.chart .est.base line { stroke: ${COLORS.ink}; }
svg.chart .est.base circle { fill: ${COLORS.ink}; stroke: ${COLORS.ink}; }
svg.chart.compact .est line { stroke-width: 1.5; }
svg.chart [data-mark]:hover { opacity: .75; }
svg.chart .group-line:hover path:first-child { stroke: ${COLORS.blue}; stroke-opacity: 1; stroke-width: 2; }
ul.legend { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: .2rem 0 .4rem; padding: 0; font-size: .8rem; color: ${COLORS.muted}; }
ul.legend .swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px; margin-right: .3rem; vertical-align: -1px; }
.multiples { display: flex; flex-wrap: wrap; gap: .5rem 1rem; }
.multiples svg.chart { flex: none; }
details.numbers > summary { cursor: pointer; color: ${COLORS.muted}; font-size: .9rem; }
`;
