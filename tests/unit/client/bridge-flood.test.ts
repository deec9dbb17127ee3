import { describe, expect, it } from 'vitest';
import { createBridgeTransport, type BridgeFrame } from '../../../lib/client/app-bridge-transport';
import { createFloodGate, createFrameBatcher, describeFlood, type FloodReport } from '../../../lib/client/bridge-flood';
import { inSlices } from '../../../lib/client/yield-slices';
import { SANDBOX_FLOODED_METHOD } from '../../../lib/protocol/bridge-gate';

/** A view that floods its host is paused; a busy but honest one is not; messages are read a few per frame. */

const SANDBOX = 'http://localhost:3000';
const MIB = 1024 * 1024;

/** A transport on a fake clock whose frames and timers run when the test says. */
function floodSetup(perSecond: number) {
  const frameWindow = { postMessage: () => undefined } as unknown as Window;
  const events = new EventTarget();
  const frames: BridgeFrame[] = [];
  const received: unknown[] = [];
  const floods: FloodReport[] = [];
  const due: (() => void)[] = [];
  const timers: (() => void)[] = [];
  const clock = { now: 0 };
  let frameGone = false;
  const t = createBridgeTransport({
    target: () => (frameGone ? null : frameWindow),
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
    later: (run) => {
      timers.push(run);
      return () => timers.splice(timers.indexOf(run), 1);
    },
  });
  t.onmessage = (m) => received.push(m);
  void t.start(); // adds the listener synchronously
  const deliver = (i: number, pad = '') =>
    events.dispatchEvent(
      Object.assign(new Event('message'), {
        data: { jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: i, pad } },
        source: frameWindow,
        origin: SANDBOX,
      }),
    );
  const frame = () => {
    for (const run of due.splice(0)) run();
  };
  const timer = () => {
    for (const run of timers.splice(0)) run();
  };
  const removeFrame = () => (frameGone = true);
  /** The sandbox proxy's notice that it stopped the view (it comes from the same frame window). */
  const notice = (params: unknown) =>
    events.dispatchEvent(
      Object.assign(new Event('message'), { data: { jsonrpc: '2.0', method: SANDBOX_FLOODED_METHOD, params }, source: frameWindow, origin: SANDBOX }),
    );
  return { t, frames, received, floods, deliver, notice, frame, timer, clock, removeFrame };
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

  it('trips when the bytes within ten seconds go over, and not on the same bytes spread wider', () => {
    const spread = createFloodGate(200, 3 * MIB);
    // 1.5 MiB every five seconds: never more than 3 MiB within ten.
    for (let i = 0; i < 20; i++) expect(spread.weigh(i * 5000, 1.5 * MIB)).toBe(true);
    const gate = createFloodGate(200, 3 * MIB);
    expect([0, 10, 20].map((t) => gate.weigh(t, MIB))).toEqual([true, true, true]);
    expect(gate.weigh(30, 1)).toBe(false);
    expect(gate.report()).toEqual({ received: 4, windowMs: 30, perSecond: 200, dropped: 1, bytes: 3 * MIB + 1, bytesLimit: 3 * MIB });
  });

  it('says what happened in words', () => {
    expect(describeFlood({ received: 501, windowMs: 42, perSecond: 500, dropped: 19_499 })).toBe(
      'Paused: the app sent 501 messages in 0.042 s; the limit is 500 per second; 19,499 dropped unread',
    );
    expect(describeFlood({ received: 5, windowMs: 2500, perSecond: 200, dropped: 1, bytes: 5 * MIB, bytesLimit: 4 * MIB })).toBe(
      'Paused: the app sent 5.0 MiB in 5 messages in 2.50 s; the limit is 4 MiB per 10 s; 1 dropped unread',
    );
  });
});

