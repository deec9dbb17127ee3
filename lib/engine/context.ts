import type { HeaderBag } from './http-types';
import type { ClientCapabilities, JsonRpcErrorObject, RequestId } from '../protocol';
import type { Scenario, ToolSpec } from '../scenario/schema';
import type { Stores } from '../store/types';
import type { Clock, IdSource } from './runtime';
import type { PrincipalResolver } from './principal';
import type { StateCodec } from './request-state';
import type { ClientAnswer, LegacySession } from './legacy-session';
import type { InstanceFaults } from './instance-faults';

/** What one incoming request carries through dispatch, whatever the transport. */
export interface RequestContext {
  transport: 'http' | 'stdio' | 'memory';
  era: 'modern' | 'legacy';
  id: RequestId;
  method: string;
  /** The params as sent; a route hands its handler the parsed view (route.ts). */
  params: Record<string, unknown>;
  /** Declared in `_meta` (2026-07-28, filled by the modern dispatch); empty for 2025-11-25. */
  caps: ClientCapabilities;
  /** Whose tasks and requestState these are. */
  principal: string;
  /** Aborted when the client closes the stream (HTTP) or sends notifications/cancelled (stdio). */
  signal: AbortSignal;
  /** Send a request-scoped notification (progress, log) on this request's stream. */
  notify(method: string, params: Record<string, unknown>): void;
  /** Keep the stream open (listen): the HTTP layer answers with SSE even before the first frame. */
  openStream(): void;
  headers?: HeaderBag;
  /**
   * 2025-11-25 only: send a request to the client on this request's channel (stdout, or the
   * request's SSE stream) and wait for its answer; absent where no channel can carry one.
   */
  ask?(method: string, params: Record<string, unknown>): Promise<ClientAnswer>;
  /** 2025-11-25 only: the session `initialize` opened (stdio process or HTTP session). */
  session?: LegacySession;
}

/** A dispatch outcome: wire errors are values, never exceptions. */
export type Outcome = { result: Record<string, unknown> } | { error: JsonRpcErrorObject; httpStatus?: number };

/** Shared engine internals handed to each method handler. */
export interface EngineCore {
  scenario: Scenario;
  stores: Stores;
  clock: Clock;
  ids: IdSource;
  codec: StateCodec;
  /** The principal of an HTTP request's `Authorization` header (principal.ts). */
  principalOf: PrincipalResolver;
  /** The principal of a caller without an `Authorization` header, known without waiting. */
  anonymous: string;
  /** Per-scenario mutable state for handlers (notes, files, counters). Reset restores the scenario's `state`. */
  state: Record<string, unknown>;
  tool(name: string): ToolSpec | undefined;
  /** Broadcast a list-changed notification to matching listen streams. */
  broadcast(kind: 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged', method: string): void;
  /** Emit an engine event (journal, UI). */
  emit(event: string, data: unknown): void;
  serverInfo(): { name: string; version: string; title?: string };
  /** This instance's id in a fleet (the owner on its task leases). */
  instanceId?: string;
  /** How long a task lease lasts without renewal (a fleet only). */
  leaseMs?: number;
  /** This instance's fault windows; absent when the scenario declares no instance fault. */
  instanceFaults?: InstanceFaults;
}

/**
 * The same request with other params. Not a spread alone: a context's `signal`, `notify` and
 * `openStream` may live on its prototype (the pipeline's), which a spread does not copy.
 */
export function withParams(ctx: RequestContext, params: Record<string, unknown>): RequestContext {
  return {
    ...ctx,
    params,
    get signal() {
      return ctx.signal;
    },
    notify: (method, p) => ctx.notify(method, p),
    openStream: () => ctx.openStream(),
  };
}

/** A successful outcome carrying `result`. */
export function ok(result: Record<string, unknown>): Outcome {
  return { result };
}
/** A JSON-RPC error outcome; `data` is left off the wire when undefined. */
export function fail(code: number, message: string, data?: unknown): Outcome {
  return { error: data === undefined ? { code, message } : { code, message, data } };
}
