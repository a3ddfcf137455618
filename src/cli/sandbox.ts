/**
 * The CLI's one entry to the sandbox (`miniweb-taskgen/sandbox`): loaded by dynamic import, only on the paths that
 * use it, so the library and the CLI's other paths never load the sandbox or its optional peer dependencies.
 * @module
 */
import type * as Sandbox from '../../sandbox/index';

export type { SandboxSetup, SandboxSetupOptions } from '../../sandbox/index';

/** The sandbox module, loaded on first use. */
export async function loadSandbox(): Promise<typeof Sandbox> {
  return import('../../sandbox/index');
}
