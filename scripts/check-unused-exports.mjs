#!/usr/bin/env node
/**
 * Unused-export check: lists every name exported from lib/, components/ or app/ that nothing
 * imports. Consumers are all sources of the repository (lib, components, app, tests, scripts, bin
 * and the root config files). An import is followed through re-exports (`export { x } from`,
 * `export *`) with the type checker, so a name re-exported by an index counts as used where it is
 * declared and at every hop in between; `import * as ns`, `import()`, `require()` and
 * `typeof import()` count as using every export of the module.
 *
 *   node scripts/check-unused-exports.mjs [root]
 *
 * Exempt: the public entries of the library (the `files` of tsconfig.lib.json, which other projects
 * import), the exports Next reads from app/ route, page and layout files, and the entries of
 * `<root>/scripts/unused-exports.allow.json` ({ file, export, reason }; export "*" for a whole file,
 * e.g. an esbuild entry whose exports are read from the bundle). An allow-list entry that no longer
 * matches an unused export fails too, so the list stays true. Prints `file:line  name` per unused
 * export and exits 1, or a one-line summary and 0.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const CONSUMERS = ['lib', 'components', 'app', 'tests', 'scripts', 'bin'];
const CHECKED = ['lib/', 'components/', 'app/'];
const NEXT_FILES = /^app\/(.*\/)?(page|layout|route|template|default|loading|error|global-error|not-found)\.[jt]sx?$/;
const NEXT_EXPORTS = new Set([
  'default',
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'HEAD',
  'OPTIONS',
  'metadata',
  'generateMetadata',
  'viewport',
  'generateViewport',
  'generateStaticParams',
  'runtime',
  'dynamic',
  'dynamicParams',
  'revalidate',
  'fetchCache',
  'preferredRegion',
  'maxDuration',
]);

const posix = (p) => p.split(path.sep).join('/');

function sourceFiles(root) {
  const out = fs
    .readdirSync(root)
    .filter((f) => SOURCE.test(f) && fs.statSync(path.join(root, f)).isFile())
    .map((f) => path.join(root, f));
  const walk = (dir) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(full);
      } else if (SOURCE.test(entry.name)) out.push(full);
    }
  };
  for (const top of CONSUMERS) walk(path.join(root, top));
  return out;
}

/** The repository's compiler options (for `paths`), trimmed to what resolving imports needs. */
function compilerOptions(root) {
  const file = path.join(root, 'tsconfig.json');
  let options = {
    baseUrl: root,
    paths: { '@/*': ['./*'] },
    jsx: ts.JsxEmit.ReactJSX,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  };
  if (fs.existsSync(file)) {
    const { config } = ts.readConfigFile(file, ts.sys.readFile);
    options = { ...options, ...ts.parseJsonConfigFileContent(config, ts.sys, root).options };
  }
  // No default lib and no @types: binding and following imports need neither, and they are most of the load time.
  return { ...options, allowJs: true, checkJs: false, noEmit: true, incremental: false, noLib: true, types: [], plugins: [], skipLibCheck: true };
}

/** The tsconfig.lib.json `files`: the library entries other projects import. */
function publicEntries(root) {
  const file = path.join(root, 'tsconfig.lib.json');
  if (!fs.existsSync(file)) return [];
  return (ts.readConfigFile(file, ts.sys.readFile).config?.files ?? []).map((f) => path.resolve(root, f));
}

function readAllowList(root) {
  const file = path.join(root, 'scripts/unused-exports.allow.json');
  if (!fs.existsSync(file)) return [];
  const list = JSON.parse(fs.readFileSync(file, 'utf8'));
  for (const e of list) {
    if (!e.file || !e.export || !e.reason?.trim()) throw new Error(`Failed to read ${file}: every entry needs file, export and reason (${JSON.stringify(e)})`);
  }
  return list;
}

