// Loupe's pages call their own API only through loupeFetch (lib/client/api-key.ts): it sends the
// request key, keeps the session cookie to this origin and never follows a redirect. A bare
// fetch('/api/...') in page code would miss one of those, so this check refuses it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PAGE_CODE = ['app', 'components', 'lib/client', 'lib/recording'];
const ALLOWED = new Set(['lib/client/api-key.ts']);
// fetch('/api…'), fetch(`/api…`), fetch(`${base}/api…`)
const BARE = /\bfetch\(\s*[`'"](?:\$\{[^}]*\})?\/api\//;

function* files(dir) {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(rel);
    else if (/\.(ts|tsx)$/.test(entry.name)) yield rel;
  }
}

let found = 0;
for (const dir of PAGE_CODE) {
  for (const file of files(dir)) {
    if (ALLOWED.has(file.split(path.sep).join('/'))) continue;
    const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!BARE.test(line)) return;
      found++;
      process.stderr.write(`${file}:${i + 1}: call Loupe's API with loupeFetch (lib/client/api-key.ts), not a bare fetch\n`);
    });
  }
}
process.exit(found ? 1 : 0);
