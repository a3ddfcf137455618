/**
 * Oracle solutions: a task's solution in the agent's action space (DESIGN.md §5), with elements named by role and
 * accessible name instead of by index, so the solution holds for any rendering of the page.
 * @module
 */
import { z } from 'zod';
import { collapse } from 'miniweb-taskgen/toolkit';

/** An element named by its accessible name (exact after whitespace collapse, case-insensitive), role and rank. */
export const TargetSchema = z.object({
  role: z.string().optional(),
  name: z.string(),
  nth: z.number().int().nonnegative().optional(),
});
/** An element target. */
export type Target = z.infer<typeof TargetSchema>;

/** One oracle step: the agent's actions with a {@link Target} in place of `index`. */
export const OracleStepSchema = z.union([
  z.strictObject({ click: TargetSchema.strict() }),
  z.strictObject({ type: TargetSchema.extend({ text: z.string(), enter: z.boolean().optional() }).strict() }),
  z.strictObject({ select: TargetSchema.extend({ option: z.string() }).strict() }),
  z.strictObject({ check: TargetSchema.strict() }),
  z.strictObject({ scroll: z.strictObject({ direction: z.enum(['up', 'down']) }) }),
  z.strictObject({ goto: z.strictObject({ path: z.string() }) }),
  z.strictObject({ back: z.strictObject({}) }),
  z.strictObject({ done: z.strictObject({ answer: z.string().optional() }) }),
]);
/** One oracle step. */
export type OracleStep = z.infer<typeof OracleStepSchema>;

/** A task's oracle solution: steps in order, the last one `done`. */
export const OracleSchema = z.array(OracleStepSchema).min(1);

/** The kind of an oracle step (`click`, `type`...). */
export function stepKind(step: OracleStep): string {
  return Object.keys(step)[0] as string;
}

/** The target of a step that names an element, else `undefined`. */
export function stepTarget(step: OracleStep): Target | undefined {
  if ('click' in step) return step.click;
  if ('type' in step) return step.type;
  if ('select' in step) return step.select;
  if ('check' in step) return step.check;
  return undefined;
}

/** Whitespace collapsed, trimmed, lower-cased: how names are compared. */
export function normName(name: string): string {
  return collapse(name).toLowerCase();
}

/** An element as a target can match it: a role and an accessible name. */
export interface NamedElement {
  /** The element's ARIA role. */
  readonly role: string;
  /** Its accessible name. */
  readonly name: string;
}

/**
 * The element a target names among `elements` (in document order), or an error message saying which target had
 * no match: exact name after whitespace collapse, case-insensitive; role when given; `nth` among several matches.
 */
export function resolveTarget<E extends NamedElement>(elements: readonly E[], target: Target): E | string {
  const want = normName(target.name);
  const hits = elements.filter((e) => normName(e.name) === want && (!target.role || e.role === target.role));
  const hit = hits[target.nth ?? 0];
  if (hit) return hit;
  const what = `${target.role ?? 'element'} "${target.name}"${target.nth ? ` (#${target.nth + 1})` : ''}`;
  return hits.length ? `only ${hits.length} ${what} on the page` : `no ${what} on the page`;
}
