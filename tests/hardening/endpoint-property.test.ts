import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockHost } from '../../lib/server/mock-host';
import { createMockRouter } from '../../lib/server/mock-router';

/**
 * Every route of the router (MCP endpoints, control API, proxy) answers generated garbage with
 * a clear 4xx (or a 2xx where the input happens to be valid), a JSON body, and never throws.
 * 2,000 cases in `npm test`, 10,000 under `npm run bench`. Proxy targets stay on loopback.
 */

const RUNS = Number(process.env.LOUPE_PROPERTY_RUNS ?? 2000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-endpoint-prop-'));
const host = createMockHost({ dataDir: dir });
const TOKEN = 'property-token';
const router = createMockRouter(host, 'demo', { token: TOKEN });
afterAll(() => {
  host.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const paths = fc.oneof(
  fc.constantFrom(
    '/mcp',
    '/mcp/demo',
    '/mcp/conformance',
    '/mcp/nope',
    '/mcp/../api',
    '/api/scenarios',
    '/api/scenarios/demo',
    '/api/scenarios/demo/source',
    '/api/scenarios/demo/reset',
    '/api/scenarios/demo/journal?since=abc',
    '/api/scenarios/demo/report-card',
    '/api/scenarios/demo/tasks',
    '/api/scenarios/demo/tasks/x/advance',
    '/api/scenarios/validate',
    '/api/scenarios/..%2F..%2Fetc/source',
    '/api/scenarios/%E0%A4%A/source',
    '/api/proxy',
    '/api/scenarios/demo/duplicate',
    '/api/scenarios/new-one/source',
    '/api/nothing',
  ),
  fc.string({ maxLength: 30 }).map((s) => `/api/${encodeURIComponent(s)}`),
);
const proxyBody = fc.record(
  {
    url: fc.constantFrom('http://127.0.0.1:1/mcp', 'http://127.0.0.1:3000/api/scenarios', 'file:///etc/passwd', 'ftp://127.0.0.1/', 'nonsense', ''),
    method: fc.constantFrom('POST', 'GET', 'TRACE', ''),
    headers: fc.dictionary(fc.constantFrom('Connection', 'Host', 'Content-Type', 'X-Any', 'Transfer-Encoding'), fc.string({ maxLength: 10 })),
    body: fc.string({ maxLength: 50 }),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  proxyBody.map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 80 }),
  fc.constant('id: x\nserver: {name: a, version: "1"}\n'),
);
const headers = fc.record(
  {
    host: fc.constantFrom('127.0.0.1:3000', 'localhost:3000', 'evil.example.com'),
    origin: fc.constantFrom('http://127.0.0.1:3000', 'http://evil.example.com', 'null'),
    authorization: fc.constantFrom(`Bearer ${TOKEN}`, 'Bearer wrong', ''),
    cookie: fc.constantFrom(`loupe_token=${TOKEN}`, 'loupe_token=%E0%A4%A', 'x=1'),
    'content-type': fc.constantFrom('application/json', 'text/plain', 'text/yaml'),
  },
  { requiredKeys: [] },
);

describe('property: every endpoint answers garbage cleanly', () => {
  it(`holds for ${RUNS} generated requests`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'), paths, headers, body, async (method, p, h, b) => {
        const req = new Request(`http://127.0.0.1:3000${p}`, { method, headers: h, body: method === 'GET' ? undefined : b });
        const res = await router.fetch(req);
        expect(res.status).toBeGreaterThanOrEqual(200);
        // An unreachable upstream is the proxy's one legitimate 5xx (502/504), never a crash.
        if (p === '/api/proxy' && (res.status === 502 || res.status === 504)) return void (await res.body?.cancel());
        expect(res.status).toBeLessThan(500);
        const type = res.headers.get('content-type') ?? '';
        if (type.includes('text/event-stream')) {
          await res.body?.cancel();
          return;
        }
        const text = await res.text();
        if (text && type.includes('json')) expect(() => JSON.parse(text)).not.toThrow();
      }),
      { numRuns: RUNS },
    );
  }, 180_000);
});
