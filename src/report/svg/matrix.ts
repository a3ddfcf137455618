/**
 * Judge against verifier as a 2x2 per group (site): cells shaded by their share of the group's episodes, the count
 * written in each; one `cell` mark per cell. Many groups make a grid of small multiples.
 * @module
 */
import { COLORS, clipLabel, count, esc, mark, px, svg, text } from './svg';

/** A group's confusion counts. */
export interface Confusion {
  readonly name: string;
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
  readonly tn: number;
}

const CELL = 36;
const LEFT = 62;
const TOP = 40;

/** The SVG of one group's 2x2: rows the judge (SUCCESS, NOT SUCCESS), columns the verifier (pass, fail). */
export function confusionSquare(c: Confusion): string {
  const total = c.tp + c.fp + c.fn + c.tn;
  const cells = [
    { row: 0, col: 0, n: c.tp, what: 'judge SUCCESS, verifier pass (true positive)', agree: true },
    { row: 0, col: 1, n: c.fp, what: 'judge SUCCESS, verifier fail (false positive)', agree: false },
    { row: 1, col: 0, n: c.fn, what: 'judge NOT SUCCESS, verifier pass (false negative)', agree: false },
    { row: 1, col: 1, n: c.tn, what: 'judge NOT SUCCESS, verifier fail (true negative)', agree: true },
  ];
  const small = { cls: 'axis', size: 9 };
  const parts = [
    // the square is 138 wide: 18 bold characters fit, the whole name is the heading's hover
    `<g>${text(2, 11, clipLabel(c.name, 18), { cls: 'bold' })}<title>${esc(c.name)}</title></g>`,
    text(LEFT + CELL, TOP - 16, 'verifier', { ...small, anchor: 'middle' }),
    text(LEFT + CELL / 2, TOP - 4, 'pass', { ...small, anchor: 'middle' }),
    text(LEFT + CELL * 1.5, TOP - 4, 'fail', { ...small, anchor: 'middle' }),
    text(LEFT - 4, TOP - 4, 'judge', { ...small, anchor: 'end' }),
    text(LEFT - 4, TOP + CELL / 2 + 3, 'SUCCESS', { ...small, anchor: 'end' }),
    text(LEFT - 4, TOP + CELL * 1.5 + 3, 'NOT', { ...small, anchor: 'end' }),
  ];
  for (const cell of cells) {
    const share = total > 0 ? cell.n / total : 0;
    const x = LEFT + cell.col * CELL;
    const y = TOP + cell.row * CELL;
    const fill = cell.agree ? COLORS.ok : COLORS.bad;
    const shape =
      `<rect x="${px(x)}" y="${px(y)}" width="${CELL - 2}" height="${CELL - 2}" fill="${fill}" fill-opacity="${px(0.08 + 0.8 * share)}" stroke="${COLORS.grid}"/>` +
      text(x + CELL / 2 - 1, y + CELL / 2 + 3, count(cell.n), { anchor: 'middle', cls: share > 0.5 ? 'bold' : undefined });
    parts.push(mark('cell', `${c.name}: ${cell.what}: ${count(cell.n)} of ${count(total)}`, shape));
  }
  return svg(LEFT + 2 * CELL + 4, TOP + 2 * CELL + 4, parts.join(''), `${c.name}: judge against verifier`);
}
