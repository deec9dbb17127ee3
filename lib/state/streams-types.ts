import type { SubscriptionFilter } from '../protocol';
import type { CloseReason } from '../client/frames';
import type { ReconnectPlan } from '../client/reconnect';

/** The records the streams slice keeps (see streams-slice.ts). Task ids appear only as fingerprints. */

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

export interface ListenDrop {
  at: number;
  reason: string;
  attempt: number;
  subscriptionId?: string | number;
  plan: ReconnectPlan;
  /** The plan came from the listener itself rather than from frames. */
  reported: boolean;
  reopenedAt?: number;
  resyncedAt?: number;
}

export type ListenState = 'opening' | 'live' | 'reconnecting' | 'closed' | 'ended' | 'refused';

export interface ListenRecord {
  listenId: string;
  connectionId: string;
  /** The filter as requested (re-sent unchanged on every re-open). */
  filter: SubscriptionFilter;
  subscriptionIds: (string | number)[];
  streamIds: string[];
  state: ListenState;
  openedAt: number;
  lastAckAt?: number;
  attempt: number;
  drops: ListenDrop[];
}
