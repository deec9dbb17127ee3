import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { isInside, parsePath, parseWorkspaceUri } from '../../../lib/engine/handlers/workspace-read';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';
import { createMemoryStores } from '../../../lib/store/memory';
import { callTool } from '../../helpers/rpc';

/** workspace_read: scope in the argument, URI normalized first, containment by path components. */

const DEMO = 'file:///workspace/demo';
const SECRET_TEXT = 'must never be readable';
let engine: MockEngine;

afterEach(() => engine?.close());

function setup() {
  engine = createMockEngine({ scenario: getBuiltinScenario('demo')!, stores: createMemoryStores() });
  return engine;
}

const read = (workspaceUri: unknown, path: unknown) => callTool(engine, 'workspace_read', { workspaceUri, path });

describe('workspace_read allows reads inside the workspace', () => {
  it.each([
    [DEMO, 'README.md', '# Demo workspace'],
    [DEMO, 'notes/plan.md', '# Plan'],
    [DEMO, './README.md', '# Demo workspace'],
    [DEMO, 'notes//plan.md', '# Plan'],
    [DEMO, 'notes/./plan.md', '# Plan'],
    [`${DEMO}/`, 'README.md', '# Demo workspace'],
    [`${DEMO}/notes/..`, 'README.md', '# Demo workspace'],
    [`${DEMO}/./`, 'README.md', '# Demo workspace'],
    ['file://localhost/workspace/demo', 'README.md', '# Demo workspace'],
    [DEMO, 'notes/plan%2Emd', '# Plan'],
  ])('%s + %s', async (uri, path, start) => {
    setup();
    const r = await read(uri, path);
    expect(r.status).toBe(200);
    expect(r.body.result.isError).toBeUndefined();
    expect(r.body.result.content[0].text.startsWith(start)).toBe(true);
    expect(r.body.result.structuredContent.workspaceUri).toBe(DEMO);
    expect(r.body.result.structuredContent.uri.startsWith(`${DEMO}/`)).toBe(true);
  });
});

describe('workspace_read refuses paths that leave the workspace (tool error the model can read)', () => {
  it.each([
    ['sibling prefix via ..', '../demo-private/secret.txt', '".." segment'],
    ['.. that stays inside', 'notes/../README.md', '".." segment'],
    ['deep ..', 'notes/../../demo-private/secret.txt', '".." segment'],
    ['bare ..', '..', '".." segment'],
    ['encoded dots %2e%2e', '%2e%2e/demo-private/secret.txt', '".." segment'],
    ['encoded dots %2E%2E', '%2E%2E/demo-private/secret.txt', '".." segment'],
    ['mixed .%2e', '.%2e/demo-private/secret.txt', '".." segment'],
    ['encoded slash %2F', '..%2Fdemo-private%2Fsecret.txt', 'encoded separator'],
    ['encoded slash %2f', 'notes%2fplan.md', 'encoded separator'],
    ['encoded backslash %5C', '..%5Cdemo-private%5Csecret.txt', 'encoded separator'],
    ['encoded backslash %5c', 'notes%5cplan.md', 'encoded separator'],
    ['double-encoded dots', '%252e%252e/demo-private/secret.txt', 'more than once'],
    ['backslash', '..\\demo-private\\secret.txt', 'backslash'],
    ['backslash inside', 'notes\\plan.md', 'backslash'],
    ['absolute path', '/workspace/demo-private/secret.txt', 'absolute'],
    ['absolute path inside', '/workspace/demo/README.md', 'absolute'],
    ['encoded absolute path', '%2Fworkspace/demo-private/secret.txt', 'encoded separator'],
    ['file URI as path', 'file:///workspace/demo-private/secret.txt', 'absolute'],
    ['drive letter', 'C:/workspace/demo-private/secret.txt', 'absolute'],
    ['home directory', '~/secret.txt', 'absolute'],
    ['NUL', 'README.md\u0000.txt', 'NUL'],
    ['encoded NUL', 'README.md%00.txt', 'NUL'],
    ['newline', 'README.md\n', 'control'],
    ['malformed encoding', 'README%zz.md', 'malformed percent-encoding'],
  ])('%s: %j', async (_label, path, reason) => {
    setup();
    const r = await read(DEMO, path);
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({ resultType: 'complete', isError: true, structuredContent: { refused: true } });
    expect(r.body.result.content[0].text).toContain(reason);
    expect(JSON.stringify(r.body)).not.toContain(SECRET_TEXT);
  });

  it('answers a missing file inside the workspace with "No such file"', async () => {
    setup();
    const r = await read(DEMO, 'notes/missing.md');
    expect(r.body.result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('No such file') }] });
    const dir = await read(DEMO, 'notes');
    expect(dir.body.result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('is a directory') }] });
  });

  it('answers secret.txt as missing when asked inside demo', async () => {
    setup();
    const r = await read(DEMO, 'secret.txt');
    expect(r.body.result.content[0].text).toContain('No such file');
  });
});

