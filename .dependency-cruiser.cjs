/**
 * Import boundaries, checked by `npm run lint` (dependency-cruiser, on the TypeScript sources): no import cycles;
 * `sandbox/` and `examples/` are clients of the library: they import it by package name only (`miniweb-taskgen`,
 * `miniweb-taskgen/schemas`, `miniweb-taskgen/toolkit`, and for examples `miniweb-taskgen/sandbox`, which
 * tsconfig.json's `paths` map to `src/index.ts`, `src/formats.ts`, `src/toolkit.ts` and `sandbox/index.ts`), never a
 * path into `src/`; `src/` loads `sandbox/` only from the CLI's one lazy entry, `src/cli/sandbox.ts`.
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
      name: 'examples-import-by-package-name',
      comment: "examples/ are a user's scripts: they import the library and the sandbox by package name only",
      severity: 'error',
      from: { path: '^examples/' },
      to: { path: '^(src|sandbox)/', dependencyTypesNot: ['aliased-tsconfig-paths'] },
    },
    {
      name: 'examples-use-public-api',
      severity: 'error',
      from: { path: '^examples/' },
      to: { path: '^(src|sandbox)/', pathNot: '^(src/(index|formats|toolkit)|sandbox/index)\\.ts$' },
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
    {
      name: 'agent-knows-no-harness',
      comment: 'the agent (policies, prompt, parsing) is independent of the browser harness and of how episodes are kept',
      severity: 'error',
      from: { path: '^src/agent/' },
      to: { path: '^src/(browser|attempt)/' },
    },
    {
      name: 'harness-knows-no-run',
      comment: 'the browser harness drives a page; the attempt runner (run dir, claims, evidence, verifiers) uses it, not the reverse',
      severity: 'error',
      from: { path: '^src/browser/' },
      to: { path: '^src/attempt/' },
    },
    {
      name: 'claims-own-value-comparison',
      comment: 'the claim language owns how values compare (src/claims/values.ts); attempt\'s verifiers use it, not the reverse',
      severity: 'error',
      from: { path: '^src/claims/' },
      to: { path: '^src/attempt/verify\\.ts$' },
    },
    {
      name: 'attempt-grades-through-claims',
      comment: 'attempt grades with claims (src/claims/grade.ts), never through the verifier writer (src/verifiers/)',
      severity: 'error',
      from: { path: '^src/attempt/' },
      to: { path: '^src/verifiers/' },
    },
    {
      name: 'steps-below-shards',
      comment: 'attempt/, judge/ and relabel/ split their tasks with src/core/shard.ts; shards/ (status, Slurm) sits above them and uses them, not the reverse',
      severity: 'error',
      from: { path: '^src/(attempt|judge|relabel)/' },
      to: { path: '^src/shards(/|\\.ts$)' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
  },
};
