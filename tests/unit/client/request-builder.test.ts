import { describe, expect, it } from 'vitest';
import { buildRequest, filterTools, withTasksExtension } from '../../../lib/client/request-builder';
import { createClientSession } from '../../../lib/client/session';
import { createMemoryTransport } from '../../../lib/client/memory-transport';
import { decodeHeaderValue, scanHeaderBindings, type Tool } from '../../../lib/protocol';

/** The request builder: per-request _meta, the standard headers, Mcp-Param-* and tool dropping. */

const TASKS = 'io.modelcontextprotocol/tasks';

const headerTool: Tool = {
  name: 'deploy',
  inputSchema: {
    type: 'object',
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      priority: { type: 'integer', 'x-mcp-header': 'Priority' },
      dryRun: { type: 'boolean', 'x-mcp-header': 'DryRun' },
      note: { type: 'string' },
      target: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
    },
  },
};

function call(args: Record<string, unknown>) {
  const scan = scanHeaderBindings(headerTool.inputSchema);
  if (!scan.ok) throw new Error(scan.reason);
  return buildRequest({
    id: 7,
    method: 'tools/call',
    params: { name: 'deploy', arguments: args },
    era: 'modern',
    protocolVersion: '2026-07-28',
    capabilities: {},
    bindings: scan.bindings,
  });
}

describe('buildRequest (2026-07-28)', () => {
  it('puts version, capabilities, clientInfo, progressToken and logLevel in _meta and keeps caller _meta keys', () => {
    const { message, headers } = buildRequest({
      id: 'a',
      method: 'tools/list',
      params: { cursor: 'c1', _meta: { 'io.modelcontextprotocol/ui': { x: 1 }, traceparent: 't' } },
      era: 'modern',
      protocolVersion: '2026-07-28',
      capabilities: withTasksExtension({ elicitation: { form: {} } }),
      clientInfo: { name: 'loupe', version: '1' },
      progressToken: 'p1',
      logLevel: 'debug',
    });
    expect(message).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      method: 'tools/list',
      params: {
        cursor: 'c1',
        _meta: {
          'io.modelcontextprotocol/ui': { x: 1 },
          traceparent: 't',
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, extensions: { [TASKS]: {} } },
          'io.modelcontextprotocol/clientInfo': { name: 'loupe', version: '1' },
          'io.modelcontextprotocol/logLevel': 'debug',
          progressToken: 'p1',
        },
      },
    });
    expect(headers['MCP-Protocol-Version']).toBe('2026-07-28');
    expect(headers['Mcp-Method']).toBe('tools/list');
    expect(headers.Accept).toBe('application/json, text/event-stream');
    expect(Object.keys(headers).map((h) => h.toLowerCase())).not.toContain('last-event-id');
    expect(headers['Mcp-Name']).toBeUndefined();
  });

  it('mirrors the name, uri or taskId into Mcp-Name', () => {
    const h = (method: string, params: Record<string, unknown>) =>
      buildRequest({ id: 1, method, params, era: 'modern', protocolVersion: '2026-07-28' }).headers['Mcp-Name'];
    expect(h('tools/call', { name: 'my-hyphenated-tool' })).toBe('my-hyphenated-tool');
    expect(h('prompts/get', { name: 'summarize' })).toBe('summarize');
    expect(h('resources/read', { uri: 'file:///path/to/file%20name.txt' })).toBe('file:///path/to/file%20name.txt');
    expect(h('tasks/get', { taskId: 'T-1' })).toBe('T-1');
    expect(h('tasks/cancel', { taskId: 'T-1' })).toBe('T-1');
    expect(h('tools/call', { name: 'café' })).toBe(`=?base64?${Buffer.from('café').toString('base64')}?=`);
  });

  it('mirrors x-mcp-header arguments into Mcp-Param-* with the base64 sentinel where needed', () => {
    const plain = call({ region: 'us west 1', priority: 42, dryRun: false, note: 'not mirrored', target: { zone: 'z9' } }).headers;
    expect(plain['Mcp-Param-Region']).toBe('us west 1');
    expect(plain['Mcp-Param-Priority']).toBe('42');
    expect(plain['Mcp-Param-DryRun']).toBe('false');
    expect(plain['Mcp-Param-Zone']).toBe('z9');
    expect(Object.keys(plain).filter((k) => k.startsWith('Mcp-Param-'))).toHaveLength(4);

    const cases: [string, boolean][] = [
      ['Hello, 世界', true],
      [' padded ', true],
      [' us-west1', true],
      ['us-west1 ', true],
      ['line1\nline2', true],
      ['line1\r\nline2', true],
      ['\tindented', true],
      ['=?base64?aGk=?=', true], // a literal that looks like the sentinel must be wrapped too
      ['', false],
      ['test-method', false],
    ];
    for (const [value, wrapped] of cases) {
      const sent = call({ region: value }).headers['Mcp-Param-Region'];
      expect(sent.startsWith('=?base64?'), JSON.stringify(value)).toBe(wrapped);
      expect(decodeHeaderValue(sent)).toEqual({ ok: true, value });
      expect(sent).toMatch(/^[\x20-\x7e]*$/);
    }
  });

  it('omits Mcp-Param-* for null, absent and non-integer values', () => {
    const h = call({ region: null, priority: 1.5 }).headers;
    expect(h['Mcp-Param-Region']).toBeUndefined();
    expect(h['Mcp-Param-Priority']).toBeUndefined();
    expect(h['Mcp-Param-DryRun']).toBeUndefined();
  });

  it('builds the 2025-11-25 form: no per-request capabilities, the session id, no version header on initialize', () => {
    const init = buildRequest({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25' },
      era: 'legacy',
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: {} },
    });
    expect(init.headers['MCP-Protocol-Version']).toBeUndefined();
    expect(init.message.params).toEqual({ protocolVersion: '2025-11-25' });
    const get = buildRequest({
      id: 2,
      method: 'tasks/get',
      params: { taskId: 't' },
      era: 'legacy',
      protocolVersion: '2025-11-25',
      sessionId: 's-1',
      capabilities: { elicitation: {} },
    });
    expect(get.headers).toMatchObject({ 'MCP-Protocol-Version': '2025-11-25', 'Mcp-Session-Id': 's-1' });
    expect(get.headers['Mcp-Method']).toBeUndefined();
    expect(get.message.params).toEqual({ taskId: 't' });
  });
});

