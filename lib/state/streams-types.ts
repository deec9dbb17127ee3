import type { SubscriptionFilter } from '../protocol';
import type { CloseReason, Frame } from '../client/frames';
import type { ReconnectPlan } from '../client/reconnect';

/** The streams slice's shape and the records it keeps (see streams-slice.ts). Task ids appear only as fingerprints. */

export interface StreamFrameSummary {
  seq: number;
  at: number;
  kind: 'frame' | 'keep-alive';
  /** The notification's method, `response`, `error` or `not JSON`. */
  label: string;
  /** Fingerprint of the task the frame names. */
  taskFp?: string;
  bytes: number;
}

/** One SSE stream: its exchange, HTTP status, counts, recent frames and how it closed. */
export interface StreamRecord {
  streamId: string;
  connectionId: string;
  method?: string;
  rpcId?: string | number;
  conversationId?: string;
  /** Set when the stream belongs to a listen. */
  listenId?: string;
  taskFp?: string;
  httpStatus?: number;
  openedAt: number;
  closedAt?: number;
  closeReason?: CloseReason;
  closeDetail?: string;
  durationMs?: number;
  frames: number;
  bytes: number;
  keepAlives: number;
  lastActivityAt: number;
  /** A listen's acknowledgement: when, and the filter the server agreed to. */
  ack?: { at: number; agreed: SubscriptionFilter };
  /** The final JSON-RPC response arrived on the stream. */
  responded: boolean;
  /** The last MAX_RECENT frames. */
  recent: StreamFrameSummary[];
}

/** A drop of a listen stream and the reconnect plan for it. */
export interface ListenDrop {
  at: number;
  reason: string;
  attempt: number;
  subscriptionId?: string | number;
  /** The exchange of the listen request that dropped: one request drops once. */
  exchangeId?: string;
  plan: ReconnectPlan;
  /** The plan came from the listener itself rather than from frames. */
  reported: boolean;
  reopenedAt?: number;
  resyncedAt?: number;
}

/** One request of a listen (the first open or a re-open). */
export interface ListenRequest {
  exchangeId: string;
  /** Its JSON-RPC id, which names the subscription. */
  subscriptionId?: string | number;
  at: number;
  /** The listener resynced once this request was acknowledged (it refetched what the drop before it missed). */
  resyncedAt?: number;
}

type ListenState = 'opening' | 'live' | 'reconnecting' | 'closed' | 'ended' | 'refused';

/** One `subscriptions/listen` across its re-opens. */
export interface ListenRecord {
  listenId: string;
  connectionId: string;
  /** The filter as requested (re-sent unchanged on every re-open). */
  filter: SubscriptionFilter;
  subscriptionIds: (string | number)[];
  /** The latest requests, oldest first: which drop a report or a re-open belongs to. */
  requests: ListenRequest[];
  streamIds: string[];
  state: ListenState;
  openedAt: number;
  lastAckAt?: number;
  attempt: number;
  drops: ListenDrop[];
}

/** The slice's state and actions, under `state.streams`. */
export interface StreamsState {
  byId: Record<string, StreamRecord>;
  /** Stream ids, oldest first. */
  order: string[];
  listens: Record<string, ListenRecord>;
  listenOrder: string[];
  /** A frame of the connection (only SSE, listen requests and in-flight bookkeeping matter). */
  ingest(frame: Frame): void;
  /** Many frames in one store update (a batch from the timeline, a recording). */
  ingestMany(frames: readonly Frame[]): void;
  /** The listener reported a drop with its own plan (replaces the derived one). */
  noteListenDrop(subscriptionId: string | number, info: { at: number; reason: string; attempt: number; plan: ReconnectPlan }): void;
  /** The listener resynced after a re-open (refetch done or started). */
  noteListenResync(subscriptionId: string | number, at: number): void;
  /** The user closed the listen (perhaps while it waited to reconnect, when no frame says so). */
  noteListenClosed(subscriptionId: string | number): void;
  clear(): void;
}

/** The part of a store's state the streams slice owns. */
export interface StreamsSlice {
  streams: StreamsState;
}
