import { ERROR, type JsonRpcErrorObject, type JsonRpcNotification, type JsonRpcRequest } from '../protocol';
import { sleep, type Clock } from '../shared/clock';
import { isRecord } from '../shared/records';
import { retryDelayMs } from './reconnect';
import type { Transport } from './transport';

/**
 * 2025-11-25 over HTTP: the server asks the client something (elicitation/create,
 * sampling/createMessage, roots/list) as a JSON-RPC request on a request's SSE stream, and the
 * client POSTs the JSON-RPC response back in the same session. The 2026-07-28 era has no such
 * requests (input arrives as `input_required` results), so only a legacy connection answers.
 */

/** How the client answers one server request: a result, or a JSON-RPC error. */
export type ServerRequestAnswer = { result: Record<string, unknown> } | { error: JsonRpcErrorObject };

/** Produces the answer to one server-to-client request (stubs in the CLI, a policy in the conformance adapter). */
export type ServerRequestAnswerer = (method: string, params: Record<string, unknown> | undefined) => Promise<ServerRequestAnswer>;

/** The answer when nobody can answer: the method is not handled by this client. */
export function unanswered(method: string): ServerRequestAnswer {
  return { error: { code: ERROR.methodNotFound, message: `This client has no answer for ${method}` } };
}

/**
 * Answer `request` and POST the response with the session's headers. Problems are warnings: the
 * request whose stream carried the server's question still ends on its own (or times out).
 */
export async function respondToServer(
  transport: Transport,
  request: JsonRpcRequest,
  answerer: ServerRequestAnswerer | undefined,
  headers: Record<string, string>,
  warn: (text: string) => void,
): Promise<void> {
  let answer: ServerRequestAnswer;
  try {
    // 2025-11-25: ping goes both ways, and a client answers it with an empty result.
    if (request.method === 'ping') answer = { result: {} };
    else answer = answerer ? await answerer(request.method, request.params) : unanswered(request.method);
  } catch (e) {
    answer = { error: { code: ERROR.internalError, message: (e as Error).message } };
  }
  if ('error' in answer) warn(`answered the server's ${request.method} with error ${answer.error.code}: ${answer.error.message}`);
  const message = { jsonrpc: '2.0' as const, id: request.id, ...answer };
  for await (const ev of transport.send(message, { headers })) {
    if (ev.type === 'error') warn(`could not send the answer to ${request.method}: ${ev.message}`);
    else if (ev.type === 'response' && ev.status >= 400) warn(`the server refused the answer to ${request.method}: HTTP ${ev.status}`);
  }
}

/** The standalone stream of a 2025-11-25 HTTP session, while it is open. */
export interface ServerStream {
  /** Settles once the server answered the GET (or refused it): requests sent after it can be asked about on it. */
  ready: Promise<void>;
  close(): void;
}

/** Reopens in a row that bring no stream before the GET stream is given up (about 16 s of backoff). */
const MAX_REOPENS = 6;
/** A GET stream open this long before it ended resets the backoff. */
const LIVED_MS = 10_000;

/** What the standalone stream reports to its connection. */
interface ServerStreamHooks {
  onServerRequest?: ServerRequestAnswerer;
  onNotification?: (n: JsonRpcNotification) => void;
  /** The server answered the GET with 404: it no longer knows the session (2025-11-25: start a new one). */
  onSessionGone?: () => void;
}

/**
 * Open the session's standalone GET stream and keep it open (2025-11-25 transports: the server
 * sends requests and notifications not tied to a call there): each server request on it is
 * answered (and the answer POSTed), each notification handed on. A 405 means the server offers
 * none; a stream that ends or drops is opened again after a backoff (resumption with
 * Last-Event-ID is the transport's), until the session closes.
 */
export function openServerStream(
  transport: Transport,
  headers: Record<string, string>,
  on: ServerStreamHooks,
  warn: (text: string) => void,
  clock: Clock,
): ServerStream | undefined {
  const opener = transport.openStream?.bind(transport);
  if (!opener) return undefined;
  const open = opener;
  const ac = new AbortController();
  let settle: () => void = () => {};
  const answered = new Promise<void>((resolve) => {
    settle = resolve;
  });
  // Bounded: a server that never answers the GET must not hold the first request back.
  const bound = sleep(clock, 5000);
  const ready = Promise.race([answered, bound.done]).then(() => bound.wake());
  /** One GET: the HTTP status it got (undefined when none came back) and whether a stream followed. */
  async function once(): Promise<{ status?: number; streamed: boolean }> {
    let status: number | undefined;
    let streamed = false;
    for await (const ev of open({ headers, signal: ac.signal })) {
      if (ev.type === 'response' || ev.type === 'close') settle();
      if (ev.type === 'response') {
        status = ev.status;
        streamed ||= ev.stream && ev.status < 300;
      }
      if (ev.type !== 'message' || !isRecord(ev.message) || typeof ev.message.method !== 'string') continue;
      const m = ev.message;
      if (typeof m.id === 'string' || typeof m.id === 'number')
        void respondToServer(transport, m as unknown as JsonRpcRequest, on.onServerRequest, headers, warn);
      else on.onNotification?.(m as unknown as JsonRpcNotification);
    }
    return { status, streamed };
  }
  void (async () => {
    try {
      for (let misses = 0; !ac.signal.aborted; ) {
        const began = clock.now();
        const got = await once();
        if (ac.signal.aborted || got.status === 405) return;
        if (got.status === 404) return on.onSessionGone?.();
        if (got.status !== undefined && !got.streamed) {
          warn(`the server refused the session's GET stream (HTTP ${got.status}): its requests and notifications outside a call will not arrive`);
          return;
        }
        // A stream that stayed open a while was a success; one closed at once counts as a miss, so a
        // server that ends every GET straight away is not asked again and again.
        misses = got.streamed && clock.now() - began >= LIVED_MS ? 0 : misses + 1;
        if (misses >= MAX_REOPENS) {
          warn(
            `the session's GET stream could not be reopened after ${MAX_REOPENS} tries: the server's requests and notifications outside a call will not arrive`,
          );
          return;
        }
        if (!(await sleep(clock, retryDelayMs(misses), ac.signal).done)) return;
      }
    } finally {
      settle();
    }
  })();
  return { ready, close: () => ac.abort(new Error('the session is closing')) };
}
