/**
 * MiniWeb's annotated tasks as the library's human tasks: every `task.json` under a directory (MiniWeb keeps
 * `data/annotations/<annotator>/<task_id>/`, any depth is read), with the `verifier.json` beside it.
 *
 * Every problem of every file is collected and reported together (one {@link MiniwebTasksError} naming each file and
 * field), so one pass over 253 tasks tells everything to fix. Directories whose name starts with `.` (MiniWeb's
 * `.trash`) and symbolic links are not entered; a task directory's own subdirectories (`screenshots/`) are not read.
 * @module
 */
import { z } from 'zod';
import { InputError } from '../core/errors';
import { assertPlainName, UnsafeNameError } from '../core/names';
import { parseJsonText } from '../core/io';
import { TaskSchema, type Task } from '../core/schemas';
import { nodeStore } from '../files/node';
import type { FileStore } from '../files/types';
import { MiniwebVerifierSchema } from './verifier-schema';

/** Options of {@link readMiniwebTasks}. */
export interface ReadMiniwebTasksOptions {
  /** Where the files are read. Default the local disk. */
  readonly store?: FileStore;
}

/** Every problem found reading MiniWeb's tasks; an {@link InputError} located at the first, listing all in its message. */
export class MiniwebTasksError extends InputError {
  /** Each problem, with its file and field. */
  readonly problems: readonly InputError[];
  constructor(problems: readonly InputError[]) {
    const [first, ...rest] = problems as [InputError, ...InputError[]];
    const more = rest.length ? ` (and ${rest.length} more problem${rest.length > 1 ? 's' : ''})${rest.map((p) => `\n${p.message}`).join('')}` : '';
    super({ file: first.file, line: first.line, field: first.field }, `${first.problem}${more}`);
    this.problems = problems;
  }
}

const plain = (what: string) => (value: string, ctx: z.RefinementCtx) => {
  try {
    assertPlainName(value, what);
  } catch (error) {
    if (!(error instanceof UnsafeNameError)) throw error;
    ctx.addIssue({ code: 'custom', message: error.message });
  }
};
const siteName = z.string().superRefine(plain('site'));
const scalar = z.union([z.string(), z.number(), z.boolean()]);

/** The fields of MiniWeb's `task.json` this reader uses (others are MiniWeb's own: kept out of the task). */
export const MiniwebTaskJsonSchema = z.looseObject({
  task_id: z.string().superRefine(plain('task id')),
  site: siteName.nullish(),
  // The annotate UI writes ids; older files hold {id, name} objects.
  sites: z.array(z.union([siteName, z.looseObject({ id: siteName }).transform((s) => s.id)])).nullish(),
  instruction: z.string().refine((s) => s.trim() !== '', 'empty: a task needs an instruction'),
  macros: z.array(z.string().min(1)).nullish(),
  expected_answer: z.union([scalar, z.array(scalar)]).nullish(),
  answer_type: z.string().nullish(),
  alternatives: z.union([z.string(), z.array(scalar)]).nullish(),
  expected_outcome: z.string().nullish(),
  starting_url: z.string().nullish(),
  requires_login: z.boolean().nullish(),
  qa_answers: z.record(z.string(), z.unknown()).nullish(),
});
/** A `task.json`, as read. */
export type MiniwebTaskJson = z.output<typeof MiniwebTaskJsonSchema>;

/**
 * Reads every `task.json` under `dir` as a human task (sorted by path): `{kind: "human", task_id, site, sites, macro,
 * macros, instruction, start_path, task_kind, verifier}`, and `miniweb` with the task's answer fields as given
 * (`expected_answer`, `answer_type`, `alternatives`, `expected_outcome`, `requires_login`, `starting_url`).
 *
 * - `start_path`: `starting_url` reduced to its path and query when that is under `/sites/<site>/`, else the site's
 *   root (MiniWeb's `starting_url` is often empty, `about:blank`, or another host's absolute URL).
 * - `task_kind`: `info` when the task has an expected answer, or its verifier checks the reported answer
 *   (`answer_matches`, `answer_grounded`, a `qa_answer` not marked chained); else `action`. `answer_type` alone does
 *   not count: MiniWeb's annotate form writes `"string"` on every task.
 * - `verifier`: `verifier.json` as MiniWeb grades it, null when there is none: its answer checks' `expected` synced
 *   to the task's current answer (`qa_answers[macro]`, else `expected_answer`), as MiniWeb's grader does on every
 *   load, since a re-recorded task keeps the verifier written for its first recording.
 *
 * Throws a {@link MiniwebTasksError} listing every problem: a file that is not JSON, a missing or bad field (a task
 * id or site that is not a plain name), a verifier of another shape or task, a task id seen twice, no task at all.
 */
