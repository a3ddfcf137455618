/**
 * `lab.html`: the lab's figures as a static page with no script: the variants against the verifiers, each
 * against the baseline, per site and task kind, and the episodes the variants disagree on, linked to the run
 * report's episodes. Every text is escaped; the Content-Security-Policy allows no script at all.
 * @module
 */
import { escapeHtml, formatRate } from '../report/html';
import { REPORT_CSS } from '../report/style';
import { PLOT_CSS } from '../report/svg/svg';
import { labFigures } from './plots';
import type { LabReport, LabScore, LabVariant } from './types';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const e = (value: unknown) => escapeHtml(String(value));
const num = (value: number) => value.toLocaleString('en-US');

/** A difference with its sign, to 3 decimals: `+0.050`, `-0.020`, and `±0.000` for one that rounds to zero. */
export function formatSigned(x: number): string {
  const text = Math.abs(x).toFixed(3);
  if (Number(text) === 0) return `±${text}`;
  return `${x > 0 ? '+' : '-'}${text}`;
}
const signed = formatSigned;

/** A p-value as text: 4 significant digits, `< 0.0001` below that. */
export function formatP(p: number): string {
  return p < 1e-4 ? '< 0.0001' : p >= 0.9999 ? '1' : p.toPrecision(4).replace(/0+$/, '').replace(/\.$/, '');
}

function scoreCells(s: LabScore): string {
  return [
    `<td class="num">${num(s.episodes)}</td>`,
    `<td class="num">${e(formatRate(s.agreement, s.agreement_ci))}</td>`,
    `<td class="num">${e(formatRate(s.precision, s.precision_ci))}</td>`,
    `<td class="num">${e(formatRate(s.recall, s.recall_ci))}</td>`,
    `<td class="num">${e(formatRate(s.yield, s.yield_ci))}</td>`,
  ].join('');
}

const SCORE_HEAD = '<th class="num">episodes</th><th class="num">agreement</th><th class="num">precision</th><th class="num">recall</th><th class="num">yield</th>';

