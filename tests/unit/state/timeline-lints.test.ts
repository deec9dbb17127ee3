import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../lib/client/frames';
import { createIncrementalLinter } from '../../../lib/state/timeline-lints';

/**
 * The inspector's timeline lints, on the frames its tracking decorator reports for a 2025-11-25
 * HTTP session: the client's POSTed answer to the server's elicitation/create is its own
 * exchange, labelled with the method it answers. It is a legal JSON-RPC response, not a request
 * without a method: no ⚑ on it.
 */

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
  'mcp-session-id': 's-1',
};

function answerFrames(answer: Record<string, unknown>): Frame[] {
  const body = { jsonrpc: '2.0', id: 0, ...answer };
  const raw = JSON.stringify(body);
  const common = { connectionId: 'c1', exchangeId: 'c1:4', rpcId: 0, method: 'elicitation/create' };
  return [
    { ...common, seq: 10, at: 1000, direction: 'out', kind: 'http-request', headers: HEADERS, body, raw, bytes: raw.length },
    { ...common, seq: 11, at: 1002, direction: 'in', kind: 'http-response', httpStatus: 202, headers: {}, durationMs: 2, bytes: 0 },
  ];
}

function lintsOf(frames: Frame[]) {
  const linter = createIncrementalLinter();
  linter.observe(frames);
  return linter.drain(Infinity, true).get('c1:4');
}

describe('timeline lints on the client answer to a server request', () => {
  it('finds nothing wrong with a well-formed answer', () => {
    expect(lintsOf(answerFrames({ result: { action: 'accept', content: { name: 'Zed' } } }))).toEqual([]);
  });

  it('flags an answer that is not a valid response, at the field', () => {
    const lints = lintsOf(answerFrames({ result: { action: 'accept' }, error: { code: -1, message: 'x' } }));
    expect(lints?.map((l) => [l.id, l.path])).toEqual([['request-jsonrpc-invalid', 'request.body']]);
  });
});
