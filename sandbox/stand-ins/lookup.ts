/** Finding a sandbox task from what a stand-in model is given: a site and an instruction. @module */
import { assertPlainName } from '../../src/names';
import type { SiteCatalog } from '../catalog';
import { normInstruction, type SandboxTask } from '../tasks';

/** What every stand-in model says about itself. */
export const STAND_IN_PROVIDER = 'sandbox-stand-in';

const indexes = new WeakMap<SiteCatalog, Map<string, Map<string, SandboxTask>>>();

/** The bank task of `site` with this instruction (compared as the seed's `_norm` does), if any. */
export function bankTask(catalog: SiteCatalog, site: string, instruction: string): SandboxTask | undefined {
  let bySite = indexes.get(catalog);
  if (!bySite) {
    bySite = new Map();
    indexes.set(catalog, bySite);
  }
  let index = bySite.get(site);
  if (!index) {
    index = new Map();
    const tasks = catalog.parse(site) ? catalog.tasks(site) : undefined;
    for (const t of tasks?.bank ?? []) index.set(normInstruction(t.instruction), t);
    bySite.set(site, index);
  }
  return index.get(normInstruction(instruction));
}

/** The site a sandbox path belongs to (`/sites/shop-03/cart` → `shop-03`), if it names one. */
export function siteOfPath(path: string): string | undefined {
  const m = /\/sites\/([^/?#\s]+)/.exec(path);
  if (!m?.[1]) return undefined;
  try {
    assertPlainName(m[1], 'site');
    return m[1];
  } catch {
    return undefined;
  }
}

/** A number in [0, 1) from a key: the stand-ins' seeded, per-task randomness. */
export function unitHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return (h >>> 0) / 2 ** 32;
}
