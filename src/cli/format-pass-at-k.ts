/** pass@k as the CLI prints it: one line overall, one per site. @module */
import type { PassAtKCurve, PassAtKReport } from '../validate/pass-at-k';

/**
 * `pass@k (12 tasks, up to 4 tries; interval: ...)` then `all: pass@1 0.52 [0.40-0.63] ... | solved 9/12, sometimes
 * 5/12 (42%)` and the same per site. Nothing for a run without a counted try.
 */
export function formatPassAtK(report: PassAtKReport): string[] {
  if (report.overall.tasks === 0) return [`pass@k: no try of ${report.run} has a verifier result or a judge verdict yet`];
  const sources = { verifier: 0, 'written-verifier': 0, judge: 0 };
  for (const t of report.tasks) for (const o of t.tries) if (o.source) sources[o.source]++;
  const head = `pass@k of ${report.run}: ${report.overall.tasks} tasks, ${report.attempts} tries (rewards: ${sources.verifier} by verifier, ${sources['written-verifier']} by written verifier, ${sources.judge} by judge; interval: ${report.interval})`;
  const width = Math.max(3, ...report.bySite.map((s) => s.site.length));
  return [head, curveLine('all'.padEnd(width), report.overall), ...report.bySite.map((s) => curveLine(s.site.padEnd(width), s.curve))];
}

function curveLine(label: string, c: PassAtKCurve): string {
  const f = (x: number) => x.toFixed(2);
  const points = c.points.map((p) => `pass@${p.k} ${f(p.estimate)} [${f(p.low)}-${f(p.high)}]`).join('  ');
  return `  ${label}  ${points}  | solved ${c.solved}/${c.tasks}, sometimes ${c.sometimes}/${c.tasks} (${Math.round(c.sometimesShare * 100)}%)`;
}
