/**
 * Errors in the agent's observations that its own action did not cause, over one episode on every site: a policy of
 * valid steps only (test/helpers/wander.ts: in-site links, never a logout), so every error it is told of is counted.
 * On every sandbox site (its own evidence, the MiniWeb protocol), and, when `MINIWEB_URL` and `MINIWEB_DB` are set, on
 * every site of that real MiniWeb that renders (home page below 400). Per run: sites, steps, errors (must be 0), the
 * requests the pages made by themselves that were stopped (`page_blocked`) and the recorder posts let through
 * (`page_posts`). `WANDER_STEPS` (default 3) steps per episode.
 */
import { readFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { browserHost, miniwebEvidence, runAttempt, type EvidenceProvider } from '../src/index';
import { sandboxEvidence, startSandbox } from '../sandbox/index';
import { homeTask, stepErrors, wanderPolicy } from '../test/helpers/wander';

const STEPS = Number(process.env.WANDER_STEPS ?? 3);
const host = browserHost();

async function sweep(name: string, baseUrl: string, sites: readonly string[], evidence: EvidenceProvider): Promise<void> {
  const out = await mkdtemp(path.join(os.tmpdir(), 'wander-'));
  try {
    await runAttempt({ tasks: sites.map(homeTask), policy: wanderPolicy(STEPS), source: { baseUrl }, evidence, browser: host, out, concurrency: 4, stopAfterFailures: 0 });
    let steps = 0;
    let blocked = 0;
    let posts = 0;
    let missing = 0;
    const errors: string[] = [];
    for (const site of sites) {
      const dir = path.join(out, `wander-${site}`);
      const read = async (f: string) => JSON.parse(await readFile(path.join(dir, f), 'utf8')) as Record<string, unknown>;
      const episode = await read('episode.json').catch(() => null);
      if (!episode) {
        missing++;
        continue;
      }
      const agent = (await read('agent_steps.json')).steps as Array<{ step: number; error: string | null }>;
      steps += agent.length;
      for (const e of stepErrors(agent)) errors.push(`${site} step ${e.step}: ${e.error}`);
      blocked += (episode.page_blocked as { count: number } | undefined)?.count ?? 0;
      posts += (episode.page_posts as number | undefined) ?? 0;
    }
    process.stdout.write(`${name}: ${sites.length} sites, ${steps} steps, ${errors.length} errors the agent did not cause, ${missing} episodes not recorded; ` +
      `the pages' own requests: ${blocked} stopped (never shown), ${posts} recorder posts let through\n`);
    for (const e of errors.slice(0, 20)) process.stdout.write(`  ${e}\n`);
    if (errors.length || missing) process.exitCode = 1;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

try {
  const sandbox = await startSandbox({ port: 0 });
  try {
    await sweep('sandbox', sandbox.url, sandbox.catalog.sites(), sandboxEvidence({ url: sandbox.url }));
  } finally {
    await sandbox.close();
  }
  const url = process.env.MINIWEB_URL;
  const database = process.env.MINIWEB_DB;
  if (url && database) {
    const portal = await (await fetch(`${url}/`)).text();
    const listed = [...new Set([...portal.matchAll(/\/sites\/([a-z0-9-]+)\//g)].map((m) => m[1]!))].sort();
    const renders: string[] = [];
    for (const site of listed) if ((await fetch(`${url}/sites/${site}/`)).status < 400) renders.push(site);
    process.stdout.write(`MiniWeb at ${url}: ${listed.length} sites listed, ${renders.length} render\n`);
    const evidence = miniwebEvidence({ url, database });
    try {
      await sweep('MiniWeb', url, renders, evidence);
    } finally {
      evidence.close();
    }
  } else {
    process.stdout.write('MiniWeb: skipped (set MINIWEB_URL and MINIWEB_DB for a real MiniWeb)\n');
  }
} finally {
  await host.close();
}
