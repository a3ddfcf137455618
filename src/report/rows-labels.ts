/**
 * The rows page's labels section: the selected rows per label source with each source's measured precision, the
 * judge configurations measured on the scored sets (and which one labels judge-only rows), the dataset's estimate,
 * the disagreements between verifier and judge, and every episode the labels left out, with why.
 * @module
 */
import type { LabelsReport, Precision } from '../rows/labels-format';
import { escapeHtml } from './escape';
import { count } from './svg/svg';

const e = (value: unknown) => escapeHtml(String(value));
const precision = (p: Precision | null) => (p ? `${p.precision.toFixed(3)} [${p.interval[0].toFixed(3)}, ${p.interval[1].toFixed(3)}] (${count(p.right)} of ${count(p.n)})` : 'not measured');

/** The section's HTML; empty when the rows step wrote no labels report. */
export function labelsSectionHtml(labels: LabelsReport | null | undefined): string {
  if (!labels) return '';
  const sources = labels.sources.map(
    (s) =>
      `<tr data-source="${e(s.source)}"><th scope="row">${e(s.source)}</th><td class="num">${count(s.episodes)}</td><td class="num">${count(s.rows)}</td>` +
      `<td>${e(precision(s.measured))}</td><td>${e(s.measured?.set ?? s.unmeasured ?? '')}</td></tr>`,
  );
  const configs = labels.configs.map(
    (c) =>
      `<tr data-config="${e(c.name)}"${c.name === labels.judge ? ' class="chosen"' : ''}><td>${e(c.name)}${c.name === labels.judge ? ' (labels the judge-only rows)' : ''}</td>` +
      `<td class="num">${count(c.tp)}</td><td class="num">${count(c.fp)}</td><td class="num">${count(c.abstained)}</td><td>${e(precision(c.precision))}</td><td class="num">${count(c.rows)}</td></tr>`,
  );
  const est = labels.estimate;
  const estimate = est
    ? `<p id="labels-estimate">Estimated label precision: <strong>${est.precision.toFixed(3)} [${est.interval[0].toFixed(3)}, ${est.interval[1].toFixed(3)}]</strong> over ${count(est.rows)} of ${count(est.of)} selected steps (measured sources, weighted by their steps).</p>`
    : '<p id="labels-estimate">Estimated label precision: not measured (no selected step comes from a measured source).</p>';
  const target = labels.min_precision !== null ? `<p id="labels-target">Precision target ${e(labels.min_precision)}: ${e(labels.target ?? `judge-only rows labelled by ${labels.judge ?? 'none'}`)}</p>` : '';
  const disagreements = labels.disagreements.map((d) => `<tr><td><a href="index.html#${e(d.task_id)}">${e(d.task_id)}</a></td><td>${e(d.source)}</td><td>${e(d.resolution)}</td></tr>`);
  const leftOut = labels.left_out.map((l) => `<tr><td><a href="index.html#${e(l.task_id)}">${e(l.task_id)}</a></td><td class="num">${count(l.rows)}</td><td>${e(l.reason)}</td></tr>`);
  return `<section id="labels">
<h2>Labels</h2>
<table id="label-sources"><thead><tr><th>source</th><th class="num">episodes</th><th class="num">steps</th><th>precision (95% Wilson)</th><th>measured on</th></tr></thead><tbody>${sources.join('')}</tbody></table>
${estimate}
${target}
<details class="numbers"><summary>Judge configurations on the scored sets (${e(labels.scored.map((s) => `${s.run}: ${s.episodes} episodes`).join('; ') || 'none')})</summary><table id="label-configs"><thead><tr><th>configuration</th><th class="num">SUCCESS, verifier passed</th><th class="num">SUCCESS, verifier failed</th><th class="num">abstained</th><th>precision</th><th class="num">judge-only steps it accepts</th></tr></thead><tbody>${configs.join('')}</tbody></table></details>
${disagreements.length ? `<h3>Verifier and judge disagree</h3><table id="label-disagreements"><thead><tr><th>episode</th><th>verifier</th><th>resolution</th></tr></thead><tbody>${disagreements.join('')}</tbody></table>` : ''}
${leftOut.length ? `<h3>Left out by their labels</h3><table id="label-left-out"><thead><tr><th>episode</th><th class="num">steps</th><th>why</th></tr></thead><tbody>${leftOut.join('')}</tbody></table>` : ''}
</section>`;
}
