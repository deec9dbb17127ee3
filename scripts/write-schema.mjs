/**
 * Writes public/scenario.schema.json from the zod scenario schema. lib/ is TypeScript and
 * Node 20 cannot run it, so the generator is bundled in memory with esbuild and imported from
 * a data: URL (the bundle is self-contained: zod is inlined, nothing else is imported).
 */
import { build } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'public', 'scenario.schema.json');

const bundle = await build({
  entryPoints: [join(root, 'lib/scenario/json-schema.ts')],
  bundle: true,
  format: 'esm',
  platform: 'node',
  write: false,
  logLevel: 'warning',
});
const code = bundle.outputFiles[0].text;
const { scenarioJsonSchema } = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);

mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`);
console.log(`Wrote ${out.slice(root.length + 1)}`);
