import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAttempt, browserHost, scriptedPolicy, type AttemptEvent, type BrowserHost, type PolicyInput } from '../src/index';
import { STATIC_PATH } from '../src/attempt/evidence';
import { AGENT_SYSTEM_PROMPT } from '../src/agent/prompt';
import { judgePrompt } from '../src/judge';
import { EpisodeSchema, GradeInputsSchema, RowSchema, type Task } from '../src/core/schemas';
import { fixtureTask, startFixtureSite, type FixtureSite } from './agent-fixture';

let site: FixtureSite;
let host: BrowserHost;
let tmp: string;

beforeAll(async () => {
  site = await startFixtureSite();
  host = browserHost();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'agent-attempt-'));
});
afterAll(async () => {
  await host.close();
  await site.close();
  await rm(tmp, { recursive: true, force: true });
});

const readJson = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
const readLines = async (file: string) => (await readFile(file, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
const index = (input: PolicyInput, name: string) => {
  const e = input.observation.elements.find((x) => x.name === name);
  if (!e) throw new Error(`no ${name} on ${input.observation.url}`);
  return e.index;
};

describe('attempt', () => {
  it('records an episode: grade inputs, screenshots, rows, episode.json, results', async () => {
    const out = path.join(tmp, 'run1');
    const task = fixtureTask('buy-kettle', 'Add the Blue Kettle to the cart', {
      verifier: { requests: [{ method: 'POST', path: '/sites/shop/cart', params: { item: '1' } }], answer: { type: 'includes', value: ['Blue Kettle'] } },
    });
    const events: AttemptEvent[] = [];
    const summary = await runAttempt({
      tasks: [task],
      policy: scriptedPolicy((input) => {
        if (input.step === 0) return { click: { index: index(input, 'Blue Kettle') } };
        if (input.step === 1) return { click: { index: index(input, 'Add to cart') } };
        return { done: { answer: 'Blue Kettle' } };
      }),
      source: { baseUrl: site.baseUrl },
      out,
      browser: host,
      onEvent: (e) => events.push(e),
    });
    expect(summary).toMatchObject({ tasks: 1, skipped: 0, recorded: 1, failed: 0, steps: 3, verified: { total: 1, passed: 1 } });
    expect(summary.outcomes.done).toBe(1);
    expect(events.map((e) => e.type)).toEqual(['run-start', 'episode-start', 'step', 'step', 'step', 'episode-end']);

    const dir = path.join(out, 'buy-kettle');
    const episode = EpisodeSchema.parse(await readJson(path.join(dir, 'episode.json')));
    expect(episode).toMatchObject({ outcome: 'done', steps: 3, answer: 'Blue Kettle', error: null, model: null, ok: true, policy: 'scripted' });
    expect(await readJson(path.join(dir, 'rows', 'episode.json'))).toEqual(await readJson(path.join(dir, 'episode.json')));

    const grade = GradeInputsSchema.parse(await readJson(path.join(dir, 'grade_inputs.json')));
    expect(grade.actions).toEqual([{ click: { index: 15 } }, { click: { index: 2 } }, { done: { answer: 'Blue Kettle' } }]);
    expect(grade.answer).toBe('Blue Kettle');
    expect(grade.log).toEqual([
      { method: 'GET', path: '/sites/shop/', query: {}, body: null, status: 200 },
      { method: 'GET', path: '/sites/shop/product/1', query: {}, body: null, status: 200 },
      { method: 'POST', path: '/sites/shop/cart', query: {}, body: { item: '1', qty: '1' }, status: 303 },
      { method: 'GET', path: '/sites/shop/cart', query: {}, body: null, status: 200 },
    ]);
    expect(grade.changes).toEqual([]);
    expect(grade.seen).toHaveLength(3);
    expect(String(grade.seen![2])).toContain('URL: /sites/shop/cart');
    expect(String(grade.seen![2])).toContain('1 items: 1x1');

    expect((await readdir(path.join(dir, 'screenshots'))).sort()).toEqual(['step_0.png', 'step_1.png', 'step_2.png']);
    expect(existsSync(path.join(dir, 'final.png'))).toBe(true);
    const rows = (await readLines(path.join(dir, 'rows', 'rows.jsonl'))).map((r) => RowSchema.parse(r));
    expect(rows.map((r) => r.images)).toEqual([['step_0.png'], ['step_1.png'], ['step_2.png']]);
    for (const [n, r] of rows.entries()) {
      expect(r.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
      expect(r.messages[0]!.content).toBe(AGENT_SYSTEM_PROMPT);
      expect(r.messages[1]!.content.startsWith('TASK: Add the Blue Kettle to the cart\n')).toBe(true);
      expect(r.messages[1]!.content.endsWith('\n\nReply with the next action as JSON.<image>')).toBe(true);
      expect(r.messages[1]!.content).toContain(`CURRENT PAGE (step ${n + 1} of 15):\n${String(grade.seen![n])}`);
      expect(existsSync(path.join(dir, 'rows', r.images[0]!))).toBe(true);
    }
    expect(rows[1]!.messages[1]!.content).toContain('PREVIOUS ACTIONS:\n1. {"click":{"index":15}}\n');
    expect(rows.map((r) => r.messages[2]!.content)).toEqual([
      '{"click":{"index":15}}',
      '{"click":{"index":2}}',
      '{"done":{"answer":"Blue Kettle"}}',
    ]);
    expect(await readLines(path.join(out, 'results.jsonl'))).toEqual([{ task_id: 'buy-kettle', ok: true }]);
    expect((await readLines(path.join(out, 'tasks.jsonl'))).map((t) => t.task_id)).toEqual(['buy-kettle']);
  });

  it('feeds bad actions back as errors and recovers; rows skip unparseable replies', async () => {
    const out = path.join(tmp, 'run2');
    const seenErrors: Array<string | null> = [];
    const script = [{ click: { index: 99 } }, 'I am not sure what to do', '{"click": {"index": "15"}}', { done: { answer: '$24.00' } }];
    const summary = await runAttempt({
      tasks: [fixtureTask('price', 'What does the Blue Kettle cost?', { task_kind: 'info' })],
      policy: scriptedPolicy((input) => {
        seenErrors.push(input.observation.error);
        return script[input.step]!;
      }),
      source: { baseUrl: site.baseUrl },
      out,
      browser: host,
    });
    expect(summary.outcomes.done).toBe(1);
    expect(seenErrors[0]).toBeNull();
    expect(seenErrors[1]).toBe("there is no element [99]; this page's elements are numbered 1 to 22");
    expect(seenErrors[2]).toMatch(/^the reply has no JSON action/);
    expect(seenErrors[3]).toBeNull();
    const dir = path.join(out, 'price');
    const episode = await readJson(path.join(dir, 'episode.json'));
    expect(episode).toMatchObject({ outcome: 'done', steps: 4, answer: '$24.00' });
    expect(episode.ok).toBeUndefined();
    const grade = await readJson(path.join(dir, 'grade_inputs.json'));
    expect(grade.actions).toEqual([{ click: { index: 99 } }, { click: { index: 15 } }, { done: { answer: '$24.00' } }]);
    const rows = (await readLines(path.join(dir, 'rows', 'rows.jsonl'))).map((r) => RowSchema.parse(r));
    expect(rows.map((r) => r.images[0])).toEqual(['step_0.png', 'step_2.png', 'step_3.png']);
    expect(rows[1]!.messages[1]!.content).toContain(
      '2. (no valid action: "I am not sure what to do") -> error: the reply has no JSON action',
    );
    expect(rows[1]!.messages[1]!.content).toContain("1. {\"click\":{\"index\":99}} -> error: there is no element [99]");
    // no verifier in the run: no results file
    expect(existsSync(path.join(out, 'results.jsonl'))).toBe(false);
  });

  it('ends at max steps with a final observation; a crashed or closed page ends only its own episode', async () => {
    const out = path.join(tmp, 'run3');
    const tasks: Task[] = [
      fixtureTask('scroller', 'Scroll forever', { start_path: '/sites/shop/long' }),
      fixtureTask('crash', 'Crash the page', { start_path: '/sites/shop/crash-target' }),
      fixtureTask('close', 'Close the page', { start_path: '/sites/shop/crash-target?close=1' }),
      fixtureTask('ok', 'Open the cart'),
    ];
    const pageOf = async (url: string) => {
      const browser = await host.browser();
      const page = browser.contexts().flatMap((c) => c.pages()).find((p) => p.url().endsWith(url));
      if (!page) throw new Error(`no page at ${url}`);
      return page;
    };
    const summary = await runAttempt({
      tasks,
      policy: scriptedPolicy(async (input) => {
        const id = input.task.task_id;
        if (id === 'scroller') return { scroll: { direction: input.step % 2 ? 'up' : 'down' } };
        if (id === 'crash' && input.step === 1) {
          const page = await pageOf('/sites/shop/crash-target');
          const cdp = await page.context().newCDPSession(page);
          void cdp.send('Page.crash').catch(() => {});
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
        if (id === 'close' && input.step === 1) await (await pageOf('/sites/shop/crash-target?close=1')).close();
        if (id === 'ok' && input.step === 0) return { click: { index: 2 } };
        if (id === 'ok') return { done: {} };
        return { scroll: { direction: 'down' } };
      }),
      source: { baseUrl: site.baseUrl },
      out,
      browser: host,
      concurrency: 2,
      maxSteps: 3,
    });
    expect(summary).toMatchObject({ recorded: 4, failed: 0, outcomes: { done: 1, max_steps: 1, error: 2, timeout: 0 } });
    const ep = async (id: string) => readJson(path.join(out, id, 'episode.json'));
    expect(await ep('scroller')).toMatchObject({ outcome: 'max_steps', steps: 3, error: null });
    expect(existsSync(path.join(out, 'scroller', 'final.png'))).toBe(true);
    const grade = await readJson(path.join(out, 'scroller', 'grade_inputs.json'));
    expect((grade.seen as string[]).length).toBe(4); // three observations and the final state after the last scroll
    expect(await ep('crash')).toMatchObject({ outcome: 'error', steps: 1, error: 'the page crashed' });
    expect(await ep('close')).toMatchObject({ outcome: 'error', steps: 1, error: 'the page was closed' });
    expect(await ep('ok')).toMatchObject({ outcome: 'done', steps: 2 });
    expect(existsSync(path.join(out, 'crash', 'grade_inputs.json'))).toBe(true);
    expect((await host.browser()).isConnected()).toBe(true);
  });

  it('relaunches a browser that died; only the episode it was running ends', async () => {
    const launches: number[] = [];
    const own = browserHost({ onLaunch: (n) => launches.push(n) });
    try {
      const summary = await runAttempt({
        tasks: ['first', 'killer', 'last'].map((id) => fixtureTask(id, 'Open the cart')),
        policy: scriptedPolicy(async (input) => {
          if (input.task.task_id === 'killer' && input.step === 1) {
            await (await own.browser()).close();
            return { click: { index: 1 } };
          }
          return input.step === 0 ? { click: { index: 2 } } : { done: {} };
        }),
        source: { baseUrl: site.baseUrl },
        out: path.join(tmp, 'relaunch'),
        browser: own,
        concurrency: 1,
      });
      expect(summary).toMatchObject({ recorded: 3, failed: 0, outcomes: { done: 2, error: 1 } });
      expect(await readJson(path.join(tmp, 'relaunch', 'killer', 'episode.json'))).toMatchObject({ outcome: 'error', steps: 1 });
      expect(await readJson(path.join(tmp, 'relaunch', 'last', 'episode.json'))).toMatchObject({ outcome: 'done', steps: 2 });
      expect(launches).toEqual([1, 2]);
    } finally {
      await own.close();
    }
  });

  it('a run being stopped records no episode whose browser closed under it; its own browser leaves signals to it', async () => {
    // As on SIGTERM before: the run's signal aborted, then Playwright's handler closed Chromium mid-action (the
    // click's page is slow, so both land while it loads).
    const slow = await startFixtureSite({ slowMs: 400 });
    const own = browserHost();
    const stop = new AbortController();
    const out = path.join(tmp, 'stopping');
    try {
      const run = runAttempt({
        tasks: [fixtureTask('victim', 'Open the cart')],
        policy: scriptedPolicy((input) => {
          if (input.step === 1) {
            setTimeout(() => {
              stop.abort(new Error('stopping'));
              void own.browser().then((b) => b.close());
            }, 150);
          }
          return { click: { index: 2 } };
        }),
        source: { baseUrl: slow.baseUrl },
        out,
        browser: own,
        signal: stop.signal,
      });
      await expect(run).rejects.toThrow('stopping');
      expect(existsSync(path.join(out, 'victim', 'episode.json'))).toBe(false);
    } finally {
      await own.close();
      await slow.close();
    }

    // A browser (here runAttempt's own) adds no SIGINT/SIGTERM/SIGHUP handler (Playwright's would close it first).
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const before = signals.map((s) => process.listenerCount(s));
    let during: number[] = [];
    const summary = await runAttempt({
      tasks: [fixtureTask('listener', 'Open the cart')],
      policy: scriptedPolicy(() => {
        during = signals.map((s) => process.listenerCount(s));
        return { done: {} };
      }),
      source: { baseUrl: site.baseUrl },
      out: path.join(tmp, 'own-browser'),
    });
    expect(summary.recorded).toBe(1);
    expect(during).toEqual(before);
  });

  it('keeps each episode to its own requests while others run in parallel', async () => {
    const out = path.join(tmp, 'run4');
    const words = ['kettle', 'teapot', 'mug', 'blue', 'red', 'green'];
    const tasks = words.map((w) => fixtureTask(`search-${w}`, `Search for ${w}`));
    const before = site.requests.length;
    const failures: string[] = [];
    await runAttempt({
      tasks,
      onEvent: (e) => void (e.type === 'episode-failed' && failures.push(`${e.taskId}: ${e.error}`)),
      policy: scriptedPolicy((input) => {
        const word = input.task.instruction.split(' ').pop()!;
        if (input.step === 0) return { type: { index: 6, text: word, enter: true } };
        if (input.step === 1) return { click: { index: 1 } };
        return { done: { answer: word } };
      }),
      source: { baseUrl: site.baseUrl },
      out,
      browser: host,
      concurrency: 3,
    });
    expect(failures).toEqual([]);
    const served = site.requests.slice(before).filter((r) => !STATIC_PATH.test(r.url.split('?')[0]!));
    for (const w of words) {
      const grade = await readJson(path.join(out, `search-${w}`, 'grade_inputs.json'));
      const log = grade.log as Array<{ method: string; path: string; query: Record<string, string> }>;
      expect(log.filter((e) => e.path === '/sites/shop/search').map((e) => e.query)).toEqual([{ q: w, src: 'home' }]);
      // exactly what the server saw from this episode's session (its cookie), in order
      const sid = served.find((r) => r.url === `/sites/shop/search?q=${w}&src=home`)!.sid;
      const mine = served.filter((r) => r.sid === sid);
      expect(log.map((e) => `${e.method} ${e.path}`)).toEqual(mine.map((r) => `${r.method} ${r.url.split('?')[0]}`));
      // what the judge is shown: this episode's search and no other
      const prompt = judgePrompt(`Search for ${w}`, GradeInputsSchema.parse(grade));
      const requests = prompt.split('SERVER REQUESTS OF THE SESSION (method path, parameters):\n')[1]!.split('\n\nDATA CHANGES')[0]!;
      expect(requests).toContain(`GET /sites/shop/search ?{"q": "${w}", "src": "home"} -> 200`);
      for (const other of words.filter((x) => x !== w)) expect(requests).not.toContain(`"q": "${other}"`);
      expect(requests).not.toMatch(/static|\.css|\.png/);
    }
  });

  it('resumes: finished episodes are skipped, half-written ones redone, results rebuilt', async () => {
    const out = path.join(tmp, 'run5');
    const tasks = ['a', 'b', 'c'].map((id) =>
      fixtureTask(`t-${id}`, `Answer ${id}`, { task_kind: 'info', verifier: { answer: { type: 'exact', value: id } } }),
    );
    const calls: string[] = [];
    const policy = scriptedPolicy((input) => {
      calls.push(input.task.task_id);
      const id = input.task.task_id.slice(2);
      return { done: { answer: id === 'b' ? 'wrong' : id } };
    });
    const options = { policy, source: { baseUrl: site.baseUrl }, out, browser: host };
    await runAttempt({ tasks, ...options });
    const results = await readFile(path.join(out, 'results.jsonl'), 'utf8');
    expect(results).toBe('{"task_id":"t-a","ok":true}\n{"task_id":"t-b","ok":false}\n{"task_id":"t-c","ok":true}\n');
    // t-b half-written (killed before episode.json), results.jsonl stale with a doubled line
    await rm(path.join(out, 't-b', 'episode.json'));
    await writeFile(path.join(out, 'results.jsonl'), `${results}{"task_id":"t-a","ok":true}\n`);
    calls.length = 0;
    const events: AttemptEvent[] = [];
    const summary = await runAttempt({ tasks: [...tasks, tasks[0]!], ...options, onEvent: (e) => events.push(e) });
    expect(calls).toEqual(['t-b']);
    expect(summary).toMatchObject({ tasks: 3, skipped: 2, recorded: 1, verified: { total: 3, passed: 2 } });
    // whole-run figures of the given tasks: the two kept episodes count as well as the one redone
    expect(summary.finished).toEqual({
      episodes: 3, steps: 3, outcomes: { done: 3, max_steps: 0, timeout: 0, error: 0 },
      // one set-up made all three, the kept two and the redone one (its digest in each episode.json)
      bySetup: [{ digest: expect.stringMatching(/^[0-9a-f]{16}$/), fields: expect.objectContaining({ max_steps: 15 }), count: 3, success: 2 }],
    });
    expect(events.find((e) => e.type === 'warning')).toMatchObject({ message: 'task t-a appears more than once; attempted once' });
    expect(await readFile(path.join(out, 'results.jsonl'), 'utf8')).toBe(results);
    expect((await readLines(path.join(out, 'tasks.jsonl'))).map((t) => t.task_id)).toEqual(['t-a', 't-b', 't-c']);
  });

  it('records nothing for an episode whose model fails, tries it once more, and reports it', async () => {
    const out = path.join(tmp, 'run7');
    let calls = 0;
    const events: AttemptEvent[] = [];
    const summary = await runAttempt({
      tasks: [fixtureTask('flaky', 'Finish'), fixtureTask('down', 'Finish')],
      policy: scriptedPolicy((input) => {
        if (input.task.task_id === 'down' || calls++ === 0) throw new Error('model endpoint unreachable');
        return { done: {} };
      }),
      source: { baseUrl: site.baseUrl },
      out,
      browser: host,
      concurrency: 1,
      onEvent: (e) => events.push(e),
    });
    expect(summary).toMatchObject({ recorded: 1, failed: 1 });
    expect(events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message)).toEqual([
      'episode flaky could not run (EpisodeFailure: policy scripted: Error: model endpoint unreachable); trying it again',
      'episode down could not run (EpisodeFailure: policy scripted: Error: model endpoint unreachable); trying it again',
    ]);
    expect(events.find((e) => e.type === 'episode-failed')).toEqual({
      type: 'episode-failed',
      taskId: 'down',
      error: 'EpisodeFailure: policy scripted: Error: model endpoint unreachable',
    });
    expect(existsSync(path.join(out, 'flaky', 'episode.json'))).toBe(true);
    expect(existsSync(path.join(out, 'down'))).toBe(false);
  });

  it('refuses task ids that are not plain names before touching the disk', async () => {
    const out = path.join(tmp, 'run6');
    await expect(
      runAttempt({ tasks: [fixtureTask('../evil', 'x')], policy: scriptedPolicy([]), source: { baseUrl: site.baseUrl }, out, browser: host }),
    ).rejects.toThrow(/refusing task id/);
    expect(existsSync(out)).toBe(false);
  });
});
