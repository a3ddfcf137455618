/** The relabeler's reply: `{"tasks": [{instruction, kind, claim}]}`, read leniently, each task checked. @module */
import { ClaimSchema, type Claim } from '../claims/schema';
import type { TaskKind } from '../core/schemas';

/** One task the relabeler wrote, as it wrote it; `claim` is `null` when it is not a claim of the language. */
export interface Proposal {
  readonly instruction: string;
  readonly kind: TaskKind;
  readonly claim: Claim | null;
  /** Why the claim is not one (the schema's first problem), when it is not. */
  readonly claimProblem?: string;
}

/**
 * The reply's tasks, at most `k`: instructions shorter than 15 code points (as the proposer's rule) or repeated
 * are dropped; a kind other than `info` reads as `action`. Throws a `SyntaxError` or `TypeError` for a reply
 * that is not JSON or holds no task list (the call is tried again).
 */
export function readRelabelReply(text: string, k: number): Proposal[] {
  const got: unknown = JSON.parse(text || '{}');
  const tasks = isDict(got) ? got['tasks'] : got;
  if (!Array.isArray(tasks)) throw new TypeError('the reply holds no "tasks" list');
  const out: Proposal[] = [];
  const seen = new Set<string>();
  for (const t of tasks) {
    if (out.length >= k) break;
    if (!isDict(t) || typeof t['instruction'] !== 'string') continue;
    const instruction = t['instruction'].trim();
    const key = instruction.toLowerCase();
    if ([...instruction].length < 15 || seen.has(key)) continue;
    seen.add(key);
    const claim = ClaimSchema.safeParse(t['claim']);
    out.push({
      instruction,
      kind: t['kind'] === 'info' ? 'info' : 'action',
      claim: claim.success ? claim.data : null,
      ...(claim.success ? {} : { claimProblem: claim.error.issues[0]?.message ?? 'not a claim' }),
    });
  }
  return out;
}

function isDict(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
