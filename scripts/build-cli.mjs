// Bundles the CLI and the library entry points with esbuild. Dependencies stay external
// (they are installed next to the package), so the bundle holds only Loupe's own code.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENTRIES = { cli: 'lib/cli/main.ts', engine: 'lib/engine/public.ts', msw: 'lib/adapters/msw.ts' };
const started = Date.now();
await build({
  absWorkingDir: root,
  entryPoints: Object.fromEntries(Object.entries(ENTRIES).filter(([, file]) => fs.existsSync(path.join(root, file)))),
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
process.stdout.write(`built dist/ in ${Date.now() - started} ms\n`);
