/**
 * The dataset card's "Labels" section: the training rows per label source (counted from the rows themselves), each
 * source's measured precision with its interval and the set it was measured on (from `<rows>_labels.json`), and the
 * dataset's estimated label precision, so a reader knows what they train on.
 * @module
 */
import { estimateOf } from '../rows/label-rows';
import { LABEL_SOURCES, type LabelsReport, type SourceFigures } from '../rows/labels-format';
import type { Provenance } from '../rows/provenance';

/** What the section is written from. */
export interface LabelsCardInput {
  /** The steps' provenance, one per episode with its row count. */
  readonly steps: ReadonlyArray<{ readonly provenance: Provenance; readonly rows: number }>;
  /** The rows step's `<rows>_labels.json`, when it wrote one. */
  readonly labels: LabelsReport | null;
}

/** The rows per source of the dataset, with each source's measurement from the labels report. */
export function cardSources(input: LabelsCardInput): SourceFigures[] {
  return LABEL_SOURCES.map((source) => {
    const mine = input.steps.filter((s) => s.provenance.label_source === source);
    const given = input.labels?.sources.find((s) => s.source === source);
    return {
      source,
      episodes: mine.length,
      rows: mine.reduce((n, s) => n + s.rows, 0),
      measured: given?.measured ?? null,
      unmeasured: given ? given.unmeasured : 'not measured: the rows step wrote no labels report for these rows',
    };
  });
}

/** The "Labels" section's markdown (without its heading). */
export function labelsSection(input: LabelsCardInput, table: (head: readonly string[], rows: ReadonlyArray<readonly string[]>) => string): string {
  const sources = cardSources(input);
  const unknown = input.steps.filter((s) => s.provenance.label_source === null).reduce((n, s) => n + s.rows, 0);
  const rows = sources.map((s) => [
    s.source,
    String(s.episodes),
    String(s.rows),
    s.measured ? `${s.measured.precision.toFixed(3)} [${s.measured.interval[0].toFixed(3)}, ${s.measured.interval[1].toFixed(3)}] (${s.measured.right} of ${s.measured.n})` : 'not measured',
    s.measured ? s.measured.set : (s.unmeasured ?? ''),
  ]);
  const lines = [
    'Where each training row\'s label came from (the column `label_source`): `verifier` (a hand-written task verifier), ' +
      '`written-verifier` (a written claim checked on the server\'s record of the episode), `relabel` (a relabeled task: its ' +
      'claim checked, then judged) or `judge` (the LLM judge alone). Where a verifier and the judge disagree the verifier\'s ' +
      'word holds. Precision is the share of right labels, with its 95% Wilson interval and the set it was measured on:',
    '',
    table(['source', 'episodes', 'training steps', 'precision', 'measured on'], rows),
    '',
  ];
  if (unknown > 0) lines.push(`${unknown} training steps name no label source (their rows were selected by an earlier taskgen).`, '');
  const l = input.labels;
  if (l?.judge) lines.push(`Judge-only rows are labelled by the judge configuration \`${l.judge}\`${l.min_precision !== null ? `, chosen for the precision target ${l.min_precision} (the most rows whose lower 95% bound reaches it)` : ''}.`, '');
  if (l?.target) lines.push(`Precision target: ${l.target}.`, '');
  const est = estimateOf(sources);
  lines.push(
    est
      ? `**Estimated label precision of the dataset: ${est.precision.toFixed(3)} [${est.interval[0].toFixed(3)}, ${est.interval[1].toFixed(3)}]** over ${est.rows} of ${est.of} training steps: ` +
          'the measured sources\' precisions weighted by their steps; the interval, for the share of right labels among these steps, ' +
          'weights the ends of each source\'s 95% Wilson interval widened by z·sqrt(p(1-p)/episodes) for the chance in which episodes were kept' +
          (est.rows < est.of ? `; the ${est.of - est.rows} steps of unmeasured sources are not in it.` : '.')
      : 'Estimated label precision of the dataset: not measured (no training step comes from a measured source).',
  );
  if (l && (l.left_out.length > 0 || l.disagreements.length > 0)) {
    lines.push('', `Left out by their labels: ${l.left_out.length} judged successes (${l.disagreements.length} where a verifier failed what the judge passed); \`<rows>_labels.json\` names each.`);
  }
  return lines.join('\n');
}
