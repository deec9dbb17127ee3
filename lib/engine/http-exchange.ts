import { errorResponse, HEADER, httpStatusForError, type JsonRpcRequest } from '../protocol';
import type { Outcome } from './context';
import { tapChannel, type ExchangeHandle } from './exchange-tap';
import { withStreamFaults } from './fault-stream';
import type { FaultPlan } from './faults';
import { sessionOf, type LegacySessions, type StreamLog } from './legacy-http';
import type { LegacySession } from './legacy-session';
import type { HeaderBag, HttpInput, HttpOutput } from './http-types';
import type { RequestOrigin, RequestPipeline } from './pipeline';
import { createSseChannel, SSE_HEADERS, type SseChannel } from './sse';
import { constantText } from './constant-results';

/**
 * One JSON-RPC request served over HTTP once the transport checks passed: the origin its
 * handler sees, and the SSE stream it may open. The answer is JSON unless the handler emits a
 * notification or opens a stream first. A class, not a nest of closures: every request makes
 * one, and most answer directly, so what only a stream or a disconnect needs is made on demand.
 */

/** What serving needs from the HTTP front's options. */
interface ServeOptions {
  keepAliveMs: number;
  setTimer: (fn: () => void, ms: number) => unknown;
  clearTimer: (h: unknown) => void;
  pipeline: RequestPipeline;
  sessions?: LegacySessions;
}

type DeliverOptions = { droppable?: boolean; key?: string };

/** The headers of nearly every answer: one frozen record rather than one per answer (hosts only read them). */
const JSON_HEADERS: Record<string, string> = Object.freeze({ 'Content-Type': 'application/json' });

export function json(status: number, body: unknown, extra?: Record<string, string>): HttpOutput {
  if (body === undefined) return { status, headers: extra ?? {} };
  return { status, headers: extra ? { 'Content-Type': 'application/json', ...extra } : JSON_HEADERS, body: JSON.stringify(body) };
}

const messageOf = (id: JsonRpcRequest['id'], o: Outcome) => ('error' in o ? errorResponse(id, o.error) : { jsonrpc: '2.0' as const, id, result: o.result });

/** Serve one request through the pipeline: JSON (at once when the handler answers at once), or SSE once something streams. */
export function serveRequest(
  opts: ServeOptions,
  rpc: JsonRpcRequest,
  info: HttpInput,
  tap: ExchangeHandle | undefined,
  plan?: FaultPlan,
): HttpOutput | Promise<HttpOutput> {
  const found = sessionOf(rpc, info.headers, opts.sessions);
  if (found === 'missing') {
    const err = errorResponse(rpc.id, { code: -32001, message: opts.sessions?.missing ?? 'Session not found' });
    tap?.respond(404, err);
    return json(404, err);
  }
  return new HttpExchange(opts, rpc, info, tap, plan, found.session, found.fresh).run();
}

class HttpExchange implements RequestOrigin {
  readonly transport = 'http' as const;
  readonly headers: HeaderBag;
  readonly session: LegacySession | undefined;

  // Made on first need (a handler reads the signal, a stream closes, a session tracks the request):
  // a direct answer, the common case, never allocates a controller nor listens for a disconnect.
  private abort: AbortController | undefined;
  /** A session's stream log: it outlives its connection (it can be resumed), so a drop does not cancel the work. */
  private log: StreamLog | undefined;
  private channel: SseChannel | undefined;
  private pending: { message: unknown; opts?: DeliverOptions }[] | undefined;
  private final: unknown;
  private streamed: HttpOutput | undefined;
  /** Settles the first of: the outcome, or undefined once the stream started. */
  private settle: ((o: Outcome | undefined) => void) | undefined;

  constructor(
    private readonly opts: ServeOptions,
    private readonly rpc: JsonRpcRequest,
    private readonly info: HttpInput,
    private readonly tap: ExchangeHandle | undefined,
    private readonly plan: FaultPlan | undefined,
    session: LegacySession | undefined,
    private readonly fresh: LegacySession | undefined,
  ) {
    this.headers = info.headers;
    this.session = session;
  }

  get signal(): AbortSignal {
    return this.controller().signal;
  }

  // Methods, not bound arrows: the pipeline's context calls them on this object, so a request
  // that never notifies makes none of the three closures it used to.
  notify(method: string, params: Record<string, unknown>): void {
    if (this.controller().signal.aborted) return;
    // Intermediate task snapshots may be dropped for a slow reader; terminal ones never are.
    const droppable = method === 'notifications/tasks' && (params.status === 'working' || params.status === 'input_required');
    this.deliver({ jsonrpc: '2.0', method, params }, { droppable, key: droppable ? String(params.taskId) : undefined });
  }

  openStream(): void {
    this.startStream();
  }

  sendRequest(message: unknown): void {
    this.deliver(message);
  }

  /** The client's disconnect (an EventListener object: no closure per request). */
  handleEvent(): void {
    if (!this.log) this.abort?.abort(this.info.signal.reason);
  }

  private controller(): AbortController {
    if (this.abort) return this.abort;
    this.abort = new AbortController();
    if (this.info.signal.aborted) this.abort.abort();
    else this.info.signal.addEventListener('abort', this, { once: true });
    return this.abort;
  }

