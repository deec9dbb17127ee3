import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scanImports } from '../../scripts/import-scanner.mjs';
import { fixtureTrees, runChecker } from '../helpers/fixture-tree';

/**
 * The boundary checker is run as `npm run lint:boundaries` runs it, as a process, so its exit code
 * and its `file:line  room → target (rule)` lines are what is tested.
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const checker = path.join(repo, 'scripts/check-boundaries.mjs');

const run = (...args: string[]) => runChecker(checker, ...args);

/** A throwaway tree: path → file content. */
const tree = fixtureTrees('loupe-boundaries-');

describe('boundary checker', () => {
  it('finds no violations in the repository', () => {
    const r = run();
    expect(r.out).toMatch(/^boundaries: no violations/m);
    expect(r.code).toBe(0);
  });

  it('reports each deliberate violation with its file and line, and fails', () => {
    const root = tree({
      'lib/engine/bad.ts': "import { useState } from 'react';\nexport const x = useState;\n",
      'lib/engine/x.ts': "// the engine reaching up into the server\nimport { y } from '../server/y';\nexport const z = y;\n",
      'lib/server/y.ts': 'export const y = 1;\n',
      'components/A.tsx': "import type { Engine } from '@/lib/engine';\nexport type A = Engine;\n",
      'lib/engine/index.ts': 'export type Engine = { fetch(r: Request): Promise<Response> };\n',
    });
    const r = run(root);
    expect(r.code).toBe(1);
    expect(r.out).toContain('lib/engine/bad.ts:1  lib/engine → react (no UI framework');
    expect(r.out).toContain('lib/engine/x.ts:2  lib/engine → lib/server (lib/engine may import lib/shared, lib/protocol, lib/scenario, lib/store)');
    // Type-only imports count: the room may not depend on the engine at all.
    expect(r.out).toContain('components/A.tsx:1  components → lib/engine (components may import');
    expect(r.out).toMatch(/boundaries: 3 violation\(s\)/);
  });

  it('sees dynamic imports, require, re-exports, import types and bare Node built-ins', () => {
    const root = tree({
      'lib/client/a.ts': "export async function f() {\n  return import('node:fs');\n}\n",
      'lib/client/b.js': "const path = require('path');\nmodule.exports = path;\n",
      'lib/protocol/c.ts': "export type { Store } from '../store/types';\n",
      'lib/state/d.ts': "export type Fs = typeof import('fs/promises');\n",
      'lib/store/types.ts': 'export type Store = object;\n',
    });
    const r = run(root);
    expect(r.code).toBe(1);
    expect(r.out).toContain('lib/client/a.ts:2  lib/client → node:fs (no Node built-ins');
    expect(r.out).toContain('lib/client/b.js:1  lib/client → path (no Node built-ins');
    expect(r.out).toContain('lib/protocol/c.ts:1  lib/protocol → lib/store (lib/protocol may import lib/shared)');
    expect(r.out).toContain('lib/state/d.ts:1  lib/state → fs/promises (no Node built-ins');
  });

  it('allows what the rules allow: type-only scenario imports in components, node-only files, npm packages', () => {
    const root = tree({
      'components/Issues.tsx':
        "import type { ScenarioIssue } from '@/lib/scenario/loader';\nimport { useState } from 'react';\nexport type I = ScenarioIssue;\nexport const u = useState;\n",
      'lib/scenario/loader.ts': "import { parse } from 'yaml';\nexport type ScenarioIssue = string;\nexport const p = parse;\n",
      'lib/scenario/files.ts': "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n",
      'lib/store/sqlite/open.ts': "import Database from 'better-sqlite3';\nexport const D = Database;\n",
      'lib/cli/main.ts': "import { r } from '../scenario/files';\nimport { D } from '@/lib/store/sqlite/open';\nexport const m = [r, D];\n",
      'app/page.tsx': "import { u } from '@/components/Issues';\nexport default u;\n",
    });
    const r = run(root);
    expect(r.out).toMatch(/^boundaries: no violations \(6 files/m);
    expect(r.code).toBe(0);
  });

  it('keeps node-only files out of the browser rooms', () => {
    const root = tree({
      'lib/engine/load.ts': "import { r } from '../scenario/files';\nexport const l = r;\n",
      'lib/scenario/files.ts': "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n",
      'components/Editor.tsx': "import { r } from '@/lib/scenario/files';\nexport const e = r;\n",
      'lib/scenario/loader.ts': 'export const parse = (s: string) => s;\n',
      'lib/tap/relay.ts': 'export const t = 1;\n',
    });
    const r = run(root);
    expect(r.code).toBe(1);
    expect(r.out).toContain('lib/engine/load.ts:1  lib/engine → lib/scenario/files.ts (imports a node-only file');
    expect(r.out).toContain('components/Editor.tsx:1  components → lib/scenario/files.ts (imports a node-only file');
    expect(r.out).toContain('lib/tap/relay.ts:1  (none) → lib/tap/relay.ts (file is in no declared room');
  });
});

describe('import scanner', () => {
  const lines = [
    "import a from 'a';",
    "import type { B } from 'b';",
    "import { type C, type D } from 'c';",
    "import { type E, e } from 'e';",
    "import type from 'default-named-type';",
    "export type { F } from 'f';",
    "export * as h from 'h';",
    "import 'side-effect';",
    "import n = require('n');",
    "const re = /import('x')['\"]/g; const s = \"require('y')\";",
    "// import('in-a-comment')",
    "/* require('in-a-block') */",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text for the scanner, which must read the imports inside a template literal
    "const t = `${import('in-template')} ${`nested ${require('nested')}`}`;",
    "const notCalls = [x.import('m1'), y.require('m2'), import.meta.url, { import: 1 }];",
    "type L = typeof import('type-of');",
    "type M = import('type-ref').M;",
    "const lazy = import('lazy').then((m) => m);",
    "const jsx = <p>Don't stop at a / slash</p>;",
    "const after = require('after-jsx');",
    "export { l1 as l2, type l3 } from 'mixed';",
    'export const notFrom = 1;',
  ];

  it('finds every module a file names, with its line and whether only types are imported', () => {
    const found = scanImports(lines.join('\n')).map(
      (i: { specifier: string; line: number; typeOnly: boolean }) => `${i.line} ${i.specifier}${i.typeOnly ? ' (types)' : ''}`,
    );
    expect(found).toEqual([
      '1 a',
      '2 b (types)',
      '3 c (types)',
      '4 e',
      '5 default-named-type',
      '6 f (types)',
      '7 h',
      '8 side-effect',
      '9 n',
      '13 in-template',
      '13 nested',
      '15 type-of (types)',
      '16 type-ref (types)',
      '17 lazy',
      '19 after-jsx',
      '20 mixed',
    ]);
  });
});
