import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../../lib/engine';
import { getBuiltinScenario } from '../../../lib/scenario/builtins';
import { createClientSession } from '../../../lib/client/session';
import { createMemoryTransport } from '../../../lib/client/memory-transport';
import { createTrackingTransport } from '../../../lib/client/tracking';
import { fingerprint, sha256Hex } from '../../../lib/shared/fingerprint';
import type { Frame } from '../../../lib/client/frames';

/** Era detection, version negotiation and the legacy handshake; task id fingerprints. */

const engines: MockEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

type Body = { id?: number; method: string; params?: Record<string, unknown> };

function recorder(handle: (body: Body, headers: Headers) => Response) {
  const seen: { body: Body; headers: Headers }[] = [];
  return {
    seen,
    target: {
      async fetch(req: Request) {
        const body = (await req.json()) as Body;
        seen.push({ body, headers: req.headers });
        return handle(body, req.headers);
      },
    },
  };
}

describe('era and version', () => {
  it('falls back to the 2025-11-25 handshake when -32022 names only legacy versions', async () => {
    const engine = createMockEngine({ scenario: getBuiltinScenario('legacy-server')! });
    engines.push(engine);
    const session = createClientSession({ transport: createMemoryTransport(engine), era: 'auto' });
    const tools = await session.request('tools/list');
    expect(session.era).toBe('legacy');
    expect(session.protocolVersion).toBe('2025-11-25');
    expect(tools.type).toBe('complete');
  });

  it('auto-detects a modern server with one server/discover and remembers who it is', async () => {
    const engine = createMockEngine({ scenario: getBuiltinScenario('demo')! });
    engines.push(engine);
    const frames: Frame[] = [];
    const session = createClientSession({ transport: createTrackingTransport(createMemoryTransport(engine), { sink: (f) => frames.push(f) }), era: 'auto' });
    expect(session.era).toBeUndefined();
    const d = await session.discover();
    expect(d.type).toBe('complete');
    expect(session.era).toBe('modern');
    expect(session.server?.info).toMatchObject({ name: 'loupe-demo' });
    expect(frames.filter((f) => f.kind === 'http-request').map((f) => f.method)).toEqual(['server/discover']);
  });

  it('retries a -32022 once with a mutually supported version and a new id, and does not loop', async () => {
    let rejected = false;
    const { target, seen } = recorder((body) => {
      if (!rejected) {
        rejected = true;
        return Response.json(
          {
            jsonrpc: '2.0',
            id: body.id,
            error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: '2026-07-28' } },
          },
          { status: 400 },
        );
      }
      return Response.json({ jsonrpc: '2.0', id: body.id, result: { resultType: 'complete', ttlMs: 0, cacheScope: 'private', tools: [] } });
    });
    const session = createClientSession({ transport: createMemoryTransport(target), era: 'modern' });
    expect(await session.request('tools/list')).toMatchObject({ type: 'complete' });
    expect(seen).toHaveLength(2);
    expect(seen[1].body.id).not.toBe(seen[0].body.id);
    expect(seen[1].headers.get('mcp-protocol-version')).toBe('2026-07-28');

    const never = recorder((body) =>
      Response.json(
        { jsonrpc: '2.0', id: body.id, error: { code: -32022, message: 'no', data: { supported: ['2099-01-01'], requested: '2026-07-28' } } },
        { status: 400 },
      ),
    );
    const s2 = createClientSession({ transport: createMemoryTransport(never.target), era: 'modern' });
    expect(await s2.request('tools/list')).toMatchObject({ type: 'error', error: { code: -32022 }, httpStatus: 400 });
    expect(never.seen).toHaveLength(1);
  });

  it('stays modern on a recognised modern error instead of falling back', async () => {
    const { target, seen } = recorder((body) =>
      Response.json({ jsonrpc: '2.0', id: body.id, error: { code: -32020, message: 'Header mismatch' } }, { status: 400 }),
    );
    const session = createClientSession({ transport: createMemoryTransport(target), era: 'auto' });
    await session.connect();
    expect(session.era).toBe('modern');
    expect(seen.map((s) => s.body.method)).toEqual(['server/discover']);
  });

  it('falls back to the 2025-11-25 handshake when server/discover is not understood', async () => {
    const { target, seen } = recorder((body) => {
      if (body.method === 'server/discover') return new Response('Bad Request: Server not initialized', { status: 400 });
      if (body.method === 'initialize')
        return Response.json(
          { jsonrpc: '2.0', id: body.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'old', version: '1' } } },
          { headers: { 'Mcp-Session-Id': 'sess-9' } },
        );
      if (body.method === 'notifications/initialized') return new Response(null, { status: 202 });
      return Response.json({ jsonrpc: '2.0', id: body.id, result: { tools: [{ name: 'a', inputSchema: { type: 'object' } }] } });
    });
    const warnings: string[] = [];
    const session = createClientSession({
      transport: createMemoryTransport(target),
      era: 'auto',
      capabilities: { elicitation: { form: {} }, extensions: { x: {} } },
      onWarning: (w) => warnings.push(w),
    });
    const listed = await session.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(['a']);
    expect(session.era).toBe('legacy');
    expect(session.protocolVersion).toBe('2025-11-25');
    expect(session.server?.info).toEqual({ name: 'old', version: '1' });
    expect(seen.map((s) => s.body.method)).toEqual(['server/discover', 'initialize', 'notifications/initialized', 'tools/list']);
    expect(seen[1].body.params).toMatchObject({
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: { form: {} } },
      clientInfo: { name: 'mcp-loupe' },
    });
    expect(seen[1].body.params!.capabilities).not.toHaveProperty('extensions');
    expect(seen[3].headers.get('mcp-session-id')).toBe('sess-9');
    expect(seen[3].headers.get('mcp-protocol-version')).toBe('2025-11-25');
    expect(seen[3].body.params?._meta).toBeUndefined();
    // A 2025-11-25 server refusing a method it does not know is the ordinary way to the handshake: no warning.
    expect(warnings).toEqual([]);
  });

  it('warns when the probe fell back for an unusual answer (a result that is no DiscoverResult)', async () => {
    const { target } = recorder((body) => {
      if (body.method === 'server/discover') return Response.json({ jsonrpc: '2.0', id: body.id, result: { hello: 'world' } });
      if (body.method === 'initialize')
        return Response.json({
          jsonrpc: '2.0',
          id: body.id,
          result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'odd', version: '1' } },
        });
      return new Response(null, { status: 202 });
    });
    const warnings: string[] = [];
    const session = createClientSession({ transport: createMemoryTransport(target), era: 'auto', onWarning: (w) => warnings.push(w) });
    await session.connect();
    expect(session.era).toBe('legacy');
    expect(warnings).toEqual([expect.stringMatching(/^server\/discover was not understood \(its answer is not a DiscoverResult .*\); falling back/)]);
  });

  it('speaks 2025-11-25 experimental tasks to the demo mock: params.task, nested task, tasks/list', async () => {
    const engine = createMockEngine({ scenario: getBuiltinScenario('demo')! });
    engines.push(engine);
    const frames: Frame[] = [];
    // generate_report asks for input with a form: a client that declares no elicitation is refused up front.
    const session = createClientSession({
      transport: createTrackingTransport(createMemoryTransport(engine), { sink: (f) => frames.push(f) }),
      era: 'legacy',
      capabilities: { elicitation: { form: {} } },
    });
    const out = await session.callTool('generate_report', { size: 'small' }, { task: true, ttlMs: 60_000 });
    expect(out).toMatchObject({ type: 'task', form: 'legacy', task: { status: 'working', ttlMs: 60_000, pollIntervalMs: 1_000 } });
    const call = frames.find((f) => f.kind === 'http-request' && f.method === 'tools/call')!;
    expect(call.body).toMatchObject({ params: { task: { ttl: 60_000 } } });
    const listed = await session.listTasks();
    expect(listed).toMatchObject({ type: 'tasks' });
    expect((listed as { tasks: { taskId: string }[] }).tasks.map((t) => t.taskId)).toContain((out as { task: { taskId: string } }).task.taskId);
    expect(await session.updateTask('x', {})).toMatchObject({ type: 'failure', reason: 'local' });
  });
});

describe('fingerprint', () => {
  it('is the first 8 hex digits of SHA-256', () => {
    for (const id of ['', 'abc', 'report-0001-1790274797048804894', 'ünïcødé ☃ 𝄞', 'x'.repeat(1000), 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(64)]) {
      expect(sha256Hex(id)).toBe(createHash('sha256').update(id, 'utf8').digest('hex'));
      expect(fingerprint(id)).toBe(createHash('sha256').update(id, 'utf8').digest('hex').slice(0, 8));
    }
    expect(fingerprint('task-a')).not.toBe(fingerprint('task-b'));
  });
});
