#!/usr/bin/env node
// Entry point of the `mcp-loupe` command: runs the bundled CLI. In a source checkout (lib/
// present) it rebuilds the bundle first when a source file (or package.json, whose version the
// bundle carries) is newer than it.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = path.join(root, 'dist', 'cli.mjs');
const lib = path.join(root, 'lib');

function newerThan(dir, time) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() ? newerThan(p, time) : statSync(p).mtimeMs > time) return true;
  }
  return false;
}

const stale =
  !existsSync(bundle) ||
  (existsSync(lib) && (newerThan(lib, statSync(bundle).mtimeMs) || statSync(path.join(root, 'package.json')).mtimeMs > statSync(bundle).mtimeMs));
if (stale) execFileSync(process.execPath, [path.join(root, 'scripts', 'build-cli.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
await import(pathToFileURL(bundle).href);
