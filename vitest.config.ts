import { defineConfig } from 'vitest/config';

// Tests that drive Chromium, the sandbox server, the CLI as a subprocess or the seed's Python: the slow part of
// `npm test` (project `slow`). `npm run test:unit` runs the rest (project `unit`), the inner loop.
const SLOW = [
  'test/agent-attempt.test.ts',
  'test/browser.test.ts',
  'test/agent-cli.test.ts',
  'test/agent-qwen.test.ts',
  'test/agent-sandbox.test.ts',
  'test/agent-serve-qwen.test.ts',
  'test/cli-judge.test.ts',
  'test/claims.test.ts',
  'test/cli-pipeline.test.ts',
  'test/cli-sitemaps.test.ts',
  'test/crawl-session.test.ts',
  'test/miniweb-live.test.ts',
  'test/env-server.test.ts',
  'test/env-stop.test.ts',
  'test/examples.test.ts',
  'test/export.test.ts',
  'test/faults.test.ts',
  'test/judge-lab-demo.test.ts',
  'test/judge-variant.test.ts',
  'test/lab-stats.test.ts',
  'test/miniweb-evidence.test.ts',
  'test/observation-errors.test.ts',
  'test/pack.test.ts',
  'test/parity-*.test.ts',
  'test/pipeline.test.ts',
  'test/plots.test.ts',
  'test/reliability-boundary.test.ts',
  'test/report.test.ts',
  'test/sandbox-*.test.ts',
  'test/shards-cli.test.ts',
  'test/slurm-*.test.ts',
  'test/verifiers-sandbox.test.ts',
  'test/tries.test.ts',
];

// Browser and subprocess suites can be slow on shared 2-core machines: the timeouts only stop hung tests,
// no test asserts on wall-clock time.
export default defineConfig({
  // `miniweb-taskgen` and its subpaths resolve to the sources, as tsconfig.json's `paths` say (the sandbox and the
  // examples import the library by its package name, as a user does).
  resolve: { tsconfigPaths: true },
  test: {
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts', 'examples/**/*.test.ts'], exclude: SLOW } },
      { extends: true, test: { name: 'slow', include: SLOW } },
    ],
  },
});
