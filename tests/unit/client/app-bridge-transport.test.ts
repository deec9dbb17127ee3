import { describe, expect, it } from 'vitest';
import { createBridgeTransport, type BridgeFrame } from '../../../lib/client/app-bridge-transport';
import { partialArguments } from '../../../lib/client/app-tool-payloads';

/** The checked postMessage transport: who it listens to, where it posts, and the frames it reports. */

const SANDBOX = 'http://localhost:3000';

function setup(annotate?: Parameters<typeof createBridgeTransport>[0]['annotate']) {
  const posted: { message: unknown; origin: string }[] = [];
  const frameWindow = { postMessage: (message: unknown, origin: string) => posted.push({ message, origin }) } as unknown as Window;
  const events = new EventTarget();
  const frames: BridgeFrame[] = [];
  const received: unknown[] = [];
  const t = createBridgeTransport({
    target: () => frameWindow,
    origin: SANDBOX,
    exchangeId: 'app:v1',
    record: (f) => frames.push(f),
    annotate,
    listenOn: events as never,
    // Batches run at once here; the per-frame batching is tested in bridge-flood.test.ts.
    schedule: (run) => {
      run();
      return () => undefined;
    },
  });
  t.onmessage = (m) => received.push(m);
  const deliver = (data: unknown, source: unknown = frameWindow, origin = SANDBOX) =>
    events.dispatchEvent(Object.assign(new Event('message'), { data, source, origin }));
  return { t, posted, frames, received, deliver, frameWindow };
}

describe('bridge transport', () => {
  it('accepts JSON-RPC only from its frame and the sandbox origin', async () => {
    const { t, received, deliver, frames } = setup();
    await t.start();
    const init = { jsonrpc: '2.0', id: 0, method: 'ui/initialize', params: {} };
    deliver(init, {}, SANDBOX); // another window
    deliver(init, undefined, 'http://127.0.0.1:3000'); // right window, wrong origin
    deliver({ hello: 'not json-rpc' });
    expect(received).toEqual([]);
    deliver(init);
    expect(received).toEqual([init]);
    expect(frames).toEqual([
      expect.objectContaining({ kind: 'bridge', direction: 'in', method: 'ui/initialize', rpcId: 0, exchangeId: 'app:v1', raw: JSON.stringify(init) }),
    ]);
  });

  it('posts to the sandbox origin, never "*", and names the method a response answers', async () => {
    const { t, posted, frames, deliver } = setup();
    await t.start();
    deliver({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'notes_detail' } });
    await t.send({ jsonrpc: '2.0', id: 7, result: { content: [] } });
    expect(posted).toEqual([{ message: { jsonrpc: '2.0', id: 7, result: { content: [] } }, origin: SANDBOX }]);
    expect(frames[1]).toMatchObject({ direction: 'out', method: 'tools/call', rpcId: 7 });
  });

  it('flags errors and annotated refusals, and reports malformed JSON-RPC', async () => {
    const { t, frames, deliver, received } = setup((m, dir) => (dir === 'out' && 'error' in m ? 'Refused: tool "x"' : undefined));
    let error: Error | undefined;
    t.onerror = (e) => (error = e);
    await t.start();
    deliver({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'x' } });
    await t.send({ jsonrpc: '2.0', id: 3, error: { code: -32000, message: 'Refused: tool "x"' } });
    expect(frames[1]).toMatchObject({ direction: 'out', method: 'tools/call', errorText: 'Refused: tool "x"' });
    deliver({ jsonrpc: '2.0', id: {}, method: 42 });
    expect(error?.message).toContain('invalid JSON-RPC');
    expect(frames[2]).toMatchObject({ direction: 'in', errorText: expect.stringContaining('Invalid JSON-RPC') });
    expect(received).toHaveLength(1);
  });

  it('stops listening when closed', async () => {
    const { t, deliver, received } = setup();
    await t.start();
    await t.close();
    deliver({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
    expect(received).toEqual([]);
    await expect(t.send({ jsonrpc: '2.0', method: 'x' })).rejects.toThrow('closed');
  });
});

describe('partialArguments', () => {
  it('streams the arguments key by key, strings cut in half, every preview closed JSON', () => {
    expect(partialArguments({ query: 'planning' })).toEqual([{ query: 'plan' }]);
    expect(partialArguments({ a: 1, b: 'xy', c: true })).toEqual([
      { a: 1, b: 'x' },
      { a: 1, b: 'xy' },
    ]);
    expect(partialArguments({})).toEqual([]);
  });
});
