// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createInspectorStore } from '../../../lib/state/inspector-store';
import { InspectorProvider } from '../../../components/inspector/InspectorProvider';
import { ResourcesPanel } from '../../../components/resources/ResourcesPanel';
import { cleanup, click, render } from '../../helpers/render';

/**
 * The resources panel against a server that pages its list: every page on connect, the next
 * one asked for with the cursor the server gave, the caching hints of the last page, and an
 * opaque binary resource read as its size and hex dump.
 */

afterEach(cleanup);

const BYTES = new Uint8Array(300).map((_, i) => i % 256);
const blob = btoa(String.fromCharCode(...BYTES));

function pagingServer(seen: unknown[]) {
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = (await new Request(input, init).json()) as {
      id: number;
      method: string;
      params?: { cursor?: string };
    };
    seen.push([body.method, body.params?.cursor]);
    const ok = (result: Record<string, unknown>) => Response.json({ jsonrpc: '2.0', id: body.id, result: { resultType: 'complete', ...result } });
    switch (body.method) {
      case 'server/discover':
        return ok({ supportedVersions: ['2026-07-28'], capabilities: { resources: {} }, ttlMs: 0, cacheScope: 'public', _meta: {} });
      case 'tools/list':
        return ok({ tools: [], ttlMs: 0, cacheScope: 'public' });
      case 'resources/templates/list':
        return ok({ resourceTemplates: [], ttlMs: 0, cacheScope: 'public' });
      case 'resources/list':
        return body.params?.cursor === 'page-2'
          ? ok({ resources: [{ uri: 'file:///b.bin', name: 'b', mimeType: 'application/octet-stream' }], ttlMs: 30000, cacheScope: 'private' })
          : ok({ resources: [{ uri: 'file:///a.txt', name: 'a', mimeType: 'text/plain' }], nextCursor: 'page-2', ttlMs: 60000, cacheScope: 'private' });
      case 'resources/read':
        return ok({ contents: [{ uri: 'file:///b.bin', mimeType: 'application/octet-stream', blob }], ttlMs: 0, cacheScope: 'private' });
      default:
        return Response.json({ jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'Method not found' } }, { status: 404 });
    }
  };
}

async function until(check: () => boolean, ms = 8_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
  }
}

describe('ResourcesPanel', () => {
  it('follows the pages with the server’s cursor, shows the caching hints, and dumps a binary read as hex', async () => {
    const seen: unknown[] = [];
    const store = createInspectorStore({ fetch: pagingServer(seen), scheduleLint: () => {} });
    await store.getState().connection.connect({ url: 'http://127.0.0.1/mcp' });
    const view = render(
      <InspectorProvider store={store}>
        <ResourcesPanel />
      </InspectorProvider>,
    );
    await until(() => !!view.query('[data-resource="file:///b.bin"]') && !view.query('[data-testid="list-loading"]'));
    expect(view.query('[data-resource="file:///a.txt"]')).not.toBeNull();
    expect(view.query('[data-testid="load-more"]')).toBeNull();
    expect(view.text('[data-testid="cache-hints"]')).toContain('2 pages · ttlMs 30000 · cacheScope private');
    expect(seen.filter((s) => (s as string[])[0] === 'resources/list')).toEqual([
      ['resources/list', undefined],
      ['resources/list', 'page-2'],
    ]);

    await click(view.get('[data-resource="file:///b.bin"] [data-testid="read-resource"]'));
    await until(() => !!view.query('[data-testid="content-binary"]'));
    expect(view.get('[data-testid="content-binary"]').dataset.bytes).toBe('300');
    expect(view.text('[data-testid="content-binary"]')).toContain('application/octet-stream, 300 B (first 256 bytes)');
    const hex = view.text('[data-testid="content-hex"]').split('\n');
    expect(hex).toHaveLength(16);
    expect(hex[0]).toBe('0000  00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f  ................');
  });
});