export async function readMiniwebTasks(dir: string, options: ReadMiniwebTasksOptions = {}): Promise<Task[]> {
  const store = options.store ?? nodeStore();
  if (!(await store.exists(dir))) throw new MiniwebTasksError([new InputError({ file: dir }, 'no such directory')]);
  const problems: InputError[] = [];
  const tasks: Task[] = [];
  const seen = new Map<string, string>();
  // Sorted by the files' paths (a walk in name order would put `a/b/` before `a-b/`).
  const files = (await taskDirs(store, dir)).sort((a, b) => {
    const [x, y] = [join(a, 'task.json'), join(b, 'task.json')];
    return x < y ? -1 : x > y ? 1 : 0;
  });
  for (const taskDir of files) {
    const task = await readTask(store, taskDir, problems);
    if (!task) continue;
    const file = join(taskDir, 'task.json');
    const first = seen.get(task.task_id);
    if (first !== undefined) {
      problems.push(new InputError({ file, field: 'task_id' }, `${JSON.stringify(task.task_id)} is also the task id of ${first}`));
      continue;
    }
    seen.set(task.task_id, file);
    tasks.push(task);
  }
  if (!problems.length && !tasks.length) problems.push(new InputError({ file: dir }, 'no task.json under it'));
  if (problems.length) throw new MiniwebTasksError(problems);
  return tasks;
}

const join = (a: string, b: string): string => (a.endsWith('/') ? `${a}${b}` : `${a}/${b}`);

// The directories holding a task.json (a task dir's own subdirectories not entered).
async function taskDirs(store: FileStore, dir: string): Promise<string[]> {
  const entries = await store.list(dir);
  if (entries.some((e) => e.name === 'task.json' && !e.isDirectory && !e.isSymbolicLink)) return [dir];
  const out: string[] = [];
  for (const e of entries) {
    if (!e.isDirectory || e.isSymbolicLink || e.name.startsWith('.')) continue;
    out.push(...(await taskDirs(store, join(dir, e.name))));
  }
  return out;
}

// A JSON file's value with Python's floats as plain numbers; a syntax error is a problem of the file.
async function readJson(store: FileStore, file: string, problems: InputError[]): Promise<{ value: unknown } | null> {
  try {
    return { value: JSON.parse(JSON.stringify(parseJsonText(await store.readText(file), { file }))) as unknown };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    problems.push(error);
    return null;
  }
}

function issuesOf(error: z.ZodError, file: string, prefix = ''): InputError[] {
  return error.issues.map((issue) => {
    const field = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    const message = issue.code === 'invalid_type' && issue.input === undefined ? 'missing' : issue.message;
    return new InputError({ file, field: field || undefined }, message);
  });
}

async function readTask(store: FileStore, dir: string, problems: InputError[]): Promise<Task | null> {
  const file = join(dir, 'task.json');
  const read = await readJson(store, file, problems);
  if (!read) return null;
  const parsed = MiniwebTaskJsonSchema.safeParse(read.value);
  const verifier = await readVerifier(store, dir, parsed.success ? parsed.data : null, problems);
  if (!parsed.success) {
    problems.push(...issuesOf(parsed.error, file));
    return null;
  }
  const json = parsed.data;
  const sites = [...new Set(json.sites ?? [])];
  const site = json.site ?? sites[0];
  if (site === undefined) {
    problems.push(new InputError({ file, field: 'site' }, 'missing: neither site nor sites names the task\'s site'));
    return null;
  }
  if (sites.length && !sites.includes(site)) {
    problems.push(new InputError({ file, field: 'site' }, `${JSON.stringify(site)} is not among sites ${JSON.stringify(sites)}`));
    return null;
  }
  if (verifier === undefined) return null;
  const macros = json.macros ?? [];
  const task = {
    kind: 'human',
    task_id: json.task_id,
    site,
    sites: sites.length ? sites : [site],
    macro: macros[0] ?? 'human',
    macros,
    instruction: json.instruction,
    start_path: startPath(json.starting_url, site),
    task_kind: asksForAnswer(json, verifier) ? 'info' : 'action',
    verifier,
    miniweb: Object.fromEntries(MINIWEB_FIELDS.filter((k) => json[k] !== undefined).map((k) => [k, json[k]])),
  };
  return TaskSchema.parse(task);
}

