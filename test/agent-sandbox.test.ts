import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { runAttempt, browserHost, scriptedPolicy, type BrowserHost } from '../src/index';
import { openEpisodePage } from '../src/browser/host';
import { observe } from '../src/browser/observe';
import { oraclePolicy, sandboxEvidence, startSandbox, type SandboxServer, type SandboxTask } from '../sandbox/index';

// End to end on the sandbox: the oracle (the sandbox's stand-in agent, which plays each human task's solution by
// element names through the real browser harness) completes the tasks and passes the verifiers, checked from the
// server's own evidence; an agent that does nothing fails every action task.

let sandbox: SandboxServer;
let host: BrowserHost;
let tmp: string;
let tasks: SandboxTask[];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, catalog: { variants: 1, testVariants: [] } });
  host = browserHost();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'agent-sandbox-'));
  // an info and an action task of each site, so the test stays bounded as templates are added
  tasks = sandbox.catalog.sites().flatMap((site) => {
    const human = sandbox.catalog.tasks(site)?.human ?? [];
    return [...human.filter((t) => t.task_kind === 'info').slice(0, 1), ...human.filter((t) => t.task_kind === 'action').slice(0, 1)];
  });
});
afterAll(async () => {
  await host.close();
  await sandbox.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('attempt on the sandbox', () => {
  it('the oracle completes every human task and its verifier passes', async () => {
    expect(tasks.length).toBeGreaterThanOrEqual(4);
    const out = path.join(tmp, 'oracle');
    const failures: string[] = [];
    const summary = await runAttempt({
      tasks,
      onEvent: (e) => void (e.type === 'episode-failed' && failures.push(`${e.taskId}: ${e.error}`)),
      policy: oraclePolicy({ tasks }),
      source: { baseUrl: sandbox.url },
      evidence: sandboxEvidence({ url: sandbox.url }),
      out,
      browser: host,
      concurrency: 2,
    });
    expect(failures).toEqual([]);
    const results = (await readFile(path.join(out, 'results.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    // each failure with its checks, actions and last page, so a red run says why
    const failing = await Promise.all(results.filter((r) => !r.ok).map(async (r) => {
      const episode = JSON.parse(await readFile(path.join(out, r.task_id, 'episode.json'), 'utf8'));
      const grade = JSON.parse(await readFile(path.join(out, r.task_id, 'grade_inputs.json'), 'utf8'));
      return `${r.task_id}: ${JSON.stringify(episode.checks)}\n${JSON.stringify(grade.actions)}\n${grade.seen.at(-1).slice(0, 600)}`;
    }));
    expect(failing).toEqual([]);
    expect(summary).toMatchObject({ recorded: tasks.length, failed: 0, verified: { total: tasks.length, passed: tasks.length } });
    expect(summary.outcomes.done).toBe(tasks.length);
    // the server's evidence: an action task's episode shows its data changes
    const action = tasks.find((t) => t.task_kind === 'action' && t.verifier && 'state' in t.verifier && t.verifier.state)!;
    const grade = JSON.parse(await readFile(path.join(out, action.task_id, 'grade_inputs.json'), 'utf8'));
    expect(grade.changes.length).toBeGreaterThan(0);
    expect(grade.log.some((e: { method: string }) => e.method === 'POST')).toBe(true);
  });

  it('an agent that does nothing fails every action task', async () => {
    const out = path.join(tmp, 'idle');
    const actionTasks = tasks.filter((t) => t.task_kind === 'action');
    await runAttempt({
      tasks: actionTasks,
      policy: scriptedPolicy([{ done: {} }]),
      source: { baseUrl: sandbox.url },
      evidence: sandboxEvidence({ url: sandbox.url }),
      out,
      browser: host,
      concurrency: 2,
    });
    const results = (await readFile(path.join(out, 'results.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(results).toHaveLength(actionTasks.length);
    expect(results.filter((r) => r.ok)).toEqual([]);
  });
});

// The observation's screenshot goes through CDP (fast PNG encoding) rather than `page.screenshot()`: its pixels
// must be those Playwright's screenshot gives, on every site's start page, with a text caret in a focused field,
// and scrolled down.
describe('the step screenshot', () => {
  const pixels = async (png: Uint8Array) => {
    const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    return { data, size: `${info.width}x${info.height}` };
  };

  it('decodes to the same pixels as page.screenshot()', async () => {
    const sites = sandbox.catalog.sites();
    expect(sites.length).toBeGreaterThanOrEqual(2);
    const differ: string[] = [];
    let scrolledAway = 0;
    for (const site of sites) {
      const ep = await openEpisodePage(host, { origin: new URL(sandbox.url).origin, prefix: `/sites/${site}/` });
      try {
        await ep.page.goto(`${sandbox.url}/sites/${site}/`, { waitUntil: 'load' });
        const compare = async (what: string, step: number) => {
          const ours = await pixels((await observe(ep.page, { step })).screenshot);
          const theirs = await pixels(await ep.page.screenshot({ type: 'png' }));
          expect(ours.size).toBe('1280x800');
          if (ours.size !== theirs.size || !ours.data.equals(theirs.data)) differ.push(`${site} ${what}`);
          return ours.data;
        };
        const top = await compare('start page', 0);
        if (await ep.page.locator('input:not([type=hidden]),textarea').first().focus({ timeout: 2000 }).then(() => true, () => false)) {
          await compare('a focused field', 1);
        }
        const scrolled = (await ep.page.evaluate('window.scrollBy(0, 600), window.scrollY')) as number;
        const below = await compare('scrolled', 2);
        if (scrolled > 0 && !below.equals(top)) scrolledAway++;
      } finally {
        await ep.close();
      }
    }
    expect(differ).toEqual([]);
    // the comparison sees a change on the page: a scrolled page decodes differently from its top
    expect(scrolledAway).toBeGreaterThan(0);
  });
});