describe('frame batcher', () => {
  it('hands over what was pushed before the frame, in order, one frame scheduled at a time', () => {
    const due: (() => void)[] = [];
    const seen: number[][] = [[]];
    const b = createFrameBatcher<number>((i) => seen.at(-1)!.push(i), {
      schedule: (run) => {
        due.push(run);
        return () => undefined;
      },
    });
    for (let i = 0; i < 5; i++) b.push(i);
    expect(due).toHaveLength(1);
    due.shift()!();
    seen.push([]);
    b.push(9);
    due.shift()!();
    expect(seen).toEqual([[0, 1, 2, 3, 4], [9]]);
  });

  it('stops a frame once its time budget is spent, and leaves the rest for the next', () => {
    const due: (() => void)[] = [];
    let t = 0;
    const perFrame: number[] = [];
    let count = 0;
    const b = createFrameBatcher<number>(
      () => {
        count++;
        t += 4; // each item costs 4 ms
      },
      {
        schedule: (run) => {
          due.push(run);
          return () => undefined;
        },
        budgetMs: 6,
        now: () => t,
      },
    );
    for (let i = 0; i < 5; i++) b.push(i);
    while (due.length) {
      const before = count;
      due.shift()!();
      perFrame.push(count - before);
    }
    expect(perFrame).toEqual([2, 2, 1]);
  });
});

