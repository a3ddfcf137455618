/**
 * CPU time and memory of a process tree from /proc (Linux): user + system time of each process under a root pid,
 * plus what its reaped children left in `cutime`/`cstime`, so a Chromium renderer that exits between two readings
 * still counts; its minor page faults the same way (`minflt` + `cminflt`: memory touched for the first time, which
 * costs CPU of its own, see bench/fresh-pages.ts); and the tree's proportional set size (PSS: shared pages split
 * between the processes that map them).
 * @module
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

interface ProcStat {
  pid: number;
  ppid: number;
  /** The command name (`chromium`, `node`...). */
  name: string;
  /** utime + stime + cutime + cstime, in seconds. */
  cpu: number;
  /** utime + stime alone, in seconds. */
  own: number;
  /** minflt + cminflt: minor page faults, its reaped children's included. */
  faults: number;
  /** minflt alone. */
  ownFaults: number;
}

function readStats(): ProcStat[] {
  const out: ProcStat[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = readFileSync(`/proc/${name}/stat`, 'utf8');
      // the command name is in parentheses and may hold spaces: the fields start after the last ')'
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      const [minflt, cminflt, utime, stime, cutime, cstime] = [7, 8, 11, 12, 13, 14].map((i) => Number(fields[i]));
      const comm = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
      out.push({
        pid: Number(name), ppid: Number(fields[1]), name: comm,
        cpu: (utime! + stime! + cutime! + cstime!) / TICKS, own: (utime! + stime!) / TICKS,
        faults: minflt! + cminflt!, ownFaults: minflt!,
      });
    } catch {
      // the process ended while we read
    }
  }
  return out;
}

/** Which processes of a tree count: by command name (`/chrom|headless/` for Chromium's). Default all. */
export interface TreeFilter {
  /** Subtrees left out (their roots' pids). */
  readonly exclude?: readonly number[];
  /** Only processes whose command name matches count (their children are still walked). */
  readonly name?: RegExp;
}

function descendants(root: number, filter: TreeFilter): ProcStat[] {
  const stats = readStats();
  const children = new Map<number, ProcStat[]>();
  for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  const found: ProcStat[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      if (filter.exclude?.includes(child.pid)) continue;
      if (!filter.name || filter.name.test(child.name)) found.push(child);
      walk(child.pid);
    }
  };
  walk(root);
  return found;
}

/** CPU seconds of the processes under `root` (not `root` itself), leaving out the subtrees of `exclude`. */
export function descendantsCpu(root: number, exclude: readonly number[] | TreeFilter = []): number {
  const filter = Array.isArray(exclude) ? { exclude } : (exclude as TreeFilter);
  return descendants(root, filter).reduce((sum, s) => sum + s.cpu, 0);
}

/** Minor page faults of the processes under `root` (not `root` itself) that `filter` keeps, their reaped children's included. */
export function descendantsFaults(root: number, filter: TreeFilter = {}): number {
  return descendants(root, filter).reduce((sum, s) => sum + s.faults, 0);
}

/** Minor page faults of one process and its reaped children. */
export function processFaults(pid: number): number {
  return readStats().find((s) => s.pid === pid)?.faults ?? 0;
}

/** The PSS in bytes of the processes under `root` that `filter` keeps. */
export function descendantsPss(root: number, filter: TreeFilter = {}): number {
  let total = 0;
  for (const s of descendants(root, filter)) {
    try {
      const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${s.pid}/smaps_rollup`, 'utf8'));
      if (m) total += Number(m[1]) * 1024;
    } catch {
      // the process ended while we read
    }
  }
  return total;
}

/** CPU seconds of one process and its reaped children. */
export function processCpu(pid: number): number {
  return readStats().find((s) => s.pid === pid)?.cpu ?? 0;
}

/** The pids of the direct children of `pid` whose command name matches `name`. */
export function childPids(pid: number, name: RegExp): number[] {
  return readStats().filter((s) => s.ppid === pid && name.test(s.name)).map((s) => s.pid);
}

// A Chromium process's kind from its command line (Chromium rewrites it into one space-separated string):
// browser, renderer, gpu-process, zygote, utility:NetworkService..., with `:webui` for a WebUI renderer.
function chromiumKind(pid: number): string {
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
    let kind = cmd.find((a) => a.startsWith('--type='))?.slice('--type='.length) ?? 'browser';
    const sub = cmd.find((a) => a.startsWith('--utility-sub-type='));
    if (sub) kind += `:${sub.split('.').at(-1)}`;
    if (cmd.includes('--top-chrome-webui')) kind += ':webui';
    return kind;
  } catch {
    return 'gone';
  }
}

/**
 * CPU seconds of the processes under `root` that `filter` keeps, by Chromium process kind. A zygote's exited
 * children are renderers (counted as `renderer`); other exited children count as `<kind> children`.
 */
export function descendantsCpuByKind(root: number, filter: TreeFilter = {}): Map<string, number> {
  return byKind(root, filter, (s) => [s.own, s.cpu]);
}

/** Minor page faults of the processes under `root` that `filter` keeps, by Chromium process kind (as {@link descendantsCpuByKind}). */
export function descendantsFaultsByKind(root: number, filter: TreeFilter = {}): Map<string, number> {
  return byKind(root, filter, (s) => [s.ownFaults, s.faults]);
}

function byKind(root: number, filter: TreeFilter, pick: (s: ProcStat) => [own: number, withChildren: number]): Map<string, number> {
  const out = new Map<string, number>();
  const add = (kind: string, n: number) => out.set(kind, (out.get(kind) ?? 0) + n);
  for (const s of descendants(root, filter)) {
    const kind = chromiumKind(s.pid);
    const [own, all] = pick(s);
    add(kind, own);
    if (all > own) add(kind === 'zygote' ? 'renderer' : `${kind} children`, all - own);
  }
  return out;
}
