/** Axes: tick lines, tick labels and the axis' title, as SVG. @module */
import { esc, px, text } from './svg';

/** Options of {@link xAxis}. */
export interface XAxisOptions {
  /** The tick values. */
  readonly values: readonly number[];
  /** Maps a value to x. */
  readonly x: (value: number) => number;
  /** Top and bottom of the plot area: grid lines span them. */
  readonly top: number;
  readonly bottom: number;
  /** How a tick value is written. */
  readonly format?: (value: number) => string;
  /** The axis' title, under the ticks. */
  readonly title?: string;
}

/** A horizontal axis under the plot area, with vertical grid lines. */
export function xAxis(o: XAxisOptions): string {
  const format = o.format ?? String;
  const parts = o.values.map(
    (v) =>
      `<line x1="${px(o.x(v))}" x2="${px(o.x(v))}" y1="${px(o.top)}" y2="${px(o.bottom)}" class="grid"/>` +
      text(o.x(v), o.bottom + 12, format(v), { anchor: 'middle', cls: 'axis' }),
  );
  if (o.title) {
    const mid = (o.x(o.values[0] ?? 0) + o.x(o.values[o.values.length - 1] ?? 1)) / 2;
    parts.push(text(mid, o.bottom + 26, o.title, { anchor: 'middle', cls: 'axis-title' }));
  }
  return parts.join('');
}

/** Options of {@link yAxis}. */
export interface YAxisOptions {
  /** The tick values. */
  readonly values: readonly number[];
  /** Maps a value to y. */
  readonly y: (value: number) => number;
  /** Left and right of the plot area: grid lines span them. */
  readonly left: number;
  readonly right: number;
  /** How a tick value is written. */
  readonly format?: (value: number) => string;
  /** The axis' title, turned along the axis. */
  readonly title?: string;
}

/** A vertical axis left of the plot area, with horizontal grid lines. */
export function yAxis(o: YAxisOptions): string {
  const format = o.format ?? String;
  const parts = o.values.map(
    (v) =>
      `<line x1="${px(o.left)}" x2="${px(o.right)}" y1="${px(o.y(v))}" y2="${px(o.y(v))}" class="grid"/>` +
      text(o.left - 4, o.y(v) + 4, format(v), { anchor: 'end', cls: 'axis' }),
  );
  if (o.title) {
    const mid = (o.y(o.values[0] ?? 0) + o.y(o.values[o.values.length - 1] ?? 1)) / 2;
    parts.push(`<text transform="translate(${px(o.left - 34)} ${px(mid)}) rotate(-90)" text-anchor="middle" class="axis-title">${esc(o.title)}</text>`);
  }
  return parts.join('');
}
