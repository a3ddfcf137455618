/**
 * The run report's charts, aggregated so that a run of thousands of episodes on dozens of sites stays readable:
 * outcomes per site and per task kind (stacked bars), steps per episode (a histogram), the judge against the
 * verifier as a 2x2 per site, and tokens and cost per stage and model. Each chart's numbers are in its hovers and in
 * the tables below it.
 * @module
 */
import { compareCodePoints } from '../core/py/text';
import { escapeHtml } from './escape';
import { stackedBars, type BarRow } from './svg/bars';
import { binIntegers, histogram } from './svg/histogram';
import { confusionSquare } from './svg/matrix';
import { COLORS, count, figure, type Series } from './svg/svg';
import { bestAndWorst, curvePlot, CURVE_COLORS, type CurveSeries } from './svg/curve';
import type { PassAtKCurve, PassAtKReport } from '../validate/pass-at-k';
import type { ReportEpisodeSummary, ReportPageModel, ReportScores, ReportUsageLine } from './types';

/** The verdict series of the outcome bars, in drawing order. */
export const VERDICT_SERIES: readonly Series[] = [
  { name: 'judged SUCCESS', color: COLORS.ok },
  { name: 'judged NOT SUCCESS', color: COLORS.bad },
  { name: 'not judged', color: COLORS.none },
];

const VERDICT_INDEX = { success: 0, fail: 1, none: 2 } as const;

/** Episodes per group and verdict: one bar row per group, sorted by name. */
export function outcomeRows(episodes: readonly ReportEpisodeSummary[], key: (e: ReportEpisodeSummary) => string): BarRow[] {
  const groups = new Map<string, number[]>();
  for (const e of episodes) {
    const k = key(e);
    let values = groups.get(k);
    if (!values) groups.set(k, (values = [0, 0, 0]));
    values[VERDICT_INDEX[e.verdict]]!++;
  }
  return [...groups.keys()].sort(compareCodePoints).map((label) => ({ label, values: groups.get(label)! }));
}

function outcomeFigure(id: string, by: string, rows: readonly BarRow[]): string {
  return figure({
    id,
    title: `Outcomes by ${by}`,
    note: `Episodes per ${by} by the judge's verdict; hover a bar for its count and share.`,
    series: VERDICT_SERIES,
    body: stackedBars({ rows, series: VERDICT_SERIES, unit: 'episodes' }),
  });
}

function stepsFigure(episodes: readonly ReportEpisodeSummary[]): string {
  const steps = episodes.map((e) => e.steps).filter((s): s is number => s !== null);
  if (steps.length === 0) return '';
  const missing = episodes.length - steps.length;
  return figure({
    id: 'fig-steps',
    title: 'Steps per episode',
    note: `${count(steps.length)} episodes with a step count${missing ? ` (${count(missing)} without)` : ''}; hover a bar for its count.`,
    body: histogram({ bins: binIntegers(steps), unit: 'steps', counted: 'episodes' }),
  });
}

function judgeFigure(scores: ReportScores | null): string {
  const sites = scores ? Object.keys(scores.bySite).sort(compareCodePoints) : [];
  if (!scores || sites.length === 0) return '';
  const squares = sites.map((name) => confusionSquare({ name, ...scores.bySite[name]! }));
  return figure({
    id: 'fig-judge-verifier',
    title: 'Judge against verifier, per site',
    note: 'Rows: the judge (SUCCESS, NOT SUCCESS); columns: the verifier (pass, fail). Green cells agree; the deeper the shade, the larger the share of the site\'s episodes. The table "By site" below has the rates.',
    series: [{ name: 'judge and verifier agree', color: COLORS.ok }, { name: 'they differ', color: COLORS.bad }],
    body: `<div class="multiples">${squares.join('')}</div>`,
  });
}

/** The token series of the usage bars. */
export const TOKEN_SERIES: readonly Series[] = [
  { name: 'input tokens', color: COLORS.blue },
  { name: 'output tokens', color: COLORS.warn },
];

