import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../lib/client/frames';
import { lintFrames } from '../../../lib/client/lint-frames';
import { createRecorder } from '../../../lib/recording/recorder';
import { createTapObserver } from '../../../lib/recording/tap-frames';
import { buildSessionReport, reportToJUnit } from '../../../lib/recording/tap-report';

/** What the taps report, as frames: stdio lines grouped into exchanges, HTTP bodies and SSE events. */

const line = (m: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', ...m });

function observe() {
  const frames: Frame[] = [];
  let t = 1000;
  const observer = createTapObserver({ sink: (f) => frames.push(f), connectionId: 'tap', now: () => t++ });
  return { frames, observer };
}

describe('tap frames over stdio', () => {
  it('groups each request with its answer, and a server request with the client answer to it', () => {
    const { frames, observer } = observe();
    observer.fromClient(
      line({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }),
    );
    observer.fromServer(line({ id: 1, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } }));
    observer.fromClient(line({ method: 'notifications/initialized' }));
    observer.fromClient(line({ id: 2, method: 'tools/call', params: { name: 'delete', arguments: {} } }));
    observer.fromServer(line({ id: 'e1', method: 'elicitation/create', params: { message: 'sure?', requestedSchema: { type: 'object', properties: {} } } }));
    observer.fromClient(line({ id: 'e1', result: { action: 'accept', content: {} } }));
    observer.fromServer(line({ id: 2, result: { content: [] } }));
    observer.fromServer('not json at all');
    expect(frames.map((f) => [f.direction, f.exchangeId, f.method ?? null])).toEqual([
      ['out', 'tap:1', 'initialize'],
      ['in', 'tap:1', 'initialize'],
      ['out', 'tap:2', 'notifications/initialized'],
      ['out', 'tap:3', 'tools/call'],
      ['in', 'tap:3', 'elicitation/create'],
      ['out', 'tap:3', null],
      ['in', 'tap:3', 'tools/call'],
      ['in', 'tap:4', null],
    ]);
    expect(frames.at(-1)).toMatchObject({ raw: 'not json at all', errorText: expect.stringContaining('not JSON') });
    expect(frames.every((f, i) => f.seq === i && f.kind === 'message')).toBe(true);
  });

  it('lints a 2025-11-25 stdio session as 2025-11-25 after initialize (no 2026-07-28 _meta demanded)', () => {
    const { frames, observer } = observe();
    observer.fromClient(
      line({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }),
    );
    observer.fromServer(line({ id: 1, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } }));
    observer.fromClient(line({ id: 2, method: 'tools/list' }));
    observer.fromServer(line({ id: 2, result: { tools: [] } }));
    const ids = [...lintFrames(frames).values()].flat().map((l) => l.id);
    expect(ids).not.toContain('meta-required-missing');
    expect(ids).not.toContain('result-type-missing');
  });
});

describe('fault marks', () => {
  const session = (fault: boolean) => {
    const { frames, observer } = observe();
    observer.fromClient(line({ id: 2, method: 'tools/call', params: { name: 'charge', arguments: {} } }));
    if (fault)
      observer.fault([
        { rule: 'http-503', kind: 'http-status', note: 'no stdio form: not applied' },
        { rule: 'bad-answer', kind: 'rpc-error' },
      ]);
    // A 2026-07-28 result without resultType: a server rule, unless the tap wrote it.
    observer.fromServer(line({ id: 2, result: { content: [] } }));
    return frames;
  };

  it('are fault frames naming the kind, the rule and the request they hit, on its exchange', () => {
    const frames = session(true);
    expect(frames.filter((f) => f.kind === 'fault').map((f) => [f.exchangeId, f.method, f.fault])).toEqual([
      ['tap:1', 'tools/call', { rule: 'http-503', kind: 'http-status', note: 'no stdio form: not applied', request: 'tools/call charge' }],
      ['tap:1', 'tools/call', { rule: 'bad-answer', kind: 'rpc-error', request: 'tools/call charge' }],
    ]);
  });

  it('spare the server the rules it broke only where the tap damaged its answer, and survive a recording', () => {
    const server = (frames: Frame[]) => (lintFrames(frames).get('tap:1') ?? []).map((l) => l.id);
    expect(server(session(false))).toContain('result-type-missing');
    expect(server(session(true))).not.toContain('result-type-missing');
    const recorder = createRecorder({ connection: { target: 'stdio', headerNames: [] }, frames: session(true) });
    const report = buildSessionReport(recorder.build());
    expect(report.rules.filter((r) => r.failed).map((r) => r.id)).not.toContain('result-type-missing');
    expect(recorder.build().frames.filter((f) => f.kind === 'fault')).toHaveLength(2);
  });
});

