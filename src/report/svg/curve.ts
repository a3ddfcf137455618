/**
 * Curves of an estimate against a whole-number x (pass@k against k) for a whole and its groups (all tasks and each
 * site), drawn to read at dozens of groups: the whole as a bold curve with its 95% interval as whiskers; the groups'
 * spread as two bands (lowest to highest, and the middle half between the quartiles); the best and worst group as
 * named curves; every group as a faint line whose hover gives its values. End labels are moved apart, never stacked.
 * @module
 */
import { compareCodePoints } from '../../core/py/text';
import { xAxis, yAxis } from './axis';
import { linear } from './scale';
import { COLORS, clipLabel, esc, mark, px, svg, text } from './svg';

/** One point of a curve. */
export interface CurvePoint {
  readonly x: number;
  readonly value: number;
  /** The 95% interval's ends. */
  readonly low: number;
  readonly high: number;
  /** What the point averages (tasks). */
  readonly n: number;
}

/** One curve: its points in x order. */
export interface CurveSeries {
  readonly label: string;
  readonly points: readonly CurvePoint[];
}

/** Options of {@link curvePlot}. */
export interface CurveOptions {
  /** The whole (all tasks): bold, in ink, with whiskers. */
  readonly overall: CurveSeries;
  /** Its groups (the sites), in any order. */
  readonly groups: readonly CurveSeries[];
  /** What a group is, for hovers (`site`). */
  readonly groupName: string;
  readonly xTitle: string;
  readonly yTitle: string;
  /** What `n` of a point counts, for its hover (`tasks`). */
  readonly counted: string;
  /** Default 560. */
  readonly width?: number;
}

/** The colours of the parts, for the figure's legend. */
export const CURVE_COLORS = Object.freeze({
  overall: COLORS.ink,
  best: COLORS.ok,
  worst: COLORS.bad,
  range: COLORS.lightBlue,
  quartiles: COLORS.blue,
  group: COLORS.muted,
});

const LEFT = 60;
const TOP = 16;
const PLOT = 240;
/** The least distance between two end labels' baselines. */
const LABEL_GAP = 13;
/** At most about this many x ticks. */
const MAX_X_TICKS = 12;

const f3 = (v: number) => v.toFixed(3);

/**
 * The best and worst of `groups`: the highest and lowest first value (pass@1, which every group has and which
 * averages the most tries), ties going to the higher last value, then the name. `null` below two groups.
 */
export function bestAndWorst(groups: readonly CurveSeries[]): { best: CurveSeries; worst: CurveSeries } | null {
  const ranked = groups
    .filter((g) => g.points.length > 0)
    .sort((a, b) => b.points[0]!.value - a.points[0]!.value || b.points.at(-1)!.value - a.points.at(-1)!.value || compareCodePoints(a.label, b.label));
  return ranked.length >= 2 ? { best: ranked[0]!, worst: ranked.at(-1)! } : null;
}

/** The SVG of the curves on a 0..1 y axis. */
export function curvePlot(o: CurveOptions): string {
  const width = o.width ?? 560;
  const right = width - 130;
  const bottom = TOP + PLOT;
  const all = [o.overall, ...o.groups];
  const xs = all.flatMap((s) => s.points.map((p) => p.x));
  const x0 = Math.min(1, ...xs);
  const x1 = Math.max(x0 + 1, ...xs);
  const x = linear([x0, x1], [LEFT + 10, right - 10]);
  const y = linear([0, 1], [bottom, TOP]);
  const step = [1, 2, 5, 10, 20, 50].find((s) => (x1 - x0) / s <= MAX_X_TICKS) ?? 100;
  const xTicks = Array.from({ length: x1 - x0 + 1 }, (_, i) => x0 + i).filter((v) => v === x0 || v % step === 0);
  const parts = [
    xAxis({ values: xTicks, x, top: TOP, bottom, title: o.xTitle }),
    yAxis({ values: [0, 0.25, 0.5, 0.75, 1], y, left: LEFT, right, format: (v) => String(v), title: o.yTitle }),
  ];
  const at = (k: number) => o.yTitle.replace('k', String(k));
  const line = (s: CurveSeries) => s.points.map((p, j) => `${j ? 'L' : 'M'}${px(x(p.x))} ${px(y(p.value))}`).join(' ');

  parts.push(...spreadBands(o, x, y, at));
  // every group a faint line, hovered for its values; a wide transparent stroke makes a thin line easy to hover
  for (const g of [...o.groups].sort((a, b) => compareCodePoints(a.label, b.label))) {
    if (g.points.length === 0) continue;
    const values = g.points.map((p) => `${at(p.x)} ${f3(p.value)}`).join(', ');
    const d = line(g);
    parts.push(mark('group', `${g.label} (${g.points[0]!.n} ${o.counted}): ${values}`,
      `<path d="${d}" fill="none" stroke="${CURVE_COLORS.group}" stroke-opacity=".3" stroke-width="1"/><path d="${d}" fill="none" stroke="transparent" stroke-width="6"/>`,
      { class: 'group-line', 'data-series': g.label }));
  }

  const ends = bestAndWorst(o.groups);
  const named: Array<{ series: CurveSeries; color: string; bold: boolean; role: string }> = [
    ...(ends ? [{ series: ends.worst, color: CURVE_COLORS.worst, bold: false, role: `worst ${o.groupName}` }, { series: ends.best, color: CURVE_COLORS.best, bold: false, role: `best ${o.groupName}` }] : []),
    { series: o.overall, color: CURVE_COLORS.overall, bold: true, role: '' },
  ];
  for (const { series: s, color, bold, role } of named) {
    parts.push(`<path d="${line(s)}" fill="none" stroke="${color}" stroke-width="${bold ? 2.5 : 1.5}"/>`);
    for (const p of s.points) {
      const cx = px(x(p.x));
      const whisker = bold ? `<line x1="${cx}" x2="${cx}" y1="${px(y(p.low))}" y2="${px(y(p.high))}" stroke="${color}" stroke-opacity=".5"/>` : '';
      const dot = `<circle cx="${cx}" cy="${px(y(p.value))}" r="${bold ? 4 : 3}" fill="${bold ? color : '#fff'}" stroke="${color}" stroke-width="1.5"/>`;
      parts.push(mark('point', `${s.label}${role ? ` (${role})` : ''}: ${at(p.x)} ${f3(p.value)} (95% ${f3(p.low)}-${f3(p.high)}, ${p.n} ${o.counted})`, whisker + dot, { 'data-series': s.label }));
    }
  }
  parts.push(...endLabels(named.map((n) => ({ ...n, last: n.series.points.at(-1) })), x, y, { column: x(x1) + 12, bottom }));
  return svg(width, bottom + 34, parts.join(''), `${o.yTitle} against ${o.xTitle}`);
}

