import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../lib/client/frames';
import { createTimelineBuffer } from '../../../lib/state/timeline-buffer';
import { createRowGrouper } from '../../../lib/state/timeline-rows';
import { panWindow, zoomWindow } from '../../../lib/state/timeline-window';

/** An exchange's three frames: the POST, the response head, the JSON answer. */
function exchange(n: number, at: number): Frame[] {
  const base = { connectionId: 'c', exchangeId: `c:${n}`, rpcId: n, method: 'tools/list' };
  const body = { jsonrpc: '2.0', id: n, result: { resultType: 'complete', tools: [] } };
  return [
    { ...base, seq: 3 * n, at, direction: 'out', kind: 'http-request', body: { jsonrpc: '2.0', id: n, method: 'tools/list' }, bytes: 40 },
    { ...base, seq: 3 * n + 1, at: at + 5, direction: 'in', kind: 'http-response', httpStatus: 200, headers: { 'content-type': 'application/json' }, bytes: 0 },
    { ...base, seq: 3 * n + 2, at: at + 9, direction: 'in', kind: 'message', body, raw: JSON.stringify(body), bytes: 48 },
  ] as Frame[];
}

describe('timeline rows', () => {
  it('makes one row per exchange that stands for its answer, unfolds into its frames, and grows with new frames', () => {
    const buffer = createTimelineBuffer();
    buffer.push([...exchange(0, 1000), ...exchange(1, 2000)]);
    const group = createRowGrouper();
    let ids = buffer.ids();
    const rows = group(buffer, ids, true, new Set());
    expect(rows.length).toBe(2);
    expect(rows.at(0)).toMatchObject({ key: 'x:c:0', id: 2, first: 0, exchange: { frames: 3, expanded: false } });
    // Any frame of a folded exchange is found on its row.
    expect([0, 1, 2, 3].map((id) => rows.indexOf(id))).toEqual([0, 0, 0, 1]);
    const span = buffer.span('exchange:c:0');
    expect(span).toMatchObject({ httpStatus: 200, status: 'complete', bytes: 88, open: false, startAt: 1000, endAt: 1009 });

    const open = group(buffer, ids, true, new Set(['c:0']));
    expect(open.length).toBe(5);
    expect([0, 1, 2, 3, 4].map((i) => open.at(i)?.key)).toEqual(['x:c:0', 'f:0', 'f:1', 'f:2', 'x:c:1']);
    expect([0, 1, 2, 3].map((id) => open.indexOf(id))).toEqual([1, 2, 0, 4]);

    buffer.push(exchange(2, 3000));
    ids = buffer.ids();
    const grown = group(buffer, ids, true, new Set(['c:0']));
    expect(grown.length).toBe(6);
    expect(grown.at(5)?.key).toBe('x:c:2');
    expect(group(buffer, ids, false, new Set()).length).toBe(9);
  });

  it('ends an authorization note (one frame: a challenge read, consent, the callback) at once, not pending for ever', () => {
    const buffer = createTimelineBuffer();
    buffer.push([
      {
        connectionId: 'c',
        exchangeId: 'auth:3',
        seq: 0,
        at: 5000,
        direction: 'in',
        kind: 'message',
        lane: 'auth',
        auth: { step: 'callback', rule: 'authorization-code', checks: [] },
        bytes: 0,
      },
    ] as unknown as Frame[]);
    expect(buffer.span('exchange:auth:3')).toMatchObject({ open: false, startAt: 5000, endAt: 5000 });
  });

  it('ends an exchange whose plain HTTP answer is not JSON-RPC (a 405 page) or is empty (a bare 401), instead of showing it pending for ever', () => {
    const buffer = createTimelineBuffer();
    const base = { connectionId: 'c', exchangeId: 'c:7', rpcId: 7, method: 'server/discover' };
    buffer.push([
      { ...base, seq: 0, at: 1000, direction: 'out', kind: 'http-request', body: { jsonrpc: '2.0', id: 7, method: 'server/discover' }, bytes: 40 },
      { ...base, seq: 1, at: 1004, direction: 'in', kind: 'http-response', httpStatus: 405, headers: { 'content-type': 'text/plain' }, bytes: 0 },
      { ...base, seq: 2, at: 1006, direction: 'in', kind: 'message', raw: 'Method Not Allowed', errorText: 'not JSON: Unexpected token', bytes: 18 },
    ] as Frame[]);
    expect(buffer.span('exchange:c:7')).toMatchObject({ httpStatus: 405, status: 'not JSON-RPC', open: false, endAt: 1006 });
    // No body at all: a 401 that carries only its WWW-Authenticate.
    buffer.push([
      {
        ...base,
        exchangeId: 'c:8',
        seq: 3,
        at: 2000,
        direction: 'out',
        kind: 'http-request',
        body: { jsonrpc: '2.0', id: 8, method: 'server/discover' },
        bytes: 40,
      },
      {
        ...base,
        exchangeId: 'c:8',
        seq: 4,
        at: 2003,
        direction: 'in',
        kind: 'http-response',
        httpStatus: 401,
        headers: { 'www-authenticate': 'Bearer', 'content-length': '0' },
        bytes: 0,
      },
    ] as Frame[]);
    expect(buffer.span('exchange:c:8')).toMatchObject({ httpStatus: 401, open: false, endAt: 2003 });
  });

  it('zooms around an anchor and pans by a share of the window', () => {
    const w = { from: 0, to: 1000 };
    expect(zoomWindow(w, 0.5)).toEqual({ from: 250, to: 750 });
    expect(zoomWindow(w, 0.5, 0)).toEqual({ from: 0, to: 500 });
    expect(zoomWindow(w, 2, 1)).toEqual({ from: -1000, to: 1000 });
    expect(panWindow(w, 0.25)).toEqual({ from: 250, to: 1250 });
  });
});
