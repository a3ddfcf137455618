/**
 * One temp root per test run, removed at its end: what the tests make with `tempDir` (and the `_judge`, `_report`
 * siblings they write beside it) goes there instead of piling up in the system temp dir.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(path.join(tmpdir(), 'taskgen-tests-'));
  process.env.TASKGEN_TEST_TMP = root;
  return () => rmSync(root, { recursive: true, force: true });
}
