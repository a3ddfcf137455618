import { defineConfig } from 'vitest/config';

// Browser and subprocess suites can be slow on shared 2-core machines: the timeouts only stop hung tests,
// no test asserts on wall-clock time.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
