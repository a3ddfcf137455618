/** Finding a sandbox task from what a stand-in model is given: a site and an instruction. @module */
import { isPlainName } from 'miniweb-taskgen';
import type { SiteCatalog } from '../catalog';
import { hashSeed } from '../database';
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
    for (const t of catalog.tasks(site)?.bank ?? []) index.set(normInstruction(t.instruction), t);
    bySite.set(site, index);
  }
  return index.get(normInstruction(instruction));
}

/** The site a sandbox path belongs to (`/sites/shop-03/cart` → `shop-03`), if it names one. */
export function siteOfPath(path: string): string | undefined {
  const name = /\/sites\/([^/?#\s]+)/.exec(path)?.[1];
  return isPlainName(name) ? name : undefined;
}

/** A number in [0, 1) from a key: the stand-ins' seeded, per-task randomness. */
export function unitHash(key: string): number {
  // hashSeed's FNV-1a, then a finaliser that spreads it over all 32 bits before it becomes a fraction.
  let h = hashSeed(key);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return (h >>> 0) / 2 ** 32;
}
