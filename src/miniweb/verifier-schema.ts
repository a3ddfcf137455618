/**
 * MiniWeb's `verifier.json` as a zod schema: `{task_id, macros: {<macro>: tree}}`, a tree node a group
 * `{op: "AND"|"OR", checks, advisory?, label?}` or a check `{type, ...}`, any parameter `{open: true}` (not asserted).
 *
 * Loose where MiniWeb is loose (extra top-level keys such as `model` or `feedback`, extra group keys, a leaf type this
 * library does not know: it loads, and its check fails when graded), strict where a slip would silently assert less:
 * a known check's parameter must be one it reads (a misspelt `body_feilds` would otherwise be dropped), of the type it
 * reads, and a mode one it knows (MiniWeb reads an unknown mode as its default).
 * @module
 */
import { z } from 'zod';

/** `{open: true}`: a parameter left for a task to fill and never filled; it asserts nothing. */
export const MiniwebOpenSchema = z.looseObject({ open: z.literal(true) });
/** An open parameter. */
export type MiniwebOpen = z.infer<typeof MiniwebOpenSchema>;

/** Whether a parameter value is `{open: true}`. */
export function isOpen(value: unknown): value is MiniwebOpen {
  return typeof value === 'object' && value !== null && (value as { open?: unknown }).open === true;
}

// A parameter: its value, open, or unset (null and absent read as MiniWeb's `arg()` default).
const param = <T extends z.ZodType>(schema: T) => z.union([MiniwebOpenSchema, schema]).nullish();

const scalar = z.union([z.string(), z.number(), z.boolean()]);
const status = z.union([z.number().int(), z.string().regex(/^\d{3}$/, 'expected an HTTP status such as 200').transform(Number)]);

/** How an answer is compared: `exact`, `includes`/`contains` (strict, no LLM), or `fuzzy` (strict, then an LLM). */
export const MiniwebAnswerModeSchema = z.enum(['exact', 'includes', 'contains', 'fuzzy']);
/** An answer mode. */
export type MiniwebAnswerMode = z.infer<typeof MiniwebAnswerModeSchema>;

/** A body or response field's expected value with its rule, `{value, mode}` (MiniWeb's `_field_match`). */
export const MiniwebFieldRuleSchema = z.strictObject({
  value: scalar.nullable(),
  mode: z.enum(['auto', 'equals', 'contains', 'numeric', 'fuzzy']).optional(),
});
/** A field's expected value: a scalar (compared by MiniWeb's automatic rule), `{value, mode}`, or open. */
export const MiniwebFieldWantSchema = z.union([MiniwebOpenSchema, MiniwebFieldRuleSchema, scalar, z.null()]);
/** A field's expected value. */
export type MiniwebFieldWant = z.infer<typeof MiniwebFieldWantSchema>;
const fields = z.record(z.string(), MiniwebFieldWantSchema);

// Keys a leaf may carry besides its parameters: MiniWeb's own annotations, and `_`-prefixed builder state.
const META_KEYS = ['type', 'label', 'advisory', 'description', 'macro', 'id'];
const meta = { label: z.string().nullish(), advisory: z.boolean().nullish(), description: z.string().nullish(), macro: z.string().nullish(), id: z.unknown().optional() };

function leaf<T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
  const known = new Set([...META_KEYS, ...Object.keys(shape)]);
  return z.looseObject({ type: z.literal(type), ...meta, ...shape }).superRefine((value, ctx) => {
    for (const key of Object.keys(value)) {
      if (known.has(key) || key.startsWith('_')) continue;
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `unknown parameter ${JSON.stringify(key)} of ${type} (it would assert nothing); ${type} reads ${[...known].filter((k) => !META_KEYS.includes(k)).join(', ')}`,
      });
    }
  });
}

const alternatives = param(z.union([z.array(scalar), z.string()]));

/** `answer_matches`: the agent's answer states `expected` (or one of `alternatives`). */
export const AnswerMatchesSchema = leaf('answer_matches', { expected: param(scalar), mode: param(MiniwebAnswerModeSchema), alternatives });
/** `qa_answer`: the answer (a terminal macro, `leaf` not false) or the reasoning (`leaf: false`, a chained macro). */
export const QaAnswerSchema = leaf('qa_answer', { expected: param(scalar), mode: param(MiniwebAnswerModeSchema), alternatives, leaf: z.boolean().nullish() });
/** `reasoning_contains`: the agent's final reasoning reaches `expected`. */
export const ReasoningContainsSchema = leaf('reasoning_contains', { expected: param(scalar), mode: param(MiniwebAnswerModeSchema), alternatives });
/** `answer_grounded`: the last page is `url` and shows `text`. */
export const AnswerGroundedSchema = leaf('answer_grounded', { url: param(z.string()), text: param(scalar) });
/** `page_visited`: some page's URL contains `url`. */
export const PageVisitedSchema = leaf('page_visited', { url: param(z.string()) });
/** `action_included`: a recorded action of this kind, on this target, with this value. */
export const ActionIncludedSchema = leaf('action_included', { action: param(z.string()), target: param(z.string()), value: param(scalar), selector: param(z.string()) });
/** `request_made`: a request of the session's log with this method, URL, status, body and response. */
export const RequestMadeSchema = leaf('request_made', {
  method: param(z.string()),
  url: param(z.string()),
  status: param(status),
  body_contains: param(scalar),
  body_fields: param(fields),
  response_fields: param(fields),
});

