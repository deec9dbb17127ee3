// `npm run lint`: Biome (lint rules and the format check), the room boundaries, the
// unused-export check, the pages' API-call check and the file budgets, in that order. Each prints its own
// findings; the exit code is 1 when any of them found something, so `npm test` stops before
// the suites.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const steps = [
  ['biome (lint + format)', [path.join(root, 'node_modules/@biomejs/biome/bin/biome'), 'ci', '--error-on-warnings', '.']],
  ['room boundaries', [path.join(root, 'scripts/check-boundaries.mjs')]],
  ['unused exports', [path.join(root, 'scripts/check-unused-exports.mjs')]],
  ["the pages' API calls go through loupeFetch", [path.join(root, 'scripts/check-api-fetch.mjs')]],
  ['file budgets (lib 250 lines, components 200)', [path.join(root, 'scripts/check-file-budget.mjs')]],
];

let failed = 0;
for (const [name, args] of steps) {
  process.stdout.write(`[lint] ${name}\n`);
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    process.stderr.write(`[lint] ${name}: failed\n`);
  }
}
process.exit(failed ? 1 : 0);
