/**
 * The environment server's wire formats (OpenEnv's protocol, release v0.2.3, commit 685de411; DESIGN.md §10): the
 * reset and step data, the observation, the state, the WebSocket messages and error codes, each a zod schema whose
 * JSON Schema `/schema` serves.
 * @module
 */
import { z } from 'zod';
import { REWARD_SOURCES } from '../attempt/reward';
import { ActionSchema } from '../core/schemas';

/** OpenEnv's WebSocket error codes (`WSErrorCode`). */
export const ENV_ERROR_CODES = Object.freeze({
  invalidJson: 'INVALID_JSON',
  unknownType: 'UNKNOWN_TYPE',
  validation: 'VALIDATION_ERROR',
  execution: 'EXECUTION_ERROR',
  capacity: 'CAPACITY_REACHED',
  factory: 'FACTORY_ERROR',
  session: 'SESSION_ERROR',
} as const);

/** One of {@link ENV_ERROR_CODES}. */
export type EnvErrorCode = (typeof ENV_ERROR_CODES)[keyof typeof ENV_ERROR_CODES];

/**
 * `reset`'s data: a task by `task_id`, by `split` and `index`, or by `seed` (within `split` when given); none of
 * them: the first task. OpenEnv's `episode_id` labels the episode in the state.
 */
export const EnvResetSchema = z.looseObject({
  task_id: z.string().min(1).max(200).optional(),
  split: z.string().min(1).max(100).optional(),
  index: z.number().int().nonnegative().optional(),
  seed: z.number().int().nonnegative().optional(),
  episode_id: z.string().max(255).optional(),
});
/** What `reset` takes. */
export type EnvReset = z.infer<typeof EnvResetSchema>;

/**
 * `step`'s data, the environment's action: an action of the agent's action language, or the model's raw reply
 * text (parsed by the agent's own tolerant parser; a reply that does not parse counts as a step, its error fed back).
 */
export const EnvActionSchema = z
  .strictObject({
    action: ActionSchema.optional(),
    text: z.string().max(100_000).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((a) => (a.action === undefined) !== (a.text === undefined), { message: 'give exactly one of `action` (an action object) or `text` (the model\'s reply)' });
/** What `step` takes. */
export type EnvAction = z.infer<typeof EnvActionSchema>;

/** An element of the page as the observation lists it. */
const ElementSchema = z.looseObject({
  index: z.number().int(),
  role: z.string(),
  name: z.string(),
  tag: z.string(),
  value: z.string().optional(),
  options: z.array(z.string()).optional(),
  checked: z.boolean().optional(),
  href: z.string().optional(),
});

/** Where a reward comes from: the task's verifier, a written verifier, the judge, or nowhere. */
export const RewardSourceSchema = z.enum(REWARD_SOURCES);
/** Where a reward comes from. */
export type RewardSource = z.infer<typeof RewardSourceSchema>;

/**
 * The observation (the `observation` of OpenEnv's `{observation, reward, done}`): what the agent adapter sees, the
 * screenshot as base64 PNG (`null` when left out, and in the final observation), the prompt as `qwenPolicy` sends it,
 * and `metadata` (at the end: outcome, reward source, the checks that decided it, the episode's directory).
 */
export const EnvObservationSchema = z.looseObject({
  task_id: z.string(),
  site: z.string(),
  instruction: z.string(),
  url: z.string(),
  title: z.string(),
  elements: z.array(ElementSchema),
  text: z.string(),
  error: z.string().nullable(),
  step: z.number().int().nonnegative(),
  max_steps: z.number().int().positive(),
  screenshot: z.string().nullable(),
  prompt: z.object({ system: z.string(), user: z.string() }),
  metadata: z.record(z.string(), z.unknown()),
});
/** What the agent observes. */
export type EnvObservation = z.infer<typeof EnvObservationSchema>;

/** A reset's or step's reply: OpenEnv's `{observation, reward, done}`. */
export interface EnvStepResult {
  /** What the agent sees now (at the end: the last page, its `metadata` the outcome and the checks). */
  readonly observation: EnvObservation;
  /** 1 or 0 at the end from the verifier (or the judge); `null` before the end and when nothing can grade. */
  readonly reward: number | null;
  /** Whether the episode has ended. */
  readonly done: boolean;
}

/** The session's state (OpenEnv's `State`: `episode_id`, `step_count`, and ours). */
export const EnvStateSchema = z.looseObject({
  episode_id: z.string().nullable(),
  step_count: z.number().int().nonnegative(),
  task_id: z.string().nullable(),
  split: z.string().nullable(),
  max_steps: z.number().int().positive(),
  done: z.boolean(),
  /** The episode's directory once recorded. */
  episode_dir: z.string().nullable(),
});
/** A session's state. */
export type EnvState = z.infer<typeof EnvStateSchema>;

/** A client's WebSocket message (OpenEnv's `WSIncomingMessage`). */
export const EnvMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('reset'), data: z.record(z.string(), z.unknown()).default({}) }),
  z.strictObject({ type: z.literal('step'), data: z.record(z.string(), z.unknown()) }),
  z.strictObject({ type: z.literal('state') }),
  z.strictObject({ type: z.literal('close') }),
]);

/** The JSON Schemas of `/schema`: action, observation and state. */
export function envJsonSchemas(): { action: unknown; observation: unknown; state: unknown } {
  const schema = (s: z.ZodType) => {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    return rest;
  };
  return { action: schema(EnvActionSchema), observation: schema(EnvObservationSchema), state: schema(EnvStateSchema) };
}
