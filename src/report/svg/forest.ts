/**
 * A forest plot of rates on [0, 1]: one panel per measure (agreement, precision, recall), one row per variant, each
 * estimate a dot on its 95% interval (an `estimate` mark), the baseline's row in bold with its value as a dashed
 * line (a `reference` mark) in each panel. Compact, the same drawing is a small multiple (one per site or kind).
 * @module
 */
import { xAxis } from './axis';
import { linear } from './scale';
import { COLORS, clipLabel, count, esc, mark, px, svg, text } from './svg';

/** A rate, its 95% interval (`null`: no observations) and how many episodes it counts. */
export interface Estimate {
  readonly value: number;
  readonly ci: readonly [number, number] | null;
  readonly n: number;
}

/** A row: a variant (or a group), with one estimate per panel (`null` when there is none). */
export interface ForestRow {
  readonly label: string;
  /** The baseline: drawn bold, its values drawn as reference lines. */
  readonly baseline?: boolean;
  readonly estimates: ReadonlyArray<Estimate | null>;
}

/** Options of {@link forestPlot}. */
export interface ForestOptions {
  /** The panels' measures, such as `agreement`. */
  readonly panels: readonly string[];
  readonly rows: readonly ForestRow[];
  /** A heading over the panels (the site of a small multiple). */
  readonly heading?: string;
  /** Small: for a grid of small multiples. */
  readonly compact?: boolean;
}

const rate = (x: number) => x.toFixed(3);

/** An estimate in words: `0.812 [0.703, 0.889], n=40`. */
export function describeEstimate(e: Estimate): string {
  return `${rate(e.value)} ${e.ci ? `[${rate(e.ci[0])}, ${rate(e.ci[1])}]` : '[no data]'}, n=${count(e.n)}`;
}

/** The SVG of a forest plot. */
export function forestPlot(o: ForestOptions): string {
  const compact = o.compact ?? false;
  const row = compact ? 13 : 22;
  const left = compact ? 92 : 150;
  const panelWidth = compact ? 88 : 190;
  const gap = compact ? 22 : 40;
  const top = (o.heading ? 16 : 0) + 16;
  const bottom = top + o.rows.length * row;
  const width = left + o.panels.length * (panelWidth + gap);
  const parts: string[] = [];
  if (o.heading) parts.push(text(4, 12, clipLabel(o.heading, compact ? 34 : 60), { cls: 'bold' }));
  o.rows.forEach((r, i) => {
    const y = top + i * row + row / 2;
    parts.push(`<g>${text(left - 6, y + 4, clipLabel(r.label, compact ? 14 : 22), { anchor: 'end', cls: r.baseline ? 'bold' : undefined })}<title>${esc(r.label)}${r.baseline ? ' (baseline)' : ''}</title></g>`);
  });
  o.panels.forEach((panel, p) => {
    const x0 = left + p * (panelWidth + gap);
    const x = linear([0, 1], [x0, x0 + panelWidth]);
    parts.push(text(x0 + panelWidth / 2, top - 5, panel, { anchor: 'middle', cls: 'axis-title' }));
    parts.push(xAxis({ values: compact ? [0, 0.5, 1] : [0, 0.25, 0.5, 0.75, 1], x, top, bottom, format: (v) => String(v) }));
    const base = o.rows.find((r) => r.baseline)?.estimates[p];
    if (base?.ci) {
      parts.push(
        mark('reference', `baseline ${panel}: ${describeEstimate(base)}`, `<line x1="${px(x(base.value))}" x2="${px(x(base.value))}" y1="${px(top)}" y2="${px(bottom)}" stroke="${COLORS.muted}" stroke-dasharray="3 3"/>`),
      );
    }
    o.rows.forEach((r, i) => {
      const e = r.estimates[p];
      const y = top + i * row + row / 2;
      if (!e?.ci) {
        parts.push(text(x0 + panelWidth / 2, y + 4, 'no data', { anchor: 'middle', cls: 'axis', size: compact ? 9 : undefined }));
        return;
      }
      // colours and strokes come from the page's stylesheet (PLOT_CSS): small multiples repeat this hundreds of times
      const shape =
        `<line x1="${px(x(e.ci[0]))}" x2="${px(x(e.ci[1]))}" y1="${px(y)}" y2="${px(y)}"/>` +
        `<circle cx="${px(x(e.value))}" cy="${px(y)}" r="${compact ? 2.5 : 4}"/>`;
      parts.push(mark('estimate', `${r.label} ${panel}: ${describeEstimate(e)}`, shape, { class: r.baseline ? 'est base' : 'est', 'data-series': panel }));
    });
  });
  return svg(width, bottom + (compact ? 16 : 20), parts.join(''), `${o.panels.join(', ')} with 95% intervals${o.heading ? ` for ${o.heading}` : ''}`, compact ? 'compact' : '');
}
