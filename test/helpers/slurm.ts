/**
 * A private single-node Slurm for a test run (DESIGN.md section 8): `munged`, `slurmctld` and `slurmd` as root,
 * with their key, sockets, state, spool, pid and log files in a temp dir, on free ports, so it touches nothing of
 * the machine's own setup. Clients reach it through `SLURM_CONF` (see {@link SlurmCluster.env}).
 * @module
 */
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The programs a private Slurm needs (Debian `slurm-wlm` and `munge`). */
const PROGRAMS = ['munged', 'slurmctld', 'slurmd', 'sbatch', 'sinfo', 'squeue', 'scontrol'] as const;

/** A running private Slurm. */
export interface SlurmCluster {
  /** Its temp dir (config, state, logs). */
  readonly dir: string;
  /** Environment for its clients (`sbatch`, `squeue`, ...): `SLURM_CONF` pointing at its config. */
  readonly env: NodeJS.ProcessEnv;
  /** The daemons' logs, for a failing test to show. */
  logs(): Promise<string>;
  /** Stops the three daemons by their pid files and waits until they are gone. */
  stop(): Promise<void>;
}

/** Why a private Slurm cannot start here (a program missing, not root), or null when it can. */
export function slurmUnavailable(): string | null {
  const missing = PROGRAMS.filter((p) => spawnSync('sh', ['-c', `command -v ${p}`], { env: withSbin(process.env) }).status !== 0);
  if (missing.length) return `no ${missing.join(', ')} on this machine (apt-get install slurm-wlm munge; .ci/run installs them)`;
  if (process.getuid?.() !== 0) return 'the private Slurm runs its daemons as root, and this test is not root';
  return null;
}

// The daemons live in /usr/sbin, which a non-login PATH may lack.
function withSbin(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const parts = (env.PATH ?? '').split(':');
  for (const dir of ['/usr/sbin', '/sbin']) if (!parts.includes(dir)) parts.push(dir);
  return { ...env, PATH: parts.join(':') };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts munged, slurmctld and slurmd in `dir` and waits until the node is `idle`. On any failure the daemons
 * started so far are stopped before the error (which carries their logs) is thrown.
 */
export async function startSlurm(dir: string): Promise<SlurmCluster> {
  await mkdir(dir, { recursive: true });
  for (const sub of ['state', 'spool', 'run', 'log']) await mkdir(path.join(dir, sub), { recursive: true });
  const f = (...parts: string[]) => path.join(dir, ...parts);
  const env = withSbin(process.env);

  const key = f('munge.key');
  await writeFile(key, randomBytes(1024));
  await chmod(key, 0o400);
  const socket = f('run', 'munge.socket');
  const conf = f('slurm.conf');
  const [ctldPort, dPort] = [await freePort(), await freePort()];
  const host = os.hostname().split('.')[0]!;
  const cpus = os.cpus().length;
  await writeFile(
    conf,
    [
      'ClusterName=taskgen-test',
      `SlurmctldHost=${host}(127.0.0.1)`, // addresses given, so nothing depends on the host name resolving
      'AuthType=auth/munge',
      `AuthInfo=socket=${socket}`,
      'CredType=cred/munge',
      'SlurmUser=root',
      'SlurmdUser=root',
      `SlurmctldPort=${ctldPort}`,
      `SlurmdPort=${dPort}`,
      'ProctrackType=proctrack/linuxproc',
      'TaskPlugin=task/none',
      'JobAcctGatherType=jobacct_gather/none',
      'AccountingStorageType=accounting_storage/none',
      'SelectType=select/cons_tres',
      'SelectTypeParameters=CR_Core',
      'MpiDefault=none',
      'ReturnToService=2',
      `StateSaveLocation=${f('state')}`,
      `SlurmdSpoolDir=${f('spool')}`,
      `SlurmctldPidFile=${f('run', 'slurmctld.pid')}`,
      `SlurmdPidFile=${f('run', 'slurmd.pid')}`,
      `SlurmctldLogFile=${f('log', 'slurmctld.log')}`,
      `SlurmdLogFile=${f('log', 'slurmd.log')}`,
      'SlurmctldDebug=info',
      'SlurmdDebug=info',
      // each array task gets a core of its own when there are enough; FORCE lets a 3-task array run at once on 2 cores
      `NodeName=${host} NodeAddr=127.0.0.1 CPUs=${cpus} State=UNKNOWN`,
      `PartitionName=test Nodes=${host} Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4`,
      '',
    ].join('\n'),
  );
  const clientEnv: NodeJS.ProcessEnv = { ...env, SLURM_CONF: conf };
  const pidFiles = [f('run', 'slurmd.pid'), f('run', 'slurmctld.pid'), f('run', 'munged.pid')];
  const logs = async () => {
    const parts: string[] = [];
    for (const name of ['munged.log', 'slurmctld.log', 'slurmd.log']) {
      const file = f('log', name);
      if (existsSync(file)) parts.push(`== ${name}\n${(await readFile(file, 'utf8')).split('\n').slice(-30).join('\n')}`);
    }
    return parts.join('\n');
  };
  const cluster: SlurmCluster = { dir, env: clientEnv, logs, stop: () => stopByPidFiles(pidFiles) };
  try {
    await run('munged', ['--force', '--key-file', key, '--socket', socket, '--pid-file', pidFiles[2]!, '--log-file', f('log', 'munged.log'), '--seed-file', f('run', 'munge.seed')], { env });
    await run('slurmctld', ['-f', conf], { env });
    await run('slurmd', ['-f', conf], { env });
    await waitIdle(clientEnv);
    return cluster;
  } catch (error) {
    const text = await logs();
    await cluster.stop();
    throw new Error(`the private Slurm did not start: ${error instanceof Error ? error.message : String(error)}\n${text}`);
  }
}

async function waitIdle(env: NodeJS.ProcessEnv): Promise<void> {
  let last = '';
  for (let i = 0; i < 300; i++) {
    try {
      last = (await run('sinfo', ['-h', '-o', '%T'], { env })).stdout.trim();
      if (last === 'idle') return;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the node never became idle (sinfo: ${last})`);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// SIGTERM to each daemon named in a pid file, SIGKILL to any still there after 10 s.
async function stopByPidFiles(files: readonly string[]): Promise<void> {
  const pids: number[] = [];
  for (const file of files) {
    const pid = existsSync(file) ? Number.parseInt(await readFile(file, 'utf8'), 10) : NaN;
    if (!Number.isInteger(pid) || pid <= 1 || !alive(pid)) continue;
    process.kill(pid, 'SIGTERM');
    pids.push(pid);
  }
  for (let i = 0; i < 100 && pids.some(alive); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
}
