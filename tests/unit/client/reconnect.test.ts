import { describe, expect, it } from 'vitest';
import { BACKOFF_CAP_MS, reconnectPlan, retryDelayMs } from '../../../lib/client/reconnect';
import { createClientSession } from '../../../lib/client/session';
import { createMemoryTransport } from '../../../lib/client/memory-transport';
import type { ObservedTask } from '../../../lib/client/task-api';
import { createFakeClock, drive, flushAsync as flush, type FakeClock } from '../../helpers/fake-clock';

/** Backoff, the reconnect plan of a dropped listen, retry safety after a drop, and request deadlines. */

const enc = new TextEncoder();

type Body = { jsonrpc: '2.0'; id: number; method: string; params: Record<string, unknown> };
interface Stream {
  send(message: unknown): void;
  comment(): void;
  drop(): void;
  end(): void;
}
interface Seen {
  at: number;
  body: Body;
  headers: Headers;
}

/** A scripted server: `handle` answers each request with JSON or opens an SSE stream it can drive. */
function scripted(clock: FakeClock, handle: (body: Body, seen: Seen[]) => unknown | ((s: Stream) => void)) {
  const seen: Seen[] = [];
  const target = {
    async fetch(req: Request) {
      const body = (await req.json()) as Body;
      seen.push({ at: clock.now(), body, headers: req.headers });
      const answer = handle(body, seen);
      if (answer === 'drop') throw new TypeError('fetch failed: ECONNRESET');
      if (typeof answer !== 'function') return Response.json(answer);
      let ctl!: ReadableStreamDefaultController<Uint8Array>;
      let open = true;
      const stream = new ReadableStream<Uint8Array>({
        start: (c) => {
          ctl = c;
        },
        cancel: () => {
          open = false;
        },
      });
      // Once the client closed the stream, whatever the server still sends goes nowhere.
      const act = (fn: () => void) => () => {
        if (!open) return;
        try {
          fn();
        } catch {
          open = false;
        }
      };
      const s: Stream = {
        send: (m) => act(() => ctl.enqueue(enc.encode(`data: ${JSON.stringify(m)}\n\n`)))(),
        comment: act(() => ctl.enqueue(enc.encode(': keep-alive\n\n'))),
        drop: act(() => {
          open = false;
          ctl.error(new Error('connection reset'));
        }),
        end: act(() => {
          open = false;
          ctl.close();
        }),
      };
      (answer as (s: Stream) => void)(s);
      return new Response(stream, { headers: { 'Content-Type': 'text/event-stream' } });
    },
  };
  return { target, seen };
}

const ack = (id: number, filter: unknown) => ({
  jsonrpc: '2.0',
  method: 'notifications/subscriptions/acknowledged',
  params: { _meta: { 'io.modelcontextprotocol/subscriptionId': id }, notifications: filter },
});

describe('backoff and plan', () => {
  it('waits 250 ms × 2ⁿ, capped at 8,000 ms', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 50, 10_000].map(retryDelayMs)).toEqual([250, 500, 1000, 2000, 4000, 8000, 8000, 8000, 8000, 8000]);
    expect(BACKOFF_CAP_MS).toBe(8000);
  });

  it('re-listens with the same filters, refetches, never sends Last-Event-ID and never re-sends an unsafe mutation', () => {
    const filter = { taskIds: ['a', 'b'], toolsListChanged: true, resourceSubscriptions: ['file:///x'] };
    const plan = reconnectPlan({ previousSubscriptionId: 7, filter, unsafeMutationInFlight: true, attempt: 2 });
    expect(plan).toMatchObject({
      listen: filter,
      refetchTaskIds: ['a', 'b'],
      refetchLists: ['tools'],
      refetchResources: ['file:///x'],
      sendLastEventId: false,
      retryInFlightMutation: false,
      delayMs: 1000,
    });
    expect(plan.listen).not.toBe(filter);
    expect(plan.note).toMatch(/not re-sent/);
    expect(reconnectPlan({ filter: {} }).note).toBeUndefined();
  });
});

