/**
 * MiniWeb's annotated task directories read as human tasks: a small tree of task dirs written here (MiniWeb's
 * `<annotator>/<task_id>/task.json` with `verifier.json`), good ones and bad ones, every problem named with its file
 * and field.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryStore } from 'miniweb-taskgen';
import { MiniwebTasksError, readMiniwebTasks, startPath } from '../src/miniweb/tasks';
import { isMiniwebVerifier } from '../src/miniweb/verifier';

const json = (v: unknown) => JSON.stringify(v, null, 2);

const forumsTask = {
  task_id: 'forums_a1b2c3',
  site: 'forums',
  sites: [{ id: 'forums', name: 'Forums' }],
  instruction: 'How many upvotes does the top post in r/boardgames have?',
  macros: ['navigate_to_section', 'extract_by_query'],
  num_macros: 2,
  expected_answer: '128',
  answer_type: 'number',
  alternatives: '',
  expected_outcome: '',
  qa_answers: {},
  starting_url: 'https://miniweb-production.up.railway.app/sites/forums/r/boardgames?sort=top#post-1',
  requires_login: true,
  trajectory: [],
  annotator: 'alice',
};
const forumsVerifier = {
  task_id: 'forums_a1b2c3',
  model: 'gpt-5.5',
  macros: {
    navigate_to_section: { op: 'AND', checks: [{ type: 'page_visited', url: '/r/boardgames' }] },
    extract_by_query: { op: 'AND', checks: [{ type: 'qa_answer', expected: '120', mode: 'fuzzy', leaf: true }] },
  },
};
const bankingTask = {
  task_id: 'banking_357033',
  site: 'banking',
  sites: ['banking'],
  instruction: 'Transfer $50 from checking to savings.',
  macros: ['submit_form'],
  expected_answer: null,
  answer_type: 'string',
  starting_url: '',
  requires_login: false,
};
const bankingVerifier = {
  task_id: 'banking_357033',
  macros: { submit_form: { op: 'AND', checks: [{ type: 'request_made', method: 'POST', url: '/transfer', body_fields: { amount: '50' } }] } },
};
const emailTask = { task_id: 'email_9f8e7d', sites: ['email'], instruction: 'Star the newest message from Omar.', starting_url: '/sites/banking/' };

const GOOD = {
  'ann/alice/forums_a1b2c3/task.json': json(forumsTask),
  'ann/alice/forums_a1b2c3/verifier.json': json(forumsVerifier),
  'ann/alice/forums_a1b2c3/screenshots/step_0.png': 'not read',
  'ann/alice/banking_357033/task.json': json(bankingTask),
  'ann/alice/banking_357033/verifier.json': json(bankingVerifier),
  'ann/bob/week2/email_9f8e7d/task.json': json(emailTask),
  'ann/.trash/forums_old/task.json': json({ ...forumsTask, task_id: 'forums_old' }),
};

describe('readMiniwebTasks', () => {
  it('reads every task dir, one level or nested, sorted by path', async () => {
    const tasks = await readMiniwebTasks('ann', { store: memoryStore(GOOD) });
    expect(tasks.map((t) => t.task_id)).toEqual(['banking_357033', 'forums_a1b2c3', 'email_9f8e7d']);
    const [banking, forums, email] = tasks as [(typeof tasks)[0], (typeof tasks)[0], (typeof tasks)[0]];
    expect(forums).toMatchObject({
      kind: 'human',
      task_id: 'forums_a1b2c3',
      site: 'forums',
      sites: ['forums'],
      macro: 'navigate_to_section',
      macros: ['navigate_to_section', 'extract_by_query'],
      instruction: forumsTask.instruction,
      start_path: '/sites/forums/r/boardgames?sort=top',
      task_kind: 'info',
      miniweb: { expected_answer: '128', answer_type: 'number', alternatives: '', expected_outcome: '', requires_login: true, starting_url: forumsTask.starting_url },
    });
    // The verifier as MiniWeb grades it: the answer check synced to the task's current answer.
    expect(isMiniwebVerifier(forums.verifier)).toBe(true);
    expect((forums.verifier as typeof forumsVerifier).macros.extract_by_query.checks[0]!.expected).toBe('128');
    expect((forums.verifier as typeof forumsVerifier).model).toBe('gpt-5.5');
    expect(banking).toMatchObject({ site: 'banking', start_path: '/sites/banking/', task_kind: 'action', verifier: bankingVerifier, miniweb: { requires_login: false, answer_type: 'string' } });
    // No site field: the first of sites; a start on another site: the task's own site's root; no verifier: null.
    expect(email).toMatchObject({ site: 'email', sites: ['email'], macro: 'human', macros: [], start_path: '/sites/email/', task_kind: 'action', verifier: null });
  });

  it('orders by the task files\' paths, not by the walk', async () => {
    const task = (id: string) => json({ task_id: id, site: 'shop', instruction: 'Open the cart.' });
    const store = memoryStore({ 'd/a/b/task.json': task('shop_ab'), 'd/a-b/task.json': task('shop_a_b'), 'd/A/task.json': task('shop_A') });
    expect((await readMiniwebTasks('d', { store })).map((t) => t.task_id)).toEqual(['shop_A', 'shop_a_b', 'shop_ab']);
  });

  it('a verifier that checks the answer makes an info task', async () => {
    const task = { task_id: 'shop_1', site: 'shop', instruction: 'Which mug is cheapest?' };
    const verifier = { macros: { q: { op: 'AND', checks: [{ type: 'answer_matches', expected: 'Blue Mug' }] } } };
    const [read] = await readMiniwebTasks('d', { store: memoryStore({ 'd/shop_1/task.json': json(task), 'd/shop_1/verifier.json': json(verifier) }) });
    expect(read!.task_kind).toBe('info');
  });

  it('names every bad file and field, not just the first', async () => {
    const store = memoryStore({
      ...GOOD,
      'ann/bob/escape/task.json': json({ ...emailTask, task_id: '../x' }),
      'ann/bob/noinstr/task.json': json({ task_id: 'email_noinstr', site: 'email' }),
      'ann/bob/badsite/task.json': json({ ...emailTask, task_id: 'email_badsite', sites: ['email', 'a/b'] }),
      'ann/bob/dup/task.json': json(bankingTask),
      'ann/bob/notjson/task.json': '{"task_id": ',
      'ann/carol/typo/task.json': json({ ...bankingTask, task_id: 'banking_typo' }),
      'ann/carol/typo/verifier.json': json({ macros: { m: { op: 'AND', checks: [{ type: 'request_made', method: 'POST', body_feilds: {} }] } } }),
      'ann/carol/other/task.json': json({ ...bankingTask, task_id: 'banking_other' }),
      'ann/carol/other/verifier.json': json(bankingVerifier),
    });
    const error = await readMiniwebTasks('ann', { store }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MiniwebTasksError);
    const problems = (error as MiniwebTasksError).problems.map((p) => [p.file, p.field, p.problem]);
    expect(problems).toEqual([
      ['ann/bob/badsite/task.json', 'sites.1', expect.stringMatching(/refusing site "a\/b": not a plain name/)],
      ['ann/bob/dup/task.json', 'task_id', expect.stringMatching(/also the task id of ann\/alice\/banking_357033\/task.json/)],
      ['ann/bob/escape/task.json', 'task_id', expect.stringMatching(/refusing task id "\.\.\/x": not a plain name/)],
      ['ann/bob/noinstr/task.json', 'instruction', 'missing'],
      ['ann/bob/notjson/task.json', undefined, expect.stringMatching(/not valid JSON/)],
      ['ann/carol/other/verifier.json', 'task_id', expect.stringMatching(/"banking_357033" is not the task's id "banking_other"/)],
      ['ann/carol/typo/verifier.json', 'macros.m.checks.0.body_feilds', expect.stringMatching(/unknown parameter "body_feilds" of request_made/)],
    ]);
    expect((error as Error).message).toMatch(/^ann\/bob\/badsite\/task.json: sites.1: .*\(and 6 more problems\)\nann\/bob\/dup\/task.json: task_id: /s);
  });

  it('refuses a missing directory and one without tasks', async () => {
    await expect(readMiniwebTasks('nowhere', { store: memoryStore({}) })).rejects.toThrow(/nowhere: no such directory/);
    await expect(readMiniwebTasks('d', { store: memoryStore({ 'd/readme.txt': 'x' }) })).rejects.toThrow(/d: no task.json under it/);
  });

  it('reads from the disk by default, not following a task dir into its subdirectories', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mw-tasks-'));
    try {
      await mkdir(path.join(dir, 'alice', 'banking_357033', 'nested'), { recursive: true });
      await writeFile(path.join(dir, 'alice', 'banking_357033', 'task.json'), json(bankingTask));
      await writeFile(path.join(dir, 'alice', 'banking_357033', 'nested', 'task.json'), json({ ...bankingTask, task_id: 'ignored' }));
      expect((await readMiniwebTasks(dir)).map((t) => t.task_id)).toEqual(['banking_357033']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('startPath', () => {
  it('keeps a start under the site, else the site root', () => {
    expect(startPath('/sites/forums/r/x?page=2', 'forums')).toBe('/sites/forums/r/x?page=2');
    expect(startPath('http://localhost:8099/sites/forums', 'forums')).toBe('/sites/forums/');
    expect(startPath('/sites/forums/../banking/', 'forums')).toBe('/sites/forums/');
    expect(startPath('/sites/forums-extra/', 'forums')).toBe('/sites/forums/');
    expect(startPath('about:blank', 'forums')).toBe('/sites/forums/');
    expect(startPath(null, 'forums')).toBe('/sites/forums/');
  });
});
