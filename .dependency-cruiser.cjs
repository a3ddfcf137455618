/**
 * Import boundaries, checked by `npm run lint` (dependency-cruiser, on the TypeScript sources):
 * no import cycles; `sandbox/` is a client of the library and imports only its public API (`src/index.ts` and `src/formats.ts`, `miniweb-taskgen/schemas`, plus
 * `src/internal.ts`, the sandbox's documented window on a few parsers it must share with the library); `src/`
 * loads `sandbox/` only from the CLI's one lazy entry, `src/cli/sandbox.ts`.
 */
module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'sandbox-uses-public-api',
      comment: 'sandbox/ imports the library only through src/index.ts and src/formats.ts (miniweb-taskgen/schemas), or src/internal.ts',
      severity: 'error',
      from: { path: '^sandbox/' },
      to: { path: '^src/', pathNot: '^src/(index|formats|internal)\\.ts$' },
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
