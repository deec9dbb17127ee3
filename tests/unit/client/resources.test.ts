import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';
import { createClientSession } from '../../../lib/client/session';
import { createMemoryTransport } from '../../../lib/client/memory-transport';
import { createTrackingTransport } from '../../../lib/client/tracking';
import { completeArgument, expandTemplate, listResources, listResourceTemplates, readResource, templateVariables } from '../../../lib/client/resources';
import { getPrompt, listPrompts, promptArguments } from '../../../lib/client/prompts';
import { dataUrl, decodeBase64, hexDump, prettyJson, viewerFor } from '../../../lib/client/resource-content';
import type { Frame } from '../../../lib/client/frames';

/** The inspector's resource and prompt helpers against the conformance mock, and a paging server. */

const engines: MockEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

function conformance() {
  const engine = createMockEngine({ scenario: getBuiltinScenario('conformance')! });
  engines.push(engine);
  const frames: Frame[] = [];
  const session = createClientSession({ transport: createTrackingTransport(createMemoryTransport(engine), { sink: (f) => frames.push(f) }), era: 'modern' });
  return { session, frames };
}

describe('resources', () => {
  it('lists resources and templates with their caching hints, reads text and blobs, and every request is tracked', async () => {
    const { session, frames } = conformance();
    const page = await listResources(session.request);
    expect(page.items.map((r) => r.uri)).toEqual(['test://static-text', 'test://static-binary']);
    expect(page.nextCursor).toBeUndefined();
    expect(page.cache.ttlMs).toBeTypeOf('number');
    expect(['public', 'private']).toContain(page.cache.cacheScope);
    const templates = await listResourceTemplates(session.request);
    expect(templates.items.map((t) => t.uriTemplate)).toEqual(['test://template/{id}/data']);

    const text = await readResource(session.request, 'test://static-text');
    expect(text).toMatchObject({ type: 'complete', result: { contents: [{ text: 'This is the content of the static text resource.' }] } });
    const uri = expandTemplate('test://template/{id}/data', { id: 'a b/7' });
    expect(uri).toBe('test://template/a%20b%2F7/data');
    const templated = await readResource(session.request, expandTemplate('test://template/{id}/data', { id: '42' }));
    const item = (templated as { result: { contents: { text: string; mimeType: string }[] } }).result.contents[0]!;
    expect(viewerFor(item)).toBe('json');
    expect(prettyJson(item.text).text).toContain('"data": "Data for ID: 42"');
    const methods = frames.filter((f) => f.kind === 'http-request').map((f) => f.method);
    expect(methods).toEqual(['resources/list', 'resources/templates/list', 'resources/read', 'resources/read']);
  });

  it('follows nextCursor one page at a time and reports a server without a list array as invalid', async () => {
    const seen: unknown[] = [];
    const pages: Record<string, unknown> = {
      '': { resources: [{ uri: 'a://1', name: 'one' }, { name: 'no uri' }], nextCursor: 'p2', ttlMs: 5000, cacheScope: 'public' },
      p2: { resources: [{ uri: 'a://2', name: 'two' }], ttlMs: 5000, cacheScope: 'public' },
      broken: { items: [] },
    };
    const target = {
      async fetch(req: Request) {
        const body = (await req.json()) as { id: number; params?: { cursor?: string } };
        seen.push(body.params?.cursor);
        return Response.json({ jsonrpc: '2.0', id: body.id, result: { resultType: 'complete', ...(pages[body.params?.cursor ?? ''] as object) } });
      },
    };
    const session = createClientSession({ transport: createMemoryTransport(target), era: 'modern' });
    const first = await listResources(session.request);
    expect(first).toMatchObject({ items: [{ uri: 'a://1' }], skipped: 1, nextCursor: 'p2', cache: { ttlMs: 5000, cacheScope: 'public' } });
    const second = await listResources(session.request, first.nextCursor);
    expect(second.items.map((r) => r.uri)).toEqual(['a://2']);
    expect(second.nextCursor).toBeUndefined();
    expect(seen).toEqual([undefined, 'p2']);
    expect((await listResources(session.request, 'broken')).outcome).toMatchObject({ type: 'invalid', reason: 'resources/list result has no resources array' });
  });

  it('browses a 2025-11-25 session the same way (after the initialize handshake)', async () => {
    const engine = createMockEngine({ scenario: getBuiltinScenario('conformance')! });
    engines.push(engine);
    const session = createClientSession({ transport: createMemoryTransport(engine), era: 'legacy' });
    const page = await listResources(session.request);
    expect(session.protocolVersion).toBe('2025-11-25');
    expect(page.items.map((r) => r.uri)).toEqual(['test://static-text', 'test://static-binary']);
    const blob = await readResource(session.request, 'test://static-binary');
    const item = (blob as { result: { contents: { blob: string; mimeType: string }[] } }).result.contents[0]!;
    expect(viewerFor(item)).toBe('image');
    expect(hexDump(decodeBase64(item.blob)!).slice(0, 29)).toBe('0000  89 50 4e 47 0d 0a 1a 0a');
    expect((await listPrompts(session.request)).items.map((p) => p.name)).toContain('test_prompt_with_arguments');
  });

  it('names template variables of every operator and expands them as RFC 6570 says', () => {
    expect(templateVariables('file:///{+path}{?q,lang}{#frag}/{id}')).toEqual(['path', 'q', 'lang', 'frag', 'id']);
    expect(expandTemplate('file:///{+path}', { path: 'src/a b.ts' })).toBe('file:///src/a%20b.ts');
    expect(expandTemplate('s://x{?q,lang}', { q: 'a&b', lang: '' })).toBe('s://x?q=a%26b');
    expect(expandTemplate('s://{a,b}', { a: '1', b: '2' })).toBe('s://1,2');
  });
});