  private unlink(): void {
    if (this.abort) this.info.signal.removeEventListener('abort', this);
  }

  private deliver(message: unknown, o?: DeliverOptions): void {
    if (!this.channel) {
      if (this.pending) this.pending.push({ message, opts: o });
      else this.pending = [{ message, opts: o }];
      this.startStream();
      return;
    }
    if (this.log && this.opts.sessions) this.opts.sessions.event(this.log, message, o);
    else this.channel.send(message, o);
  }

  private startStream(): void {
    if (this.channel) return;
    const { opts, tap, plan, session } = this;
    let channel = createSseChannel({
      keepAliveMs: opts.keepAliveMs,
      setTimer: opts.setTimer,
      clearTimer: opts.clearTimer,
      onClose: (reason) => {
        tap?.close(reason === 'finished' ? 'complete' : reason === 'client' ? 'client-closed' : 'dropped', reason === 'finished' ? this.final : undefined);
        if (reason !== 'finished' && !this.log) this.controller().abort(new Error(reason === 'client' ? 'client closed the stream' : 'the stream was dropped'));
        this.unlink();
      },
    });
    this.channel = channel;
    // The priming event goes out before any fault can cut the stream: it is what makes it resumable.
    if (session?.initialized && opts.sessions) this.log = opts.sessions.openStream(session, channel);
    channel = tapChannel(channel, tap);
    if (plan?.stream.length) channel = withStreamFaults(channel, plan.stream, plan.random);
    this.channel = channel;
    if (this.log) this.log.live = channel;
    tap?.stream(200);
    const pending = this.pending;
    this.pending = undefined;
    if (pending) for (const p of pending) this.deliver(p.message, p.opts);
    this.streamed = { status: 200, headers: { ...SSE_HEADERS }, stream: channel.stream, ...(channel.attach ? { attach: channel.attach } : {}) };
    this.settle?.(undefined);
  }

  /**
   * Run the pipeline. A handler that answers synchronously and streams nothing (most direct
   * calls) gets its JSON answer at once: no promise races the outcome against a stream start.
   */
  run(): HttpOutput | Promise<HttpOutput> {
    const { opts, rpc, session } = this;
    // Its work then ends only when done or when the client sends notifications/cancelled.
    const untrack = session?.initialized ? opts.sessions?.track(session, rpc.id, this.controller()) : undefined;
    // A stream fault needs a stream to damage, even where the answer would be plain JSON.
    if (this.plan?.stream.length) this.startStream();
    const started = opts.pipeline(rpc, this);
    if (!(started instanceof Promise)) {
      untrack?.();
      if (!this.channel) return this.answer(started);
      this.finishStream(Promise.resolve(started));
      return this.streamed as HttpOutput; // set by startStream
    }
    const work = untrack ? started.finally(untrack) : started;
    // The handler opened its stream before it returned (a listen): that is the answer.
    if (this.channel) {
      this.finishStream(work);
      return Promise.resolve(this.streamed as HttpOutput);
    }
    // The first of: the outcome, or undefined once the stream starts.
    const first = new Promise<Outcome | undefined>((resolve, reject) => {
      this.settle = resolve;
      work.then(resolve, reject);
    });
    return first.then((o) => {
      if (o !== undefined && !this.channel) return this.answer(o);
      this.finishStream(work);
      return this.streamed as HttpOutput; // set by startStream, before or just after the outcome
    });
  }

  /** The outcome as one JSON answer. */
  private answer(o: Outcome): HttpOutput {
    const { opts, rpc, fresh, tap } = this;
    this.unlink();
    const message = messageOf(rpc.id, o);
    const status = 'error' in o ? (o.httpStatus ?? httpStatusForError(o.error.code)) : 200;
    // The handshake succeeded: from now on this session id names the client and what it declared.
    const opened = fresh?.initialized && 'result' in o ? fresh : undefined;
    if (opened) opts.sessions?.add(opened);
    // A constant result's text is made once: only the id is serialized here.
    const constant = 'result' in o ? constantText(o.result) : undefined;
    const out =
      constant !== undefined && !opened
        ? { status, headers: JSON_HEADERS, body: `{"jsonrpc":"2.0","id":${JSON.stringify(rpc.id)},"result":${constant.text}}` }
        : json(status, message, opened ? { [HEADER.sessionId]: opened.id } : undefined);
    // The message is one level around its result (the id is a string or a number).
    tap?.respond(status, message, typeof out.body === 'string' ? out.body : undefined, constant && !opened ? constant.depth + 1 : undefined);
    return out;
  }

  /** The outcome as the stream's final message, once it comes. */
  private finishStream(work: Promise<Outcome>): void {
    const { opts, rpc } = this;
    const ch = this.channel as SseChannel;
    void work.then((done) => {
      const message = messageOf(rpc.id, done);
      this.final = message;
      if (this.log && opts.sessions) return opts.sessions.finish(this.log, message);
      if (this.abort?.signal.aborted && ch.closed) return;
      ch.finish(message);
    });
  }
}
