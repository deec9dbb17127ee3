import { describe, expect, it } from 'vitest';
import { parseFaultsFile } from '../../../lib/scenario/tap-faults';
import { createTapFaults } from '../../../lib/server/tap-faults';
import { createStreamDamage, faultReply } from '../../../lib/server/tap-http-faults';
import { createTapRegistry } from '../../../lib/server/tap-registry';
import { createStdioFaultRelay } from '../../../lib/server/tap-stdio-faults';
import { createTapObserver } from '../../../lib/recording/tap-frames';

/** The tap's faults: the file format, matching through the switches, and what each does to an SSE stream. */

const note = (n: number) => `data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":${n}}}\n\n`;
const result = 'data: {"jsonrpc":"2.0","id":1,"result":{}}\n\n';
const call = (tool: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: {} } });

describe('faults file', () => {
  it('reads a list or { seed, faults } in YAML, switched on, ids from names or kinds', () => {
    const parsed = parseFaultsFile(
      'seed: 7\nfaults:\n  - name: slow\n    action: { kind: latency, ms: 5 }\n  - action: { kind: http-status, status: 503, retryAfter: 2 }\n',
    );
    expect(parsed).toMatchObject({
      ok: true,
      seed: 7,
      entries: [
        { id: 'slow', enabled: true },
        { id: 'http-status-2', enabled: true },
      ],
    });
    expect(parseFaultsFile('- action: { kind: drop, afterEvents: 1 }')).toMatchObject({ ok: true, entries: [{ id: 'drop-1' }] });
  });

  it('names the field that is wrong', () => {
    const parsed = parseFaultsFile('- action: { kind: http-status, status: 99 }');
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatch(/^0\.action\.status: /);
    expect(parseFaultsFile('- action: { kind: explode }')).toMatchObject({ ok: false, error: expect.stringContaining('kind') });
    // A tap has no instance to take down or make lag.
    expect(parseFaultsFile('- action: { kind: instance-down, ms: 1000 }')).toMatchObject({ ok: false, error: expect.stringContaining('a tap cannot apply') });
  });
});

describe('fault switches', () => {
  it('fire on matching requests only while switched on, and restart their counts when switched', () => {
    const faults = createTapFaults([
      { id: 'second-call', enabled: true, fault: { match: { tool: 'charge', nth: 2 }, action: { kind: 'http-status', status: 503 } } },
    ]);
    expect(faults.active()).toBe(true);
    expect(faults.plan(call('charge'))).toBeUndefined();
    expect(faults.plan(call('other'))).toBeUndefined();
    expect(faults.plan(call('charge'))).toMatchObject({ names: ['second-call'], reply: { status: 503 } });
    expect(faults.plan('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toBeUndefined();
    faults.set(faults.entries().map((e) => ({ ...e, enabled: false })));
    expect(faults.active()).toBe(false);
    expect(faults.plan(call('charge'))).toBeUndefined();
  });

  it('answer a 503 with Retry-After, or a JSON-RPC error with the request id', () => {
    expect(faultReply({ kind: 'http-status', status: 503, retryAfter: 3 }, 1)).toMatchObject({ status: 503, headers: { 'retry-after': '3' } });
    const rpc = faultReply({ kind: 'rpc-error', code: -32603, message: 'boom' }, 'a');
    expect(JSON.parse(rpc.body)).toEqual({ jsonrpc: '2.0', id: 'a', error: { code: -32603, message: 'boom' } });
  });
});

describe('stream damage', () => {
  it('cuts the stream after N events', () => {
    const d = createStreamDamage([{ kind: 'drop', afterEvents: 1 }]);
    expect(d.write(note(1) + note(2) + result)).toBe(note(1));
    expect(d.state).toBe('cut');
  });

  it('stalls after N events, relaying nothing more', () => {
    const d = createStreamDamage([{ kind: 'stall', afterEvents: 2 }]);
    expect(d.write(note(1) + note(2))).toBe(note(1) + note(2));
    expect(d.write(result)).toBe('');
    expect(d.state).toBe('stalled');
  });

  it('slips in one frame that is not JSON, sends notifications twice, and keeps events split across chunks whole', () => {
    const d = createStreamDamage([{ kind: 'garbage', afterEvents: 1 }, { kind: 'duplicate' }]);
    const text = note(1) + result;
    const out = d.write(text.slice(0, 20)) + d.write(text.slice(20));
    expect(out).toBe(`${note(1)}${note(1)}data: {"jsonrpc":"2.0","id":\n\n${result}`);
    expect(d.state).toBe('flowing');
  });
});

describe('tap registry', () => {
  it('keeps the newest frames within its budget and tells followers', () => {
    const taps = createTapRegistry({ maxBytesPerTap: 10 * 300 });
    const tap = taps.register({ target: 'http://x/mcp', transport: 'http', faults: [] }, []);
    const seen: string[] = [];
    taps.follow(tap.id, (e) => seen.push(e.type));
    const frame = (seq: number) => ({ seq, at: seq, connectionId: 'c', direction: 'in' as const, kind: 'message' as const, exchangeId: 'x', bytes: 10 });
    taps.push(
      tap.id,
      Array.from({ length: 20 }, (_, i) => frame(i)),
    );
    taps.end(tap.id);
    const got = taps.get(tap.id)!;
    expect(got.info).toMatchObject({ frames: 20, endedAt: expect.any(Number) });
    expect(got.frames.length).toBeLessThan(20);
    expect(got.frames.at(-1)?.seq).toBe(19);
    expect(seen).toEqual(['frames', 'end']);
    expect(taps.push('tap-unknown', [])).toBe(false);
  });
});

describe('stdio faults', () => {
  it('switch to lines at a boundary: garbage before the request goes on, notifications twice until the response, then raw again', async () => {
    const faults = createTapFaults([
      { id: 'noisy', enabled: true, fault: { match: { method: 'tools/call' }, action: { kind: 'garbage', afterEvents: 0 } } },
      { id: 'twice', enabled: true, fault: { match: { method: 'tools/call' }, action: { kind: 'duplicate' } } },
    ]);
    const marks: string[] = [];
    const observed: string[] = [];
    const toServer: string[] = [];
    let toClient = '';
    const observer = { ...createTapObserver({ sink: () => {} }), fault: (t: string) => marks.push(t), fromServer: (l: string) => observed.push(l) };
    const relay = createStdioFaultRelay(faults, observer, { toServer: (b) => toServer.push(String(b)), toClient: (b) => (toClient += String(b)) });
    const request = `${call('x')}\n`;
    relay.fromClient(Buffer.from(request.slice(0, 10)));
    relay.fromClient(Buffer.from(request.slice(10)));
    await expect.poll(() => toServer.join('')).toBe(request);
    expect(marks).toEqual(['noisy, twice']);
    const progress = '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n';
    const answer = '{"jsonrpc":"2.0","id":1,"result":{}}\n';
    relay.fromServer(Buffer.from(progress + answer));
    expect(toClient).toBe(`{"jsonrpc":"2.0","id":\n${progress}${progress}${answer}`);
    expect(observed).toEqual(['{"jsonrpc":"2.0","id":', progress.trim()]);
    faults.set([]);
    relay.fromServer(Buffer.from('{"partial":'));
    expect(toClient.endsWith('{"partial":')).toBe(true);
  });
});
