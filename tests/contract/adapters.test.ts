import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { createMockEngine, type MockEngine } from '../../lib/engine';
import { getBuiltinScenario } from '../../lib/scenario/builtins';
import { createMockHost, type MockHost } from '../../lib/server/mock-host';
import { createMockRouter } from '../../lib/server/mock-router';
import { listen } from '../../lib/adapters/node-http';
import { createMswHandlers } from '../../lib/adapters/msw';
import { setupServer } from 'msw/node';
import { contractSuite, type RawRequest, type RawResponse, type Send } from './contract-suite';

/** Read a web Response; for SSE, stop after the first event so open streams do not hang the test. */
async function readResponse(res: Response): Promise<RawResponse> {
  if (!res.headers.get('content-type')?.includes('text/event-stream') || !res.body) return { status: res.status, headers: res.headers, text: await res.text() };
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let text = '';
  while (!/data: .*\n\n/.test(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += dec.decode(value, { stream: true });
  }
  await reader.cancel().catch(() => {});
  return { status: res.status, headers: res.headers, text };
}

function toRequest(base: string, r: RawRequest): Request {
  const headers = new Headers({ Host: new URL(base).host, ...(r.headers ?? {}) });
  return new Request(`${base}${r.path ?? '/mcp'}`, {
    method: r.method ?? 'POST',
    headers,
    body: r.method === 'GET' || r.method === 'DELETE' ? undefined : r.body,
  });
}

/** Raw node:http client, so the Host header can be set to anything. */
function rawHttp(port: number): Send {
  return (r) =>
    new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, agent: false, method: r.method ?? 'POST', path: r.path ?? '/mcp', headers: r.headers }, (res) => {
        let text = '';
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
        const sse = headers.get('content-type')?.includes('text/event-stream');
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
          if (sse && /data: .*\n\n/.test(text)) {
            req.destroy();
            resolve({ status: res.statusCode ?? 0, headers, text });
          }
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers, text }));
        res.on('error', () => resolve({ status: res.statusCode ?? 0, headers, text }));
      });
      req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
      if (r.body) req.write(r.body);
      req.end();
    });
}

describe('contract: engine.fetch in memory', () => {
  let engine: MockEngine;
  beforeAll(() => {
    engine = createMockEngine({ scenario: getBuiltinScenario('demo')! });
  });
  afterAll(() => engine.close());
  contractSuite(() => async (r) => readResponse(await engine.fetch(toRequest('http://127.0.0.1:3000', r))));
});

describe('contract: node:http adapter (CLI server)', () => {
  let host: MockHost;
  let port = 0;
  let close: () => Promise<void>;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-contract-'));
    host = createMockHost({ dataDir: dir });
    const router = createMockRouter(host, 'demo');
    // Wired exactly as the CLI does: MCP routes take the engine's node fast path.
    const server = await listen(router.fetch, '127.0.0.1', 0, (pathname) => router.engineFor(pathname)?.handle);
    port = server.port;
    close = server.close;
  });
  afterAll(async () => {
    await close();
    host.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  contractSuite(() => rawHttp(port));
});

describe('contract: MSW handlers (mcp-loupe/msw) behind fetch', () => {
  const { handlers, engine } = createMswHandlers('demo', { url: 'http://localhost:3000/mcp' });
  const server = setupServer(...handlers);
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => {
    server.close();
    engine.close();
  });
  // Through the global fetch that MSW intercepts, as a client under test would send it.
  const send: Send = async (r) => {
    const body = r.method === 'GET' || r.method === 'DELETE' ? undefined : r.body;
    return readResponse(await fetch(`http://localhost:3000${r.path ?? '/mcp'}`, { method: r.method ?? 'POST', headers: r.headers, body }));
  };
  contractSuite(() => send, { forgeableHost: false });
});
