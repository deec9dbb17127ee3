#!/usr/bin/env node
/**
 * Boundary check: reads every import under lib/, components/ and app/ (static, `export … from`,
 * dynamic `import()`, `require()`, `import x = require()`, type-only and `import('…')` types) and
 * fails when a room imports what scripts/boundaries.config.mjs forbids.
 *
 *   node scripts/check-boundaries.mjs [root] [--no-known]
 *
 * `root` defaults to this repository; `--no-known` ignores the accepted-violations list, which only
 * makes sense for this repository's files (the checker's own tests run it on fixture trees).
 * Prints `file:line  room → target (rule)` per violation and exits 1, or a one-line summary and 0.
 * Syntax only (no type checking), so it stays well under a second for the tree.
 */
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import * as config from './boundaries.config.mjs';

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

/** Whether an import clause brings in types only (erased, so it loads no code). */
function clauseIsTypeOnly(clause) {
  if (!clause) return false; // `import 'x'` runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const b = clause.namedBindings;
  return !!b && ts.isNamedImports(b) && b.elements.length > 0 && b.elements.every((e) => e.isTypeOnly);
}

function exportIsTypeOnly(node) {
  if (node.isTypeOnly) return true;
  const c = node.exportClause;
  return !!c && ts.isNamedExports(c) && c.elements.length > 0 && c.elements.every((e) => e.isTypeOnly);
}

function scriptKind(file) {
  if (file.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (file.endsWith('.jsx')) return ts.ScriptKind.JSX;
  return /\.[mc]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
}

/** Every import of one file: specifier, 1-based line, and whether only types are imported. */
export function readImports(file, text) {
  // JSDoc is never needed here and skipping it is most of the parse time of a documented file.
  const options = { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone };
  const sf = ts.createSourceFile(file, text, options, false, scriptKind(file));
  // import() and require() can sit in any expression; without them top-level statements suffice.
  const deep = /\b(import|require)\s*\(/.test(text);
  const out = [];
  const add = (spec, node, typeOnly) => {
    if (spec && ts.isStringLiteralLike(spec)) {
      out.push({ specifier: spec.text, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, typeOnly });
    }
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, node, clauseIsTypeOnly(node.importClause));
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, node, exportIsTypeOnly(node));
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node, node.isTypeOnly);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, node, true);
    else if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      if (isImport || (ts.isIdentifier(callee) && callee.text === 'require')) add(node.arguments[0], node, false);
    }
    if (deep) ts.forEachChild(node, visit);
  };
  sf.statements.forEach(visit);
  return out;
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
  if (toRoom !== room && !config.allow[room].includes(toRoom)) {
    const typesOk = imp.typeOnly && (config.typeOnly[room] ?? []).includes(toRoom);
    if (!typesOk) {
      const typesRoom = (config.typeOnly[room] ?? []).includes(toRoom);
      const rule = typesRoom ? `${room} may import only types from ${toRoom}; this import loads code` : `${room} may import ${list(config.allow[room])}`;
      found.push({ target: toRoom, rule });
    }
  }
  const nodeRule = config.packageRules.find((r) => r.packages.includes(config.NODE_BUILTINS));
  const fromNodeOnly = config.nodeOnly.some((n) => matchesPath(fromRel, n.path));
  const toNodeOnly = config.nodeOnly.find((n) => matchesPath(to.rel, n.path));
  if (toNodeOnly && !fromNodeOnly && !imp.typeOnly && nodeRule.rooms.includes(room)) {
    found.push({ target: to.rel, rule: `imports a node-only file (${toNodeOnly.reason}) from a room that must run without Node` });
  }
  return found;
}

/** Check the tree at root; returns the violations, the accepted ones and stale accepted entries. */
export function checkBoundaries(root, { useKnown = true } = {}) {
  const files = sourceFiles(root);
  const violations = [];
  let imports = 0;
  for (const rel of files) {
    const room = roomOf(rel);
    if (!room) {
      violations.push({ file: rel, line: 1, room: '(none)', target: rel, rule: 'file is in no declared room: add the room to boundaries.config.mjs' });
      continue;
    }
    for (const imp of readImports(rel, fs.readFileSync(path.join(root, rel), 'utf8'))) {
      imports += 1;
      for (const v of judge(rel, room, imp, target(root, rel, imp.specifier))) violations.push({ file: rel, line: imp.line, room, specifier: imp.specifier, ...v });
    }
  }
  const known = useKnown ? config.knownViolations : [];
  const isKnown = (v) => known.some((k) => k.file === v.file && k.target === v.target);
  const stale = known.filter((k) => !violations.some((v) => v.file === k.file && v.target === k.target));
  return { files: files.length, imports, violations: violations.filter((v) => !isKnown(v)), accepted: violations.filter(isKnown), stale };
}

export const formatViolation = (v) => `${v.file}:${v.line}  ${v.room} → ${v.target} (${v.rule})`;

function main() {
  const args = process.argv.slice(2);
  const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const root = path.resolve(args.find((a) => !a.startsWith('--')) ?? here);
  const r = checkBoundaries(root, { useKnown: !args.includes('--no-known') });
  const ms = Math.round(process.uptime() * 1000); // loading typescript included
  for (const v of r.accepted) console.log(`known: ${formatViolation(v)}`);
  for (const k of r.stale) console.error(`stale known violation (fixed? remove it from boundaries.config.mjs): ${k.file} → ${k.target}`);
  for (const v of r.violations) console.error(formatViolation(v));
  const tail = `${r.files} files, ${r.imports} imports, ${ms} ms`;
  if (r.violations.length || r.stale.length) {
    console.error(`boundaries: ${r.violations.length} violation(s), ${r.stale.length} stale known entr${r.stale.length === 1 ? 'y' : 'ies'} (${tail})`);
    process.exit(1);
  }
  console.log(`boundaries: no violations${r.accepted.length ? ` (${r.accepted.length} known, listed in boundaries.config.mjs)` : ''} (${tail})`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
