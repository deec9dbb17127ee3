import { META, type JsonRpcNotification, type RequestId, type SubscriptionFilter } from '../protocol';
import { sleep } from '../shared/clock';
import type { Connection } from './connection-types';
import { BACKOFF_CAP_MS, reconnectPlan, type ReconnectPlan } from './reconnect';
import type { RequestOutcome } from './results';

/**
 * `subscriptions/listen` with the reconnect plan. The acknowledgement comes first and says
 * which notification kinds the server agreed to; notifications follow on the same stream.
 * When the stream drops without the server's final response, the listener waits
 * 250 ms × 2ⁿ (capped at 8 s), opens a new listen with the same filters (a new request id,
 * never Last-Event-ID), and once that is acknowledged calls `onResync` so the caller refetches
 * what it may have missed (the tasks it watches). A server that ends the stream with a
 * result, or refuses the listen with an error, is not reconnected to.
 */

export interface ListenHandlers {
  onAck?: (agreed: SubscriptionFilter, subscriptionId: RequestId) => void;
  onNotification?: (n: JsonRpcNotification, subscriptionId: RequestId) => void;
  /** The stream dropped; a reconnect follows after `plan.delayMs`. */
  onDrop?: (info: { reason: string; attempt: number; plan: ReconnectPlan }) => void;
  /** A re-opened listen was acknowledged: refetch `plan.refetchTaskIds` and friends now. */
  onResync?: (plan: ReconnectPlan) => void;
}

/** How a listen behaves: cancellation, reconnects and when to give up. */
export interface ListenOptions {
  signal?: AbortSignal;
  /** Reconnect after a drop (default true). */
  reconnect?: boolean;
  /** Give up after this many consecutive failed reconnects (default unlimited). */
  maxAttempts?: number;
}

type ListenEnd =
  | { reason: 'closed' }
  | { reason: 'ended'; outcome: RequestOutcome }
  | { reason: 'refused'; outcome: RequestOutcome }
  | { reason: 'gave-up'; outcome: RequestOutcome };

/** A running listen: its current subscription, its acknowledgement and how to close it. */
export interface ListenHandle {
  /** Subscription id of the current stream (its JSON-RPC id). */
  readonly subscriptionId: RequestId | undefined;
  /** The first acknowledgement's agreed filter (undefined if it ended before one). */
  readonly acknowledged: Promise<SubscriptionFilter | undefined>;
  /** Close the stream (the HTTP way to end a listen) and stop reconnecting. */
  close(): void;
  readonly done: Promise<ListenEnd>;
}

let listens = 0;

/** Open a listen on a connection. */
export function openListen(conn: Connection, filter: SubscriptionFilter, handlers: ListenHandlers = {}, options: ListenOptions = {}): ListenHandle {
  const clock = conn.clock;
  const conversationId = `listen-${++listens}`;
  let current: AbortController | undefined;
  let closed = false;
  let subscriptionId: RequestId | undefined;
  let resolveAck!: (f: SubscriptionFilter | undefined) => void;
  const acknowledged = new Promise<SubscriptionFilter | undefined>((r) => (resolveAck = r));
  let wakeSleep: (() => void) | undefined;

  const close = () => {
    closed = true;
    current?.abort(new Error('listen closed by the client'));
    wakeSleep?.();
  };
  options.signal?.addEventListener('abort', close, { once: true });

  async function run(): Promise<ListenEnd> {
    let attempt = 0;
    let pendingPlan: ReconnectPlan | undefined;
    for (;;) {
      // A closed connection ends its listens too (Disconnect): nothing is re-opened after it.
      if (closed || conn.signal.aborted) return { reason: 'closed' };
      current = new AbortController();
      let ackAt: number | undefined;
      let thisId: RequestId | undefined;
      const out = await conn.request(
        'subscriptions/listen',
        { notifications: filter },
        {
          signal: current.signal,
          conversationId,
          timeoutMs: 0,
          maxTimeoutMs: 0,
          retry: 'never',
          declareTasks: !!filter.taskIds?.length,
          onId: (id) => {
            thisId = id;
            subscriptionId = id;
          },
          onNotification: (n) => {
            const tag = (n.params?._meta as Record<string, unknown> | undefined)?.[META.subscriptionId];
            // On HTTP a stream carries one subscription; a foreign tag is a server bug, not ours.
            if (tag !== undefined && tag !== thisId) return;
            if (n.method === 'notifications/subscriptions/acknowledged') {
              ackAt = clock.now();
              const agreed = ((n.params as { notifications?: SubscriptionFilter } | undefined)?.notifications ?? {}) as SubscriptionFilter;
              resolveAck(agreed);
              handlers.onAck?.(agreed, thisId!);
              if (pendingPlan) handlers.onResync?.(pendingPlan);
              pendingPlan = undefined;
              return;
            }
            handlers.onNotification?.(n, thisId!);
          },
        },
      );
      if (closed || conn.signal.aborted) return { reason: 'closed' };
      if (out.type === 'complete') return { reason: 'ended', outcome: out };
      if (out.type === 'error' || out.type === 'invalid') return { reason: 'refused', outcome: out };
      if (out.type !== 'failure' || options.reconnect === false) return { reason: 'gave-up', outcome: out };
      // A stream that stayed up past the cap earns a fresh backoff.
      if (ackAt !== undefined && clock.now() - ackAt >= BACKOFF_CAP_MS) attempt = 0;
      if (options.maxAttempts !== undefined && attempt >= options.maxAttempts) return { reason: 'gave-up', outcome: out };
      const plan = reconnectPlan({ previousSubscriptionId: thisId, filter, attempt, unsafeMutationInFlight: conn.inFlight().some((p) => !p.safe) });
      handlers.onDrop?.({ reason: out.message, attempt, plan });
      pendingPlan = plan;
      attempt++;
      const wait = sleep(clock, plan.delayMs, conn.signal);
      wakeSleep = wait.wake;
      await wait.done;
      wakeSleep = undefined;
    }
  }

  const done = run().then((end) => {
    resolveAck(undefined);
    return end;
  });
  return {
    get subscriptionId() {
      return subscriptionId;
    },
    acknowledged,
    close,
    done,
  };
}
