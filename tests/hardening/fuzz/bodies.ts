import fc from 'fast-check';

/**
 * Hostile request bodies: JSON-RPC and control-API shapes with every field of the wrong type,
 * keys named like Object.prototype members at every depth, malformed and truncated JSON,
 * batches, broken UTF-8, bodies 10,000 levels deep and bodies over the size limit.
 */

/** Keys that shadow or reach Object.prototype when code reads them from parsed data. */
export const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  'toJSON',
  'then',
  'length',
  'size',
] as const;

const FIELD_KEYS = [
  'jsonrpc',
  'id',
  'method',
  'params',
  'result',
  'error',
  'name',
  'arguments',
  '_meta',
  'taskId',
  'uri',
  'cursor',
  'requestState',
  'inputResponses',
  'io.modelcontextprotocol/protocolVersion',
  'io.modelcontextprotocol/clientCapabilities',
  'io.modelcontextprotocol/subscriptionId',
  'elicitation',
  'extensions',
  'io.modelcontextprotocol/tasks',
  'notifications',
  'taskIds',
  'text',
  'account',
  'amountCents',
  'idempotencyKey',
  'noteId',
  'size',
  'query',
  'workspaceUri',
  'path',
  'newId',
  'inputRequests',
  'url',
  'headers',
  'body',
  'command',
  'args',
  'env',
  'cwd',
  'protocolVersion',
  'capabilities',
  'clientInfo',
  'level',
  'ref',
  'argument',
  'requestId',
  'reason',
  'code',
  'message',
  'data',
] as const;

const METHODS = [
  'initialize',
  'notifications/initialized',
  'tools/call',
  'tools/list',
  'resources/read',
  'resources/list',
  'resources/templates/list',
  'prompts/get',
  'prompts/list',
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
  'tasks/list',
  'tasks/result',
  'subscriptions/listen',
  'completion/complete',
  'ping',
  'logging/setLevel',
  'server/discover',
  'notifications/cancelled',
  'notifications/progress',
  'elicitation/create',
  'sampling/createMessage',
  'roots/list',
  ...PROTO_KEYS,
] as const;

const key = fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.constantFrom(...FIELD_KEYS), fc.string({ maxLength: 8 }));

/** Objects that throw when code turns them into a string or a number (an own `toString` that is not a function). */
const POISONED = [
  { toString: {} },
  { toString: 1, valueOf: 1 },
  { length: { toString: {} } },
  { size: { valueOf: [], toString: [] } },
  [{ toString: 1 }],
  JSON.parse('{"__proto__":{"toString":1},"constructor":{"prototype":{"toString":1}}}'),
];

/** Any JSON value, with hostile keys at every depth and hostile values (a `length` or `toString` that is an object). */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -0, '', '2.0', '2026-07-28', '2025-11-25', 'echo', 'demo', ...PROTO_KEYS),
    fc.integer(),
    fc.string({ maxLength: 16 }),
    fc.constantFrom(...POISONED),
    fc.dictionary(key, tie('v'), { maxKeys: 5 }),
    fc.array(tie('v'), { maxLength: 4 }),
  ),
})).v;

const meta = fc.record(
  {
    'io.modelcontextprotocol/protocolVersion': fc.oneof(fc.constantFrom('2026-07-28', '2025-11-25'), hostileValue),
    'io.modelcontextprotocol/clientCapabilities': fc.oneof(
      fc.constant({ elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } }),
      hostileValue,
    ),
    progressToken: hostileValue,
  },
  { requiredKeys: [] },
);

const params = fc.record(
  {
    name: fc.oneof(fc.constantFrom('echo', 'charge', 'delete_note', 'generate_report', 'search_notes', 'workspace_read', ...PROTO_KEYS), hostileValue),
    arguments: fc.oneof(
      fc.record({ text: fc.oneof(fc.string(), hostileValue), account: hostileValue, amountCents: hostileValue }, { requiredKeys: [] }),
      hostileValue,
    ),
    taskId: fc.oneof(fc.constantFrom(...PROTO_KEYS), hostileValue),
    uri: fc.oneof(fc.constantFrom('note://note-1', 'file:///workspace/demo/README.md', ...PROTO_KEYS), hostileValue),
    _meta: fc.oneof(meta, hostileValue),
    notifications: hostileValue,
    requestState: hostileValue,
    inputResponses: hostileValue,
    protocolVersion: fc.oneof(fc.constantFrom('2025-11-25', '2025-06-18'), hostileValue),
    capabilities: hostileValue,
    clientInfo: hostileValue,
    requestId: hostileValue,
  },
  { requiredKeys: [] },
);

