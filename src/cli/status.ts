/** `taskgen status RUN`: progress of a run across its shards, to watch a job array and rerun what died. @module */
import type { Command } from 'commander';
import { formatRunStatus, runStatus } from '../shards/status';
import { integer } from './flags';

/** Registers `taskgen status`. */
export function register(program: Command): void {
  program
    .command('status')
    .description('progress of a run dir across shards: episodes done, running (host, pid, age, steps) and left per shard, and the shards to rerun')
    .argument('<run>', 'the run dir')
    .option('--shards <n>', 'the shard count (default: the one in the running claims, else 1)', integer(1))
    .option('--episode-timeout <s>', 'the episode time limit the run uses: a claim silent this long is stale', integer(1), 300)
    .option('--attempts <k>', 'tries per task (default: the try dirs on disk, <run>/_tries/<n>/)', integer(1))
    .option('--json', 'print the status as JSON', false)
    .action(async (run: string, flags: { shards?: number; attempts?: number; episodeTimeout: number; json: boolean }) => {
      const status = await runStatus({ run, ...(flags.shards ? { shardCount: flags.shards } : {}), ...(flags.attempts ? { attempts: flags.attempts } : {}), staleMs: flags.episodeTimeout * 1000 });
      process.stdout.write(`${flags.json ? JSON.stringify(status) : formatRunStatus(status)}\n`);
    });
}
