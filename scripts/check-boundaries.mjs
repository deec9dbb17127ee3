#!/usr/bin/env node
/**
 * Boundary check: reads every import under lib/, components/ and app/ (static, `export … from`,
 * dynamic `import()`, `require()`, `import x = require()`, type-only and `import('…')` types) and
 * fails when a room imports what scripts/boundaries.config.mjs forbids.
 *
 *   node scripts/check-boundaries.mjs [root]
 *
 * `root` defaults to this repository (the checker's own tests run it on fixture trees).
 * Prints `file:line  room → target (rule)` per violation and exits 1, or a one-line summary and 0.
 * Imports are read by scripts/import-scanner.mjs, a tokenizer, so the check needs no compiler.
 */
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as config from './boundaries.config.mjs';
import { scanImports } from './import-scanner.mjs';

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json'];
const BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith('_')));
const SCANNED = ['lib', 'components', 'app'];

const posix = (p) => p.split(path.sep).join('/');

/** All source files under the scanned folders, as root-relative posix paths. */
function sourceFiles(root) {
  const out = [];
  const walk = (dir) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(full);
      } else if (SOURCE.test(entry.name)) out.push(posix(path.relative(root, full)));
    }
  };
  for (const top of SCANNED) walk(path.join(root, top));
  return out.sort();
}

/** `dir/**` matches anything below dir; otherwise the exact file, with or without its extension. */
export function matchesPath(rel, pattern) {
  if (pattern.endsWith('/**')) return rel.startsWith(pattern.slice(0, -2));
  const bare = (p) => p.replace(/\.[cm]?[jt]sx?$/, '');
  return rel === pattern || bare(rel) === bare(pattern);
}

function matchesPackage(spec, pattern) {
  if (pattern === config.NODE_BUILTINS) {
    return spec.startsWith('node:') || BUILTINS.has(spec) || BUILTINS.has(spec.split('/')[0]);
  }
  if (pattern.endsWith('/*')) return spec.startsWith(pattern.slice(0, -1));
  if (pattern.endsWith(':*')) return spec.startsWith(pattern.slice(0, -1));
  return spec === pattern;
}

const roomsByLength = [...config.rooms].sort((a, b) => b.length - a.length);
const roomOf = (rel) => roomsByLength.find((r) => rel === r || rel.startsWith(`${r}/`)) ?? null;

/** The repository file an import names (extension and index added), or the bare path when absent. */
function resolveRepoPath(root, rel) {
  const candidates = [rel, ...EXTENSIONS.map((e) => rel + e), ...EXTENSIONS.map((e) => `${rel}/index${e}`)];
  if (/\.[cm]?js$/.test(rel)) candidates.push(rel.replace(/js$/, 'ts'), rel.replace(/js$/, 'tsx'));
  return candidates.find((c) => fs.existsSync(path.join(root, c)) && fs.statSync(path.join(root, c)).isFile()) ?? rel;
}

/** Where a specifier points: a repository path (root-relative) or a package name. */
function target(root, fromRel, spec) {
  let abs;
  if (spec.startsWith('@/')) abs = path.join(root, spec.slice(2));
  else if (spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..') abs = path.resolve(root, path.dirname(fromRel), spec);
  else if (spec.startsWith('/')) abs = spec;
  else return { pkg: spec };
  const rel = posix(path.relative(root, abs));
  return { rel: rel.startsWith('..') ? rel : resolveRepoPath(root, rel) };
}

const list = (rooms) => (rooms.length ? rooms.join(', ') : 'nothing in the repository');

/** The violations of one import, as rule texts (empty when allowed). */
function judge(fromRel, room, imp, to) {
  const found = [];
  if (to.pkg !== undefined) {
    for (const rule of config.packageRules) {
      if (!rule.rooms.includes(room) || rule.except.some((p) => matchesPath(fromRel, p))) continue;
      if (rule.packages.some((p) => matchesPackage(to.pkg, p))) found.push({ target: to.pkg, rule: `${rule.id}: ${rule.why}` });
    }
    return found;
  }
  const toRoom = roomOf(to.rel);
  if (!toRoom) return [{ target: to.rel, rule: 'imports a file outside every room' }];
  const allowed = config.allow[room] ?? [];
  if (toRoom !== room && !allowed.includes(toRoom)) found.push({ target: toRoom, rule: `${room} may import ${list(allowed)}` });
  const nodeRule = config.packageRules.find((r) => r.packages.includes(config.NODE_BUILTINS));
  const fromNodeOnly = config.nodeOnly.some((n) => matchesPath(fromRel, n.path));
  const toNodeOnly = config.nodeOnly.find((n) => matchesPath(to.rel, n.path));
  if (toNodeOnly && !fromNodeOnly && !imp.typeOnly && nodeRule.rooms.includes(room)) {
    found.push({ target: to.rel, rule: `imports a node-only file (${toNodeOnly.reason}) from a room that must run without Node` });
  }
  return found;
}

/** Check the tree at root; returns the violations found. */
export function checkBoundaries(root) {
  const files = sourceFiles(root);
  const violations = [];
  let imports = 0;
  for (const rel of files) {
    const room = roomOf(rel);
    if (!room) {
      violations.push({ file: rel, line: 1, room: '(none)', target: rel, rule: 'file is in no declared room: add the room to boundaries.config.mjs' });
      continue;
    }
    for (const imp of scanImports(fs.readFileSync(path.join(root, rel), 'utf8'))) {
      imports += 1;
      for (const v of judge(rel, room, imp, target(root, rel, imp.specifier)))
        violations.push({ file: rel, line: imp.line, room, specifier: imp.specifier, ...v });
    }
  }
  return { files: files.length, imports, violations };
}

export const formatViolation = (v) => `${v.file}:${v.line}  ${v.room} → ${v.target} (${v.rule})`;

function main() {
  const args = process.argv.slice(2);
  const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const root = path.resolve(args.find((a) => !a.startsWith('--')) ?? here);
  const r = checkBoundaries(root);
  const ms = Math.round(process.uptime() * 1000);
  for (const v of r.violations) console.error(formatViolation(v));
  const tail = `${r.files} files, ${r.imports} imports, ${ms} ms`;
  if (r.violations.length) {
    console.error(`boundaries: ${r.violations.length} violation(s) (${tail})`);
    process.exit(1);
  }
  console.log(`boundaries: no violations (${tail})`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
