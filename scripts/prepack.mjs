// `npm pack` / `npm publish` (prepack): the package serves its pages from dist/app, so a tarball
// must carry them. Builds the CLI bundle and the library entries, then the pages' static export
// when it is missing or older than a source file (npm test and npm start leave a fresh one, so
// packing right after them does not build twice), then the type declarations.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function run(args) {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

run([path.join(root, 'scripts', 'build-cli.mjs')]);
const exported = path.join(root, 'dist', 'app', 'index.html');
const sources = Math.max(...['app', 'components', 'lib', 'public'].map((d) => newestMtime(path.join(root, d))));
if (!existsSync(exported) || statSync(exported).mtimeMs < sources) {
  process.stdout.write('prepack: building the pages (next build: static export into dist/app)\n');
  run([path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build']);
}
run([path.join(root, 'scripts', 'build-types.mjs')]);
