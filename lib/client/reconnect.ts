import type { SubscriptionFilter } from '../protocol';

/**
 * What a client does when a stream drops. 2026-07-28 has no resumability: there is no
 * Last-Event-ID, a broken stream loses its request. So the plan is always the same: open a
 * new `subscriptions/listen` with the same filters (a new JSON-RPC id, hence a new
 * subscription id), refetch every task the old subscription watched (notifications sent
 * while disconnected are gone), and never re-send a side-effecting request that was in
 * flight, because it may already have run.
 */

/** First reconnect delay. */
const BACKOFF_BASE_MS = 250;
/** Reconnect delays never exceed this. */
export const BACKOFF_CAP_MS = 8_000;

/** Delay before reconnect attempt `attempt` (0-based): 250 ms × 2ⁿ, capped at 8,000 ms. */
export function retryDelayMs(attempt: number): number {
  if (!Number.isFinite(attempt) || attempt <= 0) return BACKOFF_BASE_MS;
  // 2^6 × 250 already exceeds the cap; avoid overflow for large attempt numbers.
  return attempt >= 6 ? BACKOFF_CAP_MS : Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
}

interface ReconnectPlanInput {
  /** Subscription id of the dropped listen (its JSON-RPC id). */
  previousSubscriptionId?: string | number;
  /** The filter the dropped listen asked for. */
  filter: SubscriptionFilter;
  /** Whether a request that may have side effects was in flight when the connection dropped. */
  unsafeMutationInFlight?: boolean;
  /** Reconnect attempts already made for this drop (0 for the first). */
  attempt?: number;
}

/** What to do after a listen stream dropped, and when. */
export interface ReconnectPlan {
  /** Re-open a listen with exactly these filters (a new request id). */
  listen: SubscriptionFilter;
  /** Tasks to refetch with tasks/get once the new listen is acknowledged. */
  refetchTaskIds: string[];
  /** Lists to refetch because their change notifications may have been missed. */
  refetchLists: ('tools' | 'prompts' | 'resources')[];
  /** Resources to re-read. */
  refetchResources: string[];
  /** Always false: 2026-07-28 streams are not resumable. */
  sendLastEventId: false;
  /** Always false when a side-effecting request was in flight: surface it, do not re-send it. */
  retryInFlightMutation: false;
  delayMs: number;
  /** Why the in-flight mutation is not retried, when there was one. */
  note?: string;
}

/** Build the reconnect plan for a dropped listen stream. */
export function reconnectPlan(input: ReconnectPlanInput): ReconnectPlan {
  const f = input.filter;
  const lists: ReconnectPlan['refetchLists'] = [];
  if (f.toolsListChanged) lists.push('tools');
  if (f.promptsListChanged) lists.push('prompts');
  if (f.resourcesListChanged) lists.push('resources');
  return {
    listen: structuredClone(f),
    refetchTaskIds: [...(f.taskIds ?? [])],
    refetchLists: lists,
    refetchResources: [...(f.resourceSubscriptions ?? [])],
    sendLastEventId: false,
    retryInFlightMutation: false,
    delayMs: retryDelayMs(input.attempt ?? 0),
    ...(input.unsafeMutationInFlight
      ? {
          note: 'A side-effecting request was in flight when the connection dropped; it may have run. It is reported, not re-sent: retry it only with an idempotency key or after checking its effect.',
        }
      : {}),
  };
}
