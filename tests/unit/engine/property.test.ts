import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockEngine } from '../../../lib/engine';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';

/**
 * Whatever arrives (malformed JSON, random JSON, wrong or missing headers, any method),
 * the engine answers with a well-formed JSON-RPC message and the status that goes with it,
 * and never throws. Runs 2,000 cases in `npm test` and more under `npm run bench`.
 */

const RUNS = Number(process.env.LOUPE_PROPERTY_RUNS ?? 2000);
const engine = createMockEngine({ scenario: getBuiltinScenario('demo')! });
afterAll(() => engine.close());

const METHODS = [
  'server/discover',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
  'tasks/list',
  'tasks/result',
  'initialize',
  'ping',
  'logging/setLevel',
  'nope/nope',
];
const TOOLS = ['echo', 'charge', 'delete_note', 'workspace_read', 'generate_report', 'missing_tool'];

const meta = fc.record(
  {
    'io.modelcontextprotocol/protocolVersion': fc.oneof(fc.constant('2026-07-28'), fc.constant('2025-11-25'), fc.string({ maxLength: 12 }), fc.integer()),
    'io.modelcontextprotocol/clientCapabilities': fc.oneof(
      fc.constant({}),
      fc.constant({ elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } }),
      fc.jsonValue(),
    ),
  },
  { requiredKeys: [] },
);
const params = fc.record(
  {
    _meta: meta,
    name: fc.oneof(fc.constantFrom(...TOOLS), fc.string({ maxLength: 20 })),
    arguments: fc.oneof(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 })), fc.jsonValue({ maxDepth: 2 })),
    uri: fc.string({ maxLength: 30 }),
    taskId: fc.string({ maxLength: 30 }),
    inputResponses: fc.jsonValue({ maxDepth: 3 }),
    requestState: fc.string({ maxLength: 40 }),
  },
  { requiredKeys: [] },
);
const id = fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.constant(null), fc.double(), fc.boolean());
const rpc = fc.record(
  { jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('1.0')), id, method: fc.oneof(fc.constantFrom(...METHODS), fc.string({ maxLength: 15 })), params },
  { requiredKeys: ['jsonrpc', 'method'] },
);
const body = fc.oneof(
  { weight: 6, arbitrary: rpc.map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
);
const headerSet = fc.record(
  {
    'content-type': fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', ''),
    accept: fc.constantFrom('application/json, text/event-stream', 'application/json', '*/*'),
    'mcp-protocol-version': fc.constantFrom('2026-07-28', '2025-11-25', 'garbage'),
    'mcp-method': fc.oneof(fc.constantFrom(...METHODS), fc.string({ maxLength: 10 })),
    'mcp-name': fc.oneof(fc.constantFrom(...TOOLS), fc.constant('=?base64?!!!?='), fc.string({ maxLength: 10 })),
    host: fc.constantFrom('127.0.0.1:3000', 'localhost', 'evil.example.com', '[::1]:8080'),
    origin: fc.constantFrom('http://localhost:3000', 'http://evil.example.com', 'null'),
    authorization: fc.constantFrom('Bearer a.b.c', 'Bearer token-1', 'Basic xyz'),
  },
  { requiredKeys: [] },
);
const httpMethod = fc.constantFrom('POST', 'POST', 'POST', 'POST', 'GET', 'DELETE', 'PUT');

const STATUS_FOR: Record<number, number[]> = {
  [-32700]: [400],
  [-32600]: [400],
  [-32601]: [404],
  [-32020]: [400],
  [-32021]: [400],
  [-32022]: [400],
  [-32602]: [200, 400],
};

function isResponse(m: unknown): m is { jsonrpc: string; id: unknown; result?: unknown; error?: { code: number; message: string } } {
  if (!m || typeof m !== 'object') return false;
  const r = m as Record<string, unknown>;
  if (r.jsonrpc !== '2.0') return false;
  const hasResult = 'result' in r;
  const hasError = 'error' in r;
  if (hasResult === hasError) return false;
  if (hasError) {
    const e = r.error as Record<string, unknown>;
    return Number.isInteger(e?.code) && typeof e?.message === 'string';
  }
  return typeof r.result === 'object' && r.result !== null;
}

async function read(res: Response): Promise<unknown[]> {
  const text = res.headers.get('content-type')?.includes('text/event-stream')
    ? await (async () => {
        // Listen streams stay open: read what arrives within a short window, then cancel.
        const reader = res.body!.getReader();
        let acc = '';
        const dec = new TextDecoder();
        const deadline = Date.now() + 300;
        while (Date.now() < deadline) {
          const r = await Promise.race([reader.read(), new Promise<{ done: true; value?: undefined }>((ok) => setTimeout(() => ok({ done: true }), 100))]);
          if (r.done) break;
          acc += dec.decode(r.value, { stream: true });
        }
        await reader.cancel().catch(() => {});
        return acc
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .map((l) => l.slice(6))
          .join('\n');
      })()
    : await res.text();
  return text
    ? text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
}

describe('property: every reply is well-formed JSON-RPC with the right status', () => {
  it(`holds for ${RUNS} generated bodies and header sets`, async () => {
    await fc.assert(
      fc.asyncProperty(httpMethod, headerSet, body, async (method, headers, text) => {
        const req = new Request('http://127.0.0.1:3000/mcp', { method, headers, body: method === 'GET' || method === 'DELETE' ? undefined : text });
        const res = await engine.fetch(req);
        expect([200, 202, 400, 403, 404, 405, 413, 415]).toContain(res.status);
        const msgs = await read(res);
        if (res.status === 202) return void expect(msgs).toEqual([]);
        expect(msgs.length).toBeGreaterThan(0);
        if (res.headers.get('content-type')?.includes('text/event-stream')) {
          for (const m of msgs) expect((m as { jsonrpc?: string }).jsonrpc).toBe('2.0');
          return;
        }
        const [msg] = msgs;
        expect(isResponse(msg)).toBe(true);
        const m = msg as { id: unknown; result?: unknown; error?: { code: number } };
        if (m.error) {
          const allowed = STATUS_FOR[m.error.code] ?? [200];
          if (![403, 405, 413, 415].includes(res.status)) expect(allowed).toContain(res.status);
        } else expect(res.status).toBe(200);
        let parsed: { id?: unknown } | undefined;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        const validId = parsed && typeof parsed === 'object' && (typeof parsed.id === 'string' || Number.isInteger(parsed.id));
        if (validId && res.status !== 403 && res.status !== 405 && res.status !== 415 && m.id !== null) expect(m.id).toEqual(parsed!.id);
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});
