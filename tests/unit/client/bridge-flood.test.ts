import { describe, expect, it } from 'vitest';
import { createBridgeTransport, type BridgeFrame } from '../../../lib/client/app-bridge-transport';
import { createFloodGate, createFrameBatcher, describeFlood, type FloodReport } from '../../../lib/client/bridge-flood';
import { inSlices } from '../../../lib/client/yield-slices';

/** A view that floods its host is paused; a busy but honest one is not; messages arrive in one batch per frame. */

const SANDBOX = 'http://localhost:3000';

/** A transport on a fake clock whose frames run when the test says. */
function floodSetup(perSecond: number) {
  const frameWindow = { postMessage: () => undefined } as unknown as Window;
  const events = new EventTarget();
  const frames: BridgeFrame[] = [];
  const received: unknown[] = [];
  const floods: FloodReport[] = [];
  const due: (() => void)[] = [];
  const clock = { now: 0 };
  const t = createBridgeTransport({
    target: () => frameWindow,
    origin: SANDBOX,
    exchangeId: 'app:v1',
    record: (f) => frames.push(f),
    listenOn: events as never,
    perSecond,
    onFlood: (r) => floods.push(r),
    now: () => clock.now,
    schedule: (run) => {
      due.push(run);
      return () => due.splice(due.indexOf(run), 1);
    },
  });
  t.onmessage = (m) => received.push(m);
  void t.start(); // adds the listener synchronously
  const deliver = (i: number) =>
    events.dispatchEvent(
      Object.assign(new Event('message'), {
        data: { jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: i } },
        source: frameWindow,
        origin: SANDBOX,
      }),
    );
  const frame = () => {
    for (const run of due.splice(0)) run();
  };
  return { t, frames, received, floods, deliver, frame, clock };
}

describe('flood gate', () => {
  it('admits the limit within a second, trips on the one over, and stays tripped', () => {
    const gate = createFloodGate(3);
    expect([0, 100, 200].map((t) => gate.admit(t))).toEqual([true, true, true]);
    expect(gate.admit(999)).toBe(false);
    expect(gate.paused).toBe(true);
    expect(gate.admit(5000)).toBe(false);
    expect(gate.report()).toEqual({ received: 4, windowMs: 999, perSecond: 3, dropped: 1 });
  });

  it('never trips on a steady rate at the limit', () => {
    const gate = createFloodGate(10);
    for (let i = 0; i < 1000; i++) expect(gate.admit(i * 100)).toBe(true);
    expect(gate.paused).toBe(false);
  });

  it('says what happened in words', () => {
    expect(describeFlood({ received: 501, windowMs: 42, perSecond: 500, dropped: 19_499 })).toBe(
      'Paused: the app sent 501 messages in 0.042 s; the limit is 500 per second; 19,499 more dropped',
    );
  });
});

describe('frame batcher', () => {
  it('hands over everything pushed before the frame in one call, and schedules one frame per batch', () => {
    const due: (() => void)[] = [];
    const batches: number[][] = [];
    const b = createFrameBatcher<number>(
      (items) => batches.push(items),
      (run) => {
        due.push(run);
        return () => undefined;
      },
    );
    for (let i = 0; i < 5; i++) b.push(i);
    expect(due).toHaveLength(1);
    due.shift()!();
    b.push(9);
    due.shift()!();
    expect(batches).toEqual([[0, 1, 2, 3, 4], [9]]);
  });
});

describe('bridge transport under a flood', () => {
  it('passes a burst under the limit in one batch per frame', () => {
    const { received, deliver, frame, floods } = floodSetup(100);
    for (let i = 0; i < 100; i++) deliver(i);
    expect(received).toHaveLength(0);
    frame();
    expect(received).toHaveLength(100);
    expect(floods).toEqual([]);
  });

  it('pauses a view that sends 20,000 messages at once: nothing of the flood is read, the pause is on the timeline, the drops are counted', () => {
    const { received, deliver, frame, floods, frames } = floodSetup(500);
    for (let i = 0; i < 20_000; i++) deliver(i);
    frame();
    // The messages queued before the pause are dropped with it: none of the burst reaches the bridge.
    expect(received).toHaveLength(0);
    expect(floods[0]).toEqual({ received: 501, windowMs: 0, perSecond: 500, dropped: 0 });
    expect(floods.at(-1)).toMatchObject({ dropped: 20_000 - 501 });
    expect(floods.length).toBeLessThanOrEqual(3);
    expect(frames.map((f) => f.errorText)).toEqual(['Paused: the app sent 501 messages in 0.000 s; the limit is 500 per second']);
  });

  it('pauses a sustained flood once it goes over the limit, after handing on what came before', () => {
    const { received, deliver, frame, floods, clock } = floodSetup(500);
    let sent = 0;
    for (let tick = 0; tick < 100 && !floods.length; tick++) {
      clock.now = tick * 10;
      for (let k = 0; k < 20; k++) deliver(sent++); // 2,000 per second
      frame();
    }
    // Tripped at 2,000/s after about a quarter second: the first 500 went through, the rest of that tick was dropped.
    expect(floods[0]).toMatchObject({ received: 501, perSecond: 500 });
    expect(received.length).toBeGreaterThan(400);
    expect(received.length).toBeLessThanOrEqual(500);
  });
});

describe('inSlices', () => {
  it('gives the event loop back whenever a slice ran for its time, and processes everything in order', async () => {
    let t = 0;
    const seen: number[] = [];
    let yields = 0;
    const items = Array.from({ length: 100 }, (_, i) => i);
    // Something else waiting on the event loop (as the page's input and paint would): it runs
    // only when inSlices gives the loop back. (A 0 ms interval may not come due at all in a fast run.)
    let done = false;
    const other = () => {
      yields++;
      if (!done) setImmediate(other);
    };
    setImmediate(other);
    await inSlices(
      items,
      (chunk) => {
        seen.push(...chunk);
        t += 5; // each chunk "costs" 5 ms
      },
      { chunk: 10, sliceMs: 8, now: () => t },
    );
    done = true;
    expect(seen).toEqual(items);
    expect(yields).toBeGreaterThan(0);
  });
});

describe('a host that falls behind', () => {
  it('reads at most 100 messages a frame and pauses the view once a second’s worth waits unread', () => {
    const { received, deliver, frame, floods, clock } = floodSetup(500);
    // Arrivals spread over 1.2 s never trip the one-second window, but no frame comes in between.
    for (let i = 0; i < 600; i++) {
      clock.now = i * 2;
      deliver(i);
    }
    expect(floods[0]).toMatchObject({ received: 501, perSecond: 500 });
    frame();
    expect(received).toHaveLength(0);
  });

  it('spreads a backlog under the limit over several frames', () => {
    const { received, deliver, frame, floods } = floodSetup(500);
    for (let i = 0; i < 250; i++) deliver(i);
    frame();
    expect(received).toHaveLength(100);
    frame();
    frame();
    expect(received).toHaveLength(250);
    expect(floods).toEqual([]);
  });
});
