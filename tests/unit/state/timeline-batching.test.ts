import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Frame } from '../../../lib/client/frames';
import { createInspectorStore } from '../../../lib/state/inspector-store';

/**
 * Live frames reach the store once per animation frame, however many arrive and across however
 * many tasks (a server listing 100,000 tools would otherwise re-render the page per chunk); a
 * hidden tab, which runs no animation frames, still gets them from a timer; without a DOM they
 * go in on the next microtask.
 */

const frame = (seq: number): Frame => ({
  seq,
  connectionId: 'c',
  at: seq,
  direction: 'out',
  kind: 'http-request',
  exchangeId: `c:${seq}`,
  conversationId: `listen-${seq}`,
  rpcId: seq,
  method: 'subscriptions/listen',
  body: { jsonrpc: '2.0', id: seq, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true } } },
  bytes: 100,
});
const nextTask = () => new Promise<void>((r) => setImmediate(r));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function withAnimationFrames() {
  const callbacks = new Map<number, () => void>();
  let ids = 0;
  vi.stubGlobal('requestAnimationFrame', (cb: () => void) => {
    callbacks.set(++ids, cb);
    return ids;
  });
  vi.stubGlobal('cancelAnimationFrame', (id: number) => callbacks.delete(id));
  // Only the hidden-tab timer is faked: it must not fire while the test waits on real tasks.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  return {
    paint() {
      const due = [...callbacks.values()];
      callbacks.clear();
      for (const cb of due) cb();
    },
  };
}

describe('timeline: live frames batched per animation frame', () => {
  it('takes the frames of several tasks in one store update at the next animation frame, streams slice included', async () => {
    const raf = withAnimationFrames();
    const store = createInspectorStore({ lint: false });
    let updates = 0;
    store.subscribe((s, prev) => {
      if (s.timeline.version !== prev.timeline.version) updates++;
    });
    for (let task = 0; task < 3; task++) {
      for (let i = 0; i < 4; i++) store.getState().timeline.enqueue(frame(task * 4 + i));
      await nextTask();
    }
    expect(store.getState().timeline.stats.count).toBe(0);
    expect(updates).toBe(0);
    raf.paint();
    expect(updates).toBe(1);
    expect(store.getState().timeline.stats.count).toBe(12);
    expect(store.getState().streams.listenOrder).toHaveLength(12);
    // The next frame starts a new batch.
    store.getState().timeline.enqueue(frame(12));
    raf.paint();
    expect(updates).toBe(2);
    expect(store.getState().timeline.stats.count).toBe(13);
  });

  it('a hidden tab (no animation frames) still gets its frames, once, from the timer', async () => {
    withAnimationFrames();
    const store = createInspectorStore({ lint: false });
    for (let i = 0; i < 5; i++) store.getState().timeline.enqueue(frame(i));
    await nextTask();
    expect(store.getState().timeline.stats.count).toBe(0);
    vi.runOnlyPendingTimers();
    expect(store.getState().timeline.stats.count).toBe(5);
  });

  it('without a DOM, frames go in on the next microtask', async () => {
    vi.stubGlobal('requestAnimationFrame', undefined);
    const store = createInspectorStore({ lint: false });
    store.getState().timeline.enqueue(frame(0));
    store.getState().timeline.enqueue(frame(1));
    expect(store.getState().timeline.stats.count).toBe(0);
    await Promise.resolve();
    expect(store.getState().timeline.stats.count).toBe(2);
  });
});
