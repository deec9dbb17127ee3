import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../lib/client/frames';
import { lintFrames } from '../../../lib/client/lint-frames';
import { createRecorder } from '../../../lib/recording/recorder';
import { createTapObserver } from '../../../lib/recording/tap-frames';
import { buildSessionReport } from '../../../lib/recording/tap-report';

/**
 * The tap's report on the shapes a correct 2025-11-25 client sends besides requests (its POSTed
 * answer to a server request, its GET for the server's stream) stays silent; over stdio, a
 * server line that is not JSON and a response whose id answers no pending request fail it,
 * under stdio's own rules (a stdio pipe has no SSE frames).
 */

const line = (m: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', ...m });
const LEGACY = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
  'mcp-session-id': 's-1',
};

function observe() {
  const frames: Frame[] = [];
  let t = 1000;
  const observer = createTapObserver({ sink: (f) => frames.push(f), connectionId: 'tap', now: () => t++ });
  return { frames, observer };
}

function report(frames: Frame[], target: string) {
  const recorder = createRecorder({ connection: { target, headerNames: [] } });
  for (const f of frames) recorder.sink(f);
  return buildSessionReport(recorder.build());
}

const findings = (frames: Frame[]) => [...lintFrames(frames).values()].flat();

describe('tap report on a 2025-11-25 HTTP client', () => {
  it('passes the client POSTing its answer to elicitation/create (202, no body)', () => {
    const { frames, observer } = observe();
    const call = observer.http();
    call.request('POST', { ...LEGACY, 'mcp-method': 'tools/call' }, line({ id: 3, method: 'tools/call', params: { name: 'ask', arguments: {} } }));
    call.response(200, { 'content-type': 'text/event-stream' });
    call.chunk(`data: ${line({ id: 0, method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object', properties: {} } } })}\n\n`);
    const answer = observer.http();
    answer.request('POST', LEGACY, line({ id: 0, result: { action: 'accept', content: { name: 'Tapper' } } }));
    answer.response(202, {});
    answer.end('done');
    call.chunk(`data: ${line({ id: 3, result: { content: [{ type: 'text', text: 'hi Tapper' }] } })}\n\n`);
    call.end('done');
    expect(findings(frames)).toEqual([]);
    expect(report(frames, 'http://h/mcp').summary.errors).toBe(0);
  });

  it('passes the GET for the server stream (no body by design), and still flags a malformed answer', () => {
    const { frames, observer } = observe();
    const get = observer.http();
    get.request('GET', { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': 's-1' }, '');
    get.response(200, { 'content-type': 'text/event-stream' });
    get.chunk(`data: ${line({ id: 1, method: 'roots/list' })}\n\ndata: ${line({ method: 'notifications/message', params: { level: 'info', data: 'x' } })}\n\n`);
    get.end('client-closed');
    expect(findings(frames)).toEqual([]);
    const bad = observer.http();
    bad.request('POST', LEGACY, line({ id: 1, result: 'not an object' }));
    bad.response(202, {});
    bad.end('done');
    expect(findings(frames).map((l) => [l.id, l.path])).toEqual([['request-jsonrpc-invalid', 'request.body.result']]);
  });
});

describe('tap report over stdio', () => {
  const session = (serverLine: string) => {
    const { frames, observer } = observe();
    observer.fromClient(
      line({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }),
    );
    observer.fromServer(line({ id: 1, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } }));
    observer.fromClient(line({ id: 2, method: 'tools/call', params: { name: 'x', arguments: {} } }));
    observer.fromServer(serverLine);
    return frames;
  };

  it('fails a server line that is not JSON, naming the line', () => {
    const frames = session('{"jsonrpc":"2.0","id":2,"result":{"content":[');
    const lints = findings(frames);
    expect(lints.map((l) => [l.id, l.severity, l.specRef])).toEqual([['stdio-line-invalid', 'error', 'basic/transports#stdio']]);
    expect(lints[0]!.message).toContain('not JSON: "{\\"jsonrpc\\":\\"2.0\\",\\"id\\":2');
    expect(report(frames, 'node server.mjs').summary.errors).toBe(1);
  });

  it('fails a response whose id answers no pending request as a response-id mismatch, not as an SSE frame', () => {
    const frames = session(line({ id: 9999, result: { content: [] } }));
    const lints = findings(frames);
    expect(lints.map((l) => [l.id, l.specRef, l.path])).toEqual([['response-id-mismatch', 'basic/index#responses', 'frames[0].id']]);
    expect(lints[0]!.message).toContain('id 9999, which answers no pending request');
  });

  it('fails a banner written before any request', () => {
    const { frames, observer } = observe();
    observer.fromServer('Server starting up... (this is not JSON)');
    expect(findings(frames).map((l) => l.id)).toEqual(['stdio-line-invalid']);
  });
});
