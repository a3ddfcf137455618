/**
 * The input check of the public entry functions: a task or an option of the wrong shape (a plain object from a
 * user's script) fails at once with an {@link InputError} naming the function and the field (`tasks[0].kind`),
 * before anything is written, launched or paid for.
 * @module
 */
import { z } from 'zod';
import { InputError } from './errors';
import { TaskSchema } from './schemas';

/** A count of at least 1 (workers, steps). */
export const positiveInt = z.number().int().min(1);
/** A count of at least 0 (retries). */
export const countInt = z.number().int().min(0);
/** A time limit in ms. */
export const positiveMs = z.number().positive().finite();
/** A non-empty path. */
export const pathText = z.string().min(1);
/** Something callable (a policy's `decide`, a model's `complete`). */
export const callable = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', 'expected a function');

/** `options` checked against `schema`; the first problem throws an {@link InputError} naming `entry` and the field. */
export function checkInput<S extends z.ZodType>(entry: string, schema: S, options: unknown): z.output<S> {
  const result = schema.safeParse(options);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new InputError({ file: entry, field: fieldPath(issue.path) || 'options' }, issue.message);
}

/** `tasks[0].kind` from `['tasks', 0, 'kind']`. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i > 0 ? '.' : ''}${String(part)}`)).join('');
}

const model = z.looseObject({ modelId: z.string(), complete: callable });
const policy = z.looseObject({ name: z.string(), decide: callable });
const shard = z.looseObject({ index: countInt, count: positiveInt }).refine((s) => s.index < s.count, 'index must be below count');
const store = z.looseObject({ writeAtomic: callable });
const common = { store: store.optional(), onEvent: callable.optional(), shard: shard.optional() };
const judging = { run: pathText, llm: model, model: z.string().min(1).optional(), workers: positiveInt.optional(), tries: positiveInt.optional(), failFast: countInt.optional(), judgeDir: pathText.optional() };
const attempting = {
  policy, out: pathText, source: z.looseObject({ baseUrl: z.string().min(1) }), concurrency: positiveInt.optional(), maxSteps: positiveInt.optional(),
  episodeTimeoutMs: positiveMs.optional(), actionTimeoutMs: positiveMs.optional(), retries: countInt.optional(), stopAfterFailures: countInt.optional(),
  attempts: z.number().int().min(1).optional(),
};
const pick = z.enum(['shortest', 'first', 'all']);

/**
 * The checked part of each public entry's options (the rest, such as callbacks of a user's own type, is the
 * caller's). Loose: fields not listed pass as given.
 */
export const ENTRY_SCHEMAS = {
  runAttempt: z.looseObject({ ...common, ...attempting, tasks: z.array(TaskSchema), checkJudge: model.optional() }),
  attemptTask: z.looseObject({ task: TaskSchema, policy, dir: pathText, baseUrl: z.string().min(1), maxSteps: positiveInt, timeoutMs: positiveMs, actionTimeoutMs: positiveMs.optional(), store }),
  runPropose: z.looseObject({ ...common, sites: z.array(z.string()), llm: model, out: pathText, perSite: countInt.optional(), batch: positiveInt.optional(), seed: z.number().int().optional(), workers: positiveInt.optional(), failFast: countInt.optional() }),
  proposeSite: z.looseObject({ llm: model, seed: z.number().int().optional() }), // perSite and batch: its own RangeError
  runJudge: z.looseObject({ ...common, ...judging }),
  runValidate: z.looseObject({ ...common, ...judging }),
  judgeEpisode: z.looseObject({ episode: pathText, instruction: z.string(), judgeDir: pathText, llm: model, model: z.string().min(1).optional(), tries: positiveInt.optional(), store: store.optional() }),
  runRows: z.looseObject({ ...common, run: pathText, out: pathText, tasks: z.union([pathText, z.array(z.looseObject({ task_id: z.string().min(1), site: z.string() }))]), budget: countInt.optional(), workers: positiveInt.optional(), pick: pick.optional() }),
  runPipeline: z.looseObject({
    ...common, dir: pathText, source: z.looseObject({}), sites: z.array(z.string()).optional(), proposer: model.optional(), agent: model.optional(), policy: policy.optional(),
    humanTasks: z.union([pathText, z.array(TaskSchema)]).optional(), humanPerSite: countInt.optional(), perSite: countInt.optional(), batch: positiveInt.optional(),
    seed: z.number().int().optional(), proposeWorkers: positiveInt.optional(), concurrency: positiveInt.optional(), maxSteps: positiveInt.optional(),
    episodeTimeoutMs: positiveMs.optional(), actionTimeoutMs: positiveMs.optional(), stopAfterFailures: countInt.optional(), judgeWorkers: positiveInt.optional(),
    budget: countInt.optional(), attempts: z.number().int().min(1).optional(), pick: pick.optional(), minPrecision: z.number().min(0).max(1).optional(),
    agentTemperature: z.number().min(0).optional(), agentSeed: z.number().int().optional(),
  }),
  runExport: z.looseObject({ ...common, run: pathText, out: pathText, rows: pathText.optional(), validate: pathText.optional(), humanRun: pathText.optional(), rowGroupRows: positiveInt.optional(), overwrite: z.boolean().optional() }),
  runReport: z.looseObject({ ...common, run: pathText, out: pathText.optional(), judgeDir: pathText.optional(), rows: pathText.optional(), workers: positiveInt.optional() }),
  runJudgeLab: z.looseObject({ ...common, run: pathText, llm: model.optional(), workers: positiveInt.optional(), tries: positiveInt.optional(), tasks: pathText.optional() }),
} as const;

/** Checks a public entry's options with its {@link ENTRY_SCHEMAS} schema (see {@link checkInput}). */
export function checkEntry(entry: keyof typeof ENTRY_SCHEMAS, options: unknown): void {
  checkInput(entry, ENTRY_SCHEMAS[entry], options);
}
