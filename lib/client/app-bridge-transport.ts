import { JsonRpcMessageSchema, type JsonRpcMessage } from '../protocol';
import type { TrackedTransport } from './tracking';
import { asRecord } from '../shared/records';
import { BRIDGE_MESSAGES_PER_SECOND, createFloodGate, createFrameBatcher, describeFlood, nextFrame, type FloodReport } from './bridge-flood';

/** Messages read per animation frame; the rest wait for the next one. */
const MESSAGES_PER_FRAME = 100;

/**
 * The postMessage transport between the inspector and one app's sandbox proxy frame, for
 * ext-apps' `AppBridge`. Unlike the SDK's `PostMessageTransport` it checks both the sender
 * (`event.source` is this frame's window) and the origin (the sandbox origin), posts with that
 * exact target origin instead of `"*"`, and reports every message it passes, in and out, as a
 * `bridge` frame so the timeline's app lane and the bridge log show the whole conversation.
 * Incoming messages are rate-limited and handed on once per animation frame (bridge-flood.ts):
 * a view that floods is paused, its further messages dropped unread.
 */

/** What `TrackedTransport.record()` takes: a frame without seq, connection and time. */
export type BridgeFrame = Parameters<TrackedTransport['record']>[0];

/** Who says what: `out` is host → view, `in` is view → host. */
type BridgeDirection = 'in' | 'out';

interface BridgeTransportOptions {
  /** The sandbox proxy frame's window (the outer iframe's `contentWindow`). */
  target: () => Window | null | undefined;
  /** The sandbox origin: messages from anywhere else are ignored, and ours are sent only there. */
  origin: string;
  /** Groups this view's bridge frames on the timeline (one exchange per app view). */
  exchangeId: string;
  /** Receives each frame; must not throw. */
  record?: (frame: BridgeFrame) => void;
  /** Extra detail for a frame (e.g. "Refused: …" on an error answering a refused tools/call). */
  annotate?: (message: JsonRpcMessage, direction: BridgeDirection) => string | undefined;
  /** The window whose `message` events to watch (default: the global window). */
  listenOn?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  /** Messages per second before the view is paused (default BRIDGE_MESSAGES_PER_SECOND). */
  perSecond?: number;
  /** The view went over the limit (first call), then the dropped count grew (at most once a frame). */
  onFlood?: (report: FloodReport) => void;
  /** Clock in ms (default performance.now) and frame scheduler (default: the next animation frame); tests inject both. */
  now?: () => number;
  schedule?: typeof nextFrame;
}

/** The SDK Transport shape AppBridge.connect() takes. */
interface BridgeTransport {
  start(): Promise<void>;
  send(message: JsonRpcMessage): Promise<void>;
  close(): Promise<void>;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JsonRpcMessage) => void;
  sessionId?: string;
}

/** Create the checked transport for one sandbox frame. */
export function createBridgeTransport(options: BridgeTransportOptions): BridgeTransport {
  const listenOn = options.listenOn ?? globalThis.window;
  // Method of each request by direction and id, so a response frame names what it answers.
  const methods = new Map<string, string>();
  let closed = false;

  const record = (message: unknown, direction: BridgeDirection, errorText?: string) => {
    if (!options.record) return;
    const m = asRecord(message);
    const id = m && (typeof m.id === 'string' || typeof m.id === 'number') ? m.id : undefined;
    let method = typeof m?.method === 'string' ? m.method : undefined;
    if (method && id !== undefined) methods.set(`${direction}:${id}`, method);
    if (!method && id !== undefined) method = methods.get(`${direction === 'in' ? 'out' : 'in'}:${id}`);
    const error = asRecord(m?.error);
    const detail = errorText ?? (error ? `${String(error.code)} ${String(error.message)}` : undefined);
    let raw: string | undefined;
    try {
      raw = JSON.stringify(message);
    } catch {
      raw = undefined;
    }
    try {
      options.record({
        kind: 'bridge',
        direction,
        exchangeId: options.exchangeId,
        conversationId: options.exchangeId,
        body: message,
        ...(raw !== undefined ? { raw } : {}),
        ...(id !== undefined ? { rpcId: id } : {}),
        ...(method ? { method } : {}),
        ...(detail ? { errorText: detail } : {}),
      });
    } catch {
      /* a broken sink must not break the bridge */
    }
  };

  const receive = (data: unknown) => {
    if (closed || asRecord(data)?.jsonrpc !== '2.0') return;
    const parsed = JsonRpcMessageSchema.safeParse(data);
    if (!parsed.success) {
      record(data, 'in', `Invalid JSON-RPC message: ${parsed.error.issues[0]?.message ?? 'malformed'}`);
      transport.onerror?.(new Error('Failed to read a bridge message: invalid JSON-RPC'));
      return;
    }
    const message = data as JsonRpcMessage;
    record(message, 'in', options.annotate?.(message, 'in'));
    transport.onmessage?.(message);
  };
  const schedule = options.schedule ?? nextFrame;
  const now = options.now ?? (() => performance.now());
  const gate = createFloodGate(options.perSecond);
  // One frame's messages go through together: one timeline update and one render per frame.
  const gateLimit = options.perSecond ?? BRIDGE_MESSAGES_PER_SECOND;
  const batcher = createFrameBatcher<unknown>(
    (batch) => {
      for (const data of batch) receive(data);
    },
    schedule,
    MESSAGES_PER_FRAME,
  );
  let dropNoticeDue = false;

  const flooded = () => {
    const report = gate.report();
    if (!report) return;
    if (report.dropped === 0) {
      batcher.cancel();
      record({}, 'in', describeFlood(report));
      options.onFlood?.(report);
    } else if (!dropNoticeDue) {
      dropNoticeDue = true;
      schedule(() => {
        dropNoticeDue = false;
        const latest = gate.report();
        if (latest && !closed) options.onFlood?.(latest);
      });
    }
  };

  const listener = (event: MessageEvent) => {
    const target = options.target();
    if (closed || !target || event.source !== target || event.origin !== options.origin) return;
    // Counted before anything reads the message: a paused view's messages cost a comparison.
    if (!gate.admit(now())) return flooded();
    // A host too busy to keep up (a slow machine) must not queue the flood instead: a second's worth waiting is a flood too.
    if (batcher.size >= gateLimit) {
      gate.trip(now());
      return flooded();
    }
    batcher.push(event.data);
  };

  const transport: BridgeTransport = {
    async start() {
      listenOn.addEventListener('message', listener as EventListener);
    },
    async send(message) {
      if (closed) throw new Error('Failed to send a bridge message: the transport is closed');
      const target = options.target();
      if (!target) {
        // The frame was removed (the page moved on, the view unmounted) before the host closed
        // the bridge: nobody can read this message. Rejecting would surface as an uncaught error,
        // since ext-apps sends host-context-changed without catching, so it is dropped and logged;
        // a pending request (ui/resource-teardown) ends at its own timeout.
        record(message, 'out', 'Not delivered: the sandbox frame is gone');
        return;
      }
      record(message, 'out', options.annotate?.(message, 'out'));
      target.postMessage(message, options.origin);
    },
    async close() {
      if (closed) return;
      closed = true;
      batcher.cancel();
      listenOn.removeEventListener('message', listener as EventListener);
      transport.onclose?.();
    },
  };
  return transport;
}
