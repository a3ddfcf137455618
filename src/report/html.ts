/**
 * The report's HTML: the page (header figures, the judge-versus-verifier tables, problems, the filterable episode
 * list) and the per-episode data files it loads. Every text is escaped; data goes into the page as JSON with `<`
 * escaped, and a Content-Security-Policy allows only the page's own script, so content from the episodes can be
 * shown but never run.
 * @module
 */
import { createHash } from 'node:crypto';
import { compareCodePoints } from '../core/py/text';
import type { Interval, JudgeScoreWithIntervals } from '../core/schemas';
import { escapeHtml } from './escape';
import { CLIENT_SCRIPT, DATA_ELEMENT_ID, EPISODE_CALLBACK } from './client';
import { renderRunPlots } from './plots';
import { REPORT_CSS } from './style';
import { PLOT_CSS } from './svg/svg';
import type { ReportEpisodeDetail, ReportEpisodeSummary, ReportPageModel, ReportIssue, ReportScores } from './types';

export { escapeHtml };

/** JSON that can sit inside a `<script>` element: no `<` (so no `</script>` or `<!--`), no line separators. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The body of `episodes/<task_id>.js`: a call of the page's callback with the episode's details. */
export function renderEpisodeScript(detail: ReportEpisodeDetail): string {
  return `${EPISODE_CALLBACK}(${scriptSafeJson(detail)});\n`;
}

/** How many issues the page lists before saying how many more there are. */
const MAX_ISSUES = 500;

