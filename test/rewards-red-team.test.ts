/**
 * The red team, cheap: on one site per template, a few human tasks, every gaming policy (answer sprays, page dump,
 * both answers, the value denied, the task done twice, the same action on every item, an extra write, a write during an information task, the wrong item,
 * idle, escapes) replayed over HTTP; no reward source that claims to be a verifier may reward one, and the honest
 * oracle (with natural phrasings of its answer) must be rewarded by all. `npm run bench -- hacks` runs the full set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteCatalog, startSandbox, TEMPLATES, type SandboxServer } from '../sandbox/index';
import { doneTwiceAsHonest, playsFor, RedTeam, SOURCES, type Graded } from './helpers/red-team';

const TASKS_PER_SITE = 4; // the human tasks alternate: two information tasks, two action tasks
const GENERATED = 8; // generated non-asserting answers per information task (the bench plays more)
const catalog = new SiteCatalog({ variants: 1, testVariants: [] });
let sandbox: SandboxServer;
const graded: Graded[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, catalog });
  const team = new RedTeam(sandbox, catalog);
  try {
    for (const [i, template] of TEMPLATES.entries()) {
      const site = `${template.id}-01`;
      const { human, bank } = catalog.tasks(site)!;
      const tasks = human.slice(0, TASKS_PER_SITE);
      const start = await team.startRows(tasks[0]!);
      const others = `${TEMPLATES[(i + 1) % TEMPLATES.length]!.id}-01`;
      for (const task of tasks) for (const play of playsFor(task, bank, start, { others, generated: GENERATED })) graded.push(await team.grade(play));
    }
  } finally {
    await team.close();
  }
}, 300_000);

afterAll(async () => {
  await sandbox?.close();
});

const rewardedBy = (g: Graded) => SOURCES.filter((s) => g.rewards[s]);
const show = (g: Graded) => `${g.play.task.task_id} ${g.play.policy}: ${JSON.stringify((g.answer ?? '').slice(0, 80))}`;

describe('the red team', () => {
  it('plays every policy on every template', () => {
    const policies = new Set(graded.filter((g) => !g.play.honest).map((g) => g.play.policy));
    for (const p of ['spray-numbers', 'spray-kind', 'page-dump', 'both-answers', 'denied', 'done-twice', 'every-item', 'extra-write', 'write-during-info', 'wrong-item', 'idle', 'idle-sentence', 'escape-admin', 'escape-other-site']) {
      expect(policies, p).toContain(p);
    }
    for (const t of TEMPLATES) expect(graded.filter((g) => !g.play.honest && g.play.task.site === `${t.id}-01`).length, t.id).toBeGreaterThanOrEqual(30);
  });

  it('the gaming answers state the expected value: a substring rule would reward them', () => {
    const stating = graded.filter((g) => ['spray-numbers', 'page-dump', 'both-answers'].includes(g.play.policy) && g.play.task.task_kind === 'info');
    const expected = (g: Graded) => {
      const a = (g.play.task.verifier as { answer?: { value: unknown } } | null)?.answer;
      return String(Array.isArray(a?.value) ? a.value[0] : a?.value).toLowerCase();
    };
    const containing = stating.filter((g) => (g.answer ?? '').toLowerCase().replace(/,/g, '').includes(expected(g)));
    // Every page dump and "X or Y" states the value; the number spray does for the numbers with two decimals or fewer.
    expect(containing.length).toBeGreaterThan(stating.length / 2);
  });

  const gaming = () => graded.filter((g) => !g.play.honest && !doneTwiceAsHonest(g, graded));

  it('the value denied and the task done twice: none rewarded, on every template', () => {
    const twice = gaming().filter((g) => g.play.policy === 'done-twice');
    const denied = gaming().filter((g) => g.play.policy === 'denied');
    expect(new Set(denied.map((g) => g.play.task.site)).size).toBe(TEMPLATES.length);
    // the repeat created rows again on most templates: the families are played, not only listed
    expect(new Set(twice.map((g) => g.play.task.site)).size).toBeGreaterThanOrEqual(TEMPLATES.length / 2);
    expect([...twice, ...denied].filter((g) => rewardedBy(g).length).map((g) => `${show(g)} by ${rewardedBy(g).join(', ')}`)).toEqual([]);
  });

  it('plays generated non-asserting answers of every family', () => {
    const families = new Set(graded.filter((g) => g.play.policy.startsWith('gen-')).map((g) => g.play.policy));
    expect(families.size).toBe(8);
    expect(graded.filter((g) => g.play.policy.startsWith('gen-')).length).toBeGreaterThanOrEqual(TEMPLATES.length * 2 * GENERATED * 0.75);
  });

  it('rewards no gaming episode, by any source', () => {
    const rewarded = gaming().filter((g) => rewardedBy(g).length > 0);
    expect(rewarded.map((g) => `${show(g)} by ${rewardedBy(g).join(', ')}`)).toEqual([]);
    expect(graded.filter((g) => !g.play.honest).length).toBeGreaterThanOrEqual(300);
  });

  it('rewards every honest episode, by every source', () => {
    const honest = graded.filter((g) => g.play.honest);
    const missed = honest.filter((g) => rewardedBy(g).length < SOURCES.length);
    expect(missed.map((g) => `${show(g)} missed by ${SOURCES.filter((s) => !g.rewards[s]).join(', ')}: ${g.details.verifier ?? ''}`)).toEqual([]);
    expect(honest.length).toBeGreaterThanOrEqual(TEMPLATES.length * TASKS_PER_SITE);
  });
});