/** The check types this library grades, by name. */
export const MINIWEB_LEAF_SCHEMAS = {
  answer_matches: AnswerMatchesSchema,
  qa_answer: QaAnswerSchema,
  reasoning_contains: ReasoningContainsSchema,
  answer_grounded: AnswerGroundedSchema,
  page_visited: PageVisitedSchema,
  action_included: ActionIncludedSchema,
  request_made: RequestMadeSchema,
} as const;

/** A known check type. */
export type MiniwebLeafType = keyof typeof MINIWEB_LEAF_SCHEMAS;
/** A known check, by type. */
export type MiniwebLeafOf<T extends MiniwebLeafType> = z.output<(typeof MINIWEB_LEAF_SCHEMAS)[T]>;
/** A known check. */
export type MiniwebKnownLeaf = { [T in MiniwebLeafType]: MiniwebLeafOf<T> }[MiniwebLeafType];

/** A check of a type this library does not know: it loads, and fails when graded. */
export const MiniwebUnknownLeafSchema = z.looseObject({ type: z.string(), label: z.string().nullish(), advisory: z.boolean().nullish() });
/** A check of an unknown type. */
export type MiniwebUnknownLeaf = z.infer<typeof MiniwebUnknownLeafSchema>;

/** A group of checks: `AND` (every gating check) or `OR` (any); advisory checks are reported, not gating. */
export interface MiniwebGroup {
  /** `AND` or `OR` (MiniWeb accepts any case, and reads a missing op as `AND`). */
  readonly op: 'AND' | 'OR';
  /** The group's checks. */
  readonly checks: readonly MiniwebNode[];
  /** Reported, not gating, in its parent group. */
  readonly advisory?: boolean | null;
  /** The annotator's name for the group. */
  readonly label?: string | null;
}
/** A node of a macro's tree: a group or a check. */
export type MiniwebNode = MiniwebGroup | MiniwebKnownLeaf | MiniwebUnknownLeaf;

const op = z
  .string()
  .nullish()
  .transform((v, ctx) => {
    const up = (v || 'AND').toUpperCase();
    if (up === 'AND' || up === 'OR') return up;
    ctx.addIssue({ code: 'custom', message: `expected "AND" or "OR", got ${JSON.stringify(v)}` });
    return z.NEVER;
  });

const GroupSchema = z.looseObject({
  op,
  checks: z.array(z.lazy(() => MiniwebNodeSchema)).nullish().transform((v) => v ?? []),
  advisory: z.boolean().nullish(),
  label: z.string().nullish(),
});

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A node: a group when it has `op` (as MiniWeb decides), else a check by its `type`. */
export const MiniwebNodeSchema: z.ZodType<MiniwebNode> = z.unknown().transform((value, ctx): MiniwebNode => {
  let schema: z.ZodType;
  if (isRecord(value) && 'op' in value) schema = GroupSchema;
  else if (isRecord(value) && typeof value.type === 'string') schema = (MINIWEB_LEAF_SCHEMAS as Record<string, z.ZodType>)[value.type] ?? MiniwebUnknownLeafSchema;
  else {
    ctx.addIssue({ code: 'custom', message: 'expected a group {"op", "checks"} or a check {"type", ...}' });
    return z.NEVER;
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data as MiniwebNode;
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue } as never);
  return z.NEVER;
});

/** `verifier.json`: each macro of the task with its tree of checks; every macro's tree must pass. */
export const MiniwebVerifierSchema = z.looseObject({
  task_id: z.string().nullish(),
  macros: z.record(z.string(), MiniwebNodeSchema),
});
/** A MiniWeb verifier, as parsed. */
export type MiniwebVerifier = z.output<typeof MiniwebVerifierSchema>;
/** A MiniWeb verifier as `verifier.json` holds it (before parsing: `status: "200"`, `op: "and"`...). */
export type MiniwebVerifierInput = z.input<typeof MiniwebVerifierSchema>;

/**
 * Whether `value` is of MiniWeb's kind (an object whose `macros` is an object), as opposed to the sandbox's kind: the
 * shape only, not its checks. A MiniWeb verifier with a slip in it (`body_feilds`) is still of MiniWeb's kind, so it
 * reaches {@link MiniwebVerifierSchema} and is refused naming the field; read as the sandbox's kind it would hold no
 * check and pass every episode.
 */
export function isMiniwebVerifier(value: unknown): value is MiniwebVerifierInput {
  return isRecord(value) && isRecord(value.macros);
}

/** Whether a node is a group. */
export function isGroup(node: MiniwebNode): node is MiniwebGroup {
  return 'op' in node && Array.isArray((node as MiniwebGroup).checks);
}