/** Check the tree at root; returns the unused exports and the stale allow-list entries. */
export function checkUnusedExports(root) {
  root = path.resolve(root);
  const options = compilerOptions(root);
  const host = ts.createCompilerHost(options, true);
  const cache = ts.createModuleResolutionCache(root, (f) => f, options);
  const inRepo = (f) => f.startsWith(root + path.sep) && !f.includes(`${path.sep}node_modules${path.sep}`);
  // Only the repository's own modules matter; packages stay unresolved, which keeps the program small.
  host.resolveModuleNameLiterals = (literals, containingFile) =>
    literals.map((lit) => {
      if (!/^(\.{1,2}(\/|$)|\/|@\/)/.test(lit.text)) return { resolvedModule: undefined };
      const r = ts.resolveModuleName(lit.text, containingFile, options, host, cache).resolvedModule;
      return { resolvedModule: r && inRepo(path.resolve(r.resolvedFileName)) ? r : undefined };
    });
  const program = ts.createProgram({ rootNames: sourceFiles(root), options, host });
  const checker = program.getTypeChecker();
  const ours = program.getSourceFiles().filter((sf) => inRepo(path.resolve(sf.fileName)));
  const rel = (sf) => posix(path.relative(root, path.resolve(sf.fileName)));

  const used = new Set();
  const seenModules = new Set();
  const moduleSymbol = (sf) => (sf ? checker.getSymbolAtLocation(sf) : undefined);
  const markModule = (mod) => {
    if (!mod || seenModules.has(mod)) return;
    seenModules.add(mod);
    for (const e of checker.getExportsOfModule(mod)) markSymbol(e);
  };
  /** Mark a symbol and every alias hop behind it (import → re-export → … → declaration). */
  function markSymbol(sym) {
    for (let s = sym, hops = 0; s && hops < 50; hops += 1) {
      used.add(s);
      if (s.flags & ts.SymbolFlags.ValueModule && s.declarations?.some(ts.isSourceFile)) return markModule(s);
      if (!(s.flags & ts.SymbolFlags.Alias)) return;
      s = checker.getImmediateAliasedSymbol(s);
    }
  }
  const resolveSpecifier = (spec, sf) => {
    const r = ts.resolveModuleName(spec, sf.fileName, options, host, cache).resolvedModule;
    return r ? program.getSourceFile(r.resolvedFileName) : undefined;
  };
  const markSpecifier = (lit, sf) => {
    if (lit && ts.isStringLiteralLike(lit)) markModule(checker.getSymbolAtLocation(lit) ?? moduleSymbol(resolveSpecifier(lit.text, sf)));
  };

  for (const sf of ours) {
    const visit = (node) => {
      if (ts.isImportDeclaration(node) && node.importClause) {
        const { name, namedBindings } = node.importClause;
        if (name) markSymbol(checker.getSymbolAtLocation(name));
        if (namedBindings && ts.isNamespaceImport(namedBindings)) markSpecifier(node.moduleSpecifier, sf);
        if (namedBindings && ts.isNamedImports(namedBindings)) for (const el of namedBindings.elements) markSymbol(checker.getSymbolAtLocation(el.name));
      } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
        markSpecifier(node.moduleReference.expression, sf);
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
        markSpecifier(node.argument.literal, sf);
      } else if (ts.isCallExpression(node) && node.arguments.length > 0) {
        const callee = node.expression;
        if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')) markSpecifier(node.arguments[0], sf);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  for (const entry of publicEntries(root)) markModule(moduleSymbol(program.getSourceFile(entry)));

  const allow = readAllowList(root);
  const matched = new Set();
  const unused = [];
  for (const sf of ours) {
    const file = rel(sf);
    if (!CHECKED.some((d) => file.startsWith(d)) || sf.isDeclarationFile) continue;
    const mod = moduleSymbol(sf);
    if (!mod) continue;
    for (const sym of checker.getExportsOfModule(mod)) {
      // Names that arrive through `export *` are declared, and judged, in their own file.
      const decl = sym.declarations?.find((d) => d.getSourceFile() === sf);
      if (!decl || used.has(sym)) continue;
      const name = sym.name;
      if (NEXT_FILES.test(file) && NEXT_EXPORTS.has(name)) continue;
      const entry = allow.find((e) => e.file === file && (e.export === name || e.export === '*'));
      if (entry) {
        matched.add(entry);
        continue;
      }
      const line = sf.getLineAndCharacterOfPosition(decl.getStart(sf)).line + 1;
      const isType = !(resolvedFlags(checker, sym) & ts.SymbolFlags.Value);
      unused.push({ file, line, name: name === 'default' ? `default (${defaultName(decl)})` : name, type: isType });
    }
  }
  unused.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  return { files: ours.length, unused, stale: allow.filter((e) => !matched.has(e)) };
}

/** What a default export is called in its file, so the list reads `default (TasksPanel)`. */
function defaultName(decl) {
  if (decl.name) return decl.name.text;
  return ts.isExportAssignment(decl) ? decl.expression.getText().slice(0, 40) : 'anonymous';
}

/** The flags of what an alias finally names, so a re-exported type reads as a type. */
function resolvedFlags(checker, sym) {
  if (!(sym.flags & ts.SymbolFlags.Alias)) return sym.flags;
  try {
    return checker.getAliasedSymbol(sym).flags;
  } catch {
    return sym.flags;
  }
}

export const formatUnused = (u) => `${u.file}:${u.line}  ${u.name}${u.type ? ' (type)' : ''}`;

function main() {
  const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const root = path.resolve(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? here);
  const r = checkUnusedExports(root);
  const ms = Math.round(process.uptime() * 1000);
  for (const u of r.unused) console.log(formatUnused(u));
  for (const e of r.stale) console.log(`stale allow-list entry (remove it from scripts/unused-exports.allow.json): ${e.file} ${e.export}`);
  if (r.unused.length || r.stale.length) {
    console.log(
      `unused exports: ${r.unused.length} unused, ${r.stale.length} stale allow-list entr${r.stale.length === 1 ? 'y' : 'ies'} (${r.files} files, ${ms} ms)`,
    );
    process.exit(1);
  }
  console.log(`unused exports: none (${r.files} files, ${ms} ms)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
