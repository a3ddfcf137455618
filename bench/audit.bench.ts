/**
 * The claims audit of one sandbox pipeline run: accepted relabels and kept written verifiers on their do-nothing
 * episodes and at their episodes' start (both must be 0), relabel precision against the hand-written verifiers on
 * the state at the cut, and the written verifiers on their site's other tasks' episodes (cross pairs).
 *
 * On a work dir made by `npm run taskgen -- pipeline --sandbox --sandbox-sites 12 --per-site 10 --out DIR`
 * (AUDIT_DIR, required): not a timing, a measurement of the claims.
 */
import path from 'node:path';
import { relabelFigures, writtenFigures } from './claim-figures';

const dir = process.env.AUDIT_DIR;
if (!dir) {
  process.stdout.write('AUDIT_DIR is not set: make one with `npm run taskgen -- pipeline --sandbox --sandbox-sites 12 --per-site 10 --out DIR`\n');
} else {
  const run = path.join(dir, 'run');
  for (const line of await relabelFigures(`${run}_relabel`)) process.stdout.write(`${line}\n`);
  for (const line of await writtenFigures(run, path.join(dir, 'verifiers.jsonl'))) process.stdout.write(`${line}\n`);
}
