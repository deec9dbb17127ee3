import fc from 'fast-check';
import { bodyArb, PROTO_KEYS, rpcObject } from './bodies';
import type { RawRequest } from './raw-client';

/**
 * Whole hostile requests per route family: the path (prototype keys and broken percent-encoding
 * as segments), the method, and headers that are missing, wrong, malformed or sent twice
 * (Host, Origin, Content-Type, Mcp-*, MCP-Protocol-Version, the credentials).
 */

/** How a request presents itself: no credentials, the launch token, or the browser's cookie. */
export interface Credentials {
  name: 'anonymous' | 'bearer' | 'cookie';
  headers: readonly (readonly [string, string])[];
}

const seg = fc.oneof(
  fc.constantFrom(...PROTO_KEYS, 'demo', 'conformance', 'x', '..', '.', '%2e%2e', '%', '%zz', '%00', '%2F', '%E0%A4%A', 'a%2Fb', '%F0%9F%98%80', '~', '*'),
  fc.stringMatching(/^[\w%.~-]{1,12}$/),
);

const SCENARIO_SUBS = [
  '',
  'source',
  'duplicate',
  'reset',
  'journal?since=abc',
  'journal?since=1e999',
  'snapshot',
  'report-card',
  'tasks',
  'tasks/x',
  'tasks/x/advance',
  'tasks/__proto__/complete',
  'tasks/x/__proto__',
];

/** The route families of the CLI mock (the app server adds its pages). */
export const ROUTE_FAMILIES = {
  mcp: fc.oneof(
    fc.constantFrom('/mcp', '/mcp/', '/mcp/demo', '/mcp/conformance', '/mcp?x=1', '//mcp', '/mcp/demo/extra'),
    seg.map((s) => `/mcp/${s}`),
    seg.map((s) => `/mcp/replay/${s}`),
  ),
  scenarios: fc.oneof(
    fc.constantFrom('/api/scenarios', '/api/scenarios/validate', '/api/scenarios/validate?source=__proto__'),
    fc.tuple(fc.oneof(fc.constant('demo'), seg), fc.constantFrom(...SCENARIO_SUBS)).map(([id, sub]) => `/api/scenarios/${id}/${sub}`),
  ),
  recordings: fc.oneof(
    fc.constantFrom('/api/recordings', '/api/recordings/replay', '/api/recordings/a.json'),
    seg.map((s) => `/api/recordings/${s}`),
  ),
  misc: fc.oneof(
    fc.constantFrom('/api/session', '/api/launch', '/api', '/api/', '/healthz', '/healthz?x'),
    seg.map((s) => `/api/${s}`),
  ),
  proxy: fc.oneof(
    fc.constantFrom('/api/proxy', '/api/proxy/', '/api/proxy?url=x'),
    seg.map((s) => `/api/proxy/${s}`),
  ),
  stdio: fc.oneof(
    fc.constantFrom('/api/proxy/stdio', '/api/proxy/stdio/'),
    seg.map((s) => `/api/proxy/stdio/${s}`),
    seg.map((s) => `/api/proxy/stdio/${s}/x`),
  ),
} as const;

/** The app server's pages, behind the page gate. */
export const PAGE_FAMILY = fc.oneof(
  fc.constantFrom(
    '/',
    '/index.html',
    '/index.txt',
    '/scenarios/demo',
    '/replay/x',
    '/sandbox/proxy.html',
    '/sandbox/proxy.html?origin=http://evil.test',
    '/_next/../../package.json',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/?token=wrong',
  ),
  seg.map((s) => `/${s}`),
  seg.map((s) => `/scenarios/${s}`),
  seg.map((s) => `/_next/static/${s}`),
);

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH', 'TRACE', 'TRACK', 'CONNECT', 'FOO'] as const;

