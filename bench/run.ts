/**
 * `npm run bench [-- name...]`: runs every `bench/*.bench.ts` (or those whose name contains a given word), one
 * process each so their timings and memory do not mix, and lets each print its own figures. A word picks by file
 * name: `npm run bench -- attempts` runs `attempts.bench.ts` (several tries per task: pass@k, rows per task).
 */
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((w) => f.includes(w)))
  .sort();
let failed = 0;
for (const file of files) {
  process.stdout.write(`\n== ${file}\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, file)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
if (files.length === 0) process.stdout.write(`no benchmark matches ${filters.join(' ')}\n`);
process.exitCode = failed ? 1 : 0;
