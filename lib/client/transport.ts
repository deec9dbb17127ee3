/**
 * The Transport interface: one call per outgoing JSON-RPC message, answered by an async
 * stream of events that describes everything observable about the exchange, in order:
 *
 *   sent → response → (message | comment)* → close      (an `error` may precede `close`)
 *
 * - `sent`: the message as it left, with the final headers (after custom headers were added).
 * - `response`: the HTTP status and headers; `stream` says whether an SSE body follows.
 * - `message`: a JSON body, or one SSE `data:` event (`sse` set). `message` is the parsed
 *   JSON, absent when the text is not JSON (then `parseError` says why).
 * - `comment`: an SSE comment (keep-alive).
 * - `error`: a failure the transport saw (network, proxy refusal). Never thrown.
 * - `close`: the last event. `end` = the server ended the body (after the response or not),
 *   `aborted` = the caller's signal fired (cancel, timeout), `dropped` = the body failed mid-way.
 *
 * The consumer may stop iterating early (e.g. a listen it no longer wants); the transport
 * then releases the connection, which on Streamable HTTP is the cancellation of that request.
 * Transports never throw for wire problems: they report them as events.
 */

export interface TransportRequestOptions {
  /** Headers from the request builder (MCP-Protocol-Version, Mcp-Method, ...). */
  headers?: Record<string, string>;
  /** Aborting closes the request's stream (the HTTP form of cancellation). */
  signal?: AbortSignal;
  /** Ties frames of one logical operation together (see Frame.conversationId). */
  conversationId?: string;
  /**
   * 2025-11-25 HTTP: when the request's SSE stream ends or drops before the response and an
   * event id was seen, wait the server's `retry` and resume it with GET and `Last-Event-ID`
   * (the resumed stream reports a second `response`). Transports without streams ignore it.
   */
  resumable?: boolean;
}

type TransportCloseCause = 'end' | 'aborted' | 'dropped';

/** What a transport reports while one message goes out and its answer comes back, in order. */
export type TransportEvent =
  | { type: 'sent'; url: string; headers: Record<string, string>; raw: string; message: unknown; via: TransportKind }
  | { type: 'response'; status: number; headers: Record<string, string>; stream: boolean }
  | { type: 'message'; raw: string; message?: unknown; parseError?: string; sse?: { event?: string; id?: string; retry?: number } }
  | { type: 'comment'; text: string }
  | { type: 'error'; message: string; cause: 'network' | 'proxy' | 'protocol' | 'redirect' }
  | { type: 'close'; cause: TransportCloseCause; detail?: string };

/** A line a stdio server wrote that answers nothing: its text, the parsed JSON when it is JSON, and what is wrong with it. */
export interface StrayLine {
  raw: string;
  message?: unknown;
  problem: string;
}

/** How a transport reaches the server (reported as `sent.via`). */
export type TransportKind = 'http' | 'proxy' | 'memory' | 'stdio';

/** A way to reach one MCP server. */
export interface Transport {
  readonly kind: TransportKind;
  /** What it talks to (a URL, or a command line for stdio), for display. */
  readonly target: string;
  send(message: unknown, options?: TransportRequestOptions): AsyncIterable<TransportEvent>;
  /**
   * 2025-11-25 HTTP: open the standalone GET stream the server sends its own requests and
   * notifications on (events as for `send`, without `sent`). Absent where there is none.
   */
  openStream?(options?: TransportRequestOptions): AsyncIterable<TransportEvent>;
  /**
   * stdio: hear of each line from the server that belongs to no request (not JSON, or a response
   * whose id matches none in flight), so it is shown at once instead of dropped. Absent elsewhere.
   */
  onStray?(listener: (line: StrayLine) => void): void;
  /** Release anything the transport holds (a child process, pooled connections). */
  close?(): Promise<void>;
}

/** Anything with a web fetch face (a MockEngine, a mock router), for in-memory transports. */
export interface FetchTarget {
  fetch(request: Request): Promise<Response>;
}

/** The reason text of an aborted signal. */
export function abortDetail(signal: AbortSignal | undefined): string | undefined {
  const r: unknown = signal?.reason;
  if (r === undefined) return undefined;
  return r instanceof Error ? r.message : String(r);
}
