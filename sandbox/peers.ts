/**
 * The sandbox's optional peer dependencies, better-sqlite3 (each site's data) and @faker-js/faker (its seed data).
 * A library user who never imports `miniweb-taskgen/sandbox` installs neither; importing it without them fails at
 * once with a message that says what to install, instead of a module-resolution error from deep inside.
 * They are loaded through `require` (not a static import) so that the check runs before anything needs them.
 * @module
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type * as FakerModule from '@faker-js/faker';

/** The message of a sandbox import without its peer dependencies. */
export const MISSING_PEERS_MESSAGE =
  'miniweb-taskgen/sandbox needs its optional peer dependencies: npm install better-sqlite3 @faker-js/faker';

const load = createRequire(import.meta.url);

function peer<T>(name: string): T {
  try {
    return load(name) as T;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') {
      throw new Error(`${MISSING_PEERS_MESSAGE} (${name} is not installed)`, { cause: error });
    }
    throw error;
  }
}

/** better-sqlite3's `Database` class. */
export const Sqlite: typeof BetterSqlite3 = peer('better-sqlite3');
/** faker's module: `Faker` and its locales. */
export const fakerModule: typeof FakerModule = peer('@faker-js/faker');