function variantsTable(report: LabReport): string {
  const rows = report.variants.map((v) => {
    const cost = `${v.usage.priced ? '' : '&ge; '}$${v.usage.cost.toFixed(4)}`;
    return (
      `<tr data-variant="${e(v.name)}"><th scope="row">${e(v.name)}${v.name === report.baseline ? ' <span class="badge none">baseline</span>' : ''}</th>` +
      `<td>${e(v.model)}</td>${scoreCells(v.overall)}<td class="num">${num(v.missing)}</td><td class="num">${num(v.usage.calls)}</td>` +
      `<td class="num">${num(v.usage.input_tokens)} / ${num(v.usage.output_tokens)}</td><td class="num">${cost}</td></tr>`
    );
  });
  return (
    `<table id="variants" class="wide"><thead><tr><th>variant</th><th>model</th>${SCORE_HEAD}<th class="num">not judged</th>` +
    `<th class="num">calls</th><th class="num">tokens in / out</th><th class="num">cost</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}

function setupTable(variants: readonly LabVariant[]): string {
  const rows = variants.map(
    (v) =>
      `<tr><th scope="row">${e(v.name)}</th><td>${e(v.description)}</td><td>${e(v.shows.join(', ') || '(task only)')}</td>` +
      `<td class="num">${v.screenshots}${v.screenshots ? ` (${e(v.pick)})` : ''}</td><td class="num">${v.votes}${v.votes > 1 ? ` (${e(v.combine)})` : ''}</td></tr>`,
  );
  return `<table id="setups" class="wide"><thead><tr><th>variant</th><th>what it is</th><th>evidence shown</th><th class="num">screenshots</th><th class="num">votes</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function comparisonTable(report: LabReport): string {
  if (!report.comparisons.length) return '<p class="note">Only one variant: nothing to compare.</p>';
  const rows = report.comparisons.map(
    (c) =>
      `<tr data-variant="${e(c.variant)}"><th scope="row">${e(c.variant)}</th><td class="num">${num(c.episodes)}</td><td class="num">${num(c.both_right)}</td>` +
      `<td class="num">${num(c.baseline_only)}</td><td class="num">${num(c.variant_only)}</td><td class="num">${num(c.both_wrong)}</td>` +
      `<td class="num">${e(signed(c.agreement_diff))}</td><td class="num">${e(formatP(c.p))}</td><td class="num">${e(signed(c.precision_diff))}</td>` +
      `<td class="num">${e(signed(c.yield_diff))}</td></tr>`,
  );
  return (
    `<table id="comparisons" class="wide"><thead><tr><th>variant</th><th class="num">paired episodes</th><th class="num">both right</th>` +
    `<th class="num">only ${e(report.baseline)} right</th><th class="num">only variant right</th><th class="num">both wrong</th>` +
    `<th class="num">agreement diff</th><th class="num">McNemar p (exact)</th><th class="num">precision diff</th><th class="num">yield diff</th></tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table>`
  );
}

function groupTable(id: string, label: string, variants: readonly LabVariant[], pick: (v: LabVariant) => Record<string, LabScore>): string {
  const groups = [...new Set(variants.flatMap((v) => Object.keys(pick(v))))].sort();
  const rows = groups.flatMap((group) =>
    variants.filter((v) => pick(v)[group]).map((v) => `<tr><td>${e(group)}</td><th scope="row">${e(v.name)}</th>${scoreCells(pick(v)[group]!)}</tr>`),
  );
  return `<table id="${id}" class="wide"><thead><tr><th>${e(label)}</th><th>variant</th>${SCORE_HEAD}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function verdictBadge(label: 0 | 1 | null): string {
  if (label === null) return '<span class="badge none">no record</span>';
  return label === 1 ? '<span class="badge v-success">SUCCESS</span>' : '<span class="badge v-fail">NOT SUCCESS</span>';
}

function disagreementTable(report: LabReport): string {
  if (!report.disagreements.length) return '<p class="note" id="no-disagreements">The variants judged every episode alike.</p>';
  const names = report.variants.map((v) => v.name);
  const rows = report.disagreements.map((d) => {
    const href = `${report.report_href}#${encodeURIComponent(d.task_id)}`;
    const verifier = d.verifier === null ? '<span class="badge none">none</span>' : d.verifier ? '<span class="badge ok">pass</span>' : '<span class="badge bad">fail</span>';
    return (
      `<tr data-task="${e(d.task_id)}"><td><a class="episode" href="${e(href)}"><code>${e(d.task_id)}</code></a><br><span class="muted">${e(d.instruction)}</span></td>` +
      `<td>${e(d.site)}</td><td>${e(d.kind)}</td><td>${verifier}</td>${names.map((n) => `<td>${verdictBadge(d.verdicts[n] ?? null)}</td>`).join('')}</tr>`
    );
  });
  return (
    `<table id="disagreements" class="wide"><thead><tr><th>episode</th><th>site</th><th>kind</th><th>verifier</th>${names.map((n) => `<th>${e(n)}</th>`).join('')}</tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table>`
  );
}

/** The lab page for a {@link LabReport}. */
export function renderLabHtml(report: LabReport): string {
  const figures = labFigures(report);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${e(CSP)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>taskgen judge lab: ${e(report.run)}</title>
<style>${REPORT_CSS}${PLOT_CSS}
#variants td.num, #comparisons td.num { white-space: nowrap; }</style>
</head>
<body>
<header>
<h1>Judge lab</h1>
<p class="muted">run <code>${e(report.run)}</code> · ${num(report.episodes)} episodes with verifier results · baseline <code>${e(report.baseline)}</code> ·
<a href="${e(report.report_href)}">run report</a></p>
<p class="note">Precision is P(verifier passes | judge says SUCCESS): the share of training rows that are right. Intervals are 95% Wilson intervals; yield is the share judged SUCCESS.</p>
</header>
<section id="overall">
<h2>Variants against the verifiers</h2>
${figures.overall}
${variantsTable(report)}
${setupTable(report.variants)}
</section>
<section id="paired">
<h2>Against ${e(report.baseline)}, on the same episodes</h2>
<p class="note">Right means the judge agrees with the verifier. The exact McNemar test asks whether the episodes only one judge gets right lean one way more than chance.</p>
${comparisonTable(report)}
</section>
<section id="groups">
<h2>Per site</h2>
${figures.sites}
<details class="numbers"><summary>The numbers per site</summary>
${groupTable('by-site', 'site', report.variants, (v) => v.by_site)}
</details>
<h2>Per task kind</h2>
${figures.kinds}
<details class="numbers"><summary>The numbers per task kind</summary>
${groupTable('by-kind', 'kind', report.variants, (v) => v.by_kind)}
</details>
</section>
<section id="disagree">
<h2>Episodes the variants disagree on (${num(report.disagreements.length)})</h2>
${disagreementTable(report)}
</section>
</body>
</html>
`;
}
