/**
 * A histogram of whole numbers (steps per episode): one bin per value up to 40 distinct values, wider bins above,
 * so a run of any size keeps at most about 40 bars. Each non-empty bin is a `bin` mark.
 * @module
 */
import { yAxis } from './axis';
import { linear, niceMax, ticks } from './scale';
import { COLORS, count, esc, mark, px, svg } from './svg';

/** One bin: the values `from`..`to` (both included) and how many fell in it. */
export interface Bin {
  readonly from: number;
  readonly to: number;
  readonly count: number;
}

/** At most this many bins. */
export const MAX_BINS = 40;

/** Whole non-negative numbers binned: width 1 up to {@link MAX_BINS} values, else the smallest width that fits. */
export function binIntegers(values: readonly number[]): Bin[] {
  if (values.length === 0) return [];
  const max = Math.max(0, ...values.map((v) => Math.floor(v)));
  const width = Math.max(1, Math.ceil((max + 1) / MAX_BINS));
  const bins: Bin[] = [];
  for (let from = 0; from <= max; from += width) bins.push({ from, to: from + width - 1, count: 0 });
  for (const v of values) {
    const b = bins[Math.floor(Math.max(0, Math.floor(v)) / width)]!;
    (b as { count: number }).count++;
  }
  return bins;
}

/** Options of {@link histogram}. */
export interface HistogramOptions {
  readonly bins: readonly Bin[];
  /** The value's name (`steps`), under the axis and in hovers. */
  readonly unit: string;
  /** What is counted (`episodes`). */
  readonly counted: string;
  /** Default 760. */
  readonly width?: number;
}

const LEFT = 56;
const TOP = 8;
const HEIGHT = 180;
/** About the width of a character of an axis label (11px system-ui digits), for spacing labels. */
const CHAR_WIDTH = 6.5;

/** The SVG of a histogram. */
export function histogram(o: HistogramOptions): string {
  const width = o.width ?? 760;
  const bottom = TOP + HEIGHT;
  const n = Math.max(1, o.bins.length);
  const max = niceMax(Math.max(1, ...o.bins.map((b) => b.count)), 4);
  const y = linear([0, max], [bottom, TOP]);
  const slot = (width - LEFT - 10) / n;
  const parts = [yAxis({ values: ticks(max, 4), y, left: LEFT, right: width - 10, format: count, title: o.counted })];
  const labelOf = (b: Bin) => (b.from === b.to ? String(b.from) : `${b.from}–${b.to}`);
  // a label every `every` bins, as many as fit: at most 20, each about 6.5 pixels a character with a gap
  const widest = Math.max(...o.bins.map((b) => labelOf(b).length)) * CHAR_WIDTH;
  const every = Math.max(Math.ceil(n / 20), Math.ceil((widest + 8) / slot));
  o.bins.forEach((b, i) => {
    const x0 = LEFT + i * slot;
    const label = labelOf(b);
    // the first label starts at the axis rather than run into the y axis' 0 when it is wider than its bin
    const first = i === 0 && labelOf(b).length * CHAR_WIDTH > slot;
    if (i % every === 0) parts.push(`<text x="${px(first ? x0 + 1 : x0 + slot / 2)}" y="${px(bottom + 12)}"${first ? '' : ' text-anchor="middle"'} class="axis">${label}</text>`);
    if (b.count === 0) return;
    const h = bottom - y(b.count);
    parts.push(
      mark('bin', `${label} ${o.unit}: ${count(b.count)} ${o.counted}`, `<rect x="${px(x0 + 1)}" y="${px(bottom - h)}" width="${px(Math.max(1, slot - 2))}" height="${px(h)}" fill="${COLORS.blue}"/>`),
    );
  });
  parts.push(`<text x="${px(LEFT + (width - LEFT - 10) / 2)}" y="${px(bottom + 27)}" text-anchor="middle" class="axis-title">${esc(o.unit)}</text>`);
  return svg(width, bottom + 34, parts.join(''), `${o.counted} by ${o.unit}`);
}