describe('content viewers', () => {
  it('picks the viewer by MIME type and dumps binary as hex with its printable bytes', () => {
    expect(viewerFor({ uri: 'ui://x', mimeType: 'text/html;profile=mcp-app', text: '<p>' })).toBe('app');
    expect(viewerFor({ mimeType: 'text/markdown; charset=utf-8', text: '# h' })).toBe('markdown');
    expect(viewerFor({ mimeType: 'application/ld+json', text: '{}' })).toBe('json');
    expect(viewerFor({ mimeType: 'image/png', blob: 'AA==' })).toBe('image');
    expect(viewerFor({ mimeType: 'audio/wav', blob: 'AA==' })).toBe('audio');
    expect(viewerFor({ mimeType: 'application/pdf', blob: 'AA==' })).toBe('binary');
    const bytes = decodeBase64(btoa('\x89PNG\r\n\x1a\n0123456789abcdefXYZ'))!;
    expect(hexDump(bytes).split('\n')).toEqual([
      '0000  89 50 4e 47 0d 0a 1a 0a 30 31 32 33 34 35 36 37  .PNG....01234567',
      '0010  38 39 61 62 63 64 65 66 58 59 5a                 89abcdefXYZ',
    ]);
    expect(hexDump(new Uint8Array(1000)).split('\n')).toHaveLength(16);
    expect(dataUrl('image/png', 'not base64!')).toBeUndefined();
    expect(dataUrl('image/png"><script>', 'AA==')).toBeUndefined();
    expect(dataUrl('image/png', 'AA==')).toBe('data:image/png;base64,AA==');
  });
});

describe('prompts and completion', () => {
  it('gets a prompt with its arguments and completes the one the server offers values for', async () => {
    const { session } = conformance();
    const prompts = await listPrompts(session.request);
    const withArgs = prompts.items.find((p) => p.name === 'test_prompt_with_arguments')!;
    expect(withArgs.arguments?.map((a) => a.name)).toEqual(['arg1', 'arg2']);
    expect(promptArguments(withArgs, { arg1: 'x', arg2: '' })).toEqual({ args: { arg1: 'x' }, missing: ['arg2'] });
    const got = await getPrompt(session.request, withArgs.name, { arg1: 'hello', arg2: 'world' });
    expect(got).toMatchObject({ ok: true, messages: [{ role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='hello', arg2='world'" } }] });
    const unknown = await getPrompt(session.request, 'no_such_prompt', {});
    expect(unknown).toMatchObject({ ok: false, outcome: { type: 'error', error: { code: -32602 } } });

    const c = await completeArgument(session.request, { type: 'ref/prompt', name: withArgs.name }, { name: 'arg1', value: 'test' }, { arg2: 'w' });
    expect(c.problem).toBeUndefined();
    expect(c.values).toEqual(['testValue1', 'test-value']);
  });
});