/** The report page. */
export function renderPage(model: ReportPageModel): string {
  const scriptHash = createHash('sha256').update(CLIENT_SCRIPT).digest('base64');
  const csp = [
    "default-src 'none'",
    `script-src 'sha256-${scriptHash}' 'self' file:`,
    "style-src 'unsafe-inline'",
    "img-src 'self' file: data:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const data = { runHref: model.runHref, episodes: model.episodes };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>taskgen report: ${escapeHtml(model.run)}</title>
<style>${REPORT_CSS}${PLOT_CSS}</style>
</head>
<body>
<header>
<h1>Run report</h1>
<p class="muted">run <code>${escapeHtml(model.run)}</code></p>
</header>
${renderTotals(model)}
${renderRunPlots(model)}
${renderScoresSection(model.scores, model.scoresNote)}
${renderDisagreements(model.episodes)}
${renderIssues(model.issues)}
<section id="episodes">
<h2>Episodes</h2>
${renderFilters(model)}
<p id="count" aria-live="polite">Loading the episode list…</p>
<p id="tally"></p>
<noscript><p class="note">The episode list needs JavaScript; the figures above do not.</p></noscript>
<div id="list"></div>
<button id="more" type="button" hidden>Show more</button>
</section>
<script type="application/json" id="${DATA_ELEMENT_ID}">${scriptSafeJson(data)}</script>
<script>${CLIENT_SCRIPT}</script>
</body>
</html>
`;
}

function stat(label: string, value: number | string, id: string): string {
  const text = typeof value === 'number' ? value.toLocaleString('en-US') : value;
  return `<div><dt>${escapeHtml(label)}</dt><dd id="stat-${id}">${escapeHtml(text)}</dd></div>`;
}

function renderTotals(model: ReportPageModel): string {
  const t = model.totals;
  const stats = [
    stat('episodes', t.episodes, 'episodes'),
    ...(t.tries > 1 ? [stat('tries per task (at most)', t.tries, 'tries')] : []),
    stat('judged', t.judged, 'judged'),
    stat('judged successes', t.judgedSuccesses, 'successes'),
    stat('verified', t.verified, 'verified'),
    stat('verifier passes', t.verifierPasses, 'passes'),
    ...(t.writtenVerified > 0 ? [stat('verified by written verifiers', t.writtenVerified, 'written-verified')] : []),
    stat('judge–verifier disagreements', t.disagreements, 'disagreements'),
  ];
  if (t.notAttempted > 0) stats.push(stat('tasks not attempted yet', t.notAttempted, 'not-attempted'));
  const parts = [`<section id="summary">\n<h2>Summary</h2>\n<dl class="stats">${stats.join('')}</dl>`];
  if (model.rowsDir !== null) {
    const page = model.rowsPage ? ` · <a id="rows-page" href="${escapeHtml(model.rowsPage)}">the budget per site, and what was left out</a>` : '';
    parts.push(`<h3>Training rows <code>${escapeHtml(model.rowsDir)}</code>${page}</h3>`);
    const r = model.rowsReport;
    if (r) {
      parts.push(
        `<dl class="stats" id="rows-report">${[
          stat('candidates', r.candidates, 'candidates'),
          stat('selected trajectories', r.selected_trajectories, 'trajectories'),
          stat('selected rows (steps)', r.selected_rows, 'rows'),
          stat('budget', r.budget, 'budget'),
          stat('short by', r.short_by, 'short-by'),
          stat('sites', r.sites, 'sites'),
        ].join('')}</dl>`,
      );
    } else {
      parts.push('<p class="note">No readable <code>_report.json</code> in the rows dir.</p>');
    }
  }
  parts.push(...setupsTable(model.setups), '</section>');
  return parts.join('\n');
}

// Mixed set-ups: each one's share of the episodes and verdicts above, so the figures are not read as one model's.
function setupsTable(lines: ReportPageModel['setups']): string[] {
  if (lines.length === 0) return [];
  const rows = lines.map(
    (l) => `<tr data-mark="setup"><td>${l.stage}</td><td><code>${escapeHtml(l.setup)}</code></td><td>${l.episodes}</td><td>${l.success}</td></tr>`,
  );
  return [
    '<h3 id="setups">Set-ups: this run mixes more than one</h3>',
    '<table><thead><tr><th>stage</th><th>set-up</th><th>episodes or records</th><th>verifier passes or SUCCESS</th></tr></thead>',
    `<tbody>${rows.join('')}</tbody></table>`,
  ];
}

/** A rate with its 95% interval, as `0.667 [0.208, 0.939]`. */
export function formatRate(rate: number, interval: Interval): string {
  const ci = interval ? ` [${interval[0].toFixed(3)}, ${interval[1].toFixed(3)}]` : ' [no data]';
  return `${rate.toFixed(3)}${ci}`;
}

function renderScoresSection(scores: ReportScores | null, note: string | null): string {
  const head = '<section id="validate">\n<h2>Judge vs verifiers</h2>';
  if (!scores) return `${head}\n<p class="note">${escapeHtml(note ?? 'Nothing to compare.')}</p>\n</section>`;
  const o = scores.overall;
  const matrix = `<table class="confusion" id="confusion">
<tr><th></th><th>verifier: pass</th><th>verifier: fail</th></tr>
<tr><th>judge: SUCCESS</th><td id="cm-tp">${o.tp}<small>true positive</small></td><td id="cm-fp">${o.fp}<small>false positive</small></td></tr>
<tr><th>judge: NOT SUCCESS</th><td id="cm-fn">${o.fn}<small>false negative</small></td><td id="cm-tn">${o.tn}<small>true negative</small></td></tr>
</table>`;
  const rates = `<dl class="kv" id="rates">
<dt>episodes</dt><dd>${o.episodes}</dd>
<dt>precision (verifier passes when the judge says SUCCESS)</dt><dd id="rate-precision">${formatRate(o.precision, o.precision_ci)}</dd>
<dt>recall</dt><dd id="rate-recall">${formatRate(o.recall, o.recall_ci)}</dd>
<dt>agreement</dt><dd id="rate-agreement">${formatRate(o.agreement, o.agreement_ci)}</dd>
</dl>`;
  return [
    head,
    `<p class="muted">From ${escapeHtml(scores.source)}; intervals are 95% Wilson intervals.</p>`,
    matrix,
    rates,
    scoreTable('By site', 'site', scores.bySite, 'by-site'),
    scoreTable('By task kind', 'kind', scores.byKind, 'by-kind'),
    '</section>',
  ].join('\n');
}

function scoreTable(title: string, key: string, groups: Readonly<Record<string, JudgeScoreWithIntervals>>, id: string): string {
  const names = Object.keys(groups);
  if (names.length === 0) return '';
  const rows = names.map((name) => {
    const s = groups[name]!;
    const nums = [s.episodes, s.tp, s.fp, s.fn, s.tn].map((n) => `<td class="num">${n}</td>`).join('');
    const rates = [formatRate(s.precision, s.precision_ci), formatRate(s.recall, s.recall_ci), formatRate(s.agreement, s.agreement_ci)]
      .map((r) => `<td class="num">${escapeHtml(r)}</td>`)
      .join('');
    return `<tr><td>${escapeHtml(name)}</td>${nums}${rates}</tr>`;
  });
  const head = [key, 'n', 'tp', 'fp', 'fn', 'tn', 'precision [95% CI]', 'recall [95% CI]', 'agreement [95% CI]']
    .map((h, i) => `<th${i > 0 ? ' class="num"' : ''}>${escapeHtml(h)}</th>`)
    .join('');
  return `<h3>${escapeHtml(title)}</h3>\n<table id="${id}"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The episodes where the judge and the verifier (hand-written, or written for a proposed task) disagree, listed. */
function renderDisagreements(episodes: readonly ReportEpisodeSummary[]): string {
  const rows = episodes.filter((e) => e.disagree);
  if (rows.length === 0) return '';
  const body = rows.slice(0, MAX_DISAGREEMENTS).map((e) => {
    const which = e.verifierSource === 'written-verifier' ? 'written verifier: ' : '';
    const cells = [e.try > 1 ? `${e.id} (try ${e.try})` : e.id, e.site, e.kind, e.verdict === 'success' ? 'SUCCESS' : 'NOT SUCCESS', `${which}${e.verifier ? 'pass' : 'fail'}`, e.instruction];
    return `<tr>${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`;
  });
  const more = rows.length > MAX_DISAGREEMENTS ? `<p class="muted">… and ${rows.length - MAX_DISAGREEMENTS} more (filter the episode list below).</p>` : '';
  return `<section id="disagreements">
<h2>Judge–verifier disagreements (${rows.length})</h2>
<table id="disagreement-list"><thead><tr><th>task</th><th>site</th><th>kind</th><th>judge</th><th>verifier</th><th>instruction</th></tr></thead><tbody>${body.join('')}</tbody></table>
${more}</section>`;
}

const MAX_DISAGREEMENTS = 200;

function renderIssues(issues: readonly ReportIssue[]): string {
  if (issues.length === 0) return '';
  const items = issues.slice(0, MAX_ISSUES).map((i) => {
    const where = `${i.file}${i.line === undefined ? '' : `:${i.line}`}`;
    return `<li><code>${escapeHtml(where)}</code>: ${escapeHtml(i.problem)}</li>`;
  });
  if (issues.length > MAX_ISSUES) items.push(`<li>… and ${issues.length - MAX_ISSUES} more</li>`);
  return `<section id="issues">
<h2>Problems reading the run (${issues.length})</h2>
<p class="muted">These lines or files were skipped; the rest of the report is complete.</p>
<ul class="issues">${items.join('\n')}</ul>
</section>`;
}

function renderFilters(model: ReportPageModel): string {
  const sites = new Map<string, number>();
  for (const ep of model.episodes) sites.set(ep.site, (sites.get(ep.site) ?? 0) + 1);
  const siteOptions = [...sites.keys()]
    .sort(compareCodePoints)
    .map((s) => `<option value="${escapeHtml(s)}">${escapeHtml(s)} (${sites.get(s)})</option>`)
    .join('');
  return `<form id="filters" role="search">
<label>site<select name="site"><option value="">all sites (${sites.size})</option>${siteOptions}</select></label>
<label>judge verdict<select name="verdict"><option value="">any</option><option value="success">SUCCESS</option><option value="fail">NOT SUCCESS</option><option value="none">not judged</option></select></label>
<label class="check"><input type="checkbox" name="disagree"> only judge–verifier disagreements</label>
<label>task id or instruction<input type="search" name="q" placeholder="search"></label>
</form>`;
}
