/**
 * The claims' figures on a sandbox run, shared by the relabel, verifiers and audit benches. Truth is the bank
 * task's hand-written verifier read on the state at the cut: the episode's start rows (`start_rows.json`, else the
 * site's pristine rows) with its changes applied, never the changes alone. Every accepted relabel claim and every
 * kept written verifier is also run on its task's do-nothing episode (the start rows, nothing done) and at its
 * episode's start: it must fail both; and on gaming versions of its own episode (its answer sprayed with every number,
 * its answer replaced by the last page's text, another episode's writes of the site appended): it must fail each.
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

/**
 * The hand-written verifier on an episode's evidence as the one reward reads it: the answer checked against the
 * question, the state checks on start rows plus the changes, nothing changed beyond the task's footprint and the
 * site's declared consequences.
 */
export async function handOnState(verifier: Verifier, ev: StepEvidence, site: string, question: string): Promise<boolean> {
  const changes = ev.changes.map((c) => c.change);
  const start = ev.start ?? startOfSite(site);
  return (await verifyEpisode(verifier, { answer: ev.answer ?? '', log: ev.log.map((l) => l.entry), changes, question, start, consequences: ev.consequences ?? [], state: replayState(start, changes) })).ok;
}

/** Whether a claim passes an episode as a label or verifier would: it holds and is not vacuous. */
export function passes(claim: Claim, ev: StepEvidence, question: string): boolean {
  const r = checkClaim(claim, ev, { question });
  return r.holds && r.vacuous === null;
}

/** Whether a claim holds on the task's do-nothing episode, or at its episode's start. */
export function holdsOnNothing(claim: Claim, ev: StepEvidence, site: string, question: string): boolean {
  return checkClaim(claim, emptyEvidence(ev.start ?? startOfSite(site)), { question }).holds || checkClaim(claim, ev, { question }).vacuous !== null;
}

/** Every number 0..999 with n.99, n.5 and n.49: an answer that names any number asked for. */
const SPRAY = Array.from({ length: 1000 }, (_, i) => `${i} ${i}.99 ${i}.5 ${i}.49`).join(', ');

/**
 * Gaming versions of an episode: its answer sprayed and its answer replaced by the last page's text (when it answers),
 * and each other episode's writes of the site appended after its last step (at most `max` of them).
 */
export function gamingVersions(ev: StepEvidence, others: readonly StepEvidence[], max = 3): Array<{ kind: string; ev: StepEvidence }> {
  const out: Array<{ kind: string; ev: StepEvidence }> = [];
  const step = ev.steps + 1;
  if (ev.answer !== null) {
    out.push({ kind: 'answer sprayed', ev: { ...ev, answer: SPRAY, answerStep: step, steps: step } });
    const last = ev.seen.at(-1)?.text;
    if (last) out.push({ kind: "answer = the last page's text", ev: { ...ev, answer: last, answerStep: step, steps: step } });
  }
  const own = JSON.stringify(ev.changes.map((c) => c.change));
  const writers = others.filter((o) => o.changes.length > 0 && JSON.stringify(o.changes.map((c) => c.change)) !== own).slice(0, max);
  for (const o of writers) out.push({ kind: "another episode's writes appended", ev: { ...ev, steps: step, changes: [...ev.changes, ...o.changes.map((c) => ({ change: c.change, step }))] } });
  return out;
}

/** How many gaming versions of their own episodes the claims pass: `passed of played`, by kind. */
function gamingLine(what: string, results: ReadonlyArray<{ kind: string; passed: boolean }>): string {
  const kinds = [...new Set(results.map((r) => r.kind))];
  const by = kinds.map((k) => `${k} ${results.filter((r) => r.kind === k && r.passed).length}/${results.filter((r) => r.kind === k).length}`);
  return `${what} on gaming versions of their own episode: ${results.filter((r) => r.passed).length} of ${results.length} passed (${by.join('; ') || 'none played'})`;
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
  const accepted_: Array<{ site: string; claim: Claim; ev: StepEvidence; question: string }> = [];
  for (const name of names) {
    const record = JSON.parse(await readFile(path.join(parentsDir, name), 'utf8')) as { site: string; proposals: Array<{ status: string; task_id: string | null; instruction: string; claim: unknown }> };
    for (const p of record.proposals) {
      statuses.set(p.status, (statuses.get(p.status) ?? 0) + 1);
      if (p.status !== 'accepted' || !p.task_id) continue;
      accepted++;
      const ev = await loadStepEvidence(store, path.join(relabelDir, p.task_id));
      const claim = ClaimSchema.parse(p.claim);
      if (holdsOnNothing(claim, ev, record.site, p.instruction)) nothing++;
      accepted_.push({ site: record.site, claim, ev, question: p.instruction });
      const hand = handVerifierOf(record.site, p.instruction);
      if (!hand) continue;
      known++;
      if (await handOnState(hand, ev, record.site, p.instruction)) right++;
      else wrong.push(`${p.task_id} "${p.instruction}" (${record.site})`);
    }
  }
  return [
    `relabels: ${[...statuses].map(([s, n]) => `${s} ${n}`).join(', ')}`,
    `accepted relabels holding on the do-nothing episode or at the episode's start: ${nothing} of ${accepted}`,
    `relabel precision (hand-written verifiers on the state at the cut): ${share(right, known)}`,
    ...wrong.slice(0, 10).map((w) => `  wrong: ${w}`),
    gamingLine('accepted relabels', accepted_.flatMap((a) => gamingVersions(a.ev, accepted_.filter((o) => o.site === a.site && o !== a).map((o) => o.ev)).map((g) => ({ kind: g.kind, passed: passes(a.claim, g.ev, a.question) })))),
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
  const gaming: Array<{ kind: string; passed: boolean }> = [];
  let nothing = 0;
  let loose = 0;
  const recorded = { episodes: 0, passes: 0 };
  for (const v of byTask.values() as Iterable<WrittenVerifier>) {
    const hand = handVerifierOf(v.site, v.instruction);
    const own = episodes.get(v.site)?.find((e) => e.taskId === v.task_id);
    if (own && holdsOnNothing(v.claim, own.ev, v.site, v.instruction)) nothing++;
    if (own) for (const g of gamingVersions(own.ev, (episodes.get(v.site) ?? []).filter((e) => e !== own).map((e) => e.ev))) gaming.push({ kind: g.kind, passed: passes(v.claim, g.ev, v.instruction) });
    const l = (v as { looseness?: { episodes: number; passes: number } }).looseness;
    if (l) {
      recorded.episodes += l.episodes;
      recorded.passes += l.passes;
    }
    if (!hand) continue;
    let crossPasses = 0;
    for (const e of episodes.get(v.site) ?? []) {
      const same = e.taskId === v.task_id;
      const pair = { same, hand: await handOnState(hand, e.ev, v.site, v.instruction), written: passes(v.claim, e.ev, v.instruction) };
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
    gamingLine('kept written verifiers', gaming),
  ];
}
