/**
 * The red team (issue 35, item 5): gaming policies on every sandbox template, replayed over HTTP (no browser), graded
 * by every reward source (hand-written verifier, written verifier, relabel claim, stand-in judge at noise 0). Prints
 * rewarded / played per template and per policy × source, every rewarded gaming episode, and every honest miss.
 *
 * Not a timing: a measurement of the reward rules. Env: VARIANTS (sites per template, default 1), TASKS (human tasks
 * per site, default all), BANK (bank tasks per site added, default 0).
 */
import { defaultCatalog, startSandbox, TEMPLATES, type SandboxTask } from '../sandbox/index';
import { playsFor, RedTeam, SOURCES, type Graded } from '../test/helpers/red-team';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const VARIANTS = env('VARIANTS', 1);
const TASKS = env('TASKS', 99);
const BANK = env('BANK', 0);

const catalog = defaultCatalog();
const sandbox = await startSandbox({ port: 0 });
const team = new RedTeam(sandbox, catalog);
const graded: Array<Graded & { template: string }> = [];
const t0 = performance.now();
try {
  for (const template of TEMPLATES) {
    for (let v = 1; v <= VARIANTS; v++) {
      const site = `${template.id}-${String(v).padStart(2, '0')}`;
      const { human, bank } = catalog.tasks(site)!;
      const step = Math.max(1, Math.floor(bank.length / BANK));
      const tasks: SandboxTask[] = [...human.slice(0, TASKS), ...bank.filter((_, i) => i % step === 0).slice(0, BANK)];
      const start = await team.startRows(tasks[0]!);
      const others = TEMPLATES.find((t) => t.id !== template.id)!.id + '-01';
      for (const task of tasks) {
        for (const play of playsFor(task, bank, start, { others })) graded.push({ ...(await team.grade(play)), template: template.id });
      }
    }
  }
} finally {
  await team.close();
  await sandbox.close();
}
const seconds = (performance.now() - t0) / 1000;

// A gaming policy the site would not let through to its end (its replay stopped on a step: the cart already empty, the
// item already renamed) did only what it could; it is listed, not counted as played.
const stopped = graded.filter((g) => !g.play.honest && g.error !== null);
const played = graded.filter((g) => g.play.honest || g.error === null);
const cell = (rows: readonly Graded[], s: (typeof SOURCES)[number]) => `${rows.filter((g) => g.rewards[s]).length}/${rows.length}`;
const table = (title: string, key: (g: Graded & { template: string }) => string, honest: boolean) => {
  const groups = new Map<string, Graded[]>();
  for (const g of played.filter((x) => x.play.honest === honest)) groups.set(key(g), [...(groups.get(key(g)) ?? []), g]);
  process.stdout.write(`\n${title}\n\n| ${title.includes('template') ? 'template' : 'policy'} | ${SOURCES.join(' | ')} |\n|${'---|'.repeat(SOURCES.length + 1)}\n`);
  for (const [k, rows] of groups) process.stdout.write(`| ${k} | ${SOURCES.map((s) => cell(rows, s)).join(' | ')} |\n`);
  const all = played.filter((x) => x.play.honest === honest);
  process.stdout.write(`| all | ${SOURCES.map((s) => cell(all, s)).join(' | ')} |\n`);
};
const gaming = played.filter((g) => !g.play.honest);
process.stdout.write(`${played.length} episodes (${gaming.length} gaming; ${stopped.length} more stopped by the site before their gaming part, not counted, ${stopped.filter((g) => SOURCES.some((x) => g.rewards[x])).length} of them rewarded as the task done) on ${TEMPLATES.length} templates × ${VARIANTS} sites, ${seconds.toFixed(1)} s; rewarded / played\n`);
table('Gaming, per template', (g) => g.template, false);
table('Gaming, per policy', (g) => g.play.policy, false);
table('Honest, per template', (g) => g.template, true);
const holes = gaming.filter((g) => SOURCES.some((s) => g.rewards[s]));
process.stdout.write(`\nGaming episodes rewarded: ${holes.length}\n`);
for (const g of holes) process.stdout.write(`- ${g.play.task.task_id} ${g.play.policy} by ${SOURCES.filter((s) => g.rewards[s]).join(', ')}: answer ${JSON.stringify((g.answer ?? '').slice(0, 100))}\n`);
const misses = graded.filter((g) => g.play.honest && SOURCES.some((s) => !g.rewards[s]));
process.stdout.write(`\nHonest misses: ${misses.length}\n`);
for (const g of misses) process.stdout.write(`- ${g.play.task.task_id} by ${SOURCES.filter((s) => !g.rewards[s]).join(', ')}: ${JSON.stringify(g.answer)} (${SOURCES.map((s) => g.details[s]).filter(Boolean).join(' | ').slice(0, 300)})${g.error ? ` replay error: ${g.error}` : ''}\n`);
process.exitCode = holes.length > 0 ? 1 : 0;
