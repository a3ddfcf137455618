import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', schemas: 'src/formats.ts', cli: 'src/cli.ts', sandbox: 'sandbox/index.ts' },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts', schemas: 'src/formats.ts', sandbox: 'sandbox/index.ts' } },
  target: 'node20',
  platform: 'node',
  shims: true,
  clean: true,
  sourcemap: true,
  splitting: true,
  // optional: loaded by `export` only, by dynamic import, and installed by the user
  external: ['hyparquet', 'hyparquet-writer'],
});
