/** Python's `str(Path(p))` on POSIX. @module */

/**
 * `str(pathlib.PurePosixPath(p))`: repeated slashes and `.` parts dropped, a trailing slash dropped, `..` kept,
 * exactly two leading slashes kept. The seed names the judge dir `str(run) + "_judge"` and writes `str(run)` into
 * the rows report, so these must match.
 */
export function pyPathStr(p: string): string {
  if (p === '') return '.';
  const lead = p.startsWith('//') && !p.startsWith('///') ? '//' : p.startsWith('/') ? '/' : '';
  const parts = p.split('/').filter((part) => part !== '' && part !== '.');
  const body = parts.join('/');
  return lead + body || '.';
}
