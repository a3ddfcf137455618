/** Linear scales and round tick values for the charts' axes. @module */

/** A linear map from `domain` to `range`. */
export function linear(domain: readonly [number, number], range: readonly [number, number]): (value: number) => number {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0 || 1;
  return (value) => r0 + ((value - d0) / span) * (r1 - r0);
}

/** About `target` round tick values from 0 (or `min`) to at least `max`: steps of 1, 2 or 5 times a power of ten. */
export function ticks(max: number, target = 5, min = 0): number[] {
  const span = Math.max(max - min, 1e-9);
  const raw = span / Math.max(1, target);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  const start = Math.floor(min / step) * step;
  for (let v = start, i = 0; i < 100; v += step, i++) {
    out.push(Math.round(v / step) * step);
    if (v >= max - 1e-9) break;
  }
  return out;
}

/** The largest tick of {@link ticks}: the axis' end, at or above `max`. */
export function niceMax(max: number, target = 5): number {
  const t = ticks(max, target);
  return t[t.length - 1] ?? 1;
}