describe('tap frames over HTTP', () => {
  it('parses an SSE answer event by event across chunk boundaries and closes the stream complete', () => {
    const { frames, observer } = observe();
    const x = observer.http();
    x.request('POST', { 'content-type': 'application/json' }, line({ id: 7, method: 'tools/call', params: { name: 'echo' } }));
    x.response(200, { 'content-type': 'text/event-stream' });
    x.chunk(': keep-alive\n\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n');
    x.chunk('\ndata: {"jsonrpc":"2.0","id":7,"res');
    x.chunk('ult":{"content":[]}}\n\n');
    x.end('done');
    expect(frames.map((f) => f.kind)).toEqual(['http-request', 'http-response', 'sse-open', 'sse-comment', 'sse-frame', 'sse-frame', 'sse-close']);
    expect(frames.at(-1)).toMatchObject({ closeReason: 'complete', streamId: frames[0]!.exchangeId });
    expect(frames[5]).toMatchObject({ rpcId: 7, body: { id: 7, result: { content: [] } } });
  });

  it('records a JSON answer as one message, and an upstream failure as an error', () => {
    const { frames, observer } = observe();
    const ok = observer.http();
    ok.request('POST', {}, line({ id: 1, method: 'tools/list' }));
    ok.response(200, { 'content-type': 'application/json' });
    ok.chunk('{"jsonrpc":"2.0","id":1,');
    ok.chunk('"result":{"tools":[]}}');
    ok.end('done');
    const failed = observer.http();
    failed.request('POST', {}, line({ id: 2, method: 'tools/list' }));
    failed.end('upstream-failed', 'connect ECONNREFUSED');
    expect(frames.map((f) => [f.exchangeId, f.kind])).toEqual([
      ['tap:1', 'http-request'],
      ['tap:1', 'http-response'],
      ['tap:1', 'message'],
      ['tap:2', 'http-request'],
      ['tap:2', 'error'],
    ]);
    expect(frames[2]).toMatchObject({ body: { id: 1, result: { tools: [] } } });
    expect(frames[4]).toMatchObject({ errorText: 'connect ECONNREFUSED' });
  });
});

describe('tap report', () => {
  it('fails the rule a server broke, under the server suite, and escapes the text for XML', () => {
    const { frames, observer } = observe();
    const x = observer.http();
    x.request(
      'POST',
      { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      line({
        id: 1,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
    );
    x.response(200, { 'content-type': 'application/json' });
    x.chunk(line({ id: 1, result: { tools: [] } }));
    x.end('done');
    const recorder = createRecorder({ connection: { target: 'http://h/mcp?a=<&>', headerNames: [] } });
    for (const f of frames) recorder.sink(f);
    const report = buildSessionReport(recorder.build());
    const failed = report.rules.filter((r) => r.failed);
    expect(failed.map((r) => [r.id, r.party])).toContainEqual(['result-type-missing', 'server']);
    expect(failed.every((r) => r.findings.some((f) => f.severity === 'error'))).toBe(true);
    expect(report.rules.find((r) => r.id === 'response-id-mismatch')).toMatchObject({ failed: false, findings: [] });
    expect(report.summary.failedRules).toBe(failed.length);
    const xml = reportToJUnit(report);
    expect(xml).toContain('name="server (http://h/mcp?a=&lt;&amp;&gt;)"');
    expect(xml).toMatch(/<testcase classname="mcp-loupe.server" name="result-type-missing: [^"]*">\s*<failure type="result-type-missing"/);
  });
});