describe('listen reconnect', () => {
  it('re-opens a dropped listen with a new id and the same filters after the backoff, then resyncs', async () => {
    const clock = createFakeClock();
    const filter = { taskIds: ['T1'] };
    let n = 0;
    const streams: Stream[] = [];
    const { target, seen } = scripted(clock, (body) => (s: Stream) => {
      streams.push(s);
      n++;
      if (n === 1) {
        s.send(ack(body.id, filter));
        s.send({
          jsonrpc: '2.0',
          method: 'notifications/tasks',
          params: { _meta: { 'io.modelcontextprotocol/subscriptionId': body.id }, taskId: 'T1', status: 'working' },
        });
        clock.setTimeout(() => s.drop(), 1_000);
      } else if (n === 2) clock.setTimeout(() => s.drop(), 10);
      else s.send(ack(body.id, filter));
    });
    const session = createClientSession({ transport: createMemoryTransport(target), era: 'modern', clock });
    const got: unknown[] = [];
    const drops: { attempt: number; delayMs: number }[] = [];
    const resyncs: string[][] = [];
    const handle = session.listen(filter, {
      onNotification: (m, id) => got.push([m.method, id]),
      onDrop: ({ attempt, plan }) => drops.push({ attempt, delayMs: plan.delayMs }),
      onResync: (plan) => resyncs.push(plan.refetchTaskIds),
    });
    expect(await drive(clock, handle.acknowledged)).toEqual(filter);
    await drive(clock, new Promise((r) => clock.setTimeout(() => r(undefined), 3_000)));
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((s) => s.body.id)).size).toBe(3);
    for (const s of seen) {
      expect(s.body.method).toBe('subscriptions/listen');
      expect(s.body.params.notifications).toEqual(filter);
      expect(s.headers.get('last-event-id')).toBeNull();
      // taskIds need the tasks extension declared on this very request.
      expect((s.body.params._meta as Record<string, { extensions?: object }>)['io.modelcontextprotocol/clientCapabilities'].extensions).toHaveProperty([
        'io.modelcontextprotocol/tasks',
      ]);
    }
    expect(drops).toEqual([
      { attempt: 0, delayMs: 250 },
      { attempt: 1, delayMs: 500 },
    ]);
    expect(seen[1].at - seen[0].at).toBeGreaterThanOrEqual(1_000 + 250);
    expect(seen[2].at - seen[1].at).toBeGreaterThanOrEqual(10 + 500);
    expect(resyncs).toEqual([['T1']]);
    expect(got).toEqual([['notifications/tasks', seen[0].body.id]]);
    expect(handle.subscriptionId).toBe(seen[2].body.id);
    handle.close();
    expect(await drive(clock, handle.done)).toEqual({ reason: 'closed' });
  });

  it('does not reconnect after the server ends the listen with its result, or refuses it', async () => {
    const clock = createFakeClock();
    const { target, seen } = scripted(clock, (body) =>
      body.params.notifications && (body.params.notifications as { toolsListChanged?: boolean }).toolsListChanged
        ? (s: Stream) => {
            s.send(ack(body.id, { toolsListChanged: true }));
            s.send({ jsonrpc: '2.0', id: body.id, result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': body.id } } });
          }
        : { jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'Method not found' } },
    );
    const session = createClientSession({ transport: createMemoryTransport(target), era: 'modern', clock });
    expect(await drive(clock, session.listen({ toolsListChanged: true }).done)).toMatchObject({ reason: 'ended' });
    expect(await drive(clock, session.listen({ promptsListChanged: true }).done)).toMatchObject({
      reason: 'refused',
      outcome: { type: 'error', error: { code: -32601 } },
    });
    clock.advance(20_000);
    await flush();
    expect(seen).toHaveLength(2);
  });

  it('makes a follower refetch its task as soon as the re-opened listen is acknowledged', async () => {
    const clock = createFakeClock();
    let listens = 0;
    const task: ObservedTask = {
      taskId: 'T7',
      status: 'working',
      createdAt: new Date(clock.now()).toISOString(),
      lastUpdatedAt: new Date(clock.now()).toISOString(),
      ttlMs: null,
      pollIntervalMs: 10_000,
    };
    const { target, seen } = scripted(clock, (body) => {
      if (body.method === 'tasks/get')
        return { jsonrpc: '2.0', id: body.id, result: { resultType: 'complete', ...task, status: 'completed', result: { content: [] } } };
      return (s: Stream) => {
        s.send(ack(body.id, { taskIds: ['T7'] }));
        if (++listens === 1) clock.setTimeout(() => s.drop(), 500);
      };
    });
    const session = createClientSession({ transport: createMemoryTransport(target), era: 'modern', clock });
    const t0 = clock.now();
    const end = await drive(clock, session.followTask(task, { listen: true }).done);
    expect(end).toMatchObject({ kind: 'terminal', task: { status: 'completed' } });
    const gets = seen.filter((s) => s.body.method === 'tasks/get');
    expect(gets).toHaveLength(1);
    // Dropped at 500 ms, re-listened after 250 ms, refetched on the ack: long before the 10 s poll.
    expect(gets[0].at - t0).toBeGreaterThanOrEqual(750);
    expect(gets[0].at - t0).toBeLessThan(1_000);
  });
});