function usageFigure(lines: readonly ReportUsageLine[], source: string): string {
  if (lines.length === 0) return `<p class="note" id="no-usage">No tokens recorded: ${escapeHtml(source)}.</p>`;
  if (lines.every((l) => l.inputTokens + l.outputTokens === 0)) {
    const calls = lines.map((l) => `${l.stage} · ${l.model}`).join(', ');
    return `<p class="note" id="no-usage">The model calls counted (${escapeHtml(calls)}) used no tokens: stand-ins count none. ${escapeHtml(source)}.</p>`;
  }
  const rows = lines.map((l) => ({
    label: `${l.stage} · ${l.model}`,
    values: [l.inputTokens, l.outputTokens],
    note: `${count(l.inputTokens + l.outputTokens)} · ${l.cost === null ? 'price unknown' : `$${l.cost.toFixed(4)}`}`,
  }));
  return figure({
    id: 'fig-usage',
    title: 'Tokens and cost per stage and model',
    note: `${source}. Each bar's end gives its tokens and cost.`,
    series: TOKEN_SERIES,
    body: stackedBars({ rows, series: TOKEN_SERIES, unit: 'tokens' }),
  });
}

// pass@k against k: all tasks, the sites' spread, the best and worst site named and every site on hover, with the
// numbers in a table below (the estimate's interval named).
function passAtKFigure(report: PassAtKReport | null): string {
  if (!report || report.overall.tasks === 0) return '';
  const curve = (label: string, c: PassAtKCurve): CurveSeries => ({
    label, points: c.points.map((p) => ({ x: p.k, value: p.estimate, low: p.low, high: p.high, n: p.tasks })),
  });
  const rows = [{ site: 'all tasks', curve: report.overall }, ...report.bySite];
  const ks = report.overall.points.map((p) => p.k);
  const f = (v: number) => v.toFixed(3);
  const table =
    `<details class="numbers"><summary>The numbers</summary><table id="pass-at-k"><thead><tr><th>site</th><th>tasks</th>${ks.map((k) => `<th>pass@${k}</th>`).join('')}<th>solved</th><th>sometimes</th></tr></thead><tbody>` +
    rows.map(({ site, curve: c }) => `<tr><td>${escapeHtml(site)}</td><td>${c.tasks}</td>${ks.map((k) => {
      const p = c.points.find((q) => q.k === k);
      return `<td>${p ? `${f(p.estimate)} [${f(p.low)}, ${f(p.high)}]` : ''}</td>`;
    }).join('')}<td>${c.solved}</td><td>${c.sometimes} (${Math.round(c.sometimesShare * 100)}%)</td></tr>`).join('') +
    '</tbody></table></details>';
  const sites = report.bySite.map((s) => curve(s.site, s.curve));
  const ends = bestAndWorst(sites);
  const series: Series[] = [
    { name: 'all tasks', color: CURVE_COLORS.overall },
    ...(ends ? [
      { name: `best site (highest pass@1): ${ends.best.label}`, color: CURVE_COLORS.best },
      { name: `worst site: ${ends.worst.label}`, color: CURVE_COLORS.worst },
      { name: 'sites, lowest to highest', color: CURVE_COLORS.range },
      { name: 'sites, middle half (quartiles)', color: CURVE_COLORS.quartiles },
    ] : []),
  ];
  return figure({
    id: 'fig-pass-at-k',
    title: 'pass@k per site',
    note: `The chance that at least one of k tries of a task succeeds (the unbiased estimator of Chen et al., 2021; success by the verifier where the task has one, else by the judge), over ${count(report.overall.tasks)} tasks on ${count(sites.length)} sites with up to ${report.attempts} tries; whiskers: ${report.interval}. Each site is a faint line: hover it for its values. "Sometimes": tasks solved by some tries and not others.`,
    series,
    body: curvePlot({ overall: curve('all tasks', report.overall), groups: sites, groupName: 'site', xTitle: 'k (tries)', yTitle: 'pass@k', counted: 'tasks' }) + table,
  });
}

/** The report page's charts section. */
export function renderRunPlots(model: ReportPageModel): string {
  const episodes = model.episodes;
  if (episodes.length === 0) return '';
  return [
    '<section id="plots">',
    '<h2>At a glance</h2>',
    outcomeFigure('fig-outcomes-site', 'site', outcomeRows(episodes, (e) => e.site)),
    outcomeFigure('fig-outcomes-kind', 'task kind', outcomeRows(episodes, (e) => e.kind)),
    stepsFigure(episodes),
    judgeFigure(model.scores),
    usageFigure(model.usage, model.usageSource),
    passAtKFigure(model.passAtK ?? null),
    '</section>',
  ].join('\n');
}
