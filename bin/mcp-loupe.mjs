#!/usr/bin/env node
// Entry point of the `mcp-loupe` command: runs the bundled CLI, building it first in a
// source checkout where dist/ does not exist yet.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = path.join(root, 'dist', 'cli.mjs');
if (!existsSync(bundle)) {
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build-cli.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
}
await import(bundle);
