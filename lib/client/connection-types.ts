import type { ClientCapabilities, HeaderBinding, Implementation, JsonRpcNotification, LoggingLevel, RequestId } from '../protocol';
import type { Clock } from '../shared/clock';
import type { Era } from './request-builder';
import type { RequestOutcome } from './results';
import type { BusyWait } from './retry-after';
import type { ServerRequestAnswerer } from './server-requests';
import type { Transport } from './transport';

/**
 * The contract of the connection core (lib/client/connection.ts): how to create one, what a
 * request may ask for, and what the higher-level modules (tools, MRTR, tasks, listen) call.
 */

/** How to create a connection: its transport, era, declared capabilities and deadlines. */
export interface ConnectionOptions {
  transport: Transport;
  /** `auto` probes with server/discover and falls back to initialize (spec §1.4). Default auto. */
  era?: Era | 'auto';
  /** Capabilities declared on every request (the tasks extension is added per request). */
  capabilities?: ClientCapabilities;
  clientInfo?: Implementation;
  /** Version to try first (default 2026-07-28, or 2025-11-25 for the legacy era). */
  protocolVersion?: string;
  /** Versions this client can speak, in preference order. */
  supportedVersions?: string[];
  logLevel?: LoggingLevel;
  clock?: Clock;
  /** Idle deadline per request, reset by its progress (default 60 s; 0 = none). */
  timeoutMs?: number;
  /** Absolute deadline per request that progress never extends (default 10 min; 0 = none). */
  maxTimeoutMs?: number;
  /** Every notification seen on any request stream. */
  onNotification?: (n: JsonRpcNotification) => void;
  /** Non-fatal problems (dropped tools, invalid snapshots, era fallbacks). */
  onWarning?: (text: string) => void;
  /** A 429/503 answer: the client waits `delayMs` (the server's Retry-After, else a backoff) and retries. */
  onBusy?: (wait: BusyWait) => void;
  /** Retries after 429/503 (default 3). */
  busyRetries?: number;
  /** A longer Retry-After is not waited for: the request fails at once (default 60 s). */
  maxRetryAfterMs?: number;
  /** Answers the server's own requests on a 2025-11-25 stream (elicitation, sampling, roots); without it they get -32601. */
  onServerRequest?: ServerRequestAnswerer;
  /** 2025-11-25 HTTP: open the session's standalone GET stream after initialize (headless clients; close() ends it). */
  serverStream?: boolean;
}

/** What one request may ask for beyond its method and params. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Declare the tasks extension on this request. */
  declareTasks?: boolean;
  conversationId?: string;
  timeoutMs?: number;
  maxTimeoutMs?: number;
  /** Send a progressToken and receive progress here. */
  onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
  onNotification?: (n: JsonRpcNotification) => void;
  /** Header bindings of the tool (tools/call). */
  bindings?: HeaderBinding[];
  /** Whether re-sending after a dropped connection is safe (default: by method). */
  retry?: 'safe' | 'unsafe' | 'never';
  /** Called with the JSON-RPC id of each attempt (a listen's subscription id). */
  onId?: (id: RequestId) => void;
}

/** The connection core the higher-level modules send through. */
export interface Connection {
  readonly transport: Transport;
  readonly clock: Clock;
  /** Resolved era, once known. */
  readonly era: Era | undefined;
  readonly protocolVersion: string;
  readonly capabilities: ClientCapabilities;
  /** The server's discover or initialize result, once seen. */
  readonly server: { info?: Implementation; capabilities?: Record<string, unknown>; supportedVersions?: string[]; instructions?: string } | undefined;
  /** Resolve the era (probe or handshake). Idempotent. */
  connect(signal?: AbortSignal): Promise<RequestOutcome>;
  request(method: string, params?: Record<string, unknown>, options?: RequestOptions): Promise<RequestOutcome>;
  /** Requests now waiting for an answer, and whether re-sending each would be safe. */
  inFlight(): { method: string; safe: boolean }[];
  warn(text: string): void;
  /** Aborts when the connection is closed: every wait (a poll's sleep, a backoff) ends with it. */
  readonly signal: AbortSignal;
  /**
   * Close for good: abort every request in flight, refuse every later one without touching the
   * wire, and release the transport (a stdio child is killed). A closed connection never reopens.
   */
  close(): Promise<void>;
}
