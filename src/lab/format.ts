/** The lab's figures as text, for the CLI to print. @module */
import { formatCount } from '../models/usage';
import type { Interval } from '../core/schemas';
import { formatP, formatSigned } from './html';
import type { LabReport } from './types';

const ci = (x: number, i: Interval) => `${x.toFixed(3)} ${i ? `[${i[0].toFixed(3)}, ${i[1].toFixed(3)}]` : '[-]'}`;
const signed = formatSigned;

/**
 * A table per variant (agreement, precision, recall with 95% intervals, yield, calls, tokens, cost), then each
 * variant against the baseline (McNemar's discordant counts, the agreement difference and its exact p-value).
 */
export function formatLab(report: LabReport): string {
  const width = Math.max(8, ...report.variants.map((v) => v.name.length));
  const lines = [`judge lab on ${report.run}: ${formatCount(report.episodes)} episodes with verifier results`];
  for (const v of report.variants) {
    const s = v.overall;
    const cost = `${v.usage.priced ? '' : '>= '}$${v.usage.cost.toFixed(4)}`;
    lines.push(
      `  ${v.name.padEnd(width)} n=${String(s.episodes).padStart(4)}  agreement ${ci(s.agreement, s.agreement_ci)}  precision ${ci(s.precision, s.precision_ci)}  ` +
        `recall ${ci(s.recall, s.recall_ci)}  yield ${s.yield.toFixed(3)}  ${formatCount(v.usage.calls)} calls  ` +
        `${formatCount(v.usage.input_tokens)} in / ${formatCount(v.usage.output_tokens)} out  ${cost}${v.missing ? `  (${v.missing} not judged)` : ''}`,
    );
  }
  if (report.comparisons.length) lines.push(`against ${report.baseline}, on the episodes both judged:`);
  for (const c of report.comparisons) {
    lines.push(
      `  ${c.variant.padEnd(width)} n=${String(c.episodes).padStart(4)}  only ${report.baseline} right ${c.baseline_only}, only ${c.variant} right ${c.variant_only}  ` +
        `agreement ${signed(c.agreement_diff)} (exact McNemar p ${formatP(c.p)})  precision ${signed(c.precision_diff)}  yield ${signed(c.yield_diff)}`,
    );
  }
  lines.push(`episodes the variants disagree on: ${formatCount(report.disagreements.length)}`);
  return lines.join('\n');
}
