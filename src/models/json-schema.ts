/** A zod schema as the JSON schema a model's structured output accepts (`jsonSchema` of a call). @module */
import { z } from 'zod';

/**
 * Turns a zod schema into a plain JSON schema for the `jsonSchema` option of `complete`: zod 4's `z.toJSONSchema`
 * (output shape, so objects get `additionalProperties: false` as OpenAI's strict mode wants), without the
 * `$schema` tag and without the ±2^53 bounds zod adds to integers, which providers reject or ignore.
 * @example
 * const reply = await llm.complete(prompt, { jsonSchema: toJsonSchema(z.object({ verdict: z.enum(['SUCCESS', 'FAILURE']) })) });
 */
export function toJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' });
  return withoutSafeIntegerBounds(rest) as Record<string, unknown>;
}

function withoutSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutSafeIntegerBounds);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    out[key] = withoutSafeIntegerBounds(value);
  }
  return out;
}
