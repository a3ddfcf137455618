/** Small formatters that several commands print with. @module */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Interval } from '../core/schemas';

/** A confidence interval as `[0.812, 0.934]`, or `[-]` when there is none. */
export function interval(ci: Interval): string {
  return ci ? `[${ci[0].toFixed(3)}, ${ci[1].toFixed(3)}]` : '[-]';
}

/** A `file://` URL of `file` (made absolute), to open in a browser. */
export function fileUrl(file: string): string {
  return pathToFileURL(path.resolve(file)).href;
}
