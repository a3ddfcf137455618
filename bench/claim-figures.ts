/**
 * The claims' figures on a sandbox run, shared by the relabel, verifiers and audit benches. Truth is the bank
 * task's hand-written verifier read on the state at the cut: the episode's start rows (`start_rows.json`, else the
 * site's pristine rows) with its changes applied, never the changes alone. Every accepted relabel claim and every
 * kept written verifier is also run on its task's do-nothing episode (the start rows, nothing done) and at its
 * episode's start: it must fail both.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { defaultCatalog, normInstruction, pristineTables } from '../sandbox/index';
import { ClaimSchema } from '../src/formats';
import {
  checkClaim, emptyEvidence, loadStepEvidence, nodeStore, readWrittenVerifiers, replayState, verifyEpisode, wilsonInterval,
  type Claim, type StartRows, type StepEvidence, type Verifier, type WrittenVerifier,
} from '../src/index';

const store = nodeStore();
const catalog = defaultCatalog();
const tables = new Map<string, StartRows>();

/** The site's rows as a fresh session starts. */
export function startOfSite(site: string): StartRows {
  let got = tables.get(site);
  if (!got) tables.set(site, (got = pristineTables(catalog, site)));
  return got;
}

/** The bank task's hand-written verifier for an instruction of a site, `undefined` when the bank has none. */
export function handVerifierOf(site: string, instruction: string): Verifier | undefined {
  return catalog.tasks(site)?.bank.find((b) => normInstruction(b.instruction) === normInstruction(instruction))?.verifier as Verifier | undefined;
}

/** The hand-written verifier on an episode's evidence, its state checks on start rows plus the changes. */
export async function handOnState(verifier: Verifier, ev: StepEvidence, site: string): Promise<boolean> {
  const changes = ev.changes.map((c) => c.change);
  const start = ev.start ?? startOfSite(site);
  return (await verifyEpisode(verifier, { answer: ev.answer ?? '', log: ev.log.map((l) => l.entry), changes, state: replayState(start, changes) })).ok;
}

/** Whether a claim passes an episode as a label or verifier would: it holds and is not vacuous. */
export function passes(claim: Claim, ev: StepEvidence): boolean {
  const r = checkClaim(claim, ev);
  return r.holds && r.vacuous === null;
}

/** Whether a claim holds on the task's do-nothing episode, or at its episode's start. */
export function holdsOnNothing(claim: Claim, ev: StepEvidence, site: string): boolean {
  return checkClaim(claim, emptyEvidence(ev.start ?? startOfSite(site))).holds || checkClaim(claim, ev).vacuous !== null;
}

const ci = (k: number, n: number) => {
  const c = wilsonInterval(k, n);
  return c ? `[${c[0].toFixed(3)}, ${c[1].toFixed(3)}]` : '[no data]';
};

/** `k/n = p, Wilson 95% [lo, hi]`. */
export function share(k: number, n: number): string {
  return `${k}/${n} = ${(k / Math.max(1, n)).toFixed(3)}, Wilson 95% ${ci(k, n)}`;
}

/** The accepted relabels of a relabel dir, each with the truth on its cut episode. */
export async function relabelFigures(relabelDir: string): Promise<string[]> {
  const parentsDir = path.join(relabelDir, '_parents');
  const names = (await readdir(parentsDir).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));
  let accepted = 0;
  let known = 0;
  let right = 0;
  let nothing = 0;
  const wrong: string[] = [];
  const statuses = new Map<string, number>();
  for (const name of names) {
    const record = JSON.parse(await readFile(path.join(parentsDir, name), 'utf8')) as { site: string; proposals: Array<{ status: string; task_id: string | null; instruction: string; claim: unknown }> };
    for (const p of record.proposals) {
      statuses.set(p.status, (statuses.get(p.status) ?? 0) + 1);
      if (p.status !== 'accepted' || !p.task_id) continue;
      accepted++;
      const ev = await loadStepEvidence(store, path.join(relabelDir, p.task_id));
      const claim = ClaimSchema.parse(p.claim);
      if (holdsOnNothing(claim, ev, record.site)) nothing++;
      const hand = handVerifierOf(record.site, p.instruction);
      if (!hand) continue;
      known++;
      if (await handOnState(hand, ev, record.site)) right++;
      else wrong.push(`${p.task_id} "${p.instruction}" (${record.site})`);
    }
  }
  return [
    `relabels: ${[...statuses].map(([s, n]) => `${s} ${n}`).join(', ')}`,
    `accepted relabels holding on the do-nothing episode or at the episode's start: ${nothing} of ${accepted}`,
    `relabel precision (hand-written verifiers on the state at the cut): ${share(right, known)}`,
    ...wrong.slice(0, 10).map((w) => `  wrong: ${w}`),
  ];
}

