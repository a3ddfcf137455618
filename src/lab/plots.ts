/**
 * The lab page's charts: a forest plot of agreement, precision and recall with their 95% intervals per variant
 * (the baseline in bold, its values as dashed lines), precision against yield per variant, and the same forest as
 * small multiples per site and per task kind. Their numbers are in the hovers and the tables below.
 * @module
 */
import { forestPlot, type Estimate, type ForestRow } from '../report/svg/forest';
import { scatterPlot } from '../report/svg/scatter';
import { figure } from '../report/svg/svg';
import { compareCodePoints } from '../core/py/text';
import type { LabReport, LabScore, LabVariant } from './types';

type Measure = 'agreement' | 'precision' | 'recall' | 'yield';

const estimate = (s: LabScore, m: Measure): Estimate => ({
  value: s[m],
  ci: s[`${m}_ci`],
  // the episodes a rate counts: all for agreement and yield, the judge's successes for precision, the verifier's for recall
  n: m === 'precision' ? s.judge_pass : m === 'recall' ? s.verifier_pass : s.episodes,
});

/** The measures of the main forest plot. */
export const FOREST_MEASURES: readonly Measure[] = ['agreement', 'precision', 'recall'];
/** The measures of each small multiple. */
export const MULTIPLE_MEASURES: readonly Measure[] = ['agreement', 'precision'];

function rows(report: LabReport, measures: readonly Measure[], score: (v: LabVariant) => LabScore | undefined): ForestRow[] {
  return report.variants.map((v) => {
    const s = score(v);
    return { label: v.name, baseline: v.name === report.baseline, estimates: measures.map((m) => (s ? estimate(s, m) : null)) };
  });
}

function forestFigure(report: LabReport): string {
  return figure({
    id: 'fig-forest',
    title: 'Agreement, precision and recall per variant',
    note: `Dots are the rates, lines their 95% Wilson intervals; ${report.baseline} (the baseline) is bold and its values are the dashed lines. Hover for the numbers; the table below has them all.`,
    body: forestPlot({ panels: FOREST_MEASURES, rows: rows(report, FOREST_MEASURES, (v) => v.overall) }),
  });
}

function yieldFigure(report: LabReport): string {
  const points = report.variants.map((v) => ({
    label: v.name,
    x: estimate(v.overall, 'yield'),
    y: estimate(v.overall, 'precision'),
    highlight: v.name === report.baseline,
  }));
  return figure({
    id: 'fig-precision-yield',
    title: 'Precision against yield',
    note: 'Up is cleaner training rows, right is more of them; whiskers are 95% intervals. Hover a point for its numbers.',
    body: scatterPlot({ points, xTitle: 'yield (share judged SUCCESS)', yTitle: 'precision' }),
  });
}

function multiplesFigure(report: LabReport, id: string, by: string, pick: (v: LabVariant) => Record<string, LabScore>): string {
  const groups = [...new Set(report.variants.flatMap((v) => Object.keys(pick(v))))].sort(compareCodePoints);
  if (groups.length === 0) return '';
  const panels = groups.map((group) => {
    const n = Math.max(0, ...report.variants.map((v) => pick(v)[group]?.episodes ?? 0));
    return forestPlot({ heading: `${group} (n=${n})`, compact: true, panels: MULTIPLE_MEASURES, rows: rows(report, MULTIPLE_MEASURES, (v) => pick(v)[group]) });
  });
  return figure({
    id,
    title: `Agreement and precision per ${by}`,
    note: `Agreement and precision per variant with 95% intervals, one panel per ${by}; ${report.baseline} is bold. Small groups have wide intervals.`,
    body: `<div class="multiples">${panels.join('')}</div>`,
  });
}

/** The lab page's chart figures, by section. */
export function labFigures(report: LabReport): { overall: string; sites: string; kinds: string } {
  return {
    overall: forestFigure(report) + yieldFigure(report),
    sites: multiplesFigure(report, 'fig-sites', 'site', (v) => v.by_site),
    kinds: multiplesFigure(report, 'fig-kinds', 'task kind', (v) => v.by_kind),
  };
}
