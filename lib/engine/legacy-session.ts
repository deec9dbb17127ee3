import { ClientCapabilitiesSchema, type ClientCapabilities, type JsonRpcErrorObject } from '../protocol';
import { asRecord } from '../shared/records';
import { randomToken } from './runtime';

/**
 * What a 2025-11-25 connection remembers after `initialize`: the client's declared capabilities,
 * the log level it set, and the server-to-client requests it has yet to answer. A stdio process
 * holds one; over HTTP each `Mcp-Session-Id` names one (legacy-http.ts).
 */

/** The answer to a server-to-client request: its result, or the JSON-RPC error the client sent. */
export type ClientAnswer = { result: Record<string, unknown> } | { error: JsonRpcErrorObject };

/** One 2025-11-25 session. */
export interface LegacySession {
  readonly id: string;
  /** Set by `initialize`; until then a stdio peer is not in the legacy era. */
  initialized: boolean;
  caps: ClientCapabilities;
  protocolVersion?: string;
  /** The level `logging/setLevel` asked for; tools log at or above it. */
  logLevel?: string;
  /** Who opened the session; another principal's request with its id is refused. */
  principal?: string;
}

/** A new, not yet initialized session with an unguessable id. */
export function createLegacySession(): LegacySession {
  return { id: randomToken(18), initialized: false, caps: {} };
}

/** Record what `initialize` declared; capabilities that do not parse count as none. */
export function initializeSession(session: LegacySession, params: Record<string, unknown>, principal: string): void {
  session.principal = principal;
  const caps = ClientCapabilitiesSchema.safeParse(asRecord(params.capabilities) ?? {});
  session.caps = caps.success ? caps.data : {};
  session.initialized = true;
  if (typeof params.protocolVersion === 'string') session.protocolVersion = params.protocolVersion;
}

/**
 * Server-to-client requests waiting for the client's answer, keyed by the id the server gave
 * them. Ids are random, so an answer POSTed on any HTTP request of the engine finds its waiter,
 * and a guessed id answers nothing.
 */
export interface OutboundRequests {
  /** Register a request; `send` puts it on the wire. Resolves with the client's answer, or an error when aborted. */
  ask(method: string, params: Record<string, unknown>, send: (message: unknown) => void, signal: AbortSignal): Promise<ClientAnswer>;
  /** Deliver a client's response; false when it answers nothing outstanding. */
  answer(message: Record<string, unknown>): boolean;
}

/** The registry of outstanding server-to-client requests. */
export function createOutboundRequests(): OutboundRequests {
  const waiting = new Map<string, (a: ClientAnswer) => void>();
  return {
    ask(method, params, send, signal) {
      const id = `loupe-${randomToken(12)}`;
      return new Promise<ClientAnswer>((resolve) => {
        const done = (a: ClientAnswer) => {
          waiting.delete(id);
          signal.removeEventListener('abort', onAbort);
          resolve(a);
        };
        const onAbort = () => done({ error: { code: -32603, message: `Request cancelled before the client answered ${method}` } });
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        waiting.set(id, done);
        send({ jsonrpc: '2.0', id, method, params });
      });
    },
    answer(message) {
      const id = message.id;
      const done = typeof id === 'string' ? waiting.get(id) : undefined;
      if (!done) return false;
      const error = asRecord(message.error);
      if (error) done({ error: { code: typeof error.code === 'number' ? error.code : -32603, message: String(error.message ?? 'error'), data: error.data } });
      else done({ result: asRecord(message.result) ?? {} });
      return true;
    },
  };
}
