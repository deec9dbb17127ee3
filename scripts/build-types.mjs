// Type declarations for the library entries (`mcp-loupe/engine`, `mcp-loupe/msw`), run by prepack.
// tsc emits one .d.ts per source file into dist/types (with --noCheck: `npm run typecheck` checks
// the code; this only writes declarations, in a few seconds). Relative specifiers get explicit
// `.js` extensions so consumers using `moduleResolution: node16/nodenext` resolve them too, and
// dist/engine.d.ts and dist/msw.d.ts re-export the entries, as package.json `exports` expects.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist', 'types');
const started = Date.now();
fs.rmSync(out, { recursive: true, force: true });
const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.lib.json', '--noCheck'], {
  cwd: root,
  stdio: 'inherit',
});
if (tsc.status !== 0) {
  process.stderr.write('Failed to build type declarations: tsc exited with an error\n');
  process.exit(1);
}

/** `./x` → `./x.js` or `./x/index.js`, whichever declaration exists. */
function withExtension(file, spec) {
  const base = path.resolve(path.dirname(file), spec);
  if (fs.existsSync(`${base}.d.ts`)) return `${spec}.js`;
  if (fs.existsSync(path.join(base, 'index.d.ts'))) return `${spec}/index.js`;
  return spec;
}
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]*)\2/g;
for (const entry of fs.readdirSync(out, { recursive: true })) {
  const file = path.join(out, String(entry));
  if (!file.endsWith('.d.ts')) continue;
  const text = fs.readFileSync(file, 'utf8');
  const fixed = text.replace(SPECIFIER, (_, lead, quote, spec) => `${lead}${quote}${withExtension(file, spec)}${quote}`);
  if (fixed !== text) fs.writeFileSync(file, fixed);
}

for (const [name, target] of Object.entries({ engine: './types/engine/public.js', msw: './types/adapters/msw.js' })) {
  fs.writeFileSync(path.join(root, 'dist', `${name}.d.ts`), `export * from '${target}';\n`);
}
process.stdout.write(`built type declarations in ${Date.now() - started} ms\n`);