const MINIWEB_FIELDS = ['expected_answer', 'answer_type', 'alternatives', 'expected_outcome', 'requires_login', 'starting_url'] as const;

// The verifier beside a task: its content (null when there is none), or undefined when it has problems.
async function readVerifier(store: FileStore, dir: string, task: MiniwebTaskJson | null, problems: InputError[]): Promise<Record<string, unknown> | null | undefined> {
  const file = join(dir, 'verifier.json');
  if (!(await store.exists(file))) return null;
  const read = await readJson(store, file, problems);
  if (!read) return undefined;
  const parsed = MiniwebVerifierSchema.safeParse(read.value);
  if (!parsed.success) {
    problems.push(...issuesOf(parsed.error, file));
    return undefined;
  }
  if (task && parsed.data.task_id && parsed.data.task_id !== task.task_id) {
    problems.push(new InputError({ file, field: 'task_id' }, `${JSON.stringify(parsed.data.task_id)} is not the task's id ${JSON.stringify(task.task_id)}: a verifier of another task`));
    return undefined;
  }
  const content = read.value as Record<string, unknown>;
  if (task) syncExpected(content.macros as Record<string, unknown>, task);
  return content;
}

const ANSWER_LEAVES = new Set(['qa_answer', 'answer_matches', 'reasoning_contains']);

function leavesOf(node: unknown): Record<string, unknown>[] {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return [];
  const n = node as Record<string, unknown>;
  return 'op' in n ? (Array.isArray(n.checks) ? n.checks.flatMap(leavesOf) : []) : [n];
}

// MiniWeb's grader sets each answer check's non-empty `expected` to the task's current answer for its macro.
function syncExpected(macros: Record<string, unknown>, task: MiniwebTaskJson): void {
  for (const [macro, tree] of Object.entries(macros)) {
    const own = task.qa_answers?.[macro];
    const current = own ? own : (task.expected_answer ?? '');
    const want = typeof current === 'string' ? current : JSON.stringify(current);
    if (!want) continue;
    for (const leaf of leavesOf(tree)) {
      if (ANSWER_LEAVES.has(String(leaf.type)) && typeof leaf.expected === 'string' && leaf.expected !== '') leaf.expected = want;
    }
  }
}

function asksForAnswer(task: MiniwebTaskJson, verifier: Record<string, unknown> | null): boolean {
  const expected = task.expected_answer;
  const stated = Array.isArray(expected) ? expected.length > 0 : typeof expected === 'string' ? expected.trim() !== '' : expected !== null && expected !== undefined;
  if (stated) return true;
  const macros = (verifier?.macros ?? {}) as Record<string, unknown>;
  return Object.values(macros).flatMap(leavesOf).some((leaf) => leaf.type === 'answer_matches' || leaf.type === 'answer_grounded' || (leaf.type === 'qa_answer' && leaf.leaf !== false));
}

/** The start path of a task on `site`: `starting_url`'s path and query when under `/sites/<site>/`, else the site's root. */
export function startPath(startingUrl: string | null | undefined, site: string): string {
  const root = `/sites/${site}/`;
  const given = (startingUrl ?? '').trim();
  if (!/^(?:https?:\/\/|\/)/i.test(given)) return root;
  let url: URL;
  try {
    // Resolved against a placeholder origin: `..` segments are removed, the host of an absolute URL dropped.
    url = new URL(given, 'http://miniweb.invalid');
  } catch {
    return root;
  }
  if (url.pathname === root.slice(0, -1)) return root + url.search;
  return url.pathname.startsWith(root) ? url.pathname + url.search : root;
}