// The groups' spread per x (where two or more groups have a point): lowest to highest, and the quartiles between.
function spreadBands(o: CurveOptions, x: (v: number) => number, y: (v: number) => number, at: (k: number) => string): string[] {
  const xs = [...new Set(o.groups.flatMap((g) => g.points.map((p) => p.x)))].sort((a, b) => a - b);
  const spread = xs
    .map((k) => ({ k, values: o.groups.flatMap((g) => g.points.filter((p) => p.x === k).map((p) => p.value)).sort((a, b) => a - b) }))
    .filter((s) => s.values.length >= 2)
    .map(({ k, values }) => ({ k, n: values.length, min: values[0]!, q1: quantile(values, 0.25), q3: quantile(values, 0.75), max: values.at(-1)! }));
  if (spread.length === 0) return [];
  const band = (lo: (s: (typeof spread)[number]) => number, hi: (s: (typeof spread)[number]) => number) => {
    const upper = spread.map((s) => `${px(x(s.k))},${px(y(hi(s)))}`);
    const lower = [...spread].reverse().map((s) => `${px(x(s.k))},${px(y(lo(s)))}`);
    // a single x: a short bar, so the band still shows
    const widen = spread.length === 1 ? [`${px(x(spread[0]!.k) + 3)},${px(y(lo(spread[0]!)))}`, `${px(x(spread[0]!.k) + 3)},${px(y(hi(spread[0]!)))}`] : [];
    return [...upper, ...widen.reverse(), ...lower].join(' ');
  };
  const group = o.groupName;
  return [
    mark('band', `${group}s, lowest to highest: ${spread.map((s) => `${at(s.k)} ${f3(s.min)}-${f3(s.max)} (${s.n} ${group}s)`).join('; ')}`,
      `<polygon points="${band((s) => s.min, (s) => s.max)}" fill="${CURVE_COLORS.range}" fill-opacity=".35"/>`, { 'data-series': 'range' }),
    mark('band', `${group}s, middle half (quartiles): ${spread.map((s) => `${at(s.k)} ${f3(s.q1)}-${f3(s.q3)}`).join('; ')}`,
      `<polygon points="${band((s) => s.q1, (s) => s.q3)}" fill="${CURVE_COLORS.quartiles}" fill-opacity=".3"/>`, { 'data-series': 'quartiles' }),
  ];
}

// The quantile q of sorted values, interpolated between the nearest ranks.
function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

// The named curves' labels in a column right of the plot, moved apart to LABEL_GAP and kept inside the plot's height;
// a label away from its curve's end (moved, or the curve ends at a smaller x) gets a leader line back to it.
function endLabels(
  items: ReadonlyArray<{ series: CurveSeries; color: string; bold: boolean; last: CurvePoint | undefined }>,
  x: (v: number) => number,
  y: (v: number) => number,
  at: { column: number; bottom: number },
): string[] {
  const placed = items
    .filter((i) => i.last)
    .map((i) => ({ ...i, lineX: x(i.last!.x), lineY: y(i.last!.value), base: y(i.last!.value) + 4 }))
    .sort((a, b) => a.base - b.base);
  placed.forEach((p, i) => {
    if (i > 0) p.base = Math.max(p.base, placed[i - 1]!.base + LABEL_GAP);
  });
  for (let i = placed.length - 1; i >= 0; i--) {
    const limit = i === placed.length - 1 ? at.bottom + 4 : placed[i + 1]!.base - LABEL_GAP;
    placed[i]!.base = Math.max(TOP + 4, Math.min(placed[i]!.base, limit));
  }
  return placed.map((p) => {
    const away = Math.abs(p.base - 4 - p.lineY) > 3 || at.column - p.lineX > 16;
    const leader = away
      ? `<line x1="${px(p.lineX + 4)}" y1="${px(p.lineY)}" x2="${px(at.column - 3)}" y2="${px(p.base - 4)}" stroke="${p.color}" stroke-opacity=".6" stroke-dasharray="2 2"/>`
      : '';
    const label = text(at.column, p.base, clipLabel(p.series.label, 16), { cls: p.bold ? 'bold' : undefined });
    return `<g fill="${esc(p.color)}">${leader}${label}<title>${esc(p.series.label)}</title></g>`;
  });
}