describe('bridge transport under a flood', () => {
  it('passes a burst under the limit, 50 messages a frame', () => {
    const { received, deliver, frame, floods } = floodSetup(100);
    for (let i = 0; i < 100; i++) deliver(i);
    expect(received).toHaveLength(0);
    frame();
    expect(received).toHaveLength(50);
    frame();
    expect(received).toHaveLength(100);
    expect(floods).toEqual([]);
  });

  it('pauses a view that sends 20,000 messages at once: nothing of the flood is read, the pause is on the timeline, every drop is counted', () => {
    const { received, deliver, frame, timer, floods, frames } = floodSetup(500);
    for (let i = 0; i < 20_000; i++) deliver(i);
    frame();
    // The messages queued before the pause are dropped with it: none of the burst reaches the bridge.
    expect(received).toHaveLength(0);
    expect(floods).toEqual([{ received: 501, windowMs: 0, perSecond: 500, dropped: 500 }]);
    expect(frames.map((f) => f.errorText)).toEqual(['Paused: the app sent 501 messages in 0.000 s; the limit is 500 per second; 500 dropped unread']);
    // The count of what followed is told once the notice timer comes, not once per message.
    timer();
    expect(floods).toHaveLength(2);
    expect(floods[1]).toMatchObject({ dropped: 20_000 - 1 });
    expect(frames).toHaveLength(1);
  });

  it('keeps counting a paused view’s messages after its frame is gone and the bridge closed, and stops listening once they stop', async () => {
    const { t, deliver, timer, floods, clock, removeFrame } = floodSetup(10);
    for (let i = 0; i < 11; i++) deliver(i);
    removeFrame();
    await t.close();
    for (let i = 0; i < 5; i++) deliver(i); // in flight when the frame went
    clock.now = 200;
    timer();
    expect(floods.at(-1)).toMatchObject({ dropped: 10 + 5 });
    clock.now = 1500; // quiet for a second: the listener goes
    timer();
    deliver(99);
    timer();
    expect(floods.at(-1)).toMatchObject({ dropped: 15 });
  });

  it('pauses a view that sends 1 MiB messages once 4 MiB arrived within ten seconds, reading no further', () => {
    const { received, deliver, frame, floods, frames } = floodSetup(500);
    const pad = 'x'.repeat(MIB);
    for (let i = 0; i < 20; i++) deliver(i, pad);
    frame();
    // Three are read (3 MiB and their JSON); the fourth goes over and is dropped, with the sixteen still waiting.
    expect(received).toHaveLength(3);
    expect(floods[0]).toMatchObject({ received: 4, perSecond: 500, dropped: 17, bytesLimit: 4 * MIB });
    expect(floods[0]!.bytes).toBeGreaterThan(4 * MIB);
    expect(frames.at(-1)?.errorText).toMatch(/^Paused: the app sent 4\.0 MiB in 4 messages in 0\.000 s; the limit is 4 MiB per 10 s; 17 dropped unread$/);
  });

  it('weighs a message at the time it came, so a page slow to read big messages still pauses the view that sent them together', () => {
    const { received, deliver, frame, floods, clock } = floodSetup(500);
    const pad = 'x'.repeat(MIB);
    for (let i = 0; i < 20; i++) deliver(i, pad);
    // Reading is slow: every look at the clock is 3 s later, so a frame reads one message, and four take over ten seconds.
    let t = 0;
    Object.defineProperty(clock, 'now', { get: () => (t += 3000) });
    for (let f = 0; f < 20 && !floods.length; f++) frame();
    expect(t).toBeGreaterThan(10_000);
    expect(received).toHaveLength(3);
    expect(floods[0]).toMatchObject({ received: 4, dropped: 17 });
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

describe('a view the sandbox proxy stopped', () => {
  it('reads what the proxy relayed before its notice, then pauses with the proxy’s report, its dropped count growing with later notices', () => {
    const { received, deliver, notice, frame, timer, floods, frames } = floodSetup(200);
    for (let i = 0; i < 120; i++) deliver(i);
    notice({ received: 201, windowMs: 40, perSecond: 200, dropped: 0 });
    notice({ received: 201, windowMs: 40, perSecond: 200, dropped: 64 });
    frame();
    expect(received).toHaveLength(50);
    expect(floods).toEqual([]);
    frame();
    frame();
    // All 120 read (the notice is neither counted against the view nor read as its message), then the pause.
    expect(received).toHaveLength(120);
    expect(floods).toEqual([{ received: 201, windowMs: 40, perSecond: 200, dropped: 64 }]);
    expect(frames.at(-1)?.errorText).toBe('Paused: the app sent 201 messages in 0.040 s; the limit is 200 per second; 64 dropped unread');
    notice({ received: 201, windowMs: 40, perSecond: 200, dropped: 16_384 });
    timer();
    expect(floods.at(-1)).toMatchObject({ dropped: 16_384 });
  });

  it('takes a notice whose report does not parse as the view’s own message, not as a pause', () => {
    const { received, notice, frame, floods } = floodSetup(200);
    notice({ received: -1, dropped: 'many' });
    frame();
    expect(floods).toEqual([]);
    expect(received).toHaveLength(1);
  });
});

describe('a view that posts to the page around its proxy', () => {
  it('is counted as the view, never read, and paused past the limit', () => {
    const viewWindow = {};
    const proxyWindow = { postMessage: () => undefined, frames: [viewWindow] } as unknown as Window;
    const events = new EventTarget();
    const floods: FloodReport[] = [];
    const received: unknown[] = [];
    const timers: (() => void)[] = [];
    const t = createBridgeTransport({
      target: () => proxyWindow,
      origin: SANDBOX,
      exchangeId: 'app:v1',
      listenOn: events as never,
      perSecond: 200,
      onFlood: (r) => floods.push(r),
      now: () => 0,
      schedule: () => () => undefined,
      later: (run) => {
        timers.push(run);
        return () => undefined;
      },
    });
    t.onmessage = (m) => received.push(m);
    void t.start();
    let read = 0;
    const direct = () =>
      events.dispatchEvent(
        Object.defineProperties(new Event('message'), {
          source: { value: viewWindow },
          origin: { value: 'null' },
          data: {
            get: () => {
              read++;
              return { jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: {} };
            },
          },
        }),
      );
    for (let i = 0; i < 20_000; i++) direct();
    for (const run of timers.splice(0)) run();
    expect(read).toBe(0);
    expect(received).toHaveLength(0);
    expect(floods[0]).toMatchObject({ received: 201, perSecond: 200 });
    // The one over the limit is among the 201 received; all after it are dropped.
    expect(floods.at(-1)?.dropped).toBe(20_000 - 201);
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
  it('pauses the view once a second’s worth waits unread', () => {
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
    expect(received).toHaveLength(50);
    for (let i = 0; i < 4; i++) frame();
    expect(received).toHaveLength(250);
    expect(floods).toEqual([]);
  });
});
