/**
 * Curves of an estimate against a whole-number x (pass@k against k): one line per series, a point per x with its
 * 95% interval as a whisker, each point a hoverable mark; the highlighted series (all tasks) drawn last, in ink.
 * @module
 */
import { xAxis, yAxis } from './axis';
import { linear } from './scale';
import { COLORS, clipLabel, mark, px, svg, text } from './svg';

/** One curve: its points in x order. */
export interface CurveSeries {
  readonly label: string;
  readonly points: ReadonlyArray<{ readonly x: number; readonly value: number; readonly low: number; readonly high: number; readonly n: number }>;
  /** Drawn bold, in ink (the overall curve). */
  readonly highlight?: boolean;
}

/** Options of {@link curvePlot}. */
export interface CurveOptions {
  readonly series: readonly CurveSeries[];
  readonly xTitle: string;
  readonly yTitle: string;
  /** What `n` of a point counts, for its hover (`tasks`). */
  readonly counted: string;
  /** Default 560. */
  readonly width?: number;
}

const LEFT = 60;
const TOP = 16;
const PLOT = 240;
const PALETTE = [COLORS.blue, COLORS.ok, COLORS.warn, COLORS.bad, COLORS.lightBlue, COLORS.muted];

/** The SVG of the curves on a 0..1 y axis. */
export function curvePlot(o: CurveOptions): string {
  const width = o.width ?? 560;
  const right = width - 130;
  const bottom = TOP + PLOT;
  const xs = o.series.flatMap((s) => s.points.map((p) => p.x));
  const x0 = Math.min(1, ...xs);
  const x1 = Math.max(x0 + 1, ...xs);
  const x = linear([x0, x1], [LEFT + 10, right - 10]);
  const y = linear([0, 1], [bottom, TOP]);
  const xTicks = Array.from({ length: x1 - x0 + 1 }, (_, i) => x0 + i);
  const parts = [
    xAxis({ values: xTicks, x, top: TOP, bottom, title: o.xTitle }),
    yAxis({ values: [0, 0.25, 0.5, 0.75, 1], y, left: LEFT, right, format: (v) => String(v), title: o.yTitle }),
  ];
  const ordered = [...o.series.filter((s) => !s.highlight), ...o.series.filter((s) => s.highlight)];
  ordered.forEach((s, i) => {
    const color = s.highlight ? COLORS.ink : PALETTE[i % PALETTE.length]!;
    const path = s.points.map((p, j) => `${j ? 'L' : 'M'}${px(x(p.x))} ${px(y(p.value))}`).join(' ');
    parts.push(`<path d="${path}" fill="none" stroke="${color}" stroke-width="${s.highlight ? 2.5 : 1.5}"/>`);
    for (const p of s.points) {
      const cx = x(p.x);
      const shape =
        `<line x1="${px(cx)}" x2="${px(cx)}" y1="${px(y(p.low))}" y2="${px(y(p.high))}" stroke="${color}" stroke-opacity=".5"/>` +
        `<circle cx="${px(cx)}" cy="${px(y(p.value))}" r="${s.highlight ? 4 : 3}" fill="${s.highlight ? COLORS.ink : '#fff'}" stroke="${color}" stroke-width="1.5"/>`;
      const f = (v: number) => v.toFixed(3);
      parts.push(mark('point', `${s.label}: ${o.yTitle.replace('k', String(p.x))} ${f(p.value)} (95% ${f(p.low)}-${f(p.high)}, ${p.n} ${o.counted})`, shape));
    }
    const last = s.points.at(-1);
    if (last) parts.push(text(x(last.x) + 8, y(last.value) + 4, clipLabel(s.label, 16), { cls: s.highlight ? 'bold' : undefined }));
  });
  return svg(width, bottom + 34, parts.join(''), `${o.yTitle} against ${o.xTitle}`);
}
