// Bundles the CLI and the library entry points with esbuild (after the app views, see build-apps.mjs).
// - dist/cli.mjs bundles its dependencies (all but the native better-sqlite3): one file loads
//   much faster than hundreds of modules, which keeps `mcp-loupe mock` start-up short.
// - dist/engine.mjs and dist/msw.mjs keep dependencies external: the consuming project
//   installs them (zod, and msw as a peer).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';
import { buildApps } from './build-apps.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const started = Date.now();
// The built-in scenarios import the bundled app views: generate them first.
await buildApps();
const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  outExtension: { '.js': '.mjs' },
  outdir: 'dist',
};

await build({
  ...common,
  // app-server: startAppServer for scripts/dev.mjs (npm run dev), without the CLI; npm start runs the CLI itself.
  entryPoints: { cli: 'lib/cli/main.ts', 'app-server': 'lib/server/app-server.ts' },
  // pg too: an optional dependency loaded on first use of --store postgres://… (lib/store/postgres/driver.ts).
  external: ['better-sqlite3', 'pg'],
  // `mcp-loupe --version` and the clientInfo it sends: the version being built (lib/cli/version.ts).
  define: { __LOUPE_VERSION__: JSON.stringify(version) },
  // Bundled CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __loupeCreateRequire } from 'node:module'; const require = __loupeCreateRequire(import.meta.url);" },
});

const libraries = Object.fromEntries(
  Object.entries({ engine: 'lib/engine/public.ts', msw: 'lib/adapters/msw.ts' }).filter(([, file]) => fs.existsSync(path.join(root, file))),
);
if (Object.keys(libraries).length) {
  // Shared code goes to dist/chunks, so importing both entries loads the engine once.
  fs.rmSync(path.join(root, 'dist', 'chunks'), { recursive: true, force: true });
  await build({
    ...common,
    entryPoints: libraries,
    packages: 'external',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
  });
}
process.stdout.write(`built dist/ in ${Date.now() - started} ms\n`);
