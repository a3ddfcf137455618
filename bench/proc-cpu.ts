/**
 * CPU time of a process tree from /proc (Linux): user + system time of each process under a root pid, plus what
 * its reaped children left in `cutime`/`cstime`, so a Chromium renderer that exits between two readings still counts.
 * @module
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime, in seconds. */
  cpu: number;
}

function readStats(): ProcStat[] {
  const out: ProcStat[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = readFileSync(`/proc/${name}/stat`, 'utf8');
      // the command name is in parentheses and may hold spaces: the fields start after the last ')'
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]));
      out.push({ pid: Number(name), ppid: Number(fields[1]), cpu: (utime! + stime! + cutime! + cstime!) / TICKS });
    } catch {
      // the process ended while we read
    }
  }
  return out;
}

/** CPU seconds of the processes under `root` (not `root` itself), leaving out the subtrees of `exclude`. */
export function descendantsCpu(root: number, exclude: readonly number[] = []): number {
  const stats = readStats();
  const children = new Map<number, ProcStat[]>();
  for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  let total = 0;
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      if (exclude.includes(child.pid)) continue;
      total += child.cpu;
      walk(child.pid);
    }
  };
  walk(root);
  return total;
}

/** CPU seconds of one process and its reaped children. */
export function processCpu(pid: number): number {
  return readStats().find((s) => s.pid === pid)?.cpu ?? 0;
}
