/** What the soak bench reads of the server process from /proc and from its own memory readings. @module */
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The process's resident memory in MiB, from /proc/<pid>/status. */
export function serverRssMiB(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}
/** How many fds the process has open. */
export const fds = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;
/**
 * What each open fd is (`socket:[123]`, `pipe:[45]`, a path), so extra ones at the end can be named; a TCP socket
 * with its local and remote ports from /proc/<pid>/net/tcp.
 */
export function fdKinds(pid: number): string[] {
  const tcp = new Map<string, string>();
  for (const line of readFileSync(`/proc/${pid}/net/tcp`, 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length > 9) tcp.set(f[9]!, `tcp ${parseInt(f[1]!.split(':')[1]!, 16)}->${parseInt(f[2]!.split(':')[1]!, 16)} state ${f[3]}`);
  }
  return readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
    try {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
      return [inode && tcp.has(inode) ? tcp.get(inode)! : link.replace(/\[\d+\]$/, '')];
    } catch {
      return [];
    }
  });
}
/** The fds in `now` beyond those in `before`, by kind. */
export function extraFds(before: string[], now: string[]): string {
  const left = new Map<string, number>();
  const kind = (k: string) => k.replace(/\d+->\d+/, '->'); // a connection by kind and state, its ports aside
  for (const k of before.map(kind)) left.set(k, (left.get(k) ?? 0) + 1);
  const extra: string[] = [];
  for (const k of now) {
    const key = kind(k);
    if (left.get(key)) left.set(key, left.get(key)! - 1);
    else extra.push(k);
  }
  return extra.join(', ');
}
/** One of the server's own memory readings (bench/server-memory.ts), bytes: `process.memoryUsage()`. */
export interface ServerMemoryReading {
  readonly t: number;
  readonly rss: number;
  readonly heapUsed: number;
  /** V8's committed heap: the live heap, the garbage not yet collected, and free pages it keeps. */
  readonly heapTotal: number;
  /** Memory of JS objects held outside the heap (Buffers, ArrayBuffers). */
  readonly external: number;
}

/** The server's memory readings (bench/server-memory.ts) since `since` (ms since the epoch). */
export function serverMemory(file: string, since: number): ServerMemoryReading[] {
  const all = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()) : [];
  const got = all.map((l) => JSON.parse(l) as ServerMemoryReading).filter((m) => m.t > since);
  return got.length ? got : [{ t: since, rss: NaN, heapUsed: NaN, heapTotal: NaN, external: NaN }];
}
