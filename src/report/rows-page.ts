/**
 * The rows page (`rows.html` beside the run report's `index.html`): the selected steps against the budget, per
 * site, and what was left out of the training rows and why, as charts with their numbers in a table. A static page
 * with no script; every text escaped.
 * @module
 */
import { escapeHtml } from './escape';
import { REPORT_CSS } from './style';
import { stackedBars } from './svg/bars';
import { COLORS, PLOT_CSS, count, figure, type Series } from './svg/svg';
import type { RowsFate, RowsPageModel } from './types';
import { labelsSectionHtml } from './rows-labels';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";
const e = (value: unknown) => escapeHtml(String(value));

/** The fates of the left-out chart, in drawing order, with what each means. */
export const FATES: ReadonlyArray<Series & { readonly fate: RowsFate; readonly why: string }> = [
  { fate: 'selected', name: 'selected', color: COLORS.ok, why: 'judged SUCCESS and taken into the rows' },
  { fate: 'relabeled', name: 'relabeled, selected', color: COLORS.relabel, why: 'a failed episode cut and relabeled with a task it did complete (an accepted relabel), taken into the rows' },
  {
    fate: 'success-not-selected',
    name: 'judged SUCCESS, not taken',
    color: COLORS.warn,
    why: 'the budget was reached before its turn (sites are taken round robin), or its rows were unusable or empty',
  },
  {
    fate: 'relabel-not-selected',
    name: 'relabeled, not taken',
    color: COLORS.lightRelabel,
    why: 'an accepted relabel the budget did not reach, whose rows were unusable, or left out by --no-relabel',
  },
  { fate: 'judged-fail', name: 'judged NOT SUCCESS', color: COLORS.bad, why: 'the judge did not call it a success' },
  { fate: 'not-judged', name: 'not judged', color: COLORS.none, why: 'no verdict: not judged yet, or the judge gave none' },
];

// The steps of the run's own episodes and of its relabels, stacked, so that a bar's total is what the rows hold.
const STEP_SERIES: readonly Series[] = [
  { name: 'selected steps', color: COLORS.blue },
  { name: 'relabeled steps', color: COLORS.relabel },
];

function budgetFigures(model: RowsPageModel): string {
  const r = model.report;
  const steps = model.sites.reduce((n, s) => n + s.steps, 0);
  const relabeled = model.sites.reduce((n, s) => n + s.relabeledSteps, 0);
  const total = figure({
    id: 'fig-rows-budget',
    title: 'Selected steps against the budget',
    note: r ? `${count(r.selected_rows)} steps of ${count(r.selected_trajectories)} episodes selected for a budget of ${count(r.budget)}${r.short_by ? `: short by ${count(r.short_by)}` : ''}.` : 'No readable _report.json: the budget is unknown.',
    series: STEP_SERIES,
    body: stackedBars({ rows: [{ label: 'all sites', values: [steps, relabeled] }], series: STEP_SERIES, unit: 'steps', ...(r ? { reference: { value: r.budget, label: 'budget' } } : {}) }),
  });
  const share = r && model.sites.length ? r.budget / model.sites.length : 0;
  const perSite = figure({
    id: 'fig-rows-sites',
    title: 'Selected steps per site',
    note: share ? `The dashed line is an even share of the budget (${count(Math.round(share))} steps a site); hover a bar for its steps.` : 'Hover a bar for its steps.',
    series: STEP_SERIES,
    body: stackedBars({
      rows: model.sites.map((s) => ({
        label: s.site,
        values: [s.steps, s.relabeledSteps],
        note: `${count(s.steps + s.relabeledSteps)} (${count(s.fates.selected + s.fates.relabeled)} episodes)`,
      })),
      series: STEP_SERIES,
      unit: 'steps',
      ...(share ? { reference: { value: share, label: 'even share' } } : {}),
    }),
  });
  return total + perSite;
}

function leftOutFigure(model: RowsPageModel): string {
  return figure({
    id: 'fig-left-out',
    title: 'What was left out, and why',
    note: 'Every episode of the run, and every accepted relabel of one, per site by what became of it; hover a bar for its count. The table below gives the totals.',
    series: FATES,
    body: stackedBars({ rows: model.sites.map((s) => ({ label: s.site, values: FATES.map((f) => s.fates[f.fate]) })), series: FATES, unit: 'episodes' }),
  });
}

function fateTable(model: RowsPageModel): string {
  const rows = FATES.map((f) => {
    const n = model.sites.reduce((sum, s) => sum + s.fates[f.fate], 0);
    return `<tr data-fate="${e(f.fate)}"><th scope="row">${e(f.name)}</th><td class="num">${count(n)}</td><td>${e(f.why)}</td></tr>`;
  });
  const skipped = model.skipped
    ? `<p class="note" id="rows-skipped">The rows step left out ${count(model.skipped)} judged successes whose rows did not parse or whose verdict was given for another recording of the episode (its output names each).</p>`
    : '';
  return `<table id="fates"><thead><tr><th>episodes</th><th class="num">count</th><th>why</th></tr></thead><tbody>${rows.join('')}</tbody></table>${skipped}`;
}

function siteTable(model: RowsPageModel): string {
  const head = ['site', ...STEP_SERIES.map((x) => x.name), ...FATES.map((f) => f.name)].map((h, i) => `<th${i ? ' class="num"' : ''}>${e(h)}</th>`).join('');
  const rows = model.sites.map(
    (s) => `<tr><td>${e(s.site)}</td><td class="num">${count(s.steps)}</td><td class="num">${count(s.relabeledSteps)}</td>${FATES.map((f) => `<td class="num">${count(s.fates[f.fate])}</td>`).join('')}</tr>`,
  );
  return `<details class="numbers"><summary>The numbers per site</summary><table id="rows-by-site"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table></details>`;
}

/** The rows page. */
export function renderRowsPage(model: RowsPageModel): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${e(CSP)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>taskgen rows: ${e(model.rowsDir)}</title>
<style>${REPORT_CSS}${PLOT_CSS}</style>
</head>
<body>
<header>
<h1>Training rows</h1>
<p class="muted">rows <code>${e(model.rowsDir)}</code> from run <code>${e(model.run)}</code> · <a href="index.html">run report</a></p>
</header>
<section id="budget">
<h2>The budget</h2>
${budgetFigures(model)}
</section>
<section id="left-out">
<h2>Left out</h2>
${leftOutFigure(model)}
${fateTable(model)}
${siteTable(model)}
</section>
${labelsSectionHtml(model.labels)}
</body>
</html>
`;
}