/** A JSON-RPC message with each field either right, wrong or missing, plus stray top-level keys. */
export const rpcObject = fc
  .tuple(
    fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), hostileValue),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), hostileValue),
        method: fc.oneof(fc.constantFrom(...METHODS), hostileValue),
        params: fc.oneof(params, hostileValue),
        result: hostileValue,
        error: hostileValue,
      },
      { requiredKeys: [] },
    ),
    fc.dictionary(fc.constantFrom(...PROTO_KEYS), hostileValue, { maxKeys: 3 }),
  )
  .map(([base, stray]) => ({ ...stray, ...base }));

/** Bodies the control API and the proxies read: scenario ids, task controls, proxy targets, spawn requests (of nothing runnable). */
const controlObject = fc.oneof(
  fc.record({ newId: fc.oneof(fc.constantFrom('copy-1', ...PROTO_KEYS), hostileValue) }, { requiredKeys: [] }),
  fc.record({ result: hostileValue, error: hostileValue, inputRequests: hostileValue }, { requiredKeys: [] }),
  fc.record(
    {
      url: fc.oneof(
        fc.constantFrom('http://127.0.0.1:1/mcp', 'http://localhost:9/x', 'ftp://127.0.0.1/', 'javascript:alert(1)', '', 'http://[::1]:1/'),
        hostileValue,
      ),
      method: fc.oneof(fc.constantFrom('POST', 'GET', 'DELETE', 'PUT'), hostileValue),
      headers: hostileValue,
      body: hostileValue,
    },
    { requiredKeys: [] },
  ),
  // Never a command that exists: the stdio proxy must refuse or fail to spawn, not run anything.
  fc.record(
    {
      command: fc.oneof(fc.constantFrom('/nonexistent/loupe-fuzz', '', ...PROTO_KEYS), hostileValue),
      args: hostileValue,
      env: hostileValue,
      cwd: hostileValue,
    },
    { requiredKeys: [] },
  ),
  fc.record({ name: hostileValue, recording: hostileValue, frames: hostileValue, version: hostileValue }, { requiredKeys: [] }),
);

const utf8 = (s: string) => Buffer.from(s, 'utf8');

/** `depth` levels of nesting inside an otherwise valid tools/call, built without recursion. */
export function deepBody(depth: number, open: '[' | '{"a":'): Buffer {
  const close = open === '[' ? ']' : '}';
  const head = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":';
  return utf8(`${head}${open.repeat(depth)}1${close.repeat(depth)}}}}`);
}

/** A valid JSON string body of `bytes` bytes (over the limit when asked to be). */
export function hugeBody(bytes: number): Buffer {
  const head = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"';
  const tail = '"}}}';
  return Buffer.concat([utf8(head), Buffer.alloc(Math.max(0, bytes - head.length - tail.length), 0x61), utf8(tail)]);
}

/** Bytes that are not UTF-8 inside an otherwise valid JSON string. */
const brokenUtf8 = fc.tuple(rpcObject, fc.constantFrom([0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x00])).map(([o, bad]) => {
  const text = JSON.stringify({ ...o, params: { name: 'echo', arguments: { text: 'x' } } });
  const at = text.indexOf('"x"') + 1;
  return Buffer.concat([utf8(text.slice(0, at)), Buffer.from(bad), utf8(text.slice(at))]);
});

/** Every body shape, weighted so the expensive ones (huge, deep) stay rare. */
export function bodyArb(limitBytes: number): fc.Arbitrary<Buffer | undefined> {
  const json = (v: unknown) => utf8(JSON.stringify(v) ?? 'null');
  return fc.oneof(
    { arbitrary: rpcObject.map(json), weight: 30 },
    { arbitrary: controlObject.map(json), weight: 12 },
    { arbitrary: hostileValue.map(json), weight: 8 },
    { arbitrary: fc.array(fc.oneof(rpcObject, hostileValue), { maxLength: 4 }).map(json), weight: 5 },
    {
      arbitrary: fc.tuple(rpcObject, fc.nat()).map(([o, n]) => {
        const t = JSON.stringify(o);
        return utf8(t.slice(0, n % Math.max(1, t.length)));
      }),
      weight: 6,
    },
    { arbitrary: fc.string({ maxLength: 64 }).map(utf8), weight: 4 },
    { arbitrary: fc.uint8Array({ maxLength: 128 }).map((b) => Buffer.from(b)), weight: 4 },
    { arbitrary: brokenUtf8, weight: 5 },
    { arbitrary: fc.constantFrom('[', '{"a":').map((o) => deepBody(10_000, o)), weight: 2 },
    { arbitrary: fc.constant(undefined), weight: 3 },
    { arbitrary: fc.constant(0).map(() => hugeBody(limitBytes + 1)), weight: 1 },
  );
}