/** A header value that may be right, absent, wrong, a prototype key or sent twice. */
function header(name: string, good: readonly string[], bad: readonly string[], absent = 3): fc.Arbitrary<[string, string][]> {
  const value = fc.oneof(
    { arbitrary: fc.constantFrom(...good), weight: 3 },
    { arbitrary: fc.constantFrom(...bad, ...PROTO_KEYS), weight: 2 },
    { arbitrary: fc.stringMatching(/^[\x20-\x7e]{0,24}$/), weight: 1 },
  );
  return fc.oneof(
    { arbitrary: fc.constant([]), weight: absent },
    { arbitrary: value.map((v) => [[name, v]]), weight: 6 },
    {
      arbitrary: fc.tuple(value, value).map(([a, b]) => [
        [name, a],
        [name, b],
      ]),
      weight: 1,
    },
  );
}

/**
 * A request whose transport is right (Host, Content-Type, the Mcp-* headers agree with the body)
 * so that the hostile body reaches the JSON-RPC layer, the dispatch tables and the handlers.
 */
function wellFormedArb(port: number, family: fc.Arbitrary<string>, creds: Credentials): fc.Arbitrary<RawRequest> {
  return fc.tuple(family, rpcObject, fc.constantFrom('2026-07-28', '2025-11-25')).map(([path, body, version]) => {
    const params = body.params as Record<string, unknown> | undefined;
    const name = params && typeof params === 'object' ? (params.name ?? params.uri ?? params.taskId) : undefined;
    const headers: [string, string][] = [
      ['Host', `127.0.0.1:${port}`],
      ['Content-Type', 'application/json'],
      ['Accept', 'application/json, text/event-stream'],
      ['MCP-Protocol-Version', version],
      ...(typeof body.method === 'string' ? [['Mcp-Method', body.method] as [string, string]] : []),
      ...(typeof name === 'string' ? [['Mcp-Name', name] as [string, string]] : []),
      ...creds.headers,
    ];
    return { method: 'POST', path, headers, body: Buffer.from(JSON.stringify(body)) };
  });
}

/** One hostile request against `family` on a server listening at `port`. */
export function requestArb(port: number, family: fc.Arbitrary<string>, creds: Credentials, limitBytes: number): fc.Arbitrary<RawRequest> {
  const self = `127.0.0.1:${port}`;
  const headers = fc.tuple(
    // Host: the right one most of the time, so most cases get past the rebinding check.
    fc.oneof(
      { arbitrary: fc.constant([['Host', self]] as [string, string][]), weight: 8 },
      { arbitrary: header('Host', [self, `localhost:${port}`], ['evil.test', '127.0.0.1.nip.io', '', `[::1]:${port}`, 'a b']), weight: 2 },
    ),
    header('Origin', [`http://${self}`], ['null', 'http://evil.test', `http://127.0.0.1:1`, 'file://', ''], 12),
    header(
      'Content-Type',
      ['application/json', 'application/json; charset=utf-8'],
      ['text/plain', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/yaml', 'application/json; charset=latin1', ''],
    ),
    header('Accept', ['application/json, text/event-stream'], ['text/html', '*/*', '']),
    header('MCP-Protocol-Version', ['2026-07-28', '2025-11-25'], ['2024-11-05', '9999-99-99', '']),
    header('Mcp-Method', ['tools/call', 'tools/list', 'subscriptions/listen'], ['', 'x']),
    header('Mcp-Name', ['echo', 'charge'], ['', 'x']),
    header('Mcp-Session-Id', ['00000000-0000-0000-0000-000000000000'], ['', 'x']),
    header('Last-Event-ID', ['1', 'a:1'], ['', '-1']),
    fc.oneof({ arbitrary: fc.constant(true), weight: 9 }, { arbitrary: fc.constant(false), weight: 1 }),
  );
  const anything = fc.tuple(fc.constantFrom(...METHODS), family, headers, bodyArb(limitBytes)).map(([method, path, [host, ...rest], body]) => {
    const withCreds = rest.pop() as boolean;
    const lines = [...host, ...(rest as [string, string][][]).flat(), ...(withCreds ? creds.headers : [])];
    return { method, path, headers: lines, ...(body && method !== 'GET' && method !== 'HEAD' ? { body } : {}) };
  });
  return fc.oneof(anything, wellFormedArb(port, family, creds));
}
