/**
 * A scatter of two rates with their 95% intervals as whiskers (precision against yield): one `point` mark per
 * item, labelled beside it, the axes zoomed to the data with a margin so close variants stay apart.
 * @module
 */
import { xAxis, yAxis } from './axis';
import { linear, ticks } from './scale';
import { COLORS, clipLabel, mark, px, svg, text } from './svg';
import { describeEstimate, type Estimate } from './forest';

/** One point: an item with its two estimates. */
export interface ScatterPoint {
  readonly label: string;
  readonly x: Estimate;
  readonly y: Estimate;
  /** Drawn filled and bold (the baseline). */
  readonly highlight?: boolean;
}

/** Options of {@link scatterPlot}. */
export interface ScatterOptions {
  readonly points: readonly ScatterPoint[];
  readonly xTitle: string;
  readonly yTitle: string;
  /** Default 520. */
  readonly width?: number;
}

const LEFT = 60;
const TOP = 22;
const PLOT = 300;

function domain(values: readonly number[]): [number, number] {
  if (values.length === 0) return [0, 1];
  const lo = Math.max(0, Math.floor((Math.min(...values) - 0.05) * 10) / 10);
  const hi = Math.min(1, Math.ceil((Math.max(...values) + 0.05) * 10) / 10);
  return hi - lo < 0.2 ? [Math.max(0, hi - 0.2), Math.max(0.2, hi)] : [lo, hi];
}

const within = (values: readonly number[], lo: number, hi: number) => values.filter((v) => v >= lo - 1e-9 && v <= hi + 1e-9);

/** The SVG of a scatter with interval whiskers. */
export function scatterPlot(o: ScatterOptions): string {
  const width = o.width ?? 520;
  const right = width - 120;
  const bottom = TOP + PLOT;
  const spread = (pick: (p: ScatterPoint) => Estimate) => o.points.flatMap((p) => [pick(p).value, ...(pick(p).ci ?? [])]);
  const [x0, x1] = domain(spread((p) => p.x));
  const [y0, y1] = domain(spread((p) => p.y));
  const x = linear([x0, x1], [LEFT, right]);
  const y = linear([y0, y1], [bottom, TOP]);
  const fmt = (v: number) => String(+v.toFixed(2));
  const parts = [
    xAxis({ values: within(ticks(x1, 5, x0), x0, x1), x, top: TOP, bottom, format: fmt, title: o.xTitle }),
    yAxis({ values: within(ticks(y1, 5, y0), y0, y1), y, left: LEFT, right, format: fmt, title: o.yTitle }),
  ];
  // the baseline drawn last, on top; points that fall together get their labels stacked, not overprinted
  const ordered = [...o.points.filter((p) => !p.highlight), ...o.points.filter((p) => p.highlight)];
  const stacked = new Map<string, number>();
  for (const p of ordered) {
    const cx = x(p.x.value);
    const cy = y(p.y.value);
    const at = `${Math.round(cx / 4)},${Math.round(cy / 4)}`;
    const k = stacked.get(at) ?? 0;
    stacked.set(at, k + 1);
    const color = p.highlight ? COLORS.ink : COLORS.blue;
    const whisker = (a: [number, number], b: [number, number]) =>
      `<line x1="${px(a[0])}" y1="${px(a[1])}" x2="${px(b[0])}" y2="${px(b[1])}" stroke="${color}" stroke-opacity=".6"/>`;
    const shape =
      (p.x.ci ? whisker([x(p.x.ci[0]), cy], [x(p.x.ci[1]), cy]) : '') +
      (p.y.ci ? whisker([cx, y(p.y.ci[0])], [cx, y(p.y.ci[1])]) : '') +
      `<circle cx="${px(cx)}" cy="${px(cy)}" r="5" fill="${p.highlight ? COLORS.ink : '#fff'}" stroke="${color}" stroke-width="2"/>` +
      text(cx + 8, cy - 6 + 12 * k, clipLabel(p.label, 18), { cls: p.highlight ? 'bold' : undefined });
    parts.push(mark('point', `${p.label}: ${o.xTitle} ${describeEstimate(p.x)}; ${o.yTitle} ${describeEstimate(p.y)}`, shape));
  }
  return svg(width, bottom + 34, parts.join(''), `${o.yTitle} against ${o.xTitle}`);
}
