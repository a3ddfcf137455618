import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', schemas: 'src/formats.ts', toolkit: 'src/toolkit.ts', cli: 'src/cli.ts', sandbox: 'sandbox/index.ts' },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts', schemas: 'src/formats.ts', toolkit: 'src/toolkit.ts', sandbox: 'sandbox/index.ts' } },
  target: 'node20',
  platform: 'node',
  shims: true,
  clean: true,
  sourcemap: true,
  splitting: true,
  // hyparquet*: optional, loaded by `export` only, by dynamic import, and installed by the user. miniweb-taskgen: the
  // sandbox is a client of the package and imports it by name; left external, dist/sandbox.* load the package's own
  // entries (self-reference), never a second copy of the library.
  external: ['hyparquet', 'hyparquet-writer', /^miniweb-taskgen(\/|$)/],
});
