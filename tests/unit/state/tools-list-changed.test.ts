import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createInspectorStore } from '../../../lib/state/inspector-store';

/**
 * notifications/tools/list_changed makes the inspector list the tools again: a server (a plain
 * HTTP one, started here) adds a tool when `add_tool` is called and says so on the call's stream.
 * A burst of notices costs at most two tools/list.
 */

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function startServer(notices: number): Promise<{ url: string; lists: () => number }> {
  let tools = [{ name: 'add_tool', inputSchema: { type: 'object' } }];
  let lists = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const m = JSON.parse(body) as { id: number; method: string };
      const reply = (result: unknown) => ({ jsonrpc: '2.0', id: m.id, result: { resultType: 'complete', ...(result as object) } });
      if (m.method === 'tools/call') {
        tools = [...tools, { name: `tool_${tools.length}`, inputSchema: { type: 'object' } }];
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        for (let i = 0; i < notices; i++) res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })}\n\n`);
        res.end(`data: ${JSON.stringify(reply({ content: [{ type: 'text', text: 'added' }] }))}\n\n`);
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      if (m.method === 'server/discover')
        return res.end(
          JSON.stringify(
            reply({
              supportedVersions: ['2026-07-28'],
              capabilities: { tools: { listChanged: true } },
              serverInfo: { name: 'changing', version: '1' },
              ttlMs: 0,
              cacheScope: 'private',
            }),
          ),
        );
      if (m.method === 'tools/list') {
        lists++;
        return res.end(JSON.stringify(reply({ tools, ttlMs: 0, cacheScope: 'private' })));
      }
      res.end(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      cleanups.push(() => new Promise((r) => server.close(r)));
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, lists: () => lists });
    }),
  );
}

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('tools/list_changed', () => {
  it('lists the tools again when the server says they changed, once per burst of notices', async () => {
    const server = await startServer(20);
    const store = createInspectorStore({ scheduleLint: () => {} });
    cleanups.push(() => store.getState().connection.disconnect());
    await store.getState().connection.connect({ url: server.url, era: 'modern' });
    expect(store.getState().connection.tools.map((t) => t.name)).toEqual(['add_tool']);
    const out = await store.getState().connection.session!.callTool('add_tool', {});
    expect(out.type).toBe('complete');
    await until(() => store.getState().connection.tools.length === 2);
    expect(store.getState().connection.tools.map((t) => t.name)).toEqual(['add_tool', 'tool_1']);
    await new Promise((r) => setTimeout(r, 200));
    // The connect's list, then at most two for the twenty notices.
    expect(server.lists()).toBeGreaterThanOrEqual(2);
    expect(server.lists()).toBeLessThanOrEqual(3);
  });
});