describe('filterTools', () => {
  const tool = (name: string, properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    name,
    inputSchema: { type: 'object', properties, ...extra },
  });
  const invalid = [
    tool('empty', { v: { type: 'string', 'x-mcp-header': '' } }),
    tool('space', { v: { type: 'string', 'x-mcp-header': 'My Region' } }),
    tool('colon', { v: { type: 'string', 'x-mcp-header': 'Region:Primary' } }),
    tool('non_ascii', { v: { type: 'string', 'x-mcp-header': 'Région' } }),
    tool('control', { v: { type: 'string', 'x-mcp-header': 'Region\t1' } }),
    tool('object', { v: { type: 'object', 'x-mcp-header': 'Data' } }),
    tool('array', { v: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'Items' } }),
    tool('null', { v: { type: 'null', 'x-mcp-header': 'Nil' } }),
    tool('number', { v: { type: 'number', 'x-mcp-header': 'Score' } }),
    tool('dup_same', { a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'Region' } }),
    tool('dup_case', { a: { type: 'string', 'x-mcp-header': 'MyField' }, b: { type: 'string', 'x-mcp-header': 'myfield' } }),
    tool('under_items', { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }),
    tool('under_oneof', {}, { oneOf: [{ properties: { v: { type: 'string', 'x-mcp-header': 'V' } } }] }),
  ];
  const fixture = {
    name: 'rich',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { $anchor: 'addr', type: 'object' } },
      properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, profile: { $ref: 'http://127.0.0.1:9/canary.json' } },
      additionalProperties: false,
      allOf: [{ anyOf: [{ required: ['region'] }] }],
      if: { properties: { region: { const: 'x' } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keyword, not a thenable
      then: {},
      else: {},
    },
  };

  it('drops every tool with an invalid x-mcp-header annotation and keeps the valid ones', () => {
    const r = filterTools([...invalid, fixture, headerTool]);
    expect(r.dropped.map((d) => d.name)).toEqual(invalid.map((t) => t.name));
    for (const d of r.dropped) expect(d.reason).toMatch(/x-mcp-header/);
    expect(r.tools.map((t) => t.name)).toEqual(['rich', 'deploy']);
    expect(r.bindings.get('rich')).toEqual([{ header: 'Region', path: ['region'], type: 'string' }]);
  });

  it('keeps input schemas verbatim: every JSON Schema 2020-12 keyword survives and no $ref is followed', () => {
    const before = JSON.stringify(fixture);
    const r = filterTools([fixture]);
    expect(r.tools[0]).toBe(fixture);
    expect(JSON.stringify(r.tools[0])).toBe(before);
  });

  it('makes the session drop them from tools/list with a warning and refuse to call them', async () => {
    const sent: string[] = [];
    const target = {
      async fetch(req: Request) {
        const body = (await req.json()) as { id: number; method: string; params?: { name?: string } };
        sent.push(body.params?.name ? `${body.method} ${body.params.name}` : body.method);
        const result =
          body.method === 'tools/list'
            ? { resultType: 'complete', ttlMs: 0, cacheScope: 'private', tools: [...invalid, headerTool] }
            : { resultType: 'complete', content: [] };
        return Response.json({ jsonrpc: '2.0', id: body.id, result });
      },
    };
    const warnings: string[] = [];
    const s = createClientSession({ transport: createMemoryTransport(target), era: 'modern', onWarning: (w) => warnings.push(w) });
    const listed = await s.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(['deploy']);
    expect(warnings).toHaveLength(invalid.length);
    expect(warnings[0]).toContain('Dropped tool "empty"');
    const refused = await s.callTool('space', { v: 'x' });
    expect(refused).toMatchObject({ type: 'failure', reason: 'local' });
    expect(await s.callTool('deploy', { region: 'eu' })).toMatchObject({ type: 'complete' });
    expect(sent).toEqual(['tools/list', 'tools/call deploy']);
  });
});
