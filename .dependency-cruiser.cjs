/**
 * Import boundaries, checked by `npm run lint` (dependency-cruiser, on the TypeScript sources):
 * no import cycles; `sandbox/` is a client of the library: it imports it by package name only (`miniweb-taskgen`,
 * `miniweb-taskgen/schemas`, `miniweb-taskgen/toolkit`, which tsconfig.json's `paths` map to `src/index.ts`,
 * `src/formats.ts` and `src/toolkit.ts`), never a path into `src/`; `src/` loads `sandbox/` only from the CLI's one
 * lazy entry, `src/cli/sandbox.ts`.
 */
module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'sandbox-uses-public-api',
      comment: 'sandbox/ uses only the package entries: src/index.ts, src/formats.ts (schemas) and src/toolkit.ts',
      severity: 'error',
      from: { path: '^sandbox/' },
      to: { path: '^src/', pathNot: '^src/(index|formats|toolkit)\\.ts$' },
    },
    {
      name: 'sandbox-imports-by-package-name',
      comment: "sandbox/ imports the library as a user does, 'miniweb-taskgen' or a subpath, never by a relative path",
      severity: 'error',
      from: { path: '^sandbox/' },
      to: { path: '^src/', dependencyTypesNot: ['aliased-tsconfig-paths'] },
    },
    {
      name: 'src-loads-sandbox-lazily-once',
      comment: 'only the CLI loads the sandbox, from src/cli/sandbox.ts, by dynamic import',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/sandbox\\.ts$' },
      to: { path: '^sandbox/' },
    },
    {
      name: 'lazy-sandbox-is-dynamic',
      severity: 'error',
      from: { path: '^src/cli/sandbox\\.ts$' },
      to: { path: '^sandbox/', dependencyTypesNot: ['dynamic-import', 'type-only', 'type-import'] },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
  },
};
