// File budgets (DESIGN.md "House rules"): lib files at most 250 lines, components at most 200,
// route files at most 15. A file over its budget holds more than one responsibility; split it
// by meaning. `--root DIR` checks another tree (the check's own test).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const rootArg = process.argv.indexOf('--root');
const root =
  rootArg > 0 && process.argv[rootArg + 1] ? path.resolve(process.argv[rootArg + 1]) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Which files get which budget, by folder and name. */
const RULES = [
  { dir: 'app', test: /(^|\/)route\.tsx?$/, max: 15, what: 'route file' },
  { dir: 'lib', test: /\.tsx?$/, max: 250, what: 'lib file' },
  { dir: 'components', test: /\.tsx?$/, max: 200, what: 'component file' },
];

function* files(dir) {
  if (!fs.existsSync(path.join(root, dir))) return;
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) yield* files(rel);
    else yield rel;
  }
}

/** Lines as `wc -l` counts them, so the numbers here match what people measure. */
const countLines = (text) => (text.match(/\n/g) ?? []).length + (text.length && !text.endsWith('\n') ? 1 : 0);

let over = 0;
for (const rule of RULES) {
  for (const file of files(rule.dir)) {
    if (!rule.test.test(file)) continue;
    const lines = countLines(fs.readFileSync(path.join(root, file), 'utf8'));
    if (lines <= rule.max) continue;
    over++;
    process.stderr.write(`${file}: ${lines} lines, over the ${rule.what} budget of ${rule.max}: split it by meaning\n`);
  }
}
process.exit(over ? 1 : 0);
