/**
 * The agent is told only what its own action caused: over one episode of valid steps (in-site links only, never a
 * logout) on a site of every sandbox template, through the sandbox's evidence (MiniWeb's protocol), no observation
 * carries an error; the pages' own requests stopped at the boundary are counted in `episode.json`, never shown.
 * Every sandbox site: `npm run bench -- observation-errors`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHost, runAttempt, type BrowserHost } from 'miniweb-taskgen';
import { sandboxEvidence, startSandbox, type SandboxServer } from '../sandbox/index';
import { tempDir } from './helpers/runs';
import { homeTask, stepErrors, wanderPolicy } from './helpers/wander';

describe('observation errors the agent did not cause', () => {
  let sandbox: SandboxServer;
  let host: BrowserHost;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    host = browserHost();
  });
  afterAll(async () => {
    await host?.close();
    await sandbox?.close();
  });

  it('0 over one episode on a site of every sandbox template', async () => {
    const sites = sandbox.catalog.templateList().map((t) => `${t.id}-01`);
    const out = await tempDir('wander-sandbox-');
    await runAttempt({ tasks: sites.map(homeTask), policy: wanderPolicy(3), source: { baseUrl: sandbox.url }, evidence: sandboxEvidence({ url: sandbox.url }), browser: host, out, concurrency: 4 });
    let steps = 0;
    for (const site of sites) {
      const agent = JSON.parse(await readFile(path.join(out, `wander-${site}`, 'agent_steps.json'), 'utf8')) as { steps: Array<{ step: number; error: string | null; action: unknown }> };
      expect(stepErrors(agent.steps), site).toEqual([]);
      expect(agent.steps.filter((s) => s.action && 'click' in (s.action as object)).length, `${site} clicked its links`).toBeGreaterThan(0);
      steps += agent.steps.length;
    }
    expect(steps).toBeGreaterThanOrEqual(sites.length * 3);
  });
});