/** One written verifier run on an episode. */
interface Pair {
  readonly same: boolean;
  readonly hand: boolean;
  readonly written: boolean;
}

/**
 * The written verifiers of `file` on every episode of their site in `run`: on their own task's episodes and on
 * other tasks' (cross pairs), truth the verifier's task's hand-written verifier on the episode's state.
 */
export async function writtenFigures(run: string, file: string): Promise<string[]> {
  const { byTask, issues } = await readWrittenVerifiers(store, file);
  const episodes = new Map<string, Array<{ taskId: string; ev: StepEvidence }>>();
  for (const entry of await readdir(run, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('_')) continue;
    const ev = await loadStepEvidence(store, path.join(run, entry.name)).catch(() => null);
    const episode = JSON.parse(await readFile(path.join(run, entry.name, 'episode.json'), 'utf8').catch(() => '{}')) as { task?: { site?: string } };
    const site = episode.task?.site;
    if (!ev || !site) continue;
    episodes.set(site, [...(episodes.get(site) ?? []), { taskId: entry.name, ev }]);
  }
  const pairs: Pair[] = [];
  let nothing = 0;
  let loose = 0;
  const recorded = { episodes: 0, passes: 0 };
  for (const v of byTask.values() as Iterable<WrittenVerifier>) {
    const hand = handVerifierOf(v.site, v.instruction);
    const own = episodes.get(v.site)?.find((e) => e.taskId === v.task_id);
    if (own && holdsOnNothing(v.claim, own.ev, v.site)) nothing++;
    const l = (v as { looseness?: { episodes: number; passes: number } }).looseness;
    if (l) {
      recorded.episodes += l.episodes;
      recorded.passes += l.passes;
    }
    if (!hand) continue;
    let crossPasses = 0;
    for (const e of episodes.get(v.site) ?? []) {
      const same = e.taskId === v.task_id;
      const pair = { same, hand: await handOnState(hand, e.ev, v.site), written: passes(v.claim, e.ev) };
      pairs.push(pair);
      if (!same && pair.written && !pair.hand) crossPasses++;
    }
    if (crossPasses > 0) loose++;
  }
  const cross = pairs.filter((p) => !p.same);
  const tp = cross.filter((p) => p.written && p.hand).length;
  const fp = cross.filter((p) => p.written && !p.hand).length;
  return [
    `written verifiers: ${byTask.size} kept (${issues.length} lines named and not used${issues.length ? `: ${issues.slice(0, 3).map((i) => `line ${i.line} ${i.problem}`).join('; ')}` : ''})`,
    `kept written verifiers holding on the do-nothing episode or at their episode's start: ${nothing} of ${byTask.size}`,
    `recorded looseness (other tasks' episodes of the site passed when written): ${recorded.passes} of ${recorded.episodes}`,
    `cross pairs (each verifier on its site's other tasks' episodes, ${cross.length} pairs): ${tp} right passes, ${fp} false passes (from ${loose} verifiers); precision ${share(tp, tp + fp)}`,
    `own-task pairs: ${pairs.filter((p) => p.same && p.written === p.hand).length}/${pairs.filter((p) => p.same).length} agree`,
  ];
}