describe('workspace_read refuses a workspaceUri that is malformed or not granted (-32602)', () => {
  it.each([
    ['the sibling itself', 'file:///workspace/demo-private'],
    ['sibling via ..', 'file:///workspace/demo/../demo-private'],
    ['sibling via encoded dots', 'file:///workspace/demo/%2e%2e/demo-private'],
    ['sibling via encoded slash', 'file:///workspace/demo%2F..%2Fdemo-private'],
    ['sibling via ..%2f', 'file:///workspace/demo/..%2fdemo-private'],
    ['sibling via backslash', 'file:///workspace/demo\\..\\demo-private'],
    ['a string prefix of demo', 'file:///workspace/dem'],
    ['the parent', 'file:///workspace'],
    ['a subdirectory', 'file:///workspace/demo/notes'],
    ['root', 'file:///'],
    ['another scheme', 'https://example.com/workspace/demo'],
    ['a remote host', 'file://evil.example/workspace/demo'],
    ['a query', 'file:///workspace/demo?x=1'],
    ['a fragment', 'file:///workspace/demo#top'],
    ['a relative reference', 'workspace/demo'],
    ['an empty string', ''],
    ['NUL', 'file:///workspace/demo\u0000'],
    ['different case', 'file:///Workspace/Demo'],
  ])('%s: %j', async (_label, uri) => {
    setup();
    const r = await read(uri, 'secret.txt');
    expect(r.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('workspace_read') });
    expect(JSON.stringify(r.body)).not.toContain(SECRET_TEXT);
  });

  it('names the granted workspaces in the error', async () => {
    setup();
    const r = await read('file:///workspace/demo-private', 'secret.txt');
    expect(r.body.error.message).toContain('is not a declared workspace');
    expect(r.body.error.data).toEqual({ workspaces: [DEMO] });
  });

  it.each([
    ['empty path', DEMO, ''],
    ['non-string path', DEMO, 7],
    ['missing workspaceUri', undefined, 'README.md'],
  ])('refuses %s with -32602', async (_label, uri, path) => {
    setup();
    const args: Record<string, unknown> = { path };
    if (uri !== undefined) args.workspaceUri = uri;
    const r = await callTool(engine, 'workspace_read', args);
    expect(r.body.error.code).toBe(-32602);
  });
});

describe('workspace_read containment helpers', () => {
  it('normalizes workspace URIs into components', () => {
    expect(parseWorkspaceUri('file:///workspace/demo/')).toEqual({ ok: true, components: ['workspace', 'demo'] });
    expect(parseWorkspaceUri('file:///workspace/demo/../demo-private')).toEqual({ ok: true, components: ['workspace', 'demo-private'] });
    expect(parseWorkspaceUri('file:///workspace/a%20b')).toEqual({ ok: true, components: ['workspace', 'a b'] });
  });

  it('compares components, not string prefixes', () => {
    expect(isInside(['workspace', 'demo'], ['workspace', 'demo-private', 'secret.txt'])).toBe(false);
    expect(isInside(['workspace', 'demo'], ['workspace', 'demo'])).toBe(false);
    expect(isInside(['workspace', 'demo'], ['workspace', 'demo', 'README.md'])).toBe(true);
    expect(parsePath('a/./b//c')).toEqual({ ok: true, components: ['a', 'b', 'c'] });
  });

  it('never reveals the sibling workspace, whatever path or workspaceUri is built from tricky pieces', async () => {
    setup();
    const piece = fc.constantFrom(
      '..',
      '.',
      '%2e%2e',
      '%2E.',
      'demo-private',
      'demo',
      'workspace',
      'secret.txt',
      '%2f',
      '%5C',
      '\\',
      '',
      'notes',
      '%252e',
      '/',
      'README.md',
      '%00',
    );
    const joined = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join('/'));
    await fc.assert(
      fc.asyncProperty(joined, joined, async (uriTail, path) => {
        for (const uri of [`${DEMO}/${uriTail}`, `${DEMO}${uriTail}`]) {
          const r = await read(uri, path || 'secret.txt');
          expect(JSON.stringify(r.body)).not.toContain(SECRET_TEXT);
        }
      }),
      { numRuns: 300 },
    );
  });
});
