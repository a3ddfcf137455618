/**
 * A site's tasks as task lines: the human tasks (with verifiers and oracle solutions, ids `hu-<site>-<slug>`) and
 * the proposer's bank (every generated task, ids `bank-<site>-<slug>`), checked when they are generated.
 * @module
 */
import { type Task, isPlainName } from 'miniweb-taskgen';
import { TaskSchema, VerifierSchema } from 'miniweb-taskgen/schemas';
import { openCopy, seededFaker } from './database';
import { siteHref } from './href';
import { OracleSchema, type OracleStep } from './oracle';
import type { SiteInfo, SiteTemplate, TaskSpec } from './template';

/** A task line with its oracle solution. */
export type SandboxTask = Task & { oracle: OracleStep[] };

/** A site's human tasks and its bank. */
export interface SiteTasks {
  /** The human task set: a fixed selection of the bank. */
  readonly human: readonly SandboxTask[];
  /** Every task of the site, in the order the stand-in proposer serves them. */
  readonly bank: readonly SandboxTask[];
}

/** Lower-case words: how instructions are compared for duplicates (the seed's `_norm`). */
export function normInstruction(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

function toTask(site: SiteInfo, spec: TaskSpec, prefix: string): SandboxTask {
  return {
    kind: prefix === 'hu' ? 'human' : 'bank',
    task_id: `${prefix}-${site.name}-${spec.slug}`,
    site: site.name,
    sites: [site.name],
    macro: prefix === 'hu' ? 'human' : 'bank',
    macros: [],
    instruction: spec.instruction,
    start_path: site.home,
    task_kind: spec.kind,
    verifier: spec.verifier,
    oracle: [...spec.oracle],
  };
}

function check(site: SiteInfo, specs: readonly TaskSpec[]): void {
  const slugs = new Set<string>();
  const texts = new Set<string>();
  for (const spec of specs) {
    const where = `template ${site.template}, site ${site.name}, task ${spec.slug}`;
    if (!isPlainName(spec.slug)) throw new Error(`${where}: slug is not a plain name`);
    if (slugs.has(spec.slug)) throw new Error(`${where}: duplicate slug`);
    slugs.add(spec.slug);
    const norm = normInstruction(spec.instruction);
    if (texts.has(norm)) throw new Error(`${where}: duplicate instruction ${JSON.stringify(spec.instruction)}`);
    texts.add(norm);
    const verifier = VerifierSchema.safeParse(spec.verifier);
    if (!verifier.success) throw new Error(`${where}: bad verifier: ${verifier.error.message}`);
    if (spec.kind === 'info' && !spec.verifier.answer) throw new Error(`${where}: an info task needs an answer check`);
    if (spec.kind === 'action' && !spec.verifier.requests?.length && !spec.verifier.state?.length) {
      throw new Error(`${where}: an action task needs a request or state check`);
    }
    const oracle = OracleSchema.safeParse(spec.oracle);
    if (!oracle.success) throw new Error(`${where}: bad oracle: ${oracle.error.message}`);
    if (!('done' in (spec.oracle[spec.oracle.length - 1] as OracleStep))) throw new Error(`${where}: the oracle must end with done`);
  }
}

/** Generates and checks a site's tasks from its pristine data. */
export function buildTasks(runtime: { info: SiteInfo; template: SiteTemplate; snapshot: Buffer }): SiteTasks {
  const { info, template } = runtime;
  const db = openCopy(runtime.snapshot, { readonly: true });
  try {
    const specs = template.tasks({
      site: info,
      db,
      faker: seededFaker(`tasks:${info.name}`),
      href: (path, query) => siteHref(info.base, path, query),
    });
    check(info, specs);
    const bank = specs.map((s) => TaskSchema.parse(toTask(info, s, 'bank')) as SandboxTask);
    const human = specs.filter((s) => s.human).map((s) => TaskSchema.parse(toTask(info, s, 'hu')) as SandboxTask);
    return { human, bank };
  } finally {
    db.close();
  }
}
