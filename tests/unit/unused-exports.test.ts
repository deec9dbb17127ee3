import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixtureTrees, runChecker } from '../helpers/fixture-tree';

/** The unused-export check, run as `npm run lint:exports` runs it, on throwaway trees. */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const checker = path.join(repo, 'scripts/check-unused-exports.mjs');

const run = (root: string) => runChecker(checker, root);

const tree = fixtureTrees('loupe-exports-');

/** A small tree that uses exports in every way the checker follows. */
const base = {
  'lib/a.ts': [
    'export const used = 1;',
    'export const unused = 2;',
    'export type T = string;',
    'export type UnusedT = number;',
    'export default function f() {}',
  ].join('\n'),
  'lib/b.ts': 'export const viaIndex = 1;\nexport const readFromBundle = 3;\n',
  'lib/index.ts': "export * from './a';\nexport { viaIndex } from './b';\n",
  'lib/ns.ts': 'export const n1 = 1;\nexport const n2 = 2;\n',
  'lib/dyn.ts': 'export const d = 1;\n',
  'lib/public.ts': "export const pub = 1;\nexport * from './pubdep';\n",
  'lib/pubdep.ts': 'export const dep = 1;\n',
  'tsconfig.lib.json': JSON.stringify({ files: ['lib/public.ts'] }),
  'scripts/unused-exports.allow.json': JSON.stringify([{ file: 'lib/b.ts', export: 'readFromBundle', reason: 'read from a bundle' }]),
  'components/C.tsx': [
    "import { used, type T } from '@/lib/index';",
    "import * as ns from '../lib/ns';",
    "import { viaIndex } from '@/lib';",
    "export const C = (t: T) => [used, ns, viaIndex, t, import('@/lib/dyn')];",
  ].join('\n'),
  'app/page.tsx': "import { C } from '@/components/C';\nexport default function Page() { return C; }\nexport const metadata = {};\nexport const helper = 1;\n",
  'tests/a.test.ts': "import f from '../lib/a';\nf();\n",
};

describe('unused-export checker', () => {
  it('flags exports nothing imports, with file and line, and passes used ones', () => {
    const r = run(tree(base));
    expect(r.code).toBe(1);
    const flagged = r.out.split('\n').filter((l) => /^\S+:\d+ {2}/.test(l));
    expect(flagged).toEqual(['app/page.tsx:4  helper', 'lib/a.ts:2  unused', 'lib/a.ts:4  UnusedT (type)']);
    expect(r.out).toContain('unused exports: 3 unused, 0 stale allow-list entries');
  });

  it('counts a re-export only when something imports it through that file', () => {
    const r = run(tree({ ...base, 'lib/index.ts': "export * from './a';\nexport { viaIndex, readFromBundle as again } from './b';\n" }));
    expect(r.out).toContain('lib/index.ts:2  again');
    expect(r.out).not.toMatch(/lib\/b\.ts:\d+ {2}readFromBundle/);
  });

  it('passes once every export is used or allowed', () => {
    const r = run(
      tree({
        ...base,
        'lib/a.ts': 'export const used = 1;\nexport type T = string;\nexport default function f() {}\n',
        'app/page.tsx': "import { C } from '@/components/C';\nexport default function Page() { return C; }\nexport const metadata = {};\n",
      }),
    );
    expect(r.out).toMatch(/^unused exports: none/m);
    expect(r.code).toBe(0);
  });

  it('fails on an allow-list entry that no longer matches, so the list stays true', () => {
    const r = run(tree({ ...base, 'lib/b.ts': 'export const viaIndex = 1;\n' }));
    expect(r.out).toContain('stale allow-list entry (remove it from scripts/unused-exports.allow.json): lib/b.ts readFromBundle');
    expect(r.code).toBe(1);
  });
});