describe('requests in flight when the connection drops', () => {
  const tools = {
    tools: [
      { name: 'charge', inputSchema: { type: 'object' } },
      { name: 'lookup', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
    ],
  };

  it('never re-sends a side-effecting call, but retries safe reads with backoff', async () => {
    const clock = createFakeClock();
    const { target, seen } = scripted(clock, (body) =>
      body.method === 'tools/list' ? { jsonrpc: '2.0', id: body.id, result: { resultType: 'complete', ttlMs: 0, cacheScope: 'private', ...tools } } : 'drop',
    );
    const session = createClientSession({ transport: createMemoryTransport(target), era: 'modern', clock });
    await drive(clock, session.listTools());
    const charge = await drive(clock, session.callTool('charge', { account: 'a', amountCents: 5 }));
    expect(charge).toMatchObject({ type: 'failure', reason: 'unsafe-not-retried', message: expect.stringContaining('may already have taken effect') });
    expect(seen.filter((s) => s.body.params.name === 'charge')).toHaveLength(1);

    const keyed = await drive(clock, session.callTool('charge', { account: 'a', amountCents: 5, idempotencyKey: 'k1' }));
    expect(keyed).toMatchObject({ type: 'failure', reason: 'network' });
    const keyedTimes = seen
      .filter((s) => s.body.params.name === 'charge' && (s.body.params.arguments as { idempotencyKey?: string }).idempotencyKey)
      .map((s) => s.at);
    expect(keyedTimes).toHaveLength(3);
    expect(keyedTimes[1] - keyedTimes[0]).toBeGreaterThanOrEqual(250);
    expect(keyedTimes[2] - keyedTimes[1]).toBeGreaterThanOrEqual(500);
    // Retried ids are new ids: the ledger dedupes by key, never by JSON-RPC id.
    expect(new Set(seen.filter((s) => s.body.method === 'tools/call').map((s) => s.body.id)).size).toBe(
      seen.filter((s) => s.body.method === 'tools/call').length,
    );

    expect(await drive(clock, session.callTool('lookup', {}))).toMatchObject({ type: 'failure', reason: 'network' });
    expect(seen.filter((s) => s.body.params.name === 'lookup')).toHaveLength(3);
    expect(await drive(clock, session.getTask('T1'))).toMatchObject({ type: 'failure', reason: 'network' });
    expect(seen.filter((s) => s.body.method === 'tasks/get')).toHaveLength(3);
    expect(await drive(clock, session.updateTask('T1', { k: { action: 'accept' } }))).toMatchObject({ type: 'failure', reason: 'unsafe-not-retried' });
  });
});

describe('request deadlines', () => {
  function progressServer(clock: FakeClock, token: 'own' | 'other' | 'none') {
    return scripted(clock, (body) => (s: Stream) => {
      const own = (body.params._meta as Record<string, unknown>).progressToken;
      let i = 0;
      const tick = () => {
        i++;
        if (token !== 'none')
          s.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token === 'own' ? own : 'someone-else', progress: i } });
        else s.comment();
        clock.setTimeout(tick, 100);
      };
      clock.setTimeout(tick, 100);
    });
  }

  it('lets progress reset the idle timeout but never the absolute maximum', async () => {
    const clock = createFakeClock();
    const { target } = progressServer(clock, 'own');
    const session = createClientSession({ transport: createMemoryTransport(target), era: 'modern', clock });
    const started = clock.now();
    let progress = 0;
    const out = await drive(
      clock,
      session.request('tools/call', { name: 'slow', arguments: {} }, { timeoutMs: 300, maxTimeoutMs: 2_000, onProgress: () => progress++ }),
      10,
    );
    expect(out).toMatchObject({ type: 'failure', reason: 'timeout', message: expect.stringContaining('maximum of 2000 ms') });
    expect(clock.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(clock.now() - started).toBeLessThan(2_100);
    expect(progress).toBeGreaterThanOrEqual(18);
  });

  it('times out when only keep-alives or another request’s progress arrive', async () => {
    for (const kind of ['none', 'other'] as const) {
      const clock = createFakeClock();
      const { target } = progressServer(clock, kind);
      const session = createClientSession({ transport: createMemoryTransport(target), era: 'modern', clock });
      const started = clock.now();
      const out = await drive(
        clock,
        session.request('tools/call', { name: 'slow', arguments: {} }, { timeoutMs: 300, maxTimeoutMs: 2_000, onProgress: () => {} }),
        10,
      );
      expect(out).toMatchObject({ type: 'failure', reason: 'timeout', message: expect.stringContaining('no response within 300 ms') });
      expect(clock.now() - started).toBeLessThan(400);
    }
  });
});
