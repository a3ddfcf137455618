/**
 * Horizontal stacked bars: one row per category (a site, a task kind, a stage and model), one segment per series,
 * the row's total at its end, and optionally a reference line (the budget, a fair share). Segments of zero are not
 * drawn; each drawn segment is a `bar` mark whose hover gives the category, the series and the value.
 * @module
 */
import { xAxis } from './axis';
import { linear, niceMax, ticks } from './scale';
import { COLORS, clipLabel, count, esc, mark, px, svg, text, type Series } from './svg';

/** One row of a {@link stackedBars} chart. */
export interface BarRow {
  /** The category. */
  readonly label: string;
  /** One value per series, in the series' order. */
  readonly values: readonly number[];
  /** What the row's end says; default the total. */
  readonly note?: string;
}

/** Options of {@link stackedBars}. */
export interface StackedBarsOptions {
  readonly rows: readonly BarRow[];
  readonly series: readonly Series[];
  /** The values' unit, in hovers and under the axis (`episodes`, `steps`). */
  readonly unit: string;
  /** A vertical line across the rows, such as the budget. */
  readonly reference?: { readonly value: number; readonly label: string };
  /** Width of the whole chart. Default 760. */
  readonly width?: number;
  /** How a value is written in hovers. Default a count. */
  readonly format?: (value: number) => string;
}

const ROW = 17;
const BAR = 12;
const LEFT = 150;
const RIGHT = 110;
const TOP = 6;

/** The SVG of a horizontal stacked bar chart. */
export function stackedBars(o: StackedBarsOptions): string {
  const width = o.width ?? 760;
  const format = o.format ?? count;
  const top = TOP + (o.reference ? 14 : 0);
  const bottom = top + o.rows.length * ROW;
  const totals = o.rows.map((r) => r.values.reduce((a, b) => a + b, 0));
  const max = niceMax(Math.max(1e-9, ...totals, o.reference?.value ?? 0));
  const x = linear([0, max], [LEFT, width - RIGHT]);
  const parts = [xAxis({ values: ticks(max), x, top, bottom, format: (v) => shortNumber(v), title: o.unit })];
  o.rows.forEach((row, i) => {
    const y = top + i * ROW + (ROW - BAR) / 2;
    parts.push(`<g>${text(LEFT - 6, y + BAR - 2, clipLabel(row.label), { anchor: 'end' })}<title>${esc(row.label)}</title></g>`);
    let at = 0;
    row.values.forEach((value, s) => {
      if (!(value > 0)) return;
      const series = o.series[s]!;
      const x0 = x(at);
      const w = Math.max(0.5, x(at + value) - x0);
      at += value;
      const share = totals[i]! > 0 ? ` (${((100 * value) / totals[i]!).toFixed(1)}%)` : '';
      parts.push(
        mark('bar', `${row.label}: ${series.name} ${format(value)} ${o.unit}${share}`, `<rect x="${px(x0)}" y="${px(y)}" width="${px(w)}" height="${BAR}" fill="${esc(series.color)}"/>`, {
          'data-series': series.name,
        }),
      );
    });
    parts.push(text(x(at) + 4, y + BAR - 2, row.note ?? format(totals[i]!), { cls: 'axis' }));
  });
  if (o.reference) {
    const rx = x(o.reference.value);
    parts.push(
      mark(
        'reference',
        `${o.reference.label}: ${format(Math.round(o.reference.value))} ${o.unit}`,
        `<line x1="${px(rx)}" x2="${px(rx)}" y1="${px(top - 4)}" y2="${px(bottom)}" stroke="${COLORS.ink}" stroke-dasharray="4 3" stroke-width="1.5"/>` +
          text(rx, top - 6, `${o.reference.label} ${format(Math.round(o.reference.value))}`, { anchor: 'middle', cls: 'bold' }),
      ),
    );
  }
  return svg(width, bottom + 32, parts.join(''), `${o.series.map((s) => s.name).join(', ')} per ${o.unit}`);
}

/** A tick value, short: `1.2k`, `3M`. */
export function shortNumber(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (a >= 1e4) return `${+(v / 1e3).toFixed(1)}k`;
  return String(+v.toFixed(2));
}
